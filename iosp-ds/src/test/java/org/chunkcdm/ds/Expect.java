package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.AttributeContainer;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * What one manifest variable must look like through netcdf-java, computed here from the manifest alone
 * (expected raw little-endian values, masks, strings), independently of the reader's code: the values as the
 * shared contract's {@link Expected} ({@link #contract()}), the metadata and attributes checked here.
 */
final class Expect {
  static final JsonMapper LENIENT = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  final Fixtures.Variable fv;
  final String dtype; // ds type
  final long[] shape;
  final int n;
  final int item; // bytes per element of the expected file (bool 1), 0 for strings
  final byte[] raw; // expected LE values, masked positions replaced by the fill value; null for strings
  final boolean[] mask; // null when not masked
  final String[] strings; // for str/unicode

  Expect(Fixtures.Variable fv) {
    this.fv = fv;
    JsonNode j = fv.json();
    this.dtype = j.path("dtype").asText();
    this.shape = fv.shape();
    long c = 1;
    for (long s : shape) {
      c *= s;
    }
    this.n = (int) c;
    if (j.hasNonNull("mask")) {
      byte[] m = bytes(j.path("mask").asText());
      mask = new boolean[n];
      for (int i = 0; i < n; i++) {
        mask[i] = m[i] != 0;
      }
    } else {
      mask = null;
    }
    if (isString()) {
      item = 0;
      raw = null;
      strings = new String[n];
      for (int i = 0; i < n; i++) {
        JsonNode s = j.path("strings").get(i);
        if (s.isNull() && j.has("strings_hex")) {
          // str bytes that are not UTF-8: the reader falls back to ISO-8859-1
          strings[i] = new String(hex(j.path("strings_hex").get(i).asText()), StandardCharsets.ISO_8859_1);
        } else {
          strings[i] = s.isNull() ? "" : s.asText();
        }
      }
    } else {
      strings = null;
      item = dtype.equals("bool") ? 1 : Integer.parseInt(dtype.replaceAll("[a-z]", "")) / 8;
      byte[] r = fv.expected();
      assertEquals((long) n * item, r.length, fv + " expected file size");
      if (mask != null) {
        byte[] f = fillBytes();
        for (int i = 0; i < n; i++) {
          if (mask[i]) {
            System.arraycopy(f, 0, r, i * item, item);
          }
        }
      }
      raw = r;
    }
  }

  boolean isString() {
    return dtype.equals("str") || dtype.equals("unicode");
  }

  byte[] bytes(String rel) {
    try {
      return Files.readAllBytes(fv.dataset().file().getParent().resolve(relToDataset(rel)));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Manifest paths are relative to the manifest directory. */
  private String relToDataset(String rel) {
    String dsPath = fv.dataset().path();
    int depth = dsPath.split("/").length - 1;
    return "../".repeat(depth) + rel;
  }

  static byte[] hex(String h) {
    byte[] b = new byte[h.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }

  /** The CDM type the contract gives each numeric ds type (strings are STRING). */
  private static final Map<String, DataType> CDM_TYPES = Map.ofEntries(Map.entry("bool", DataType.UBYTE),
      Map.entry("uint8", DataType.UBYTE), Map.entry("int8", DataType.BYTE), Map.entry("int16", DataType.SHORT),
      Map.entry("uint16", DataType.USHORT), Map.entry("int32", DataType.INT), Map.entry("uint32", DataType.UINT),
      Map.entry("int64", DataType.LONG), Map.entry("uint64", DataType.ULONG), Map.entry("float32", DataType.FLOAT),
      Map.entry("float64", DataType.DOUBLE));

  /** netCDF's default fill of each type, written out here from the netCDF user guide's constants. */
  private static final Map<String, Number> NC_FILL = Map.ofEntries(Map.entry("float32", 9.9692099683868690e+36f),
      Map.entry("float64", 9.9692099683868690e+36), Map.entry("int8", -127), Map.entry("uint8", 255),
      Map.entry("bool", 255), Map.entry("int16", -32767), Map.entry("uint16", 65535),
      Map.entry("int32", -2147483647), Map.entry("uint32", 4294967295L), Map.entry("int64", -9223372036854775806L),
      Map.entry("uint64", new BigInteger("18446744073709551614")));

  /** The CDM type the contract gives this ds type. */
  DataType cdmType() {
    return CDM_TYPES.getOrDefault(dtype, DataType.STRING);
  }

  /**
   * The fill value masked cells must read as, little-endian: the file's own _FillValue when it has one, else
   * netCDF's default fill of the type.
   */
  byte[] fillBytes() {
    JsonNode own = fv.json().path("attrs").get("_FillValue");
    Number dflt = NC_FILL.get(dtype);
    if (dflt == null) {
      throw new AssertionError(dtype);
    }
    ByteBuffer b = ByteBuffer.allocate(item).order(ByteOrder.LITTLE_ENDIAN);
    if (dtype.startsWith("float")) {
      double v = own != null ? number(own) : dflt.doubleValue();
      if (item == 4) {
        b.putFloat((float) v);
      } else {
        b.putDouble(v);
      }
      return b.array();
    }
    long v = own == null ? dflt.longValue() : dtype.equals("uint64") ? own.bigIntegerValue().longValue() : own.asLong();
    for (int k = 0; k < item; k++) {
      b.put((byte) (v >>> 8 * k));
    }
    return b.array();
  }

  static double number(JsonNode v) {
    if (v.isObject() && v.has("$float")) {
      return Double.parseDouble(v.get("$float").asText());
    }
    return v.asDouble();
  }

  /** Converts the manifest's {"$float": "NaN"} objects back to plain (non-finite) numbers. */
  static JsonNode plain(JsonNode v) {
    if (v.isObject() && v.size() == 1 && v.has("$float")) {
      return DoubleNode.valueOf(Double.parseDouble(v.get("$float").asText()));
    }
    if (v.isObject()) {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      v.fields().forEachRemaining(e -> o.set(e.getKey(), plain(e.getValue())));
      return o;
    }
    if (v.isArray()) {
      var a = JsonNodeFactory.instance.arrayNode();
      v.forEach(x -> a.add(plain(x)));
      return a;
    }
    return v;
  }

  // ---------------------------------------------------------------- checks

  static Variable find(ucar.nc2.NetcdfFile nc, Fixtures.Variable fv) {
    Variable v = nc.getRootGroup().findVariableLocal(NetcdfFiles.makeValidCdmObjectName(fv.name()));
    assertNotNull(v, fv + " not found among " + nc.getVariables());
    return v;
  }

  /** Type, shape, dimension names and attributes (the contract's sections 2, 3, 5). */
  void assertMetadata(Variable v) {
    assertEquals(cdmType(), v.getDataType(), fv + " type");
    int[] want = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      want[d] = (int) shape[d];
    }
    assertArrayEquals(want, v.getShape(), fv + " shape");
    JsonNode dims = fv.json().path("dims");
    List<String> names = new ArrayList<>();
    for (Dimension d : v.getDimensions()) {
      assertTrue(d.isShared(), fv + " dimension " + d + " shared");
      names.add(d.getShortName());
    }
    List<String> wantNames = new ArrayList<>();
    for (int d = 0; d < shape.length; d++) {
      wantNames.add(NetcdfFiles.makeValidCdmObjectName(dims.isNull() ? fv.name() + "_" + (d + 1) : dims.get(d).asText()));
    }
    assertEquals(wantNames, names, fv + " dimensions");
    assertAttributes(fv.toString(), fv.json().path("attrs"), v.attributes(), !isString() ? cdmType() : null);
    assertEquals(null, v.findAttribute("_ChunkSizes"), fv + ": a .ds variable is not chunked");
    if (dtype.equals("bool")) {
      Attribute fl = v.findAttribute("flag_values");
      assertNotNull(fl, fv + " flag_values");
      assertEquals("false true", v.findAttribute("flag_meanings").getStringValue());
    }
    if (mask != null && !isString()) {
      Attribute f = v.findAttribute("_FillValue");
      assertNotNull(f, fv + " masked variables carry _FillValue");
      assertEquals(cdmType(), f.getDataType(), fv + " _FillValue type");
    }
  }

  /**
   * Every manifest attribute: numbers (integral stay integral), strings, lists as arrays, nested objects as
   * dotted names, other JSON as its text. A numeric variable's _FillValue has the variable's type.
   */
  static void assertAttributes(String what, JsonNode attrs, AttributeContainer got, DataType fillType) {
    Iterator<Map.Entry<String, JsonNode>> it = attrs.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      assertAttribute(what, e.getKey(), plain(e.getValue()), got, fillType);
    }
  }

  private static void assertAttribute(String what, String name, JsonNode v, AttributeContainer got, DataType fillType) {
    if (v.isObject() && v.size() > 0) {
      v.fields().forEachRemaining(e -> assertAttribute(what, name + "." + e.getKey(), e.getValue(), got, null));
      return;
    }
    String n = NetcdfFiles.makeValidCdmObjectName(name);
    Attribute a = got.findAttribute(n);
    String w = what + " attribute " + n;
    assertNotNull(a, w + " missing in " + got);
    if (name.equals("_FillValue") && fillType != null) {
      assertEquals(fillType, a.getDataType(), w + " type");
      double want = v.asDouble();
      double have = a.getDataType().isUnsigned() ? unsigned(a.getNumericValue(), a.getDataType()) : a.getNumericValue().doubleValue();
      if (a.getDataType() == DataType.FLOAT) {
        want = (float) want;
      }
      assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(have), w);
      return;
    }
    if (v.isTextual()) {
      assertEquals(v.textValue(), a.getStringValue(), w);
    } else if (v.isIntegralNumber()) {
      assertTrue(a.getDataType().isIntegral(), w + " integral, got " + a.getDataType());
      BigInteger have = a.getDataType() == DataType.ULONG
          ? new BigInteger(Long.toUnsignedString(a.getNumericValue().longValue()))
          : BigInteger.valueOf(a.getNumericValue().longValue());
      assertEquals(v.bigIntegerValue(), have, w);
    } else if (v.isNumber()) {
      assertEquals(DataType.DOUBLE, a.getDataType(), w);
      assertEquals(Double.doubleToLongBits(v.doubleValue()), Double.doubleToLongBits(a.getNumericValue().doubleValue()), w);
    } else if (v.isArray() && v.size() > 0 && allNumbers(v)) {
      assertEquals(v.size(), a.getLength(), w);
      for (int i = 0; i < v.size(); i++) {
        assertEquals(v.get(i).asDouble(), a.getNumericValue(i).doubleValue(), w + "[" + i + "]");
        assertEquals(v.get(i).isIntegralNumber(), a.getDataType().isIntegral(), w + " integral");
      }
    } else if (v.isArray() && v.size() > 0 && allText(v)) {
      assertEquals(v.size(), a.getLength(), w);
      for (int i = 0; i < v.size(); i++) {
        assertEquals(v.get(i).textValue(), a.getStringValue(i), w + "[" + i + "]");
      }
    } else {
      // booleans, null, empty or mixed lists, empty objects: the JSON text
      try {
        assertEquals(v, LENIENT.readTree(a.getStringValue()), w);
      } catch (IOException e) {
        throw new AssertionError(w + ": not JSON text: " + a.getStringValue(), e);
      }
    }
  }

  static double unsigned(Number x, DataType t) {
    long l = x.longValue();
    switch (t) {
      case UBYTE:
        return l & 0xff;
      case USHORT:
        return l & 0xffff;
      case UINT:
        return l & 0xffffffffL;
      default:
        return new BigInteger(Long.toUnsignedString(l)).doubleValue();
    }
  }

  private static boolean allNumbers(JsonNode v) {
    for (JsonNode x : v) {
      if (!x.isNumber()) {
        return false;
      }
    }
    return true;
  }

  private static boolean allText(JsonNode v) {
    for (JsonNode x : v) {
      if (!x.isTextual()) {
        return false;
      }
    }
    return true;
  }

  /** The contract's expectation: the values (masked cells = fill value) or strings, under the CDM name. */
  Expected contract() {
    String name = NetcdfFiles.makeValidCdmObjectName(fv.name());
    if (isString()) {
      return Expected.strings(fv.toString(), name, shape, strings);
    }
    return Expected.values(fv.toString(), name, cdmType(), shape, item, raw);
  }

  @Override
  public String toString() {
    return fv.toString();
  }
}
