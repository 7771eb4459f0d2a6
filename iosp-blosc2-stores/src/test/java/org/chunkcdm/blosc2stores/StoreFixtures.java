package org.chunkcdm.blosc2stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;

/**
 * The store fixtures (testdata/blosc2-stores) as the shared contract's expectations, built from MANIFEST.json
 * independently of the reader: type by the dtype string (plain SChunk values by their frame typesize), shape,
 * raw values or UCS-4 strings, the CDM full name of the key path; and the manifest's attributes, compared with
 * CDM attributes by the rules of docs/cdm-contract.md (maps flattened, tuples as lists, NaN as NaN).
 */
final class StoreFixtures {
  static final String FAMILY = "blosc2-stores";
  static final String[] KINDS = {"blosc2-store", "blosc2-ctable"};

  private StoreFixtures() {}

  static List<Fixtures.Dataset> datasets() {
    return Fixtures.manifest(FAMILY).datasets(KINDS);
  }

  static Fixtures.Dataset dataset(String path) {
    return Fixtures.manifest(FAMILY).dataset(path);
  }

  /** A key path's CDM path: each level a valid CDM name (spaces as underscores). */
  static String cdmPath(String path) {
    return path.replace(' ', '_');
  }

  /** netcdf-java's escaped full name of a key path: each level valid, dots and backslashes escaped. */
  static String cdmName(String path) {
    return cdmPath(path).replace("\\", "\\\\").replace(".", "\\.");
  }

  /** What the variable must hold. */
  static Expected expected(Fixtures.Variable fv) {
    JsonNode v = fv.json();
    String dt = fv.dtype();
    String name = cdmName(fv.name());
    byte[] raw = fv.expected();
    long[] shape = fv.shape();
    long[] chunk = longs(v.path("frame").path("chunks"));
    long[] block = longs(v.path("frame").path("blocks"));
    if (dt.equals("bytes")) { // a plain SChunk: the contract's typesize rule
      int ts = v.path("frame").path("typesize").asInt();
      DataType t = ts == 1 ? DataType.UBYTE : ts == 2 ? DataType.USHORT : ts == 4 ? DataType.UINT : DataType.ULONG;
      long cs = v.path("frame").path("chunksize").asLong() / ts;
      return Expected.values(fv.toString(), name, t, new long[] {raw.length / ts}, ts, raw)
          .chunks(new long[] {Math.max(1, cs)}, null);
    }
    if (dt.startsWith("<U")) {
      int units = Integer.parseInt(dt.substring(2));
      String[] s = new String[raw.length / (4 * units)];
      for (int i = 0; i < s.length; i++) {
        s[i] = Expected.ucs4(raw, 4 * units * i, units);
      }
      return Expected.strings(fv.toString(), name, shape, s);
    }
    if (dt.startsWith("|S")) {
      int n = Integer.parseInt(dt.substring(2));
      return Expected.values(fv.toString(), name, DataType.CHAR, shape, n, raw).extraDim(n).chunks(chunk, block);
    }
    if (dt.equals("<f2")) { // float16 reads as FLOAT (exact)
      java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(raw.length * 2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < raw.length / 2; i++) {
        out.putFloat(half(in.getShort(2 * i)));
      }
      return Expected.values(fv.toString(), name, DataType.FLOAT, shape, 4, out.array()).chunks(chunk, block);
    }
    if (dt.equals("<c8") || dt.equals("<c16")) { // complex: real and imaginary parts on a last dimension of 2
      boolean single = dt.equals("<c8");
      return Expected.values(fv.toString(), name, single ? DataType.FLOAT : DataType.DOUBLE, shape, single ? 8 : 16, raw)
          .extraDim(2).chunks(chunk, block);
    }
    Expected e = Expected.numeric(fv, name);
    assertNotNull(e, fv + ": dtype " + dt + " has no expectation here");
    return e.chunks(chunk, block);
  }

  /** IEEE half precision to float (exact). */
  static float half(short h) {
    int s = (h >> 15) & 1;
    int e = (h >> 10) & 0x1f;
    int m = h & 0x3ff;
    float v;
    if (e == 0) {
      v = m * 0x1p-24f;
    } else if (e == 31) {
      v = m == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      v = (1 + m / 1024f) * (float) Math.pow(2, e - 15);
    }
    return s == 1 ? -v : v;
  }

  static long[] longs(JsonNode a) {
    if (!a.isArray() || a.size() == 0) {
      return null;
    }
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asLong();
    }
    return out;
  }

  static List<Expected> expected(Fixtures.Dataset d) {
    List<Expected> out = new ArrayList<>();
    for (Fixtures.Variable v : d.variables()) {
      out.add(expected(v));
    }
    return out;
  }

  // ------------------------------------------------------------------ attributes

  /** The manifest's attributes (a JSON object) as CDM attribute name → expected values (flattened, as the contract). */
  static Map<String, JsonNode> flatten(JsonNode attrs) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    flatten("", attrs, out);
    return out;
  }

  private static void flatten(String prefix, JsonNode obj, Map<String, JsonNode> out) {
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      String n = prefix + e.getKey();
      if (v.isObject() && !v.has("$float") && v.size() > 0) {
        flatten(n + ".", v, out);
      } else {
        out.put(n.replace(' ', '_').replace('/', '_'), v);
      }
    }
  }

  /** Every manifest attribute is in {@code actual} with its value. */
  static void assertAttributes(JsonNode manifest, Iterable<Attribute> actual, String what) {
    Map<String, Attribute> have = new LinkedHashMap<>();
    for (Attribute a : actual) {
      have.put(a.getShortName(), a);
    }
    for (Map.Entry<String, JsonNode> e : flatten(manifest).entrySet()) {
      Attribute a = have.get(e.getKey());
      assertNotNull(a, what + ": attribute " + e.getKey() + " missing from " + have.keySet());
      assertValue(e.getValue(), a, what + ": attribute " + e.getKey());
    }
  }

  static void assertValue(JsonNode want, Attribute a, String what) {
    if (want.isArray()) {
      assertEquals(want.size(), a.getLength(), what + " length");
      for (int i = 0; i < want.size(); i++) {
        assertScalar(want.get(i), a, i, what + "[" + i + "]");
      }
    } else {
      assertEquals(1, a.getLength(), what + " length");
      assertScalar(want, a, 0, what);
    }
  }

  private static void assertScalar(JsonNode want, Attribute a, int i, String what) {
    if (want.isTextual()) {
      assertEquals(want.textValue(), a.getStringValue(i) != null ? a.getStringValue(i) : a.getValue(i), what);
    } else if (want.isBoolean()) {
      assertEquals(String.valueOf(want.booleanValue()), a.getStringValue(), what);
    } else if (want.isIntegralNumber()) {
      assertTrue(a.getDataType().isIntegral(), what + " is " + a.getDataType());
      Number n = a.getNumericValue(i);
      long got = a.getDataType().isUnsigned() && a.getDataType() == DataType.ULONG ? n.longValue() : n.longValue();
      assertEquals(want.bigIntegerValue().longValue(), got, what);
    } else if (want.isNumber()) {
      assertEquals(DataType.DOUBLE, a.getDataType(), what + " type");
      assertEquals(Double.doubleToLongBits(want.doubleValue()), Double.doubleToLongBits(a.getNumericValue(i).doubleValue()),
          what);
    } else if (want.isObject() && want.has("$float")) {
      double d = Double.parseDouble(want.get("$float").asText());
      assertEquals(DataType.DOUBLE, a.getDataType(), what + " type");
      assertEquals(Double.doubleToLongBits(d), Double.doubleToLongBits(a.getNumericValue(i).doubleValue()), what);
    } else {
      throw new AssertionError(what + ": no check for manifest value " + want);
    }
  }
}
