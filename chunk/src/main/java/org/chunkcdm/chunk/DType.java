package org.chunkcdm.chunk;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Objects;

/**
 * An element type as the formats describe it (numpy-style), with its byte order (its CDM type:
 * {@code org.chunkcdm.cdm.CdmTypes}, docs/cdm-contract.md section 3).
 */
public final class DType {
  /** The kind of an element. */
  public enum Kind {
    /** signed integer, 1/2/4/8 bytes */
    INT,
    /** unsigned integer, 1/2/4/8 bytes */
    UINT,
    /** IEEE float 2/4/8 bytes (2 = half precision, read as FLOAT) */
    FLOAT,
    /** complex of two floats (8 = complex64, 16 = complex128): FLOAT/DOUBLE with an extra dimension 2 */
    COMPLEX,
    /** numpy bool, one byte 0/1: UBYTE with flag attributes */
    BOOL,
    /** fixed-size byte string {@code S<n>}: CHAR with an extra last dimension n */
    BYTES,
    /** fixed-size UCS-4 string {@code U<n>} (itemSize = 4n): STRING */
    UNICODE,
    /** opaque record of itemSize bytes (e.g. typesize 3): UBYTE with an extra last dimension itemSize */
    OPAQUE
  }

  private final Kind kind;
  private final int itemSize;
  private final ByteOrder order;

  private DType(Kind kind, int itemSize, ByteOrder order) {
    this.kind = kind;
    this.itemSize = itemSize;
    this.order = order;
  }

  public static DType of(Kind kind, int itemSize, ByteOrder order) {
    switch (kind) {
      case INT:
      case UINT:
        check(itemSize == 1 || itemSize == 2 || itemSize == 4 || itemSize == 8, kind, itemSize);
        break;
      case FLOAT:
        check(itemSize == 2 || itemSize == 4 || itemSize == 8, kind, itemSize);
        break;
      case COMPLEX:
        check(itemSize == 8 || itemSize == 16, kind, itemSize);
        break;
      case BOOL:
        check(itemSize == 1, kind, itemSize);
        break;
      case UNICODE:
        check(itemSize >= 0 && itemSize % 4 == 0, kind, itemSize);
        break;
      default:
        check(itemSize >= 0, kind, itemSize);
    }
    return new DType(kind, itemSize, order == null ? ByteOrder.LITTLE_ENDIAN : order);
  }

  private static void check(boolean ok, Kind kind, int size) {
    if (!ok) {
      throw new IllegalArgumentException("bad item size " + size + " for " + kind);
    }
  }

  /**
   * Unsigned integer of the given typesize for data without dtype information: 1/2/4/8 map to
   * UBYTE/USHORT/UINT/ULONG, anything else is an opaque record.
   */
  public static DType forTypesize(int typesize) {
    if (typesize == 1 || typesize == 2 || typesize == 4 || typesize == 8) {
      return of(Kind.UINT, typesize, ByteOrder.LITTLE_ENDIAN);
    }
    return of(Kind.OPAQUE, typesize, ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Parses a numpy dtype string: {@code "<i4"}, {@code "|u1"}, {@code ">f8"}, {@code "|b1"}, {@code "|S7"},
   * {@code "<U5"}, {@code "<c16"}, {@code "<f2"}, or a numpy name as bcolz writes it ({@code "int32"},
   * {@code "float64"}, {@code "bool"}, {@code "uint8"}, {@code "complex64"}, {@code "float16"}). Names without
   * an order character are little-endian.
   *
   * @throws IOException naming the dtype when it is not supported (e.g. object or structured dtypes)
   */
  public static DType parseNumpy(String s) throws IOException {
    if (s == null) {
      throw new IOException("missing dtype");
    }
    String t = unquoted(s.trim());
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    if (!t.isEmpty() && "<>|=".indexOf(t.charAt(0)) >= 0) {
      if (t.charAt(0) == '>') {
        order = ByteOrder.BIG_ENDIAN;
      } else if (t.charAt(0) == '=') {
        order = ByteOrder.nativeOrder();
      }
      t = t.substring(1);
    }
    DType named = NUMPY_NAMES.get(t.toLowerCase(Locale.ROOT));
    if (named != null) {
      return named.withOrder(order);
    }
    if (t.length() >= 2) {
      return typeCode(s, t.charAt(0), t.substring(1), order);
    }
    throw new IOException("unsupported dtype '" + s + "'");
  }

  /** {@code t} without the quotes around it ({@code 'x'} or {@code "x"}). */
  private static String unquoted(String t) {
    if (t.length() >= 2 && (t.startsWith("'") && t.endsWith("'") || t.startsWith("\"") && t.endsWith("\""))) {
      return t.substring(1, t.length() - 1);
    }
    return t;
  }

  /** The numpy type names (as bcolz writes them), little-endian. */
  private static final java.util.Map<String, DType> NUMPY_NAMES = numpyNames();

  private static java.util.Map<String, DType> numpyNames() {
    java.util.Map<String, DType> m = new java.util.HashMap<>();
    for (int size : new int[] {1, 2, 4, 8}) {
      m.put("int" + 8 * size, of(Kind.INT, size, ByteOrder.LITTLE_ENDIAN));
      m.put("uint" + 8 * size, of(Kind.UINT, size, ByteOrder.LITTLE_ENDIAN));
    }
    for (int size : new int[] {2, 4, 8}) {
      m.put("float" + 8 * size, of(Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN));
    }
    m.put("complex64", of(Kind.COMPLEX, 8, ByteOrder.LITTLE_ENDIAN));
    m.put("complex128", of(Kind.COMPLEX, 16, ByteOrder.LITTLE_ENDIAN));
    for (String name : new String[] {"bool", "bool_", "?"}) {
      m.put(name, of(Kind.BOOL, 1, ByteOrder.LITTLE_ENDIAN));
    }
    return java.util.Map.copyOf(m);
  }

  /** numpy's type codes ({@code a}: the old name of {@code S}). */
  private static final java.util.Map<Character, Kind> CODES = java.util.Map.of('b', Kind.BOOL, 'i', Kind.INT,
      'u', Kind.UINT, 'f', Kind.FLOAT, 'c', Kind.COMPLEX, 'S', Kind.BYTES, 'a', Kind.BYTES, 'U', Kind.UNICODE,
      'V', Kind.OPAQUE);

  /** The type-code form {@code <code><size>} ({@code i4}, {@code S7}, {@code U5}, ...) of dtype {@code s}. */
  private static DType typeCode(String s, char code, String size, ByteOrder order) throws IOException {
    int n;
    try {
      n = Integer.parseInt(size);
    } catch (NumberFormatException e) {
      throw new IOException("unsupported dtype '" + s + "'");
    }
    if (n < 0 || n > (1 << 24)) {
      throw new IOException("unsupported dtype '" + s + "': item size " + n);
    }
    Kind kind = CODES.get(code);
    if (kind == null) {
      throw new IOException("unsupported dtype '" + s + "'");
    }
    try {
      return of(kind, kind == Kind.UNICODE ? 4 * n : n, order);
    } catch (IllegalArgumentException e) {
      throw new IOException("unsupported dtype '" + s + "': " + e.getMessage());
    }
  }

  public Kind kind() {
    return kind;
  }

  /** Bytes per element as stored. */
  public int itemSize() {
    return itemSize;
  }

  /** This type in byte order {@code o}. */
  public DType withOrder(ByteOrder o) {
    return new DType(kind, itemSize, o);
  }

  public ByteOrder order() {
    return order;
  }

  /**
   * Length of the extra last CDM dimension this type adds (S&lt;n&gt; → n, complex → 2, opaque → itemSize),
   * or 0 when the type adds none.
   */
  public int extraDim() {
    switch (kind) {
      case BYTES:
      case OPAQUE:
        return itemSize;
      case COMPLEX:
        return 2;
      default:
        return 0;
    }
  }

  /** IEEE 754 half precision to float, exactly. */
  public static float halfToFloat(short h) {
    int bits = h & 0xffff;
    int sign = (bits & 0x8000) << 16;
    int exp = (bits >>> 10) & 0x1f;
    int mant = bits & 0x3ff;
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
    }
    if (exp == 0) {
      float v = mant * 0x1p-24f; // subnormal (exact in float)
      return sign != 0 ? -v : v;
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }

  /** A short description like numpy's dtype string, e.g. {@code <i4}. */
  @Override
  public String toString() {
    char o = itemSize <= 1 && kind != Kind.UNICODE ? '|' : order == ByteOrder.BIG_ENDIAN ? '>' : '<';
    char c;
    int n = itemSize;
    switch (kind) {
      case INT:
        c = 'i';
        break;
      case UINT:
        c = 'u';
        break;
      case FLOAT:
        c = 'f';
        break;
      case COMPLEX:
        c = 'c';
        break;
      case BOOL:
        c = 'b';
        break;
      case BYTES:
        c = 'S';
        o = '|';
        break;
      case UNICODE:
        c = 'U';
        n = itemSize / 4;
        break;
      default:
        c = 'V';
        o = '|';
    }
    return "" + o + c + n;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DType)) {
      return false;
    }
    DType d = (DType) o;
    return kind == d.kind && itemSize == d.itemSize && order.equals(d.order);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, itemSize, order);
  }
}
