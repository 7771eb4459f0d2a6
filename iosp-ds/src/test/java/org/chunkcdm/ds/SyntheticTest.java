package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.time.CalendarDate;
import ucar.nc2.time.CalendarDateUnit;

/**
 * Files written by the test's {@link DsWriter} for what the fixtures do not cover: bitmasks over many rank-index
 * blocks, masked bool and strings, many strings over many length-index blocks, the experimental layout,
 * {@code .time}, variables without data, invented and conflicting dimension names.
 */
class SyntheticTest {
  @TempDir
  Path tmp;

  /** A masked variable over ~200 rank-index blocks: random sections equal a plain Java model. */
  @Test
  void maskedFloat64AcrossManyBlocksBigEndian() throws Exception {
    int rows = 251;
    int cols = 409;
    int n = rows * cols;
    Random r = new Random(7);
    double[] val = new double[n];
    boolean[] mask = new boolean[n];
    for (int i = 0; i < n; i++) {
      val[i] = r.nextGaussian() * 100;
      int blk = i / Bitmask.BLOCK;
      // whole blocks missing, whole blocks present, and random ones
      mask[i] = blk % 7 == 3 || blk % 7 != 5 && r.nextInt(10) < 3;
    }
    ByteBuffer le = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : val) {
      le.putDouble(v);
    }
    DsWriter w = new DsWriter();
    w.numeric("t", "float64", new long[] {rows, cols}, new String[] {"y", "x"}, true, le.array(), mask)
        .put("_FillValue", -9999.0);
    Path p = w.write(tmp.resolve("masked.ds"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("t");
      v.setCaching(false);
      assertEquals(-9999.0, v.findAttribute("_FillValue").getNumericValue().doubleValue());
      for (int k = 0; k < 200; k++) {
        int r0 = r.nextInt(rows);
        int c0 = r.nextInt(cols);
        int r1 = r0 + r.nextInt(rows - r0);
        int c1 = c0 + r.nextInt(cols - c0);
        int rs = 1 + r.nextInt(4);
        int cs = 1 + r.nextInt(4);
        Section s = new Section(List.of(new Range(r0, r1, rs), new Range(c0, c1, cs)));
        Array a = v.read(s);
        IndexIterator it = a.getIndexIterator();
        for (int i = r0; i <= r1; i += rs) {
          for (int j = c0; j <= c1; j += cs) {
            int e = i * cols + j;
            double want = mask[e] ? -9999.0 : val[e];
            assertEquals(want, it.getDoubleNext(), "element " + i + "," + j + " of " + s);
          }
        }
      }
    }
  }

  @Test
  void maskedBoolReadsFillOnMaskedCells() throws Exception {
    int n = 5000;
    Random r = new Random(3);
    byte[] val = new byte[n];
    boolean[] mask = new boolean[n];
    for (int i = 0; i < n; i++) {
      val[i] = (byte) r.nextInt(2);
      mask[i] = r.nextInt(4) == 0;
    }
    DsWriter w = new DsWriter();
    w.numeric("b", "bool", new long[] {n}, new String[] {"n"}, false, val, mask);
    Path p = w.write(tmp.resolve("b.ds"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("b");
      assertEquals(DataType.UBYTE, v.getDataType());
      assertEquals(255, v.findAttribute("_FillValue").getNumericValue().intValue() & 0xff);
      v.setCaching(false);
      for (int first = 0; first < 40; first++) {
        int stride = 1 + first % 5;
        Array a = v.read(new Section(List.of(new Range(first, n - 1, stride))));
        IndexIterator it = a.getIndexIterator();
        for (int i = first; i < n; i += stride) {
          assertEquals(mask[i] ? (byte) 255 : val[i], it.getByteNext(), "element " + i);
        }
      }
    }
  }

  /** Many strings (several length-index blocks), big-endian lengths, and masked strings read as "". */
  @Test
  void stringsAcrossIndexBlocksAndMasked() throws Exception {
    int n = 3 * DsStrings.BLOCK + 17;
    String[] plain = new String[n];
    String[] masked = new String[n];
    Random r = new Random(5);
    for (int i = 0; i < n; i++) {
      plain[i] = "s" + i + "é".repeat(r.nextInt(4));
      masked[i] = r.nextInt(3) == 0 ? null : "m" + i;
    }
    String[] latin = {"caf\u00e9", "ok", ""}; // str bytes e9 are not UTF-8: ISO-8859-1 fallback
    DsWriter w = new DsWriter();
    w.strings("u", "unicode", new long[] {n}, new String[] {"n"}, plain, true);
    w.strings("m", "unicode", new long[] {n}, new String[] {"n"}, masked, false);
    w.strings("s", "str", new long[] {3}, new String[] {"three"}, latin, false);
    Path p = w.write(tmp.resolve("s.ds"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable u = nc.findVariable("u");
      Variable m = nc.findVariable("m");
      u.setCaching(false);
      m.setCaching(false);
      for (int first = 0; first < 30; first += 3) {
        int stride = 1 + first % 7;
        Section s = new Section(List.of(new Range(first * 20, n - 1, stride)));
        IndexIterator a = u.read(s).getIndexIterator();
        IndexIterator b = m.read(s).getIndexIterator();
        for (int i = first * 20; i < n; i += stride) {
          assertEquals(plain[i], a.getObjectNext(), "u " + i);
          assertEquals(masked[i] == null ? "" : masked[i], b.getObjectNext(), "m " + i);
        }
      }
      Array s = nc.findVariable("s").read();
      for (int i = 0; i < 3; i++) {
        assertEquals(latin[i], s.getObject(i));
      }
    }
  }

  /**
   * The pre-1.0 experimental layout (ds-format documentation of 2.0.0: no version line, {@code .type}
   * float/int/uint with {@code .dsize} in bits, same body rules): recognised for files named {@code .ds}.
   */
  @Test
  void experimentalLayoutWithoutVersionLine() throws Exception {
    DsWriter w = new DsWriter();
    ByteBuffer le = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN).putDouble(1.5).putDouble(-2).putDouble(1e300);
    w.numeric("x", "float64", new long[] {3}, new String[] {"n"}, false, le.array(), null);
    w.numeric("i", "int16", new long[] {2}, new String[] {"two"}, true, new byte[] {1, 0, (byte) 0xff, (byte) 0xff}, null);
    String header = w.headerText().replace("\"float64\"", "\"float\", \".dsize\": 64")
        .replace("\"int16\"", "\"int\", \".dsize\": 16");
    byte[] full = w.bytes();
    int bodyAt = indexOf(full, (byte) '\n', indexOf(full, (byte) '\n', 0) + 1) + 1;
    byte[] body = java.util.Arrays.copyOfRange(full, bodyAt, full.length);
    Path p = tmp.resolve("old.ds");
    Files.write(p, concat((header + "\n").getBytes(StandardCharsets.UTF_8), body));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      assertArrayEquals(new double[] {1.5, -2, 1e300}, (double[]) nc.findVariable("x").read().copyTo1DJavaArray());
      assertArrayEquals(new short[] {1, -1}, (short[]) nc.findVariable("i").read().copyTo1DJavaArray());
    }
    // without the .ds name such a file is not claimed: plain JSON is not a ds file
    Path json = Files.copy(p, tmp.resolve("old.json"));
    assertThrows(IOException.class, () -> NetcdfFiles.open(json.toString()).close());
  }

  /** {@code .time: true}: Julian dates get CF units and calendar under which netcdf-java shows real dates. */
  @Test
  void julianDateTimeVariable() throws Exception {
    double[] jd = {2459000.5, 2440587.5, 2451545.0};
    ByteBuffer le = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    for (double d : jd) {
      le.putDouble(d);
    }
    DsWriter w = new DsWriter();
    w.numeric("time", "float64", new long[] {3}, new String[] {"time"}, false, le.array(), null).put(".time", true)
        .put("long_name", "time");
    Path p = w.write(tmp.resolve("t.ds"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("time");
      CalendarDateUnit u = CalendarDateUnit.withCalendar(
          ucar.nc2.time.Calendar.get(v.findAttribute("calendar").getStringValue()), v.findAttribute("units").getStringValue());
      Array a = v.read();
      assertEquals(CalendarDate.parseISOformat(null, "2020-05-31T00:00:00Z"), u.makeCalendarDate(a.getDouble(0)));
      assertEquals(CalendarDate.parseISOformat(null, "1970-01-01T00:00:00Z"), u.makeCalendarDate(a.getDouble(1)));
      assertEquals(CalendarDate.parseISOformat(null, "2000-01-01T12:00:00Z"), u.makeCalendarDate(a.getDouble(2)));
    }
    // and through the enhanced dataset's time axis
    try (ucar.nc2.dataset.NetcdfDataset ds = ucar.nc2.dataset.NetcdfDatasets.openDataset(p.toString())) {
      ucar.nc2.dataset.CoordinateAxis ax = ds.findCoordinateAxis("time");
      assertNotNull(ax, "time is a coordinate axis");
      ucar.nc2.dataset.CoordinateAxis1DTime t =
          ucar.nc2.dataset.CoordinateAxis1DTime.factory(ds, (ucar.nc2.dataset.VariableDS) ax, null);
      assertEquals(CalendarDate.parseISOformat(null, "2020-05-31T00:00:00Z"), t.getCalendarDate(0));
    }
  }

  /** {@code .size: null}: a scalar whose one value is missing; attributes are kept. */
  @Test
  void variableWithoutData() throws Exception {
    DsWriter w = new DsWriter();
    w.numeric("a", "int32", new long[] {2}, new String[] {"n"}, false, new byte[8], null);
    String h = w.headerText().replace("\".\":", "\"meta_only\": {\"units\": \"m\", \".size\": null, \".type\": null, "
        + "\".offset\": 8, \".len\": 0, \".missing\": false}, \"typed\": {\".size\": null, \".type\": \"float32\", "
        + "\".offset\": 8, \".len\": 0, \".missing\": false}, \"\\\\.hidden\": {\".size\": null}, \".\":");
    Path p = tmp.resolve("nodata.ds");
    Files.write(p, concat(("ds-1.0\n" + h + "\n").getBytes(StandardCharsets.UTF_8), new byte[8]));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("meta_only");
      assertEquals(0, v.getRank());
      assertEquals(DataType.BYTE, v.getDataType());
      assertEquals("m", v.findAttribute("units").getStringValue());
      assertEquals(-127, v.read().getByte(0));
      assertEquals(-127, v.findAttribute("_FillValue").getNumericValue().intValue());
      Variable t = nc.findVariable("typed");
      assertEquals(DataType.FLOAT, t.getDataType());
      assertEquals(9.96921e36f, t.read().getFloat(0), 1e31);
      assertNotNull(nc.getRootGroup().findVariableLocal(".hidden"), "escaped name unescaped");
    }
  }

  @Test
  void inventedDimensionNamesAndConflicts() throws Exception {
    DsWriter w = new DsWriter();
    w.numeric("grid", "int8", new long[] {2, 3}, null, false, new byte[6], null);
    w.numeric("other", "int8", new long[] {3}, new String[] {"grid_2"}, false, new byte[3], null);
    Path p = w.write(tmp.resolve("dims.ds"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("grid");
      assertEquals("grid_1", v.getDimension(0).getShortName());
      assertEquals("grid_2", v.getDimension(1).getShortName());
      assertTrue(v.getDimension(1) == nc.findVariable("other").getDimension(0), "grid_2 is shared");
    }
    DsWriter bad = new DsWriter();
    bad.numeric("a", "int8", new long[] {2}, new String[] {"n"}, false, new byte[2], null);
    bad.numeric("b", "int8", new long[] {3}, new String[] {"n"}, false, new byte[3], null);
    Path q = bad.write(tmp.resolve("conflict.ds"));
    IOException e = assertThrows(IOException.class, () -> NetcdfFiles.open(q.toString()).close());
    MalformedTest.assertMentions(e, "conflict.ds", "variable b", "dimension n", "2", "3");
  }

  /** Integers beyond 2^63 in attributes stay integral (ULONG up to 2^64-1, beyond that their text). */
  @Test
  void hugeIntegerAttributes() throws Exception {
    DsWriter w = new DsWriter();
    w.numeric("a", "int8", new long[] {1}, new String[] {"n"}, false, new byte[1], null);
    w.dataset().put("big", new java.math.BigInteger("18446744073709551615"));
    w.dataset().put("bigger", new java.math.BigInteger("123456789012345678901234567890"));
    Path p = w.write(tmp.resolve("big.ds"));
    assertTrue(Files.readString(p, StandardCharsets.ISO_8859_1).contains("\"big\":18446744073709551615"));
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Attribute big = nc.findGlobalAttribute("big");
      assertEquals(DataType.ULONG, big.getDataType());
      assertEquals(-1L, big.getNumericValue().longValue());
      assertEquals("123456789012345678901234567890", nc.findGlobalAttribute("bigger").getStringValue());
    }
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  static int indexOf(byte[] b, byte v, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  static List<String> names(NetcdfFile nc) {
    List<String> out = new ArrayList<>();
    nc.getVariables().forEach(v -> out.add(v.getShortName()));
    return out;
  }
}
