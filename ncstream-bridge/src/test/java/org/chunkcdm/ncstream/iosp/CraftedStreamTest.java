package org.chunkcdm.ncstream.iosp;

import org.chunkcdm.blosc.LimitException;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.Deflater;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Index;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * Streams built message by message: both byte orders, deflate, overlapping and strided messages (later ones take
 * precedence), gaps (fill values), strings and opaque with byte lengths, an error message, truncation and
 * corruption.
 */
class CraftedStreamTest {
  @TempDir
  Path tmp;

  /** Writes an ncstream message by message. */
  static final class Ncs {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final NcStreamProto.Group.Builder root = NcStreamProto.Group.newBuilder().setName("");

    Ncs dim(String name, int len) {
      root.addDims(NcStreamProto.Dimension.newBuilder().setName(name).setLength(len));
      return this;
    }

    Ncs var(String name, DataType t, String dims, float fill) throws IOException {
      NcStreamProto.Variable.Builder v = NcStreamProto.Variable.newBuilder().setName(name).setDataType(NcStream.convertDataType(t));
      for (String d : dims.split(" ")) {
        if (d.isEmpty()) {
          continue;
        }
        for (NcStreamProto.Dimension pd : root.getDimsList()) {
          if (pd.getName().equals(d)) {
            v.addShape(pd);
          }
        }
      }
      if (!Float.isNaN(fill)) {
        v.addAtts(NcStream.encodeAtt(new ucar.nc2.Attribute("_FillValue", fill)));
      }
      root.addVars(v);
      return this;
    }

    Ncs header() throws IOException {
      out.write(NcStream.MAGIC_START);
      out.write(NcStream.MAGIC_HEADER);
      byte[] h = NcStreamProto.Header.newBuilder().setRoot(root).setVersion(1).build().toByteArray();
      NcStream.writeVInt(out, h.length);
      out.write(h);
      return this;
    }

    /** A regular data message of values (given in the section's C order). */
    Ncs data(String var, DataType t, String section, ByteOrder order, boolean deflate, Array values) throws Exception {
      byte[] raw = bytes(values, order);
      NcStreamProto.Data.Builder d = NcStreamProto.Data.newBuilder().setVarName(var).setDataType(NcStream.convertDataType(t))
          .setSection(NcStream.encodeSection(new Section(section))).setBigend(order == ByteOrder.BIG_ENDIAN).setVersion(3);
      byte[] payload = raw;
      if (deflate) {
        Deflater def = new Deflater(6);
        def.setInput(raw);
        def.finish();
        byte[] buf = new byte[raw.length + 64];
        int n = def.deflate(buf);
        def.end();
        payload = java.util.Arrays.copyOf(buf, n);
        d.setCompress(NcStreamProto.Compress.DEFLATE).setUncompressedSize(raw.length);
      }
      message(d.build().toByteArray());
      NcStream.writeVInt(out, payload.length);
      out.write(payload);
      return this;
    }

    /** Strings or opaque objects, each with its length in bytes (the grammar's vlenData). */
    Ncs objects(String var, DataType t, String section, byte[]... objs) throws Exception {
      NcStreamProto.Data d = NcStreamProto.Data.newBuilder().setVarName(var).setDataType(NcStream.convertDataType(t))
          .setSection(NcStream.encodeSection(new Section(section))).setVersion(3).build();
      message(d.toByteArray());
      NcStream.writeVInt(out, objs.length);
      for (byte[] o : objs) {
        NcStream.writeVInt(out, o.length);
        out.write(o);
      }
      return this;
    }

    void message(byte[] proto) throws IOException {
      out.write(NcStream.MAGIC_DATA);
      NcStream.writeVInt(out, proto.length);
      out.write(proto);
    }

    Ncs error(String msg) throws IOException {
      out.write(NcStream.MAGIC_ERR);
      byte[] e = NcStream.encodeErrorMessage(msg).toByteArray();
      NcStream.writeVInt(out, e.length);
      out.write(e);
      return this;
    }

    Path end(Path p) throws IOException {
      out.write(NcStream.MAGIC_END);
      Files.write(p, out.toByteArray());
      return p;
    }

    Path noEnd(Path p) throws IOException {
      Files.write(p, out.toByteArray());
      return p;
    }
  }

  static byte[] bytes(Array a, ByteOrder order) {
    int item = a.getDataType().getSize();
    ByteBuffer bb = ByteBuffer.allocate((int) a.getSize() * item).order(order);
    for (int i = 0; i < a.getSize(); i++) {
      switch (a.getDataType()) {
        case INT:
          bb.putInt(a.getInt(i));
          break;
        case FLOAT:
          bb.putFloat(a.getFloat(i));
          break;
        case DOUBLE:
          bb.putDouble(a.getDouble(i));
          break;
        default:
          throw new IllegalArgumentException(a.getDataType().toString());
      }
    }
    return bb.array();
  }

  static Array ints(int[] shape, int base) {
    Array a = Array.factory(DataType.INT, shape);
    for (int i = 0; i < a.getSize(); i++) {
      a.setInt(i, base + i);
    }
    return a;
  }

  /** Sets {@code values} (C order over {@code section}) into {@code whole}. */
  static void put(Array whole, String section, Array values) throws Exception {
    Section s = new Section(section);
    Array view = whole.sectionNoReduce(s.getRanges());
    for (int i = 0; i < values.getSize(); i++) {
      int[] c = unflatten(i, view.getShape());
      Index idx = view.getIndex().set(c);
      view.setObject(idx, values.getObject(i));
    }
  }

  static int[] unflatten(int i, int[] shape) {
    int[] c = new int[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      c[d] = i % shape[d];
      i /= shape[d];
    }
    return c;
  }

  static void assertSections(NetcdfFile nc, String var, Array want) throws Exception {
    CdmCompare.assertSameValues(want, nc.findVariable(var).read(), var + " whole");
    for (Section s : CdmCompare.sections(want.getShape(), 25, new Random(var.hashCode()))) {
      CdmCompare.assertSameValues(want.sectionNoReduce(s.getRanges()).copy(), nc.findVariable(var).read(s), var + " " + s);
    }
  }

  @Test
  void bothByteOrdersDeflateGapsAndFill() throws Exception {
    Ncs n = new Ncs().dim("t", 10).dim("x", 6).var("v", DataType.INT, "t x", Float.NaN).var("f", DataType.FLOAT, "t x", -9f)
        .var("g", DataType.DOUBLE, "t x", Float.NaN).header();
    n.data("v", DataType.INT, "0:4,0:5", ByteOrder.LITTLE_ENDIAN, false, ints(new int[] {5, 6}, 0));
    n.data("v", DataType.INT, "5:9,0:5", ByteOrder.BIG_ENDIAN, true, ints(new int[] {5, 6}, 30));
    Array f = Array.factory(DataType.FLOAT, new int[] {2, 6});
    for (int i = 0; i < 12; i++) {
      f.setFloat(i, i * 0.5f);
    }
    n.data("f", DataType.FLOAT, "8:9,0:5", ByteOrder.LITTLE_ENDIAN, true, f);
    n.data("f", DataType.FLOAT, "1,2:5", ByteOrder.BIG_ENDIAN, false, f.section(new int[] {0, 0}, new int[] {1, 4}).copy());
    Path p = n.end(tmp.resolve("orders.ncs"));
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      assertInstanceOf(NcStreamFileIosp.class, nc.getIosp());
      assertSections(nc, "v", ints(new int[] {10, 6}, 0));
      Array wantF = Array.factory(DataType.FLOAT, new int[] {10, 6});
      for (int i = 0; i < 60; i++) {
        wantF.setFloat(i, -9f);
      }
      put(wantF, "8:9,0:5", f);
      put(wantF, "1,2:5", f.section(new int[] {0, 0}, new int[] {1, 4}).copy());
      assertSections(nc, "f", wantF);
      Array wantG = Array.factory(DataType.DOUBLE, new int[] {10, 6});
      for (int i = 0; i < 60; i++) {
        wantG.setDouble(i, 9.969209968386869E36); // netCDF's default double fill: no message, no _FillValue
      }
      assertSections(nc, "g", wantG);
    }
  }

  @Test
  void laterMessagesTakePrecedenceOverlapsAndStrides() throws Exception {
    Ncs n = new Ncs().dim("t", 8).dim("x", 5).var("v", DataType.INT, "t x", Float.NaN).header();
    Array want = Array.factory(DataType.INT, new int[] {8, 5});
    String[] sections = {"0:7,0:4", "2:5,1:3", "0:6:2,0:4", "3,0:4:2", "1:7:3,1:4:3"};
    int base = 0;
    for (String s : sections) {
      Section sec = new Section(s);
      Array vals = ints(sec.getShape(), base);
      n.data("v", DataType.INT, s, base % 2000 == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN, base == 2000, vals);
      put(want, s, vals);
      base += 1000;
    }
    Path p = n.end(tmp.resolve("overlaps.ncs"));
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      assertSections(nc, "v", want);
    }
  }

  @Test
  void stringsAndOpaqueWithByteLengths() throws Exception {
    Ncs n = new Ncs().dim("n", 4);
    n.root.addVars(NcStreamProto.Variable.newBuilder().setName("s").setDataType(NcStreamProto.DataType.STRING)
        .addShape(n.root.getDims(0)));
    n.root.addVars(NcStreamProto.Variable.newBuilder().setName("o").setDataType(NcStreamProto.DataType.OPAQUE)
        .addShape(n.root.getDims(0)));
    n.header();
    String[] s = {"a", "grüße", "日本語", "𝄞 clef"};
    byte[][] sb = new byte[4][];
    for (int i = 0; i < 4; i++) {
      sb[i] = s[i].getBytes(StandardCharsets.UTF_8);
    }
    n.objects("s", DataType.STRING, "0:3", sb);
    n.objects("s", DataType.STRING, "2", "later".getBytes(StandardCharsets.UTF_8));
    n.objects("o", DataType.OPAQUE, "1:2", new byte[] {1, 2, 3}, new byte[0]);
    Path p = n.end(tmp.resolve("strings.ncs"));
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      Array a = nc.findVariable("s").read();
      assertEquals(DataType.STRING, a.getDataType());
      assertEquals("a", a.getObject(0));
      assertEquals("grüße", a.getObject(1));
      assertEquals("later", a.getObject(2));
      assertEquals("𝄞 clef", a.getObject(3));
      assertEquals("𝄞 clef", nc.findVariable("s").read("3:3").getObject(0));
      Array o = nc.findVariable("o").read();
      assertEquals(4, o.getSize());
      ByteBuffer b1 = (ByteBuffer) o.getObject(1);
      assertArrayEquals(new byte[] {1, 2, 3}, java.util.Arrays.copyOfRange(b1.array(), b1.position(), b1.limit()));
      assertEquals(0, ((ByteBuffer) o.getObject(3)).remaining());
    }
  }

  /**
   * Inflated payloads are held to the project's one allocation bound (Bounds, {@code -Dchunkcdm.maxAllocation}):
   * a deflated string message of unknown inflated size, and a deflated number message whose section needs more,
   * are refused with a LimitException naming file, variable and message; below the bound both read.
   */
  @Test
  void inflatedPayloadsAreHeldToTheAllocationBound() throws Exception {
    Ncs n = new Ncs().dim("n", 400).var("v", DataType.INT, "n", Float.NaN);
    n.root.addVars(NcStreamProto.Variable.newBuilder().setName("s").setDataType(NcStreamProto.DataType.STRING)
        .addShape(n.root.getDims(0)));
    n.header();
    n.data("v", DataType.INT, "0:399", ByteOrder.BIG_ENDIAN, true, ints(new int[] {400}, 3));
    ByteArrayOutputStream items = new ByteArrayOutputStream();
    for (int i = 0; i < 400; i++) {
      byte[] b = ("string number " + i + " of a well compressible message").getBytes(StandardCharsets.UTF_8);
      NcStream.writeVInt(items, b.length);
      items.write(b);
    }
    Deflater def = new Deflater(9);
    def.setInput(items.toByteArray());
    def.finish();
    byte[] z = new byte[items.size() + 64];
    int zn = def.deflate(z);
    def.end();
    n.message(NcStreamProto.Data.newBuilder().setVarName("s").setDataType(NcStreamProto.DataType.STRING)
        .setSection(NcStream.encodeSection(new Section("0:399"))).setCompress(NcStreamProto.Compress.DEFLATE)
        .setUncompressedSize(items.size()).setVersion(3).build().toByteArray());
    NcStream.writeVInt(n.out, zn);
    n.out.write(z, 0, zn);
    Path p = n.end(tmp.resolve("bound.ncs"));
    assertTrue(zn < 1150 && items.size() > 10000, zn + " -> " + items.size());
    String old = System.getProperty("chunkcdm.maxAllocation");
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      System.setProperty("chunkcdm.maxAllocation", "1200"); // above the deflated bytes, below the inflated
      IOException e = assertThrows(IOException.class, () -> nc.findVariable("s").read());
      assertInstanceOf(org.chunkcdm.blosc.LimitException.class, e, String.valueOf(e));
      NetcdfChecks.assertMentions(e, "bound.ncs", "variable 's'", "inflated", "chunkcdm.maxAllocation");
      e = assertThrows(IOException.class, () -> nc.findVariable("v").read());
      assertInstanceOf(org.chunkcdm.blosc.LimitException.class, e, String.valueOf(e));
      NetcdfChecks.assertMentions(e, "bound.ncs", "variable 'v'", "1600 bytes");
      e = assertThrows(IOException.class, () -> nc.findVariable("v").read("0:9")); // 40 bytes from a 1600-byte message
      assertInstanceOf(org.chunkcdm.blosc.LimitException.class, e, String.valueOf(e));
      NetcdfChecks.assertMentions(e, "bound.ncs", "variable 'v'", "1600 bytes");
      System.clearProperty("chunkcdm.maxAllocation");
      assertEquals("string number 399 of a well compressible message", nc.findVariable("s").read("399").getObject(0));
      assertEquals(3 + 399, nc.findVariable("v").read("399").getInt(0));
    } finally {
      if (old == null) {
        System.clearProperty("chunkcdm.maxAllocation");
      } else {
        System.setProperty("chunkcdm.maxAllocation", old);
      }
    }
  }

  /** A variable-length array {@code int levels(n, *)}: one object per element of the fixed dimensions. */
  @Test
  void variableLengthArrays() throws Exception {
    Ncs n = new Ncs().dim("n", 3);
    n.root.addVars(NcStreamProto.Variable.newBuilder().setName("levels").setDataType(NcStreamProto.DataType.INT)
        .addShape(n.root.getDims(0)).addShape(NcStreamProto.Dimension.newBuilder().setIsVlen(true).setIsPrivate(true)));
    n.header();
    NcStreamProto.Data d = NcStreamProto.Data.newBuilder().setVarName("levels").setDataType(NcStreamProto.DataType.INT)
        .setSection(NcStream.encodeSection(new Section("0:2"))).setVdata(true).setBigend(true).setVersion(3).build();
    n.message(d.toByteArray());
    int[][] rows = {{1, 2, 3}, {}, {40, 50}};
    NcStream.writeVInt(n.out, rows.length);
    for (int[] r : rows) {
      NcStream.writeVInt(n.out, r.length * 4);
      for (int x : r) {
        n.out.write(new byte[] {(byte) (x >>> 24), (byte) (x >>> 16), (byte) (x >>> 8), (byte) x});
      }
    }
    Path p = n.end(tmp.resolve("vlen.ncs"));
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      Array a = nc.findVariable("levels").read();
      assertEquals(3, a.getSize());
      for (int i = 0; i < 3; i++) {
        Array row = (Array) a.getObject(i);
        assertEquals(rows[i].length, row.getSize(), "row " + i);
        for (int j = 0; j < rows[i].length; j++) {
          assertEquals(rows[i][j], row.getInt(j), "row " + i + " element " + j);
        }
      }
    }
  }

  @Test
  void anErrorMessageInTheStreamIsNamed() throws Exception {
    Ncs n = new Ncs().dim("t", 4).var("v", DataType.INT, "t", Float.NaN).header();
    n.data("v", DataType.INT, "0:1", ByteOrder.BIG_ENDIAN, false, ints(new int[] {2}, 0));
    n.error("disk on fire while reading v");
    Path p = n.end(tmp.resolve("error.ncs"));
    IOException e = assertThrows(IOException.class, () -> NcStreamFileIosp.open(p.toString()).close());
    NetcdfChecks.assertMentions(e, "error.ncs", "error message", "disk on fire while reading v");
  }

  @Test
  void truncatedOrCorruptFilesAreIOExceptionsNamingFileAndVariable() throws Exception {
    Ncs n = new Ncs().dim("t", 100).var("v", DataType.DOUBLE, "t", Float.NaN).var("w", DataType.INT, "t", Float.NaN).header();
    Array d = Array.factory(DataType.DOUBLE, new int[] {50});
    n.data("v", DataType.DOUBLE, "0:49", ByteOrder.BIG_ENDIAN, false, d);
    n.data("w", DataType.INT, "0:99", ByteOrder.LITTLE_ENDIAN, true, ints(new int[] {100}, 7));
    Path good = n.end(tmp.resolve("good.ncs"));
    byte[] all = Files.readAllBytes(good);
    try (NetcdfFile nc = NcStreamFileIosp.open(good.toString())) {
      assertEquals(106, nc.findVariable("w").read("99").getInt(0));
    }
    int dataAt = TestFiles.indexOf(all, NcStream.MAGIC_DATA);
    for (int cut : new int[] {2, 6, 9, dataAt + 2, dataAt + 20, dataAt + 100, all.length - 1, all.length - 4}) {
      Path p = tmp.resolve("cut" + cut + ".ncs");
      Files.write(p, java.util.Arrays.copyOf(all, cut));
      Exception e = assertThrows(Exception.class, () -> {
        try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
          nc.findVariable("v").read();
          nc.findVariable("w").read();
        }
      }, "cut at " + cut);
      assertInstanceOf(IOException.class, e, "cut at " + cut + ": " + e);
      if (cut > 8) {
        NetcdfChecks.assertMentions(e, p.getFileName().toString());
      }
      if (cut >= dataAt + 60 && cut < all.length - 4) { // past the data message's own header
        NetcdfChecks.assertMentions(e, "variable '");
      }
    }
    // corrupt deflate bytes: the read (not the open) fails, naming the variable
    int last = all.length - 4;
    Path bad = tmp.resolve("corrupt.ncs");
    byte[] c = all.clone();
    for (int i = last - 30; i < last - 5; i++) {
      c[i] ^= 0x5a;
    }
    Files.write(bad, c);
    try (NetcdfFile nc = NcStreamFileIosp.open(bad.toString())) {
      IOException e = assertThrows(IOException.class, () -> nc.findVariable("w").read());
      NetcdfChecks.assertMentions(e, "corrupt.ncs", "variable 'w'");
    }
    // a data message for a variable no header defines
    Ncs u = new Ncs().dim("t", 4).var("v", DataType.INT, "t", Float.NaN).header();
    u.data("nope", DataType.INT, "0:1", ByteOrder.BIG_ENDIAN, false, ints(new int[] {2}, 0));
    Path up = u.end(tmp.resolve("unknown.ncs"));
    IOException e = assertThrows(IOException.class, () -> NcStreamFileIosp.open(up.toString()).close());
    NetcdfChecks.assertMentions(e, "unknown.ncs", "'nope'");
    // a section outside the variable
    Ncs o = new Ncs().dim("t", 4).var("v", DataType.INT, "t", Float.NaN).header();
    o.data("v", DataType.INT, "3:5", ByteOrder.BIG_ENDIAN, false, ints(new int[] {3}, 0));
    Path op = o.end(tmp.resolve("outside.ncs"));
    e = assertThrows(IOException.class, () -> NcStreamFileIosp.open(op.toString()).close());
    NetcdfChecks.assertMentions(e, "outside.ncs", "variable 'v'");
  }

  /** META-INF/services lists the reader (found after netcdf-java's built-ins: register it to put it first). */
  @Test
  void servicesFileListsTheReader() {
    boolean found = false;
    for (ucar.nc2.iosp.IOServiceProvider p : java.util.ServiceLoader.load(ucar.nc2.iosp.IOServiceProvider.class)) {
      found |= p instanceof NcStreamFileIosp;
    }
    assertTrue(found);
  }

  @Test
  void releaseAndReacquireKeepReading() throws Exception {
    Ncs n = new Ncs().dim("t", 30).var("v", DataType.INT, "t", Float.NaN).header();
    n.data("v", DataType.INT, "0:29", ByteOrder.LITTLE_ENDIAN, false, ints(new int[] {30}, 5));
    Path p = n.end(tmp.resolve("cache.ncs"));
    try (NetcdfFile nc = NcStreamFileIosp.open(p.toString())) {
      NcStreamFileIosp iosp = (NcStreamFileIosp) nc.getIosp();
      long lm = iosp.getLastModified();
      assertEquals(Files.getLastModifiedTime(p).toMillis(), lm);
      iosp.release();
      assertEquals(12, nc.findVariable("v").read("7").getInt(0));
      iosp.reacquire();
      assertEquals(34, nc.findVariable("v").read("29").getInt(0));
      assertTrue(iosp.dataMessageCount() == 1);
    }
  }
}
