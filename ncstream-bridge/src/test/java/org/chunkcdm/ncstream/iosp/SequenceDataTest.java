package org.chunkcdm.ncstream.iosp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.ArrayDouble;
import ucar.ma2.ArrayInt;
import ucar.ma2.ArrayObject;
import ucar.ma2.ArraySequence;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.ma2.StructureData;
import ucar.ma2.StructureDataIterator;
import ucar.ma2.StructureDataW;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Sequence;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.iosp.AbstractIOServiceProvider;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamWriter;
import ucar.unidata.io.RandomAccessFile;

/**
 * Sequence data ({@code seqData}: one {@code MAGIC_VDATA, vlenb, StructureData} per row, then
 * {@code MAGIC_VEND}) as netcdf-java 5.5.3's own {@code NcStreamWriter.streamAll} writes it for a
 * {@link Sequence}, read back through {@link NcStreamFileIosp}: the rows in order with every member's value,
 * through the structure iterator and {@code Variable.read()}.
 */
class SequenceDataTest {
  @TempDir
  Path tmp;

  static final int ROWS = 1000;

  static int id(int row) {
    return 7 * row - 3;
  }

  static double value(int row) {
    return row * 0.25 - 11.5;
  }

  static String name(int row) {
    return row % 3 == 0 ? "" : "obs-" + row + (row % 5 == 0 ? " grüße" : "");
  }

  /** A NetcdfFile holding one Sequence {@code obs {int id; double value; String name}} of {@link #ROWS} rows. */
  static final class SequenceSource extends AbstractIOServiceProvider {
    @Override
    public boolean isValidFile(RandomAccessFile raf) {
      return false;
    }

    @Override
    public boolean isBuilder() {
      return true;
    }

    @Override
    public String getFileTypeId() {
      return "test-sequence";
    }

    @Override
    public String getFileTypeDescription() {
      return "a sequence made in memory";
    }

    @Override
    public Array readData(Variable v, Section section) throws IOException {
      throw new IOException("sequences are read by their iterator");
    }

    @Override
    public StructureDataIterator getStructureIterator(Structure s, int bufferSize) {
      StructureMembers sm = s.makeStructureMembers();
      return new StructureDataIterator() {
        int row;

        @Override
        public boolean hasNext() {
          return row < ROWS;
        }

        @Override
        public StructureData next() {
          StructureDataW w = new StructureDataW(sm);
          ArrayInt.D0 i = new ArrayInt.D0(false);
          i.set(id(row));
          w.setMemberData("id", i);
          ArrayDouble.D0 d = new ArrayDouble.D0();
          d.set(value(row));
          w.setMemberData("value", d);
          ArrayObject.D0 n = new ArrayObject.D0(DataType.STRING, String.class, false);
          n.set(name(row));
          w.setMemberData("name", n);
          row++;
          return w;
        }

        @Override
        public StructureDataIterator reset() {
          row = 0;
          return this;
        }

        @Override
        public int getCurrentRecno() {
          return row - 1;
        }
      };
    }

    static NetcdfFile make() {
      SequenceSource iosp = new SequenceSource();
      Group.Builder root = Group.builder().setName("");
      root.addAttribute(new Attribute("title", "sequence test"));
      Sequence.Builder<?> seq = Sequence.builder().setName("obs");
      seq.addMemberVariable(Variable.builder().setName("id").setDataType(DataType.INT));
      seq.addMemberVariable(Variable.builder().setName("value").setDataType(DataType.DOUBLE)
          .addAttribute(new Attribute("units", "K")));
      seq.addMemberVariable(Variable.builder().setName("name").setDataType(DataType.STRING));
      root.addVariable(seq);
      return NetcdfFile.builder().setIosp(iosp).setLocation("memory:sequence").setRootGroup(root).build();
    }
  }

  Path written() throws Exception {
    Path out = tmp.resolve("sequence.ncs");
    try (NetcdfFile src = SequenceSource.make(); OutputStream os = Files.newOutputStream(out)) {
      assertInstanceOf(Sequence.class, src.findVariable("obs"));
      new NcStreamWriter(src, "sequence").streamAll(os);
    }
    return out;
  }

  static void assertRow(StructureData sd, int row) {
    assertEquals(id(row), sd.getScalarInt("id"), "id of row " + row);
    assertEquals(value(row), sd.getScalarDouble("value"), "value of row " + row);
    assertEquals(name(row), sd.getScalarString("name"), "name of row " + row);
  }

  @Test
  void netcdfJavasWriterWritesSequenceData() throws Exception {
    byte[] b = Files.readAllBytes(written());
    int rows = 0;
    for (int i = 0; (i = indexOf(b, NcStream.MAGIC_VDATA, i)) >= 0; i += 4) {
      rows++;
    }
    assertEquals(ROWS, rows, "one MAGIC_VDATA per row");
    assertTrue(indexOf(b, NcStream.MAGIC_VEND, 0) > 0, "MAGIC_VEND");
  }

  @Test
  void sequenceRowsReadBackThroughTheIteratorAndRead() throws Exception {
    Path p = written();
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      assertInstanceOf(NcStreamFileIosp.class, nc.getIosp());
      Variable v = nc.findVariable("obs");
      assertInstanceOf(Sequence.class, v);
      Sequence s = (Sequence) v;
      assertEquals("K", s.findVariable("value").findAttribute("units").getStringValue());
      for (int pass = 0; pass < 2; pass++) { // twice: the iterator re-reads the file, nothing is held
        int row = 0;
        try (StructureDataIterator it = s.getStructureIterator(-1)) {
          while (it.hasNext()) {
            assertRow(it.next(), row++);
          }
        }
        assertEquals(ROWS, row);
      }
      Array a = s.read();
      assertInstanceOf(ArraySequence.class, a);
      List<StructureData> got = new ArrayList<>();
      try (StructureDataIterator it = ((ArraySequence) a).getStructureDataIterator()) {
        while (it.hasNext()) {
          got.add(it.next());
        }
      }
      assertEquals(ROWS, got.size());
      for (int row = 0; row < ROWS; row += 37) {
        assertRow(got.get(row), row);
      }
      assertRow(got.get(ROWS - 1), ROWS - 1);
    }
  }

  /** A later sequence message replaces the earlier one (a sequence has no section: its message is all of it). */
  @Test
  void aLaterSequenceMessageTakesPrecedenceAndTruncationIsNamed() throws Exception {
    byte[] b = Files.readAllBytes(written());
    int data = indexOf(b, NcStream.MAGIC_DATA, 0);
    int end = b.length - 4;
    // the data message a second time, with only its first two rows
    int third = indexOf(b, NcStream.MAGIC_VDATA, indexOf(b, NcStream.MAGIC_VDATA, indexOf(b, NcStream.MAGIC_VDATA, data) + 4) + 4);
    java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
    o.write(b, 0, end);
    o.write(b, data, third - data);
    o.write(NcStream.MAGIC_VEND);
    o.write(NcStream.MAGIC_END);
    Path twice = tmp.resolve("twice.ncs");
    Files.write(twice, o.toByteArray());
    try (NetcdfFile nc = NcStreamFileIosp.open(twice.toString())) {
      int row = 0;
      try (StructureDataIterator it = ((Sequence) nc.findVariable("obs")).getStructureIterator(-1)) {
        while (it.hasNext()) {
          assertRow(it.next(), row++);
        }
      }
      assertEquals(2, row);
    }
    // a row cut short: the open (which walks the rows) names file and variable
    Path cut = tmp.resolve("cut.ncs");
    Files.write(cut, java.util.Arrays.copyOf(b, third + 9));
    IOException e = assertThrows(IOException.class, () -> NcStreamFileIosp.open(cut.toString()).close());
    NetcdfChecks.assertMentions(e, "cut.ncs", "obs");
    // a corrupt row: the read names file, variable and row
    byte[] bad = b.clone();
    for (int i = third + 6; i < third + 14; i++) {
      bad[i] = (byte) 0xff;
    }
    Path corrupt = tmp.resolve("corrupt.ncs");
    Files.write(corrupt, bad);
    IOException e2 = assertThrows(IOException.class, () -> {
      try (NetcdfFile nc = NcStreamFileIosp.open(corrupt.toString());
          StructureDataIterator it = ((Sequence) nc.findVariable("obs")).getStructureIterator(-1)) {
        while (it.hasNext()) {
          it.next();
        }
      }
    });
    NetcdfChecks.assertMentions(e2, "corrupt.ncs", "obs", "row 2");
  }

  static int indexOf(byte[] b, byte[] pat, int from) {
    outer:
    for (int i = Math.max(0, from); i + pat.length <= b.length; i++) {
      for (int k = 0; k < pat.length; k++) {
        if (b[i + k] != pat[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
