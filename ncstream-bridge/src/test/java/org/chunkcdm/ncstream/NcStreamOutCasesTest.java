package org.chunkcdm.ncstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.ma2.StructureData;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamReader;
import ucar.nc2.write.NetcdfFormatWriter;

/** Error messages, structures, variable subsets and the one-message (cdmremote) form. */
class NcStreamOutCasesTest {
  /** A chunk that cannot be read in the middle of a variable ends the stream with an error message naming it. */
  @Test
  void readErrorEndsStreamWithErrorMessage(@TempDir Path tmp) throws Exception {
    Path src = Fixtures.family("bcolz").resolve("carray/clevel_float64_lz4_c1_byteshuf");
    Path copy = TestFiles.copy(src, tmp.resolve("broken.bcolz"));
    TestFiles.truncate(copy.resolve("data/__1.blp"), 20);
    try (NetcdfFile nc = NetcdfFiles.open(copy.toString())) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      NcStreamOut w = new NcStreamOut(b, NcStreamOut.Options.defaults().messageBytes(4096));
      IOException e = assertThrows(IOException.class, () -> w.writeAll(nc, null, null));
      NetcdfChecks.assertMentions(e, "__1.blp");
      NcsWalker walk = new NcsWalker(b.toByteArray(), nc);
      assertFalse(walk.ended, "no MAGIC_END after a failure");
      assertNotNull(walk.error, "an error message ends the stream");
      String var = nc.getVariables().get(0).getFullName();
      assertTrue(walk.error.startsWith(var + ": "), walk.error);
      assertTrue(walk.error.contains("__1.blp"), walk.error);
      // the messages before the failing chunk (chunk 0) are complete and right
      assertTrue(walk.messages.size() >= 1);
      int row = 0;
      for (NcsWalker.Msg m : walk.messages) {
        assertEquals(row, m.section.getRange(0).first());
        NetcdfChecks.assertSameArray(readFixture(src, m.section), m.data, "before the failure " + m.section);
        row = m.section.getRange(0).last() + 1;
      }
      assertTrue(row <= 1024, "nothing of chunk 1 (rows 1024..) was sent");
    }
  }

  private static Array readFixture(Path p, Section s) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      return nc.getVariables().get(0).read(s);
    }
  }

  /** A NetCDF-3 file with record variables, the record Structure added, and a char and a scalar variable. */
  static Path recordFile(Path dir, int records) throws Exception {
    Path f = dir.resolve("rec.nc");
    NetcdfFormatWriter.Builder b = NetcdfFormatWriter.createNewNetcdf3(f.toString());
    b.addUnlimitedDimension("time");
    b.addDimension("x", 3);
    b.addDimension("len", 5);
    b.addVariable("t", DataType.DOUBLE, "time").addAttribute(new Attribute("units", "s"));
    b.addVariable("v", DataType.INT, "time x");
    b.addVariable("name", DataType.CHAR, "time len");
    b.addVariable("scalar", DataType.FLOAT, "");
    b.addAttribute(new Attribute("title", "records"));
    try (NetcdfFormatWriter w = b.build()) {
      Array t = Array.factory(DataType.DOUBLE, new int[] {records});
      Array v = Array.factory(DataType.INT, new int[] {records, 3});
      ucar.ma2.ArrayChar names = new ucar.ma2.ArrayChar.D2(records, 5);
      for (int i = 0; i < records; i++) {
        t.setDouble(i, i * 0.5);
        for (int j = 0; j < 3; j++) {
          v.setInt(i * 3 + j, i * 10 + j);
        }
        names.setString(i, "r" + i);
      }
      w.write("t", t);
      w.write("v", v);
      w.write("name", names);
      w.write("scalar", Array.factory(DataType.FLOAT, new int[0], new float[] {2.5f}));
    }
    return f;
  }

  /** Structures go as StructureData messages; NcStreamIosp and NcStreamReader decode them to the same records. */
  @Test
  void recordStructure(@TempDir Path tmp) throws Exception {
    Path f = recordFile(tmp, 50);
    try (NetcdfFile nc = NetcdfFiles.open(f.toString(), -1, null, NetcdfFile.IOSP_MESSAGE_ADD_RECORD_STRUCTURE)) {
      Structure rec = (Structure) nc.findVariable("record");
      assertNotNull(rec);
      Path ncs = tmp.resolve("rec.ncs");
      try (OutputStream o = Files.newOutputStream(ncs)) {
        new NcStreamOut(o).writeAll(nc, null, null);
      }
      try (NetcdfFile back = NetcdfFiles.open(ncs.toString())) {
        Structure brec = (Structure) back.findVariable("record");
        assertNotNull(brec, "record structure in the header");
        assertEquals(List.of("t", "v", "name"), brec.getVariableNames());
        assertSameRecords((ArrayStructure) rec.read(), (ArrayStructure) brec.read(), "NcStreamIosp");
        NetcdfChecks.assertSameArray(nc.findVariable("v").read(), back.findVariable("v").read(), "v");
        NetcdfChecks.assertSameArray(nc.findVariable("name").read(), back.findVariable("name").read(), "name");
        NetcdfChecks.assertSameArray(nc.findVariable("scalar").read(), back.findVariable("scalar").read(), "scalar");
        assertTrue(back.findDimension("time").isUnlimited());
      }
      // one message for a strided record section, read by the cdmremote client's decoder
      ByteArrayOutputStream h = new ByteArrayOutputStream();
      new NcStreamOut(h).writeHeader(nc, "x", null);
      NetcdfFile remote = new NcStreamReader().readStream(new ByteArrayInputStream(h.toByteArray()), null);
      ByteArrayOutputStream d = new ByteArrayOutputStream();
      Section sec = new Section("3:40:4");
      new NcStreamOut(d).writeDataMessage(rec, sec);
      NcStreamReader.DataResult r = new NcStreamReader().readData(new ByteArrayInputStream(d.toByteArray()), remote, "x");
      // 5.5.3's NcStreamReader leaves the member offsets of a StructureData message unset (NcStreamIosp sets
      // them); with the offsets set as the grammar defines (members packed in order) the records are right
      ucar.ma2.ArrayStructureBB.setOffsets(((ArrayStructure) r.data).getStructureMembers());
      assertSameRecords((ArrayStructure) rec.read(sec), (ArrayStructure) r.data, "NcStreamReader");
    }
  }

  static void assertSameRecords(ArrayStructure want, ArrayStructure got, String what) throws IOException {
    assertEquals(want.getSize(), got.getSize(), what + ": records");
    for (int i = 0; i < want.getSize(); i++) {
      StructureData a = want.getStructureData(i);
      StructureData b = got.getStructureData(i);
      for (StructureMembers.Member m : a.getMembers()) {
        Array x = a.getArray(m.getName());
        Array y = b.getArray(m.getName());
        assertNotNull(y, what + ": member " + m.getName());
        NetcdfChecks.assertSameArray(x, y, what + ": record " + i + " member " + m.getName());
      }
    }
  }

  /** A subset: the header names only the chosen variables (dimensions and attributes all stay). */
  @Test
  void variableSubset(@TempDir Path tmp) throws Exception {
    Path f = recordFile(tmp, 7);
    try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
      List<Variable> vars = List.of(nc.findVariable("v"), nc.findVariable("scalar"));
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      new NcStreamOut(b).writeAll(nc, "sub", vars);
      Path ncs = tmp.resolve("sub.ncs");
      Files.write(ncs, b.toByteArray());
      try (NetcdfFile back = NetcdfFiles.open(ncs.toString())) {
        assertEquals(2, back.getVariables().size());
        assertNull(back.findVariable("t"));
        assertEquals(3, back.findDimension("x").getLength());
        assertEquals("records", back.getRootGroup().findAttributeString("title", null));
        NetcdfChecks.assertSameArray(nc.findVariable("v").read(), back.findVariable("v").read(), "v");
      }
      NcsWalker w = new NcsWalker(b.toByteArray(), nc);
      assertEquals(java.util.Set.of("v", "scalar"), w.byVar.keySet());
    }
  }

  /** Numeric variables below headerDataBytes carry values in the header; the decoder caches them. */
  @Test
  void headerData(@TempDir Path tmp) throws Exception {
    Path f = recordFile(tmp, 4);
    try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
      ByteArrayOutputStream h = new ByteArrayOutputStream();
      new NcStreamOut(h, NcStreamOut.Options.defaults().headerDataBytes(100)).writeHeader(nc, "x", null);
      NetcdfFile remote = new NcStreamReader().readStream(new ByteArrayInputStream(h.toByteArray()), null);
      Variable t = remote.findVariable("t");
      assertTrue(t.hasCachedData(), "4 doubles travel in the header");
      NetcdfChecks.assertSameArray(nc.findVariable("t").read(), t.read(), "t");
      assertFalse(remote.findVariable("name").hasCachedData(), "char data does not");
    }
  }

  /** A cdmremote-style message: one message, big-endian, pieces bounded, also when the section spans many. */
  @Test
  void oneMessageOfManyPieces() throws Exception {
    Path p = Fixtures.family("ds").resolve("large.ds");
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.getVariables().get(0);
      for (NcStreamOut.Options o : new NcStreamOut.Options[] {NcStreamOut.Options.defaults().messageBytes(64 << 10),
          NcStreamOut.Options.defaults().messageBytes(64 << 10).deflate(1)}) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        new NcStreamOut(h).writeHeader(nc, "x", null);
        NetcdfFile remote = new NcStreamReader().readStream(new ByteArrayInputStream(h.toByteArray()), null);
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        long[] pieces = {0};
        new NcStreamOut(d, o.progress(n -> pieces[0]++)).writeDataMessage(v, null);
        NcStreamReader.DataResult r = new NcStreamReader().readData(new ByteArrayInputStream(d.toByteArray()), remote, "x");
        NetcdfChecks.assertSameArray(v.read(), r.data, "large.ds whole in one message");
        NcsWalker.class.getName();
        if (!o.deflates()) {
          assertTrue(pieces[0] >= 4_000_000 / (64 << 10), "read in pieces: " + pieces[0]);
        }
      }
    }
  }

  /** One-message sections are deflated up to DEFLATE_ONE_MESSAGE_BYTES and sent plain above it. */
  @Test
  void oneMessageDeflateBound(@TempDir Path tmp) throws Exception {
    Path dir = BoundedHeapTest.writeCarray(tmp.resolve("zeros.bcolz"));
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.getVariables().get(0);
      ByteArrayOutputStream h = new ByteArrayOutputStream();
      new NcStreamOut(h).writeHeader(nc, "x", null);
      NetcdfFile remote = new NcStreamReader().readStream(new ByteArrayInputStream(h.toByteArray()), null);
      int cols = BoundedHeapTest.COLS;
      for (int rows : new int[] {512, 2048}) { // 8 MiB (deflated), 32 MiB (over the bound: plain)
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        Section sec = new Section(new int[] {1000, 0}, new int[] {rows, cols});
        new NcStreamOut(d, NcStreamOut.Options.defaults().deflate(1)).writeDataMessage(v, sec);
        byte[] b = d.toByteArray();
        boolean two = (b[4] & 0x80) != 0; // the Data proto's length: a one- or two-byte varint
        int len = two ? (b[4] & 0x7f) | (b[5] & 0x7f) << 7 : b[4];
        int at = two ? 6 : 5;
        ucar.nc2.stream.NcStreamProto.Data proto = ucar.nc2.stream.NcStreamProto.Data.parseFrom(
            java.util.Arrays.copyOfRange(b, at, at + len));
        long payload = (long) rows * cols * 8;
        boolean deflated = payload <= NcStreamOut.DEFLATE_ONE_MESSAGE_BYTES;
        assertEquals(deflated ? ucar.nc2.stream.NcStreamProto.Compress.DEFLATE : ucar.nc2.stream.NcStreamProto.Compress.NONE,
            proto.getCompress(), rows + " rows");
        assertTrue(deflated ? b.length < payload / 100 : b.length > payload, rows + " rows: " + b.length + " bytes");
        NcStreamReader.DataResult r = new NcStreamReader().readData(new ByteArrayInputStream(b), remote, "x");
        assertEquals(rows * cols, r.data.getSize());
        assertEquals(0.0, ucar.ma2.MAMath.getMaximum(r.data));
        assertEquals(0.0, ucar.ma2.MAMath.getMinimum(r.data));
      }
    }
  }

  /**
   * Groups, nested dimensions, an enum typedef and an enum variable, an unlimited dimension, a string and a
   * multi-chunk variable in a subgroup: NcStreamReader rebuilds the same header; the walker finds the data
   * under the escaped full names.
   */
  @Test
  void groupsAndEnums() throws Exception {
    Group.Builder root = Group.builder().setName("");
    root.addEnumTypedef(new ucar.nc2.EnumTypedef("colors", java.util.Map.of(0, "red", 1, "green", 7, "blue")));
    Dimension t = Dimension.builder().setName("t").setIsUnlimited(true).setLength(3).build();
    root.addDimension(t);
    root.addAttribute(new Attribute("title", "groups"));
    root.addVariable(Variable.builder().setName("c").setDataType(DataType.ENUM1).setEnumTypeName("colors")
        .setDimensions(List.of(t)).setCachedData(Array.factory(DataType.ENUM1, new int[] {3}, new byte[] {0, 7, 1}), false));
    Group.Builder sub = Group.builder().setName("sub");
    Dimension x = new Dimension("x", 3000);
    sub.addDimension(x);
    sub.addAttribute(new Attribute("where", "inside"));
    int[] vals = new int[3000];
    for (int i = 0; i < vals.length; i++) {
      vals[i] = i * 7 - 5;
    }
    sub.addVariable(Variable.builder().setName("v").setDataType(DataType.INT).setDimensions(List.of(x))
        .addAttribute(new Attribute("units", "m")).setCachedData(Array.factory(DataType.INT, new int[] {3000}, vals), false));
    Group.Builder deeper = Group.builder().setName("deeper");
    deeper.addVariable(Variable.builder().setName("s").setDataType(DataType.STRING).setDimensions(List.of(t))
        .setCachedData(Array.factory(DataType.STRING, new int[] {3}, new Object[] {"a", "Ωmega", ""}), false));
    sub.addGroup(deeper);
    root.addGroup(sub);
    NetcdfFile nc = NetcdfFile.builder().setRootGroup(root).setLocation("memory").build();

    ByteArrayOutputStream b = new ByteArrayOutputStream();
    new NcStreamOut(b, NcStreamOut.Options.defaults().messageBytes(4096)).writeAll(nc, "mem", null);
    NetcdfFile back = new NcStreamReader().readStream(new ByteArrayInputStream(b.toByteArray()), null);
    assertEquals("groups", back.getRootGroup().findAttributeString("title", null));
    ucar.nc2.Group bsub = back.findGroup("sub");
    assertNotNull(bsub);
    assertEquals("inside", bsub.findAttributeString("where", null));
    assertEquals(3000, bsub.findDimension("x").getLength());
    assertTrue(back.findDimension("t").isUnlimited());
    ucar.nc2.EnumTypedef e = back.getRootGroup().findEnumeration("colors");
    assertNotNull(e);
    assertEquals(java.util.Map.of(0, "red", 1, "green", 7, "blue"), e.getMap());
    Variable bc = back.findVariable("c");
    assertEquals(DataType.ENUM1, bc.getDataType());
    assertEquals("colors", bc.getEnumTypedef().getShortName());
    assertEquals("m", back.findVariable("sub/v").findAttributeString("units", null));
    assertEquals(DataType.STRING, back.findVariable("sub/deeper/s").getDataType());

    NcsWalker w = new NcsWalker(b.toByteArray(), nc);
    assertTrue(w.ended);
    assertTrue(w.byVar.get("sub/v").size() > 1, "several messages for 12 kB with a 4 KiB bound");
    for (String name : new String[] {"c", "sub/v", "sub/deeper/s"}) {
      Variable v = nc.findVariable(name);
      NetcdfChecks.assertSameArray(v.read(), w.assemble(v), name);
    }
  }

  /** A variable with no elements writes no data message; a section outside the variable is an IOException. */
  @Test
  void emptyAndBadSections() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(Fixtures.family("ds").resolve("empty.ds").toString())) {
      for (Variable v : nc.getVariables()) {
        if (v.getSize() == 0) {
          ByteArrayOutputStream b = new ByteArrayOutputStream();
          assertEquals(0, new NcStreamOut(b).writeData(v, null));
          assertEquals(0, b.size());
        }
      }
    }
    try (NetcdfFile nc = NetcdfFiles.open(Fixtures.family("ds").resolve("small.ds").toString())) {
      Variable v = nc.getVariables().get(0);
      IOException e = assertThrows(IOException.class,
          () -> new NcStreamOut(new ByteArrayOutputStream()).writeDataMessage(v, new Section("990:1000")));
      NetcdfChecks.assertMentions(e, v.getFullName(), "990:1000");
    }
  }

  static Dimension dim(NetcdfFile nc, String n) {
    return nc.findDimension(n);
  }
}
