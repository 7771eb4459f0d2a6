package org.chunkcdm.cdm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;

/**
 * JSON attributes to CDM attributes (docs/cdm-contract.md section 5): integers stay integral (INT when they
 * fit, else LONG, else ULONG up to 2^64-1, else their text), floats are DOUBLE, strings STRING, flat lists of
 * numbers or of strings become array attributes, nested objects are flattened to dotted names
 * ({@code coords.lat}), anything else (booleans, null, mixed or nested lists) becomes its JSON text.
 */
public final class CdmAttributes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BigInteger ULONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private CdmAttributes() {}

  /** Attributes of a JSON object's members (none when it is not an object). */
  public static List<Attribute> fromJson(JsonNode object) {
    List<Attribute> out = new ArrayList<>();
    if (object != null && object.isObject()) {
      flatten("", object, out);
    }
    return out;
  }

  /** One attribute from a JSON value (objects are flattened into several). */
  public static List<Attribute> fromJson(String name, JsonNode value) {
    List<Attribute> out = new ArrayList<>();
    add(name, value, out);
    return out;
  }

  private static void flatten(String prefix, JsonNode obj, List<Attribute> out) {
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      add(prefix + e.getKey(), e.getValue(), out);
    }
  }

  private static void add(String name, JsonNode v, List<Attribute> out) {
    if (v.isObject() && v.size() > 0) {
      flatten(name + ".", v, out);
      return;
    }
    String n = CdmNames.valid(name);
    Attribute a = scalar(n, v);
    if (a == null && v.isArray() && v.size() > 0) {
      a = array(n, v);
    }
    out.add(a != null ? a : new Attribute(n, text(v)));
  }

  private static Attribute scalar(String n, JsonNode v) {
    if (v.isTextual()) {
      return new Attribute(n, v.textValue());
    }
    if (v.isIntegralNumber()) {
      BigInteger b = v.bigIntegerValue();
      if (b.bitLength() < 32) {
        return new Attribute(n, b.intValue());
      }
      if (b.bitLength() < 64) {
        return new Attribute(n, b.longValue());
      }
      if (b.signum() > 0 && b.compareTo(ULONG_MAX) <= 0) {
        return Attribute.builder(n).setValues(Array.factory(DataType.ULONG, new int[] {1}, new long[] {b.longValue()}))
            .build();
      }
      return new Attribute(n, b.toString());
    }
    if (v.isNumber()) {
      return new Attribute(n, v.doubleValue());
    }
    return null;
  }

  private static Attribute array(String n, JsonNode v) {
    boolean allText = true;
    boolean allNum = true;
    boolean allInt = true;
    boolean allSmallInt = true;
    for (JsonNode e : v) {
      allText &= e.isTextual();
      allNum &= e.isNumber();
      allInt &= e.isIntegralNumber() && e.bigIntegerValue().bitLength() < 64;
      allSmallInt &= e.isIntegralNumber() && e.bigIntegerValue().bitLength() < 32;
    }
    int len = v.size();
    if (allText) {
      List<Object> s = new ArrayList<>();
      v.forEach(e -> s.add(e.textValue()));
      return Attribute.builder(n).setValues(s, false).build();
    }
    if (allSmallInt) {
      int[] a = new int[len];
      for (int i = 0; i < len; i++) {
        a[i] = v.get(i).intValue();
      }
      return Attribute.builder(n).setValues(Array.factory(DataType.INT, new int[] {len}, a)).build();
    }
    if (allInt) {
      long[] a = new long[len];
      for (int i = 0; i < len; i++) {
        a[i] = v.get(i).longValue();
      }
      return Attribute.builder(n).setValues(Array.factory(DataType.LONG, new int[] {len}, a)).build();
    }
    if (allNum) {
      double[] a = new double[len];
      for (int i = 0; i < len; i++) {
        a[i] = v.get(i).doubleValue();
      }
      return Attribute.builder(n).setValues(Array.factory(DataType.DOUBLE, new int[] {len}, a)).build();
    }
    return null;
  }

  /** JSON text of a value (non-finite floats as NaN/Infinity tokens, like the files write them). */
  public static String text(JsonNode v) {
    try {
      return JSON.writeValueAsString(v);
    } catch (Exception e) {
      return String.valueOf(v);
    }
  }
}
