package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.Names;

/**
 * A ds-format {@code .ds} file (format ds-1.x, and the pre-1.0 experimental layout without version line) as a
 * dataset, without netcdf-java. Opening reads the version line and the one-line JSON header, nothing else;
 * every numeric or bool variable is a one-chunk {@link DsArray} reading its bytes from the body on demand.
 * String variables ({@code str}, {@code unicode}) are not fixed-size arrays: they have no chunked array here
 * and are read by {@link DsStrings} in the CDM view ({@link DsIosp}); their {@link DatasetVariable#source()} is
 * a {@link StringSpec}. {@link DsOpener} is the opener.
 */
final class DsDatasets {
  static final String FORMAT = "ds";
  /** Units that make netcdf-java show a Julian date ({@code .time: true}) as a date. */
  static final String JULIAN_DATE_UNITS = "days since -4713-11-24 12:00:00";
  static final String JULIAN_DATE_CALENDAR = "proleptic_gregorian";

  private DsDatasets() {}

  /** Where a string variable's block lies, for {@link DsStrings}. */
  static final class StringSpec {
    final DsFile body;
    final Object what;
    final long[] shape;
    final boolean bytes;
    final ByteOrder order;
    final long blockPos;
    final long len;
    final boolean masked;
    final boolean noData;
    /** A UCS-4 stand-in array giving the CDM view the variable's STRING type and dimensions. */
    final DsArray shapeArray;

    StringSpec(DsFile body, Object what, long[] shape, boolean bytes, ByteOrder order, long blockPos, long len,
        boolean masked, boolean noData, DsArray shapeArray) {
      this.body = body;
      this.what = what;
      this.shape = shape;
      this.bytes = bytes;
      this.order = order;
      this.blockPos = blockPos;
      this.len = len;
      this.masked = masked;
      this.noData = noData;
      this.shapeArray = shapeArray;
    }
  }

  /** True when the first bytes of a file named {@code name} begin a ds file. */
  static boolean looksLikeDs(byte[] head, int n, String name) {
    if (n < 2) {
      return false;
    }
    if (DsHeader.hasVersionPrefix(head, n)) {
      return true;
    }
    // the experimental layout has no magic: only a file named .ds whose first byte opens the JSON header
    return head[0] == '{' && name.toLowerCase(java.util.Locale.ROOT).endsWith(".ds");
  }

  /** Reads the file's header; {@code opening} (may be null) serves the first read. */
  static BasicDataset read(FileHandles files, Path file, DsHeader.Opening opening) throws IOException {
    Opened o = open(files, file, opening);
    List<DatasetVariable> vars = new ArrayList<>(o.vars.size());
    for (Bound b : o.vars) {
      vars.add(new DatasetVariable(b.t.cdmName, b.t.dims, b.array, b.t.attrs, b.spec));
    }
    return new BasicDataset(FORMAT, files.root(), vars, o.global, files);
  }

  /** False: every header takes the reference parse (tests compare the two paths). */
  static volatile boolean useTemplates = true;

  /** A variable of one open file: its template, and its array (or string spec) bound to the file. */
  static final class Bound {
    final Template t;
    final DsArray array; // null for strings
    final StringSpec spec; // null for numbers and bool

    Bound(Template t, DsArray array, StringSpec spec) {
      this.t = t;
      this.array = array;
      this.spec = spec;
    }
  }

  /** An open file's variables in header order and its dataset attributes. */
  static final class Opened {
    final List<Bound> vars;
    final Attributes global;

    Opened(List<Bound> vars, Attributes global) {
      this.vars = vars;
      this.global = global;
    }
  }

  /**
   * Reads the header and binds every variable to the file. A plain header ({@link DsHeader#scan}) is served
   * member by member from {@link Templates}; any other header, and any header the template path finds wrong,
   * goes through the reference parse ({@link DsHeader#parse}), which reports the error.
   */
  static Opened open(FileHandles files, Path file, DsHeader.Opening opening) throws IOException {
    DsHeader h = DsHeader.read(files, file, opening);
    DsFile body = new DsFile(files, file, h.prefix);
    // a header of very many variables would push the others' templates out of the bounded cache: parsed whole
    if (h.spans != null && useTemplates && h.spans.size() <= Templates.MAX_ENTRIES / 4) {
      try {
        return fromSpans(h, body, file);
      } catch (IOException | RuntimeException e) {
        // the reference path below reads the header again and gives the error its canonical form
      }
    }
    h.parse();
    long bodySize = h.fileSize - h.bodyStart;
    Set<String> names = new HashSet<>();
    String fileName = file.toString();
    List<Bound> vars = new ArrayList<>();
    for (DsHeader.Member m : h.members) {
      Template t = template(m, fileName);
      if (!names.add(t.cdmName)) {
        throw new IOException(what(fileName, t.name) + ": two variables have the CDM name '" + t.cdmName + "'");
      }
      long offset = t.noData ? 0 : integer(m.offset, ".offset", what(fileName, t.name));
      long len = t.noData ? 0 : integer(m.len, ".len", what(fileName, t.name));
      vars.add(bind(t, body, offset, len, h.bodyStart, bodySize, fileName));
    }
    Attributes global = new Attributes();
    if (h.dataset != null) {
      if (!h.dataset.isObject()) {
        throw new IOException(file + ": dataset metadata '.' is not a JSON object");
      }
      global.putJson(h.dataset);
    }
    return new Opened(vars, global);
  }

  private static Opened fromSpans(DsHeader h, DsFile body, Path file) throws IOException {
    long bodySize = h.fileSize - h.bodyStart;
    String fileName = file.toString();
    List<Bound> vars = new ArrayList<>(h.spans.size());
    Attributes global = new Attributes();
    byte[] b = h.buf;
    Set<String> names = h.spans.size() > 16 ? new HashSet<>() : null;
    for (DsHeader.Span s : h.spans) {
      if (s.dataset) {
        if (!DsHeader.flatAttributes(b, s.valueStart, s.end, global)) {
          JsonNode d = DsHeader.value(b, s);
          if (!d.isObject()) {
            throw new IOException("not an object");
          }
          global = new Attributes().putJson(d);
        }
        continue;
      }
      Template t = s.template != null ? (Template) s.template : Templates.get(b, s, fileName);
      if (names != null) {
        if (!names.add(t.cdmName)) {
          throw new IOException("two variables with one CDM name");
        }
      } else {
        for (Bound other : vars) { // a handful of variables: a loop beats a set
          if (other.t.cdmName.equals(t.cdmName)) {
            throw new IOException("two variables with one CDM name");
          }
        }
      }
      if (!t.noData && (s.offset < 0 || s.len < 0)) {
        throw new IOException(".offset or .len not a plain integer");
      }
      vars.add(bind(t, body, t.noData ? 0 : s.offset, t.noData ? 0 : s.len, h.bodyStart, bodySize, fileName));
    }
    return new Opened(vars, global);
  }

  /**
   * A variable member's meaning without its place in the file ({@code .offset}, {@code .len}): name, dimension
   * names, type, shape, mask, fill value, attributes. Immutable, so one template serves every file whose member
   * is byte for byte the same up to those two numbers ({@link Templates}).
   */
  static final class Template {
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
    final org.chunkcdm.chunk.ChunkGrid grid;
    /** The attributes in CDM form, made once by the CDM view (its own type: this class knows no netcdf-java). */
    volatile Object cdm;

    Template(String name, String cdmName, List<String> dims, String type, boolean isString, boolean isBool,
        ByteOrder order, DType dt, long[] shape, long n, boolean masked, boolean noData, byte[] fill, Attributes attrs) {
      this.name = name;
      this.cdmName = cdmName;
      this.dims = dims;
      this.type = type;
      this.isString = isString;
      this.isBool = isBool;
      this.order = order;
      this.dt = dt;
      this.shape = shape;
      this.n = n;
      this.masked = masked;
      this.noData = noData;
      this.fill = fill;
      this.attrs = attrs;
      this.grid = DsArray.grid(shape);
    }
  }

  /** "{@code <file>: variable '<name>'}", made when an error message needs it. */
  static final class Where {
    private final String file;
    private final String name;

    Where(String file, String name) {
      this.file = file;
      this.name = name;
    }

    @Override
    public String toString() {
      return what(file, name);
    }
  }

  static String what(String fileName, String name) {
    return fileName + ": variable '" + name + "'";
  }

  /** The template of a parsed member; {@code fileName} only names the file in an error. */
  static Template template(DsHeader.Member m, String fileName) throws IOException {
    String key = m.key;
    String name = key.startsWith("\\.") || key.startsWith("\\\\") ? key.substring(1) : key;
    String what = what(fileName, name);
    if (m.notAnObject != null) {
      throw new IOException(what + ": metadata is not a JSON object");
    }
    String cdmName = Names.valid(name);
    boolean noData = m.size == null || m.size.isNull();
    long[] shape = noData ? new long[0] : shape(m.size, what);
    long n;
    try {
      n = DsArray.count(shape);
    } catch (ArithmeticException e) {
      throw new IOException(what + ": .size " + m.size + " has more elements than a long can count");
    }
    String type = dsType(m, what, noData);
    boolean isString = type.equals("str") || type.equals("unicode");
    boolean isBool = type.equals("bool");
    ByteOrder order = byteOrder(m.endian, what);
    // bool is read as uint8 0/1 (not DType BOOL, which would turn a masked cell's fill 255 into 1)
    DType dt = isString ? DType.of(DType.Kind.UNICODE, 4, order)
        : isBool ? DType.of(DType.Kind.UINT, 1, order) : numpy(type).withOrder(order);
    boolean masked = !noData && bool(m.missing, ".missing", what);
    List<String> dims = dimNames(m.dims, name, shape.length, what);
    List<String> valid = new ArrayList<>(dims.size());
    for (String d : dims) {
      valid.add(Names.valid(d));
    }
    byte[] fill = null;
    Attributes attrs = new Attributes();
    JsonNode fileFill = null;
    for (Map.Entry<String, JsonNode> f : m.attributes) {
      if (f.getKey().equals("_FillValue") && !isString) {
        fileFill = f.getValue();
        continue;
      }
      attrs.putJson(f.getKey(), f.getValue());
    }
    if (!isString) {
      Number fv = fileFill == null ? null : fillNumber(fileFill, dt);
      if (fileFill != null && fv == null) {
        // not representable in the variable's type: keep it visible, but not as _FillValue
        attrs.putJson("ds_FillValue", fileFill);
      }
      if (fv == null && (masked || noData)) {
        fv = defaultFill(dt);
      }
      if (fv != null) {
        Object boxed = boxed(dt, fv);
        if (dt.kind() == DType.Kind.UINT) {
          attrs.putUnsigned("_FillValue", boxed);
        } else {
          attrs.put("_FillValue", boxed);
        }
        fill = bytes(dt, fv);
      }
    }
    if (isBool) { // the contract's bool attributes
      attrs.putUnsigned("flag_values", new byte[] {0, 1});
      attrs.put("flag_meanings", "false true");
    }
    if (m.time != null && m.time.asBoolean(false)) {
      attrs.remove("units");
      attrs.remove("calendar");
      attrs.put("units", JULIAN_DATE_UNITS);
      attrs.put("calendar", JULIAN_DATE_CALENDAR);
    }
    return new Template(name, cdmName, java.util.Collections.unmodifiableList(valid), type, isString, isBool, order,
        dt, shape, n, masked, noData, fill, attrs);
  }

  /** A template placed in one file: {@code .offset}/{@code .len} checked against the body and the type. */
  static Bound bind(Template t, DsFile body, long offset, long len, long bodyStart, long bodySize, String fileName)
      throws IOException {
    Where what = new Where(fileName, t.name); // the message text is made only for an error
    if (!t.noData) {
      if (offset > bodySize || len > bodySize - offset) {
        throw new IOException(what + ": .offset " + offset + " + .len " + len + " lies past the end of the body ("
            + bodySize + " bytes; file truncated?)");
      }
      checkLen(what, t.type, t.isString ? 8 : t.dt.itemSize(), t.n, len, t.masked);
    }
    long blockPos = bodyStart + offset;
    DsArray array = new DsArray(body, what, t.dt, t.isBool, t.grid, t.n, blockPos, len, t.masked, t.noData, t.fill);
    if (t.isString) {
      return new Bound(t, null, new StringSpec(body, what, t.shape, t.type.equals("str"), t.order, blockPos, len,
          t.masked, t.noData, array));
    }
    return new Bound(t, array, null);
  }

  /**
   * Templates of the variable members seen so far, keyed by the member's bytes without its {@code .offset} and
   * {@code .len} digits: the files of one collection repeat their variables' definitions, so after the first
   * file a member costs a hash and a comparison instead of a JSON parse. The key holds every byte the template
   * depends on, so a hit is exactly what parsing would give; nothing depends on file names or times. Bounded:
   * at most {@link #MAX_ENTRIES} members of at most {@link #MAX_KEY} bytes (emptied when full).
   */
  static final class Templates {
    static final int MAX_ENTRIES = 1024;
    static final int MAX_KEY = 4096;
    private static final java.util.concurrent.ConcurrentHashMap<Key, Template> MAP =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** Per member name, the template last made or used for it: {@link DsHeader#scan} tries it first. */
    private static final java.util.concurrent.ConcurrentHashMap<NameKey, Known> NAMES =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** Templates made (a parse each), for tests. */
    static final java.util.concurrent.atomic.AtomicLong MADE = new java.util.concurrent.atomic.AtomicLong();

    private Templates() {}

    static Template get(byte[] b, DsHeader.Span s, String fileName) throws IOException {
      int n = s.end - s.keyStart - (s.offEnd - s.offStart) - (s.lenEnd - s.lenStart);
      if (n > MAX_KEY) {
        MADE.incrementAndGet();
        return template(DsHeader.member(b, s), fileName);
      }
      Key k = new Key(b, s, n);
      Template t = MAP.get(k);
      if (t != null) {
        NAMES.put(NameKey.probe(b, s.keyStart, s.keyEnd).copy(), new Known(t, k));
        return t;
      }
      MADE.incrementAndGet();
      DsHeader.Member m = DsHeader.member(b, s);
      // the scan and the parser must agree on where the file places the variable
      if ((m.offset != null) != (s.offStart >= 0) || (m.len != null) != (s.lenStart >= 0)
          || m.offset != null && m.offset.asLong(-2) != s.offset || m.len != null && m.len.asLong(-2) != s.len) {
        throw new IOException("scan and parse disagree");
      }
      t = template(m, fileName);
      if (MAP.size() >= MAX_ENTRIES) {
        MAP.clear();
      }
      if (NAMES.size() >= MAX_ENTRIES) {
        NAMES.clear();
      }
      MAP.put(k, t);
      NAMES.put(NameKey.probe(b, s.keyStart, s.keyEnd).copy(), new Known(t, k));
      return t;
    }

    /**
     * The templates of the last header whose variable members were all found by the scan, in header order:
     * the scan tries the member at the same place first (the files of a collection list the same variables).
     */
    static volatile Known[] last;

    /** Notes the variable members of a header the scan found all of (else nothing). */
    static void remember(List<DsHeader.Span> spans, int vars) {
      Known[] k = new Known[vars];
      int j = 0;
      for (DsHeader.Span s : spans) {
        if (!s.dataset) {
          if (s.known == null) {
            return;
          }
          k[j++] = s.known;
        }
      }
      last = k;
    }

    /** The template last used for the member name at {@code b[from, to)} (quotes included), or null. */
    static Known byName(byte[] b, int from, int to) {
      return NAMES.get(NameKey.probe(b, from, to));
    }

    static void clear() {
      MAP.clear();
      NAMES.clear();
      last = null;
    }
  }

  /**
   * A member's bytes from its key to its end, without the {@code .offset}/{@code .len} digits, and where in them
   * the digits were ({@code cut1}, {@code cut2}: key positions, -1 when absent; {@code off1}: the first is
   * {@code .offset}'s).
   */
  static final class Key {
    final byte[] b;
    private final int hash;
    final int cut1;
    final int cut2;
    final boolean off1;

    Key(byte[] src, DsHeader.Span s, int n) {
      byte[] k = new byte[n];
      boolean offFirst = s.lenStart < 0 || s.offStart >= 0 && s.offStart < s.lenStart;
      int[] cut = offFirst ? new int[] {s.offStart, s.offEnd, s.lenStart, s.lenEnd}
          : new int[] {s.lenStart, s.lenEnd, s.offStart, s.offEnd};
      int[] at = {-1, -1};
      int w = 0;
      int from = s.keyStart;
      for (int c = 0; c < 4; c += 2) {
        if (cut[c] >= 0) {
          System.arraycopy(src, from, k, w, cut[c] - from);
          w += cut[c] - from;
          at[c / 2] = w;
          from = cut[c + 1];
        }
      }
      System.arraycopy(src, from, k, w, s.end - from);
      this.b = k;
      this.hash = DsHeader.hash(k, 0, n);
      this.off1 = offFirst && s.offStart >= 0;
      this.cut1 = at[0] >= 0 ? at[0] : at[1];
      this.cut2 = at[0] >= 0 ? at[1] : -1;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && ((Key) o).hash == hash && Arrays.equals(((Key) o).b, b);
    }
  }

  /** A member's quoted name as a map key; a probe ({@link #probe}) looks up without copying. */
  static final class NameKey {
    private final byte[] b;
    private final int from;
    private final int to;
    private final int hash;

    private NameKey(byte[] b, int from, int to) {
      this.b = b;
      this.from = from;
      this.to = to;
      this.hash = DsHeader.hash(b, from, to);
    }

    static NameKey probe(byte[] b, int from, int to) {
      return new NameKey(b, from, to);
    }

    NameKey copy() {
      return new NameKey(Arrays.copyOfRange(b, from, to), 0, to - from);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof NameKey)) {
        return false;
      }
      NameKey k = (NameKey) o;
      return k.hash == hash && Arrays.equals(b, from, to, k.b, k.from, k.to);
    }
  }

  /** The template last made or used for a member name, with the key it was made from (see {@link DsHeader#scan}). */
  static final class Known {
    final Template t;
    final Key key;

    Known(Template t, Key key) {
      this.t = t;
      this.key = key;
    }
  }

  /**
   * netCDF-3's default fill value of the variable's CDM type (what netcdf-java's {@code N3iosp} gives; a test
   * checks they agree), for masked and data-less variables without a usable {@code _FillValue}.
   */
  static Number defaultFill(DType dt) {
    boolean unsigned = dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.BOOL;
    switch (dt.kind()) {
      case FLOAT:
        return dt.itemSize() == 8 ? (Number) 9.9692099683868690e+36 : (Number) 9.9692099683868690e+36f;
      case INT:
      case UINT:
      case BOOL:
        switch (dt.itemSize()) {
          case 1:
            return unsigned ? (Number) (short) 255 : (Number) (byte) -127;
          case 2:
            return unsigned ? (Number) 65535 : (Number) (short) -32767;
          case 4:
            return unsigned ? (Number) 4294967295L : (Number) (-2147483647);
          default:
            return unsigned ? (Number) (-2L) : (Number) (-9223372036854775806L);
        }
      default:
        return null;
    }
  }

  /** The fill number as the boxed type of the variable's item size (unsigned values as their bit pattern). */
  static Object boxed(DType dt, Number v) {
    if (dt.kind() == DType.Kind.FLOAT) {
      return dt.itemSize() == 4 ? (Object) v.floatValue() : (Object) v.doubleValue();
    }
    switch (dt.itemSize()) {
      case 1:
        return v.byteValue();
      case 2:
        return v.shortValue();
      case 4:
        return v.intValue();
      default:
        return v.longValue();
    }
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
  private static String dsType(DsHeader.Member meta, String what, boolean noData) throws IOException {
    JsonNode t = meta.type;
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
      JsonNode bits = meta.dsize;
      String sized = bits != null && bits.isIntegralNumber() ? s + bits.asInt() : null;
      if (sized != null && TYPES.contains(sized)) {
        return sized;
      }
      throw new IOException(what + ": .type '" + s + "' with .dsize " + meta.dsize + " is not a known type");
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

  private static long integer(JsonNode v, String key, String what) throws IOException {
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
      throw new IOException(what + ": " + key + " must be a non-negative integer, not " + v);
    }
    return v.longValue();
  }

  /** {@code .len} against what {@code .size} and {@code .type} need (masked: the bounds the bitmask allows). */
  private static void checkLen(Object what, String type, int itemSize, long n, long len, boolean masked)
      throws IOException {
    long maskBytes = masked ? Bitmask.bytes(n) : 0;
    boolean strings = type.equals("str") || type.equals("unicode");
    boolean bits = type.equals("bool");
    long full; // bytes of all values (strings: of all lengths); MAX_VALUE when beyond a long, hence beyond any file
    try {
      full = bits ? Bitmask.bytes(n) : Math.multiplyExact(n, itemSize);
    } catch (ArithmeticException e) {
      full = Long.MAX_VALUE;
    }
    boolean ok;
    if (strings) {
      ok = masked ? len >= maskBytes : len >= full;
    } else if (masked) {
      long rest = len - maskBytes;
      ok = rest >= 0 && rest <= full && (bits || rest % itemSize == 0);
    } else {
      ok = len == full;
    }
    if (!ok) { // the message is built only when needed (opening many small files checks every variable)
      String need = strings
          ? (masked ? "at least the " + maskBytes + "-byte bitmask" : "at least " + full + " bytes of string lengths")
          : masked ? "a " + maskBytes + "-byte bitmask plus up to " + full + " bytes of values" : full + " bytes";
      throw new IOException(what + ": .len " + len + " does not fit .size (" + n + " elements) and .type " + type
          + ": it needs " + need);
    }
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

  /** The file's {@code _FillValue} as a value of the variable's type, or null when not representable. */
  static Number fillNumber(JsonNode v, DType dt) {
    if (v.isArray() && v.size() == 1) {
      v = v.get(0);
    }
    if (!v.isNumber()) {
      return null;
    }
    switch (dt.kind()) {
      case FLOAT:
        return dt.itemSize() == 4 ? (Number) (float) v.doubleValue() : (Number) v.doubleValue();
      case INT:
      case UINT:
      case BOOL: {
        BigInteger b;
        if (v.isIntegralNumber()) {
          b = v.bigIntegerValue();
        } else {
          double d = v.doubleValue();
          if (Double.isNaN(d) || Double.isInfinite(d) || d != Math.rint(d)) {
            return null;
          }
          b = new java.math.BigDecimal(d).toBigInteger();
        }
        int bitsN = 8 * dt.itemSize();
        boolean unsigned = dt.kind() != DType.Kind.INT;
        BigInteger lo = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bitsN - 1).negate();
        BigInteger hi = unsigned ? BigInteger.ONE.shiftLeft(bitsN).subtract(BigInteger.ONE)
            : BigInteger.ONE.shiftLeft(bitsN - 1).subtract(BigInteger.ONE);
        if (b.compareTo(lo) < 0 || b.compareTo(hi) > 0) {
          return null;
        }
        return b.longValue();
      }
      default:
        return null;
    }
  }

  /** The fill value as one element in the dtype's byte order (bool: one byte). */
  private static byte[] bytes(DType dt, Number v) {
    ByteBuffer b = ByteBuffer.allocate(dt.itemSize()).order(dt.order());
    switch (dt.kind()) {
      case FLOAT:
        if (dt.itemSize() == 4) {
          b.putFloat(v.floatValue());
        } else {
          b.putDouble(v.doubleValue());
        }
        break;
      default:
        long x = v.longValue();
        for (int i = 0; i < dt.itemSize(); i++) {
          int shift = dt.order() == ByteOrder.BIG_ENDIAN ? 8 * (dt.itemSize() - 1 - i) : 8 * i;
          b.put(i, (byte) (x >>> shift));
        }
    }
    return b.array();
  }

}
