package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The member templates of {@link Templates} (a plain header's variable members served from the
 * templates of byte-identical members, up to their {@code .offset}/{@code .len} digits): every file reads
 * exactly as through the reference parse, a file rewritten between opens reads its new content, many threads
 * opening different files read their own values, and a collection of same-shaped files parses each member
 * definition once.
 */
class TemplateTest {
  @TempDir
  Path tmp;

  @AfterEach
  void referenceParseOff() {
    DsDatasets.useTemplates = true;
  }

  /** One station-day file: time(24) float64, temp(24, 10) float32 masked with _FillValue, count(24) int32, title. */
  static Path station(Path p, int seed, String units, String tempType) throws IOException {
    Random r = new Random(seed);
    double[] time = new double[24];
    int[] count = new int[24];
    for (int k = 0; k < 24; k++) {
      time[k] = seed + k;
      count[k] = r.nextInt(1000);
    }
    boolean[] mask = new boolean[240];
    ByteBuffer temp = ByteBuffer.allocate(240 * (tempType.equals("float64") ? 8 : 4)).order(ByteOrder.LITTLE_ENDIAN);
    for (int k = 0; k < 240; k++) {
      mask[k] = r.nextInt(1 + seed % 7 + 3) == 0;
      float v = mask[k] ? -9999f : seed + k / 1000f;
      if (tempType.equals("float64")) {
        temp.putDouble(v);
      } else {
        temp.putFloat(v);
      }
    }
    DsWriter w = new DsWriter();
    w.numeric("time", "float64", new long[] {24}, new String[] {"time"}, false, DsBenchmark.le(time), null)
        .put("units", "hours since 2020-01-01 00:00:00");
    w.numeric("temp", tempType, new long[] {24, 10}, new String[] {"time", "lat"}, false, temp.array(), mask)
        .put("units", units).put("_FillValue", -9999.0);
    w.numeric("count", "int32", new long[] {24}, new String[] {"time"}, false, DsBenchmark.le(count), null);
    w.dataset().put("title", "station " + seed).put("id", seed);
    return w.write(p);
  }

  /** The expected temp value of {@link #station} (NaN for missing). */
  static double[] expectedTemp(int seed) {
    Random r = new Random(seed);
    for (int k = 0; k < 24; k++) {
      r.nextInt(1000);
    }
    double[] t = new double[240];
    for (int k = 0; k < 240; k++) {
      boolean m = r.nextInt(1 + seed % 7 + 3) == 0;
      t[k] = m ? Double.NaN : seed + k / 1000f;
    }
    return t;
  }

  static void checkStation(NetcdfFile nc, int seed, String units) throws IOException {
    String where = nc.getLocation();
    double[] time = (double[]) nc.findVariable("time").read().get1DJavaArray(double.class);
    assertEquals(seed, time[0], where);
    assertEquals(seed + 23, time[23], where);
    Variable temp = nc.findVariable("temp");
    assertEquals(units, temp.findAttribute("units").getStringValue(), where);
    Array a = temp.read();
    double[] want = expectedTemp(seed);
    for (int k = 0; k < 240; k++) {
      double got = a.getDouble(k);
      assertEquals(Double.isNaN(want[k]) ? -9999.0 : want[k], got, 1e-9, where + " temp[" + k + "]");
    }
    Random r = new Random(seed);
    int[] count = (int[]) nc.findVariable("count").read().get1DJavaArray(int.class);
    for (int k = 0; k < 24; k++) {
      assertEquals(r.nextInt(1000), count[k], where + " count[" + k + "]");
    }
    assertEquals("station " + seed, nc.findGlobalAttribute("title").getStringValue(), where);
    assertEquals(seed, nc.findGlobalAttribute("id").getNumericValue().intValue(), where);
  }

  /** The CDL of a file and every variable's values, as one comparable list. */
  static List<Object> contents(Path p) throws IOException {
    List<Object> out = new ArrayList<>();
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      out.add(nc.toString());
      for (Variable v : nc.getVariables()) {
        for (Attribute a : v.attributes()) {
          out.add(v.getFullName() + ":" + a + " " + a.getDataType());
        }
        out.add(v.read().copyTo1DJavaArray());
        out.add(Arrays.toString(v.getShape()));
      }
    }
    return out;
  }

  static void assertSameContents(List<Object> want, List<Object> got, String what) {
    assertEquals(want.size(), got.size(), what);
    for (int i = 0; i < want.size(); i++) {
      assertTrue(Arrays.deepEquals(new Object[] {want.get(i)}, new Object[] {got.get(i)}), what + " item " + i
          + ": " + want.get(i) + " vs " + got.get(i));
    }
  }

  /** Every fixture: the same CDL, attributes (with types) and values through templates (cold and warm) as through the reference parse. */
  @Test
  void everyFixtureReadsAsTheReferenceParse() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(Fixtures.family("ds"))) {
      files = s.filter(p -> p.toString().endsWith(".ds")).sorted().collect(java.util.stream.Collectors.toList());
    }
    assertTrue(files.size() >= 10, "fixtures found: " + files);
    int plain = 0;
    for (Path f : files) {
      DsDatasets.useTemplates = false;
      List<Object> want = contents(f);
      DsDatasets.useTemplates = true;
      Templates.clear();
      assertSameContents(want, contents(f), f + " (templates made)");
      assertSameContents(want, contents(f), f + " (templates reused)");
      byte[] b = Files.readAllBytes(f);
      int h0 = b[0] == 'd' ? indexOf(b, 0, (byte) '\n') + 1 : 0;
      plain += HeaderScan.scan(b, h0, indexOf(b, h0, (byte) '\n')) != null ? 1 : 0;
    }
    assertTrue(plain >= files.size() / 2, "most fixtures take the template path: " + plain + " of " + files.size());
  }

  private static int indexOf(byte[] b, int from, byte v) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  /** A file rewritten in place between opens (other values, mask, lengths, units, even type) reads its new content. */
  @Test
  void aFileChangedOnDiskReadsItsNewContent() throws IOException {
    Path p = tmp.resolve("s.ds");
    int[] seeds = {1, 2, 3, 4, 5};
    String[] units = {"K", "K", "C", "degC", "K"}; // "C": the same length as "K", so only the bytes differ
    String[] types = {"float32", "float32", "float32", "float32", "float64"};
    for (int i = 0; i < seeds.length; i++) {
      station(p, seeds[i], units[i], types[i]);
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        checkStation(nc, seeds[i], units[i]);
        assertEquals(types[i].equals("float64") ? ucar.ma2.DataType.DOUBLE : ucar.ma2.DataType.FLOAT,
            nc.findVariable("temp").getDataType());
      }
    }
  }

  /** 8 threads open 400 different files of 4 shapes at once: each reads its own values. */
  @Test
  void manyThreadsOpeningDifferentFiles() throws Exception {
    int files = 400;
    List<Path> paths = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      paths.add(station(tmp.resolve("t" + i + ".ds"), i, i % 2 == 0 ? "K" : "C", i % 4 < 2 ? "float32" : "float64"));
    }
    Templates.clear();
    NetcdfChecks.inParallel(8, first -> () -> {
      for (int round = 0; round < 3; round++) {
        for (int i = first; i < files; i += 8) {
          int k = (i + 13 * round) % files;
          try (NetcdfFile nc = NetcdfFiles.open(paths.get(k).toString())) {
            checkStation(nc, k, k % 2 == 0 ? "K" : "C");
          }
        }
      }
      return null;
    });
  }

  /** Files of one collection: after the first, no member is parsed again (whatever their offsets and lengths). */
  @Test
  void aCollectionParsesEachMemberDefinitionOnce() throws IOException {
    Templates.clear();
    long made0 = Templates.MADE.get();
    for (int i = 0; i < 50; i++) {
      Path p = station(tmp.resolve("c" + i + ".ds"), 7 * i, "K", "float32"); // masks (hence .len) differ
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        checkStation(nc, 7 * i, "K");
      }
      assertEquals(3, Templates.MADE.get() - made0, "templates made after file " + i);
    }
  }

  /** Headers the scan must not take, or takes with care: same result or same error as the reference parse. */
  @Test
  void unusualHeadersReadAsTheReferenceParse() throws IOException {
    String body = "\u0000\u0000\u0000\u0001\u0000\u0000\u0000\u0002";
    String[] headers = {
      // .len before .offset, blanks, tabs
      "{ \"a\" : { \".size\" : [2], \".len\" :8 ,\t\".offset\": 0, \".type\": \"int32\", \".endian\": \"b\"} }",
      // an escaped key (reference path), a non-ASCII attribute, an escaped attribute value
      "{\"a\\u0062\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\", \"u\": \"\u00e9\\n\"}}",
      // a reserved key, a dataset member with nested and float values
      "{\".format\": 1, \"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}, \".\": {\"x\": {\"y\": 1.5}, \"n\": -12, \"big\": 12345678901, \"l\": [1, 2]}}",
      // a key twice in the dataset member, names that become one CDM name
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}, \".\": {\"a b\": \"1\", \"a_b\": \"2\", \"a b\": \"3\"}}",
      // .offset twice in one member (the last counts)
      "{\"a\": {\".size\": [2], \".offset\": 4, \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}}",
      // errors: a float offset, a leading zero, a negative length, a variable that is not an object, two CDM names
      "{\"a\": {\".size\": [2], \".offset\": 0.0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}}",
      "{\"a\": {\".size\": [2], \".offset\": 00, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}}",
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": -8, \".type\": \"int32\", \".endian\": \"b\"}}",
      "{\"a\": [1, 2]}",
      "{\"a b\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\"}, \"a_b\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\"}}",
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}, \".\": {\"t\": \"x\"}, \".\": {\"t\": \"y\"}}",
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}} x",
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\" \"x\": 1}}",
      // after headers whose "a" has a .len: an "a" without one (the guess and the name both fail to match)
      "{\"a\": {\".size\": [2], \".offset\": 0, \".type\": \"int32\", \".endian\": \"b\"}}",
      // known members in another order, then one more
      "{\"b\": {\".size\": [1], \".offset\": 4, \".len\": 4, \".type\": \"int32\", \".endian\": \"b\"}, \"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}}",
      "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}, \"b\": {\".size\": [1], \".offset\": 4, \".len\": 4, \".type\": \"int32\", \".endian\": \"b\"}, \"c\": {\".size\": [1], \".offset\": 0, \".len\": 4, \".type\": \"float32\", \".endian\": \"b\"}}",
    };
    StringBuilder many = new StringBuilder("{");
    for (int i = 0; i < 20; i++) { // more than 16 variables (a set finds the two CDM names), "v 7" and "v_7" collide
      many.append(i == 0 ? "" : ", ").append("\"v").append(i == 19 ? " 7" : "_" + i)
          .append("\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\"}");
    }
    headers = Arrays.copyOf(headers, headers.length + 2);
    headers[headers.length - 2] = many + "}";
    headers[headers.length - 1] = many.toString().replace("\"v 7\"", "\"v_19\"") + "}";
    for (int i = 0; i < headers.length; i++) {
      Path p = tmp.resolve("u" + i + ".ds");
      Files.write(p, ("ds-1.0\n" + headers[i] + "\n" + body).getBytes(StandardCharsets.UTF_8));
      DsDatasets.useTemplates = false;
      Object want = contentsOrError(p);
      DsDatasets.useTemplates = true;
      for (int pass = 0; pass < 2; pass++) {
        Object got = contentsOrError(p);
        if (want instanceof String) {
          assertEquals(want, got, headers[i]);
        } else {
          assertTrue(got instanceof List, headers[i] + ": " + got);
          @SuppressWarnings("unchecked")
          List<Object> g = (List<Object>) got;
          @SuppressWarnings("unchecked")
          List<Object> w = (List<Object>) want;
          assertSameContents(w, g, headers[i]);
        }
      }
    }
  }

  private static Object contentsOrError(Path p) {
    try {
      return contents(p);
    } catch (IOException e) {
      return "error: " + e.getMessage();
    }
  }

  /** The scan itself: members, their digits, and headers it leaves to the reference parse. */
  @Test
  void scanFindsMembersAndTheirPlace() {
    byte[] b = "{\"x\": {\".size\": [3], \".offset\": 120, \".len\": 24}, \".\": {\"t\": 1}}".getBytes(StandardCharsets.US_ASCII);
    List<HeaderScan.Span> s = HeaderScan.scan(b, 0, b.length);
    assertNotNull(s);
    assertEquals(2, s.size());
    assertEquals("x", s.get(0).key(b));
    assertEquals(120, s.get(0).offset);
    assertEquals(24, s.get(0).len);
    assertTrue(s.get(1).dataset);
    for (String h : new String[] {"[1]", "{\"x\": 1}", "{\"x\\\"\": {}}", "{\".y\": {}}", "{\"x\": {}", "{\"x\": {}} 1",
        "{\"x\": {\".offset\": 1, \".offset\": 2}}", "{\"\u00e9\": {}}"}) {
      byte[] hb = h.getBytes(StandardCharsets.UTF_8);
      assertNull(HeaderScan.scan(hb, 0, hb.length), h);
    }
    byte[] e = "{}".getBytes(StandardCharsets.US_ASCII);
    assertEquals(0, HeaderScan.scan(e, 0, e.length).size());
  }

  /** The template bounds: entries and key sizes are capped; an over-long member still reads. */
  @Test
  void longMembersAreParsedButNotKept() throws IOException {
    Templates.clear();
    StringBuilder longAttr = new StringBuilder();
    for (int i = 0; i < Templates.MAX_KEY; i++) {
      longAttr.append('a');
    }
    String h = "{\"a\": {\".size\": [2], \".offset\": 0, \".len\": 8, \".type\": \"int32\", \".endian\": \"b\", \"doc\": \""
        + longAttr + "\"}}";
    Path p = tmp.resolve("long.ds");
    Files.write(p, ("ds-1.0\n" + h + "\n\u0000\u0000\u0000\u0007\u0000\u0000\u0000\u0008").getBytes(StandardCharsets.US_ASCII));
    long made0 = Templates.MADE.get();
    for (int i = 0; i < 2; i++) {
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        assertArrayEquals(new int[] {7, 8}, (int[]) nc.findVariable("a").read().get1DJavaArray(int.class));
        assertEquals(longAttr.toString(), nc.findVariable("a").findAttribute("doc").getStringValue());
      }
    }
    assertEquals(2, Templates.MADE.get() - made0, "parsed at each open, never kept");
  }
}
