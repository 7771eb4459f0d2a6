package org.chunkcdm.cdm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.open.Attributes;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;

/**
 * Neutral attributes ({@link Attributes}, {@link org.chunkcdm.open.ChunkedVariable#attributes()}) as CDM
 * attributes, and JSON attributes by the rules of docs/cdm-contract.md section 5 (implemented once, in
 * {@link Attributes}).
 */
public final class CdmAttributes {
  private CdmAttributes() {}

  /** Attributes of a JSON object's members (none when it is not an object). */
  public static List<Attribute> fromJson(JsonNode object) {
    return toCdm(Attributes.fromJson(object));
  }

  /** One attribute from a JSON value (objects are flattened into several). */
  public static List<Attribute> fromJson(String name, JsonNode value) {
    return toCdm(new Attributes().putJson(name, value));
  }

  public static List<Attribute> toCdm(Attributes a) {
    return toCdm(a.map(), a.unsigned());
  }

  /** CDM attributes of neutral values, in order. */
  public static List<Attribute> toCdm(Map<String, Object> values, Set<String> unsigned) {
    List<Attribute> out = new ArrayList<>(values.size());
    for (Map.Entry<String, Object> e : values.entrySet()) {
      out.add(toCdm(e.getKey(), e.getValue(), unsigned.contains(e.getKey())));
    }
    return out;
  }

  /** One CDM attribute of a neutral value (see {@link org.chunkcdm.open.ChunkedVariable#attributes()}). */
  public static Attribute toCdm(String name, Object v, boolean unsigned) {
    if (v instanceof String) {
      return new Attribute(name, (String) v);
    }
    if (v instanceof String[]) {
      return Attribute.builder(name).setValues(new ArrayList<Object>(Arrays.asList((String[]) v)), false).build();
    }
    Object arr;
    DataType t;
    if (v instanceof Byte) {
      arr = new byte[] {(Byte) v};
    } else if (v instanceof Short) {
      arr = new short[] {(Short) v};
    } else if (v instanceof Integer) {
      arr = new int[] {(Integer) v};
    } else if (v instanceof Long) {
      arr = new long[] {(Long) v};
    } else if (v instanceof Float) {
      arr = new float[] {(Float) v};
    } else if (v instanceof Double) {
      arr = new double[] {(Double) v};
    } else if (v != null && v.getClass().isArray()) {
      arr = v;
    } else {
      throw new IllegalArgumentException("attribute " + name + ": not a neutral value: " + v);
    }
    Class<?> c = arr.getClass().getComponentType();
    if (c == byte.class) {
      t = unsigned ? DataType.UBYTE : DataType.BYTE;
    } else if (c == short.class) {
      t = unsigned ? DataType.USHORT : DataType.SHORT;
    } else if (c == int.class) {
      t = unsigned ? DataType.UINT : DataType.INT;
    } else if (c == long.class) {
      t = unsigned ? DataType.ULONG : DataType.LONG;
    } else if (c == float.class) {
      t = DataType.FLOAT;
    } else if (c == double.class) {
      t = DataType.DOUBLE;
    } else {
      throw new IllegalArgumentException("attribute " + name + ": not a neutral value: " + v);
    }
    int len = java.lang.reflect.Array.getLength(arr);
    return Attribute.builder(name).setValues(Array.factory(t, new int[] {len}, arr)).build();
  }

  /** JSON text of a value (non-finite floats as NaN/Infinity tokens, like the files write them). */
  public static String text(JsonNode v) {
    return Attributes.text(v);
  }
}
