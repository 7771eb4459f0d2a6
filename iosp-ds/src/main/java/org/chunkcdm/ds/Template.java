package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.Names;

/**
 * A variable member's meaning without its place in the file ({@code .offset}, {@code .len}): name, dimension
 * names, type, shape, mask, fill value, attributes. Immutable, so one template serves every file whose member
 * is byte for byte the same up to those two numbers ({@link Templates}). {@link #of} makes one from a parsed
 * member and checks its dot-keys.
 */
final class Template {
  /** Units that make netcdf-java show a Julian date ({@code .time: true}) as a date. */
  static final String JULIAN_DATE_UNITS = "days since -4713-11-24 12:00:00";
  static final String JULIAN_DATE_CALENDAR = "proleptic_gregorian";

  final String name;
  final String cdmName;
  final List<String> dims;
  final String type;
  final boolean isString;
  final boolean isBool;
  final ByteOrder order;
  final DType dt;
  final long[] shape;
  final long n;
  final boolean masked;
  final boolean noData;
  final byte[] fill;
  final Attributes attrs;
  /** The variable's one-chunk grid (immutable, shared by the arrays bound from this template). */
  final ChunkGrid grid;
  /** The attributes in CDM form, made once by the CDM view (its own type: this class knows no netcdf-java). */
  volatile Object cdm;

  /** The name, the type and the shape of a member, as its dot-keys give them. */
  private static final class Kind {
    final String name;
    final String what;
    final boolean noData;
    final long[] shape;
    final long n;
    final String type;
    final boolean isString;
    final boolean isBool;
    final DType dt;

    Kind(Member m, String fileName) throws IOException {
      String key = m.key;
      name = key.startsWith("\\.") || key.startsWith("\\\\") ? key.substring(1) : key;
      what = DsDatasets.what(fileName, name);
      if (m.notAnObject != null) {
        throw new IOException(what + ": metadata is not a JSON object");
      }
      JsonNode size = m.get(Member.Key.SIZE);
      noData = size == null || size.isNull();
      shape = noData ? new long[0] : shape(size, what);
      try {
        n = DsArray.count(shape);
      } catch (ArithmeticException e) {
        throw new IOException(what + ": .size " + size + " has more elements than a long can count");
      }
      type = dsType(m, what, noData);
      isString = type.equals("str") || type.equals("unicode");
      isBool = type.equals("bool");
      ByteOrder order = byteOrder(m.get(Member.Key.ENDIAN), what);
      // bool is read as uint8 0/1 (not DType BOOL, which would turn a masked cell's fill 255 into 1)
      dt = isString ? DType.of(DType.Kind.UNICODE, 4, order)
          : isBool ? DType.of(DType.Kind.UINT, 1, order) : numpy(type).withOrder(order);
    }
  }

  private Template(Kind k, List<String> dims, boolean masked, byte[] fill, Attributes attrs) {
    this.name = k.name;
    this.cdmName = Names.valid(k.name);
    this.dims = dims;
    this.type = k.type;
    this.isString = k.isString;
    this.isBool = k.isBool;
    this.order = k.dt.order();
    this.dt = k.dt;
    this.shape = k.shape;
    this.n = k.n;
    this.masked = masked;
    this.noData = k.noData;
    this.fill = fill;
    this.attrs = attrs;
    this.grid = DsArray.grid(shape);
  }

  /** The template of a parsed member; {@code fileName} only names the file in an error. */
  static Template of(Member m, String fileName) throws IOException {
    Kind k = new Kind(m, fileName);
    boolean masked = !k.noData && bool(m.get(Member.Key.MISSING), ".missing", k.what);
    List<String> dims = dimNames(m.get(Member.Key.DIMS), k.name, k.shape.length, k.what);
    List<String> valid = new ArrayList<>(dims.size());
    for (String d : dims) {
      valid.add(Names.valid(d));
    }
    Attributes attrs = new Attributes();
    JsonNode fileFill = null;
    for (Map.Entry<String, JsonNode> f : m.attributes) {
      if (f.getKey().equals("_FillValue") && !k.isString) {
        fileFill = f.getValue();
        continue;
      }
      attrs.putJson(f.getKey(), f.getValue());
    }
    byte[] fill = k.isString ? null : FillValues.attribute(attrs, fileFill, k.dt, masked || k.noData);
    if (k.isBool) { // the contract's bool attributes
      attrs.putUnsigned("flag_values", new byte[] {0, 1});
      attrs.put("flag_meanings", "false true");
    }
    JsonNode time = m.get(Member.Key.TIME);
    if (time != null && time.asBoolean(false)) {
      attrs.remove("units");
      attrs.remove("calendar");
      attrs.put("units", JULIAN_DATE_UNITS);
      attrs.put("calendar", JULIAN_DATE_CALENDAR);
    }
    return new Template(k, Collections.unmodifiableList(valid), masked, fill, attrs);
  }

  /** {@code .size}: a list of non-negative integers, each within CDM's int range. */
  private static long[] shape(JsonNode size, String what) throws IOException {
    if (!size.isArray()) {
      throw new IOException(what + ": .size must be a list of integers, not " + size);
    }
    long[] s = new long[size.size()];
    for (int i = 0; i < s.length; i++) {
      JsonNode d = size.get(i);
      if (d.isInt() && d.intValue() >= 0) { // the usual case, without BigInteger
        s[i] = d.intValue();
        continue;
      }
      if (!d.isIntegralNumber() || d.bigIntegerValue().signum() < 0) {
        throw new IOException(what + ": .size " + size + " must hold non-negative integers");
      }
      if (d.bigIntegerValue().compareTo(BigInteger.valueOf(Integer.MAX_VALUE)) > 0) {
        throw new IOException(what + ": .size " + size + " has a dimension larger than CDM's limit of "
            + Integer.MAX_VALUE);
      }
      s[i] = d.longValue();
    }
    return s;
  }

  private static final java.util.concurrent.ConcurrentHashMap<String, DType> NUMPY = new java.util.concurrent.ConcurrentHashMap<>();

  /** {@link DType#parseNumpy} of a known numeric {@code .type} name, parsed once per name. */
  private static DType numpy(String type) throws IOException {
    DType d = NUMPY.get(type);
    if (d == null) {
      d = DType.parseNumpy(type);
      NUMPY.put(type, d); // only names of TYPES get here: the map stays small
    }
    return d;
  }

  private static final Set<String> TYPES = Set.of("float32", "float64", "int8", "int16", "int32", "int64", "uint8",
      "uint16", "uint32", "uint64", "bool", "str", "unicode");

  /**
   * {@code .type}; the experimental layout's {@code float/int/uint} with {@code .dsize} (bits) maps to the
   * sized names. A variable without data and without type reads as an int8 scalar fill value.
   */
  private static String dsType(Member meta, String what, boolean noData) throws IOException {
    JsonNode t = meta.get(Member.Key.TYPE);
    if (t == null || t.isNull()) {
      if (noData) {
        return "int8";
      }
      throw new IOException(what + ": .type is missing");
    }
    String s = t.asText();
    if (TYPES.contains(s)) {
      return s;
    }
    if (s.equals("float") || s.equals("int") || s.equals("uint")) {
      JsonNode bits = meta.get(Member.Key.DSIZE);
      String sized = bits != null && bits.isIntegralNumber() ? s + bits.asInt() : null;
      if (sized != null && TYPES.contains(sized)) {
        return sized;
      }
      throw new IOException(what + ": .type '" + s + "' with .dsize " + bits + " is not a known type");
    }
    throw new IOException(what + ": unknown .type '" + s + "' (known: " + new java.util.TreeSet<>(TYPES) + ")");
  }

  /** {@code .endian}: "b" or "l"; absent means "b" (as the reference reader does; bool has none). */
  private static ByteOrder byteOrder(JsonNode e, String what) throws IOException {
    if (e == null || e.isNull()) {
      return ByteOrder.BIG_ENDIAN;
    }
    switch (e.asText()) {
      case "b":
        return ByteOrder.BIG_ENDIAN;
      case "l":
        return ByteOrder.LITTLE_ENDIAN;
      default:
        throw new IOException(what + ": .endian must be \"b\" or \"l\", not " + e);
    }
  }

  private static boolean bool(JsonNode b, String key, String what) throws IOException {
    if (b == null || b.isNull()) {
      return false;
    }
    if (!b.isBoolean()) {
      throw new IOException(what + ": " + key + " must be true or false, not " + b);
    }
    return b.booleanValue();
  }

  /** Invented names {@code <var>_1, <var>_2, ...} (as the ds-format API does) when {@code .dims} is absent. */
  private static List<String> dimNames(JsonNode d, String name, int rank, String what) throws IOException {
    List<String> out = new ArrayList<>();
    if (d == null || d.isNull()) {
      for (int i = 1; i <= rank; i++) {
        out.add(name + "_" + i);
      }
      return out;
    }
    if (!d.isArray() || d.size() != rank) {
      throw new IOException(what + ": .dims " + d + " must be a list of " + rank + " names, one per .size entry");
    }
    for (JsonNode x : d) {
      if (!x.isTextual() || x.textValue().isEmpty()) {
        throw new IOException(what + ": .dims " + d + " must hold non-empty names");
      }
      out.add(x.textValue());
    }
    return out;
  }
}
