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
    String t = s.trim();
    if (t.length() >= 2 && (t.startsWith("'") && t.endsWith("'") || t.startsWith("\"") && t.endsWith("\""))) {
      t = t.substring(1, t.length() - 1);
    }
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    if (!t.isEmpty() && "<>|=".indexOf(t.charAt(0)) >= 0) {
      if (t.charAt(0) == '>') {
        order = ByteOrder.BIG_ENDIAN;
      } else if (t.charAt(0) == '=') {
        order = ByteOrder.nativeOrder();
      }
      t = t.substring(1);
    }
    switch (t.toLowerCase(Locale.ROOT)) {
      case "bool":
      case "bool_":
      case "?":
        return of(Kind.BOOL, 1, order);
      case "int8":
        return of(Kind.INT, 1, order);
      case "int16":
        return of(Kind.INT, 2, order);
      case "int32":
        return of(Kind.INT, 4, order);
      case "int64":
        return of(Kind.INT, 8, order);
      case "uint8":
        return of(Kind.UINT, 1, order);
      case "uint16":
        return of(Kind.UINT, 2, order);
      case "uint32":
        return of(Kind.UINT, 4, order);
      case "uint64":
        return of(Kind.UINT, 8, order);
      case "float16":
        return of(Kind.FLOAT, 2, order);
      case "float32":
        return of(Kind.FLOAT, 4, order);
      case "float64":
        return of(Kind.FLOAT, 8, order);
      case "complex64":
        return of(Kind.COMPLEX, 8, order);
      case "complex128":
        return of(Kind.COMPLEX, 16, order);
      default:
        break;
    }
    if (t.length() >= 2) {
      char c = t.charAt(0);
      int n;
      try {
        n = Integer.parseInt(t.substring(1));
      } catch (NumberFormatException e) {
        throw new IOException("unsupported dtype '" + s + "'");
      }
      if (n < 0 || n > (1 << 24)) {
        throw new IOException("unsupported dtype '" + s + "': item size " + n);
      }
      try {
        switch (c) {
          case 'b':
            return of(Kind.BOOL, n, order);
          case 'i':
            return of(Kind.INT, n, order);
          case 'u':
            return of(Kind.UINT, n, order);
          case 'f':
            return of(Kind.FLOAT, n, order);
          case 'c':
            return of(Kind.COMPLEX, n, order);
          case 'S':
          case 'a':
            return of(Kind.BYTES, n, order);
          case 'U':
            return of(Kind.UNICODE, 4 * n, order);
          case 'V':
            return of(Kind.OPAQUE, n, order);
          default:
            break;
        }
      } catch (IllegalArgumentException e) {
        throw new IOException("unsupported dtype '" + s + "': " + e.getMessage());
      }
    }
    throw new IOException("unsupported dtype '" + s + "'");
  }

  public Kind kind() {
    return kind;
  }

  /** Bytes per element as stored. */
  public int itemSize() {
    return itemSize;
  }

  public ByteOrder order() {
    return order;
  }

  public DType withOrder(ByteOrder o) {
    return new DType(kind, itemSize, o);
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
