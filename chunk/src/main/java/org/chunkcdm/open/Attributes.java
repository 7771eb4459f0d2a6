package org.chunkcdm.open;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * An ordered attribute set in neutral Java types (see {@link ChunkedVariable#attributes()}): {@code String}, a
 * boxed number, or an array of {@code String/byte/short/int/long/float/double}; names in {@link #unsigned()}
 * hold unsigned integers. Putting a name again replaces its value in place (as CDM attribute containers do).
 *
 * <p>JSON metadata maps by the rules of docs/cdm-contract.md section 5: integers stay integral ({@code Integer}
 * when they fit, else {@code Long}, else an unsigned {@code Long} up to 2^64-1, else their text), floats are
 * {@code Double}, strings {@code String}, flat lists of numbers or of strings become arrays, nested objects are
 * flattened to dotted names ({@code coords.lat}), anything else (booleans, null, mixed or nested lists) becomes
 * its JSON text. Names are made valid CDM names ({@link Names#valid}).
 */
public final class Attributes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BigInteger ULONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private final LinkedHashMap<String, Object> values = new LinkedHashMap<>();
  private final Set<String> unsigned = new LinkedHashSet<>();

  /** Sets a signed (or non-integer) value. */
  public Attributes put(String name, Object value) {
    check(value);
    values.put(name, value);
    unsigned.remove(name);
    return this;
  }

  /** Sets an unsigned integer value (its bit pattern in the boxed or array type of the item size). */
  public Attributes putUnsigned(String name, Object value) {
    check(value);
    values.put(name, value);
    unsigned.add(name);
    return this;
  }

  /** Adds every entry of {@code other} (replacing same-named ones). */
  public Attributes putAll(Attributes other) {
    for (Map.Entry<String, Object> e : other.values.entrySet()) {
      if (other.unsigned.contains(e.getKey())) {
        putUnsigned(e.getKey(), e.getValue());
      } else {
        put(e.getKey(), e.getValue());
      }
    }
    return this;
  }

  /** Adds each entry of {@code values} (names in {@code unsigned} as unsigned) whose name is not here yet. */
  public Attributes putAbsent(Map<String, Object> values, Set<String> unsigned) {
    for (Map.Entry<String, Object> e : values.entrySet()) {
      if (!has(e.getKey())) {
        if (unsigned.contains(e.getKey())) {
          putUnsigned(e.getKey(), e.getValue());
        } else {
          put(e.getKey(), e.getValue());
        }
      }
    }
    return this;
  }

  /** Removes a name (nothing when absent). */
  public Attributes remove(String name) {
    values.remove(name);
    unsigned.remove(name);
    return this;
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public Object get(String name) {
    return values.get(name);
  }

  /** The values in order (unmodifiable view). */
  public Map<String, Object> map() {
    return Collections.unmodifiableMap(values);
  }

  /** Names whose integer values are unsigned (unmodifiable view). */
  public Set<String> unsigned() {
    return Collections.unmodifiableSet(unsigned);
  }

  private static void check(Object v) {
    if (v instanceof String || v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long
        || v instanceof Float || v instanceof Double || v instanceof String[] || v instanceof byte[]
        || v instanceof short[] || v instanceof int[] || v instanceof long[] || v instanceof float[]
        || v instanceof double[]) {
      return;
    }
    throw new IllegalArgumentException("not a neutral attribute value: " + (v == null ? "null" : v.getClass()));
  }

  // ---------------------------------------------------------------- JSON

  /** The attributes of a JSON object's members (none when it is null or not an object). */
  public Attributes putJson(JsonNode object) {
    if (object != null && object.isObject()) {
      flatten("", object);
    }
    return this;
  }

  /** One attribute from a JSON value (objects are flattened into several). */
  public Attributes putJson(String name, JsonNode value) {
    add(name, value);
    return this;
  }

  /** A new set holding the attributes of a JSON object. */
  public static Attributes fromJson(JsonNode object) {
    return new Attributes().putJson(object);
  }

  private void flatten(String prefix, JsonNode obj) {
    Iterator<Map.Entry<String, JsonNode>> it = obj.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      add(prefix + e.getKey(), e.getValue());
    }
  }

  private void add(String name, JsonNode v) {
    if (v.isObject() && v.size() > 0) {
      flatten(name + ".", v);
      return;
    }
    String n = Names.valid(name);
    if (scalar(n, v)) {
      return;
    }
    if (v.isArray() && v.size() > 0 && array(n, v)) {
      return;
    }
    put(n, text(v));
  }

  private boolean scalar(String n, JsonNode v) {
    if (v.isTextual()) {
      put(n, v.textValue());
      return true;
    }
    if (v.isIntegralNumber()) {
      BigInteger b = v.bigIntegerValue();
      if (b.bitLength() < 32) {
        put(n, b.intValue());
      } else if (b.bitLength() < 64) {
        put(n, b.longValue());
      } else if (b.signum() > 0 && b.compareTo(ULONG_MAX) <= 0) {
        putUnsigned(n, b.longValue());
      } else {
        put(n, b.toString());
      }
      return true;
    }
    if (v.isNumber()) {
      put(n, v.doubleValue());
      return true;
    }
    return false;
  }

  private boolean array(String n, JsonNode v) {
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
    if (allText) {
      put(n, elements(v).map(JsonNode::textValue).toArray(String[]::new));
    } else if (allSmallInt) {
      put(n, elements(v).mapToInt(JsonNode::intValue).toArray());
    } else if (allInt) {
      put(n, elements(v).mapToLong(JsonNode::longValue).toArray());
    } else if (allNum) {
      put(n, elements(v).mapToDouble(JsonNode::doubleValue).toArray());
    } else {
      return false;
    }
    return true;
  }

  private static java.util.stream.Stream<JsonNode> elements(JsonNode array) {
    return java.util.stream.StreamSupport.stream(array.spliterator(), false);
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
