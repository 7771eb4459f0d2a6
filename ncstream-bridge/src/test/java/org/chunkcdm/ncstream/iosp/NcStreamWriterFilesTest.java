package org.chunkcdm.ncstream.iosp;

import org.chunkcdm.chunk.SectionReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamWriter;
import ucar.nc2.write.NetcdfFormatWriter;

/**
 * {@code .ncs} files written by netcdf-java's own NcStreamWriter (from every fixture dataset and from synthetic
 * files with multi-message variables) read back through {@link NcStreamFileIosp} equal to the source, value by
 * value, whole and in strided sections.
 */
class NcStreamWriterFilesTest {
  @TempDir
  static Path tmp;

  static Stream<Fixtures.Dataset> fixtureDatasets() {
    List<Fixtures.Dataset> out = new ArrayList<>();
    for (String family : List.of("bcolz", "bloscpack", "blosc2", "ds")) {
      for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
        if (!d.kind().startsWith("chunk-")) {
          out.add(d);
        }
      }
    }
    return out.stream();
  }

  static Path streamAll(NetcdfFile nc, Path out) throws Exception {
    try (OutputStream os = Files.newOutputStream(out)) {
      new NcStreamWriter(nc, null).streamAll(os);
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("fixtureDatasets")
  void everyFixtureDatasetStreamedByNcStreamWriterReadsBack(Fixtures.Dataset d) throws Exception {
    try (NetcdfFile src = NetcdfFiles.open(d.file().toString())) {
      Path ncs = streamAll(src, Files.createTempFile(tmp, "fixture", ".ncs"));
      try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
        assertInstanceOf(NcStreamFileIosp.class, got.getIosp(), d.toString());
        CdmCompare.assertSameDataset(src, got, d.toString());
        // and against the manifest's expected bytes where the fixture gives them
        for (Fixtures.Variable fv : d.variables()) {
          Variable v = got.findVariable(org.chunkcdm.cdm.CdmNames.valid(fv.name()));
          if (v != null && fv.hasExpected() && fv.json().path("mask").isNull() && v.getDataType().isNumeric() && v.getElementSize() > 0
              && v.getSize() * v.getElementSize() == fv.expected().length) {
            assertTrue(java.util.Arrays.equals(fv.expected(), org.chunkcdm.testkit.CdmArrays.littleEndian(v.read())),
                fv + " expected bytes");
          }
        }
      }
    }
  }

  /** A NetCDF-3 file with variables of every NetCDF-3 type, several over 1 MB (several data messages each). */
  static Path synthetic(Path file) throws Exception {
    NetcdfFormatWriter.Builder b = NetcdfFormatWriter.createNewNetcdf3(file.toString());
    b.addDimension("t", 1000);
    b.addDimension("y", 150);
    b.addDimension("x", 30);
    b.addDimension("s", 40);
    b.addUnlimitedDimension("rec");
    b.addVariable("d", DataType.DOUBLE, "t y").addAttribute(new Attribute("units", "m"));
    b.addVariable("f", DataType.FLOAT, "t x").addAttribute(new Attribute("_FillValue", -1f));
    b.addVariable("i", DataType.INT, "t x s");
    b.addVariable("sh", DataType.SHORT, "t y");
    b.addVariable("by", DataType.BYTE, "y x s");
    b.addVariable("c", DataType.CHAR, "t s");
    b.addVariable("big_c", DataType.CHAR, "t x s");
    b.addVariable("scalar", DataType.DOUBLE, "");
    b.addVariable("rec_i", DataType.INT, "rec x");
    b.addVariable("rec_d", DataType.DOUBLE, "rec");
    b.addAttribute(new Attribute("title", "synthetic"));
    Random r = new Random(42);
    try (NetcdfFormatWriter w = b.build()) {
      for (Variable v : w.getOutputFile().getVariables()) {
        if (v.isUnlimited()) {
          continue;
        }
        Array a = Array.factory(v.getDataType(), v.getShape());
        fill(a, r);
        w.write(v, a);
      }
      for (int rec = 0; rec < 20; rec++) {
        Array ri = Array.factory(DataType.INT, new int[] {1, 30});
        fill(ri, r);
        w.write(w.findVariable("rec_i"), new int[] {rec, 0}, ri);
        Array rd = Array.factory(DataType.DOUBLE, new int[] {1});
        fill(rd, r);
        w.write(w.findVariable("rec_d"), new int[] {rec}, rd);
      }
    }
    return file;
  }

  static void fill(Array a, Random r) {
    for (int i = 0; i < a.getSize(); i++) {
      switch (a.getDataType()) {
        case DOUBLE:
          a.setDouble(i, r.nextGaussian() * 1e6);
          break;
        case FLOAT:
          a.setFloat(i, (float) r.nextGaussian());
          break;
        case CHAR:
          a.setChar(i, (char) ('a' + r.nextInt(4)));
          break;
        case SHORT:
          a.setShort(i, (short) r.nextInt(100));
          break;
        default:
          a.setLong(i, r.nextLong());
      }
    }
  }

  @Test
  void syntheticMultiMessageVariablesReadRightWholeAndInSections() throws Exception {
    Path nc3 = synthetic(tmp.resolve("synthetic.nc"));
    try (NetcdfFile src = NetcdfFiles.open(nc3.toString())) {
      Path ncs = streamAll(src, tmp.resolve("synthetic.ncs"));
      try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
        NcStreamFileIosp iosp = (NcStreamFileIosp) got.getIosp();
        assertTrue(iosp.dataMessageCount() > 15, "several messages per large variable: " + iosp.dataMessageCount());
        CdmCompare.assertSameDataset(src, got, "synthetic");
        // sections crossing message boundaries, with strides, on every variable
        Random r = new Random(7);
        List<NetcdfChecks.Read> reads = new ArrayList<>();
        for (Variable v : src.getVariables()) {
          for (Section s : CdmCompare.sections(v.getShape(), 12, r)) {
            Array want = v.read(s);
            Variable g = got.findVariable(v.getFullName());
            CdmCompare.assertSameValues(want, g.read(s), v.getFullName() + " " + s);
            reads.add(new NetcdfChecks.Read(g, s, want));
          }
        }
        NetcdfChecks.assertConcurrentReads(reads, 8, 40);
        // and re-exported by chunkcdm's writer (raw message bytes through the reader's chunk grid) reads back equal
        Path again = tmp.resolve("synthetic-again.ncs");
        try (OutputStream os = Files.newOutputStream(again)) {
          new org.chunkcdm.ncstream.NcStreamOut(os, org.chunkcdm.ncstream.NcStreamOut.Options.defaults().messageBytes(300_000))
              .writeAll(got, null, null);
        }
        try (NetcdfFile back = NcStreamFileIosp.open(again.toString())) {
          CdmCompare.assertSameDataset(src, back, "synthetic re-exported");
        }
      }
      // netcdf-java's own reader gets a multi-message variable wrong (why this IOSP exists)
      try (NetcdfFile stock = NetcdfFiles.open(tmp.resolve("synthetic.ncs").toString(), "ucar.nc2.stream.NcStreamIosp", -1,
          null, null)) {
        Array want = src.findVariable("d").read();
        Array a = null;
        try {
          a = stock.findVariable("d").read();
        } catch (Exception e) {
          // also acceptable: it fails
        }
        boolean same = a != null && java.util.Arrays.equals(org.chunkcdm.testkit.CdmArrays.littleEndian(want),
            org.chunkcdm.testkit.CdmArrays.littleEndian(a));
        assertTrue(!same, "stock NcStreamIosp was expected to misread a multi-message variable");
      }
    }
  }

  /**
   * Column-oriented messages (netcdf-java's {@code sendData2}, what TDS 5's cdmremote sends), each variable in
   * three pieces along its outer dimension, read back equal.
   */
  @Test
  void dataColMessagesReadRight() throws Exception {
    List<Path> sources = new ArrayList<>();
    sources.add(synthetic(tmp.resolve("synthetic-col.nc")));
    sources.add(Fixtures.manifest("ds").dataset("strings.ds").file());
    sources.add(Fixtures.manifest("ds").dataset("all_types_1d.ds").file());
    sources.add(Fixtures.manifest("bcolz").dataset("carray/multidim_float32_1000x3x4").file());
    int k = 0;
    for (Path source : sources) {
      try (NetcdfFile src = NetcdfFiles.open(source.toString())) {
        Path ncs = tmp.resolve("col" + k++ + ".ncs");
        try (OutputStream os = Files.newOutputStream(ncs)) {
          NcStreamWriter w = new NcStreamWriter(src, null);
          w.sendStart(os);
          w.sendHeader(os);
          for (Variable v : src.getVariables()) {
            int[] shape = v.getShape();
            if (shape.length == 0 || shape[0] < 3) {
              w.sendData2(v, v.getShapeAsSection(), os, ucar.nc2.stream.NcStreamCompression.none());
              continue;
            }
            int a = shape[0] / 3;
            for (int[] r : new int[][] {{0, a - 1}, {a, 2 * a - 1}, {2 * a, shape[0] - 1}}) {
              List<ucar.ma2.Range> ranges = new ArrayList<>(v.getShapeAsSection().getRanges());
              ranges.set(0, new ucar.ma2.Range(r[0], r[1]));
              w.sendData2(v, new Section(ranges), os, ucar.nc2.stream.NcStreamCompression.none());
            }
          }
          w.sendEnd(os);
        }
        try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
          CdmCompare.assertSameDataset(src, got, "DataCol " + source.getFileName());
        }
      }
    }
  }

  /**
   * Groups (nested), an enum typedef and enum variable, an unlimited dimension, non-ASCII strings and a
   * multi-message variable in a group, from an in-memory dataset, streamed by netcdf-java's writer and by chunkcdm's.
   */
  @Test
  void groupsEnumsUnlimitedAndStringsReadBack() throws Exception {
    ucar.nc2.Group.Builder root = ucar.nc2.Group.builder().setName("");
    root.addEnumTypedef(new ucar.nc2.EnumTypedef("colors", java.util.Map.of(0, "red", 1, "green", 7, "blue")));
    ucar.nc2.Dimension t = ucar.nc2.Dimension.builder().setName("t").setIsUnlimited(true).setLength(3).build();
    root.addDimension(t);
    root.addAttribute(new Attribute("title", "groups"));
    root.addVariable(Variable.builder().setName("c").setDataType(DataType.ENUM1).setEnumTypeName("colors")
        .setDimensions(List.of(t)).setCachedData(Array.factory(DataType.ENUM1, new int[] {3}, new byte[] {0, 7, 1}), false));
    ucar.nc2.Group.Builder sub = ucar.nc2.Group.builder().setName("sub");
    ucar.nc2.Dimension x = new ucar.nc2.Dimension("x", 300_000);
    sub.addDimension(x);
    double[] vals = new double[300_000]; // 2.4 MB: several messages from either writer
    for (int i = 0; i < vals.length; i++) {
      vals[i] = i * 0.5 - 7;
    }
    sub.addVariable(Variable.builder().setName("v").setDataType(DataType.DOUBLE).setDimensions(List.of(x))
        .addAttribute(new Attribute("units", "m")).setCachedData(Array.factory(DataType.DOUBLE, new int[] {300_000}, vals), false));
    ucar.nc2.Group.Builder deeper = ucar.nc2.Group.builder().setName("deeper");
    deeper.addVariable(Variable.builder().setName("s").setDataType(DataType.STRING).setDimensions(List.of(t))
        .setCachedData(Array.factory(DataType.STRING, new int[] {3}, new Object[] {"a", "Ωmega ✓", ""}), false));
    sub.addGroup(deeper);
    root.addGroup(sub);
    NetcdfFile nc = NetcdfFile.builder().setRootGroup(root).setLocation("memory").build();
    Path stock = tmp.resolve("groups-stock.ncs");
    Path ours = tmp.resolve("groups-ours.ncs");
    streamAll(nc, stock);
    try (OutputStream os = Files.newOutputStream(ours)) {
      new org.chunkcdm.ncstream.NcStreamOut(os, org.chunkcdm.ncstream.NcStreamOut.Options.defaults().messageBytes(100_000))
          .writeAll(nc, null, null);
    }
    for (Path p : List.of(stock, ours)) {
      try (NetcdfFile got = NcStreamFileIosp.open(p.toString())) {
        CdmCompare.assertSameDataset(nc, got, p.getFileName().toString());
        assertEquals(DataType.ENUM1, got.findVariable("c").getDataType(), "enum variable");
        assertEquals("colors", got.findVariable("c").getEnumTypedef().getShortName());
        assertTrue(got.findDimension("t").isUnlimited());
        assertEquals("Ωmega ✓", got.findVariable("sub/deeper/s").read().getObject(1));
      }
    }
  }

  @Test
  void deflatedStreamReadsRight() throws Exception {
    Path nc3 = synthetic(tmp.resolve("synthetic-deflate.nc"));
    // NcStreamWriter deflates variables that carry the attribute _Compress=deflate
    try (NetcdfFile src = NetcdfFiles.open(nc3.toString())) {
      for (Variable v : src.getVariables()) {
        v.addAttribute(new Attribute("_Compress", "deflate"));
      }
      Path ncs = streamAll(src, tmp.resolve("synthetic-deflate.ncs"));
      assertTrue(Files.size(ncs) < Files.size(nc3) * 0.9, "deflated: " + Files.size(ncs) + " of " + Files.size(nc3));
      try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
        CdmCompare.assertSameDataset(src, got, "deflated");
      }
    }
  }

  @Test
  void recordStructureReadsRight() throws Exception {
    Path nc3 = synthetic(tmp.resolve("synthetic-rec.nc"));
    try (NetcdfFile src = NetcdfFiles.open(nc3.toString(), -1, null, NetcdfFile.IOSP_MESSAGE_ADD_RECORD_STRUCTURE)) {
      Variable rec = src.findVariable("record");
      assertTrue(rec instanceof ucar.nc2.Structure, "record structure present");
      Path ncs = streamAll(src, tmp.resolve("synthetic-rec.ncs"));
      try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
        Variable g = got.findVariable("record");
        assertTrue(g instanceof ucar.nc2.Structure);
        CdmCompare.assertSameValues(rec.read(), g.read(), "record");
        CdmCompare.assertSameValues(rec.read("3:17:2"), g.read("3:17:2"), "record 3:17:2");
        // a member read alone: netcdf-java reads the structure with only that member (Structure.select) and
        // extracts it, so the values are the member's across all records, i.e. the top-level record variable's
        for (Variable m : ((ucar.nc2.Structure) rec).getVariables()) {
          Variable gm = got.findVariable(m.getFullNameEscaped());
          CdmCompare.assertSameValues(src.findVariable(m.getShortName()).read(), gm.read(), "member " + m.getFullName());
        }
      }
    }
  }

  @Test
  void openReadsOnlyMessageHeaders() throws Exception {
    Path nc3 = tmp.resolve("big.nc");
    NetcdfFormatWriter.Builder b = NetcdfFormatWriter.createNewNetcdf3(nc3.toString());
    b.addDimension("t", 4096);
    b.addDimension("x", 2048);
    b.addVariable("v", DataType.DOUBLE, "t x");
    try (NetcdfFormatWriter w = b.build()) {
      Array row = Array.factory(DataType.DOUBLE, new int[] {256, 2048});
      for (int t = 0; t < 4096; t += 256) {
        for (int i = 0; i < row.getSize(); i++) {
          row.setDouble(i, t * 2048.0 + i);
        }
        w.write(w.findVariable("v"), new int[] {t, 0}, row);
      }
    }
    Path ncs;
    try (NetcdfFile src = NetcdfFiles.open(nc3.toString())) {
      ncs = streamAll(src, tmp.resolve("big.ncs"));
    }
    Files.delete(nc3);
    long size = Files.size(ncs);
    try (NetcdfFile got = NcStreamFileIosp.open(ncs.toString())) {
      NcStreamFileIosp iosp = (NcStreamFileIosp) got.getIosp();
      assertTrue(iosp.dataMessageCount() >= 64, "messages: " + iosp.dataMessageCount());
      assertTrue(iosp.indexBytesRead() < size / 500, "open read " + iosp.indexBytesRead() + " of " + size + " bytes");
      long touched = SectionReader.chunksTouched();
      Array a = got.findVariable("v").read("4000:4001,100:103");
      // 2 rows of 16 KiB: one 1 MB message holds both (netcdf-java's writer: 61 rows a message), two at most
      long messagesRead = SectionReader.chunksTouched() - touched;
      assertTrue(messagesRead >= 1 && messagesRead <= 2, "messages read for a small section: " + messagesRead);
      assertEquals(4000 * 2048.0 + 100, a.getDouble(0));
      assertEquals(4001 * 2048.0 + 103, a.getDouble(7));
    }
  }

}
