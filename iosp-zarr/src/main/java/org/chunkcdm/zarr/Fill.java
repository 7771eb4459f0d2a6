package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.Attributes;

/**
 * Fill values: the JSON {@code fill_value} of an array as the bytes of one element in the array's byte order, and
 * the missing value a never-written element of a {@code null} fill reads as (NaN for floats, netCDF's default fill
 * for integers), so that NetcdfDatasets marks such elements missing.
 */
final class Fill {
  private Fill() {}

  /** The element bytes of a JSON fill value, or null for JSON {@code null} (no fill value). */
  static byte[] parse(JsonNode fv, DType dt, String what) throws IOException {
    if (fv == null || fv.isNull() || fv.isMissingNode()) {
      return null;
    }
    byte[] b = new byte[dt.itemSize()];
    try {
      switch (dt.kind()) {
        case BOOL:
          b[0] = (byte) (fv.isBoolean() ? (fv.booleanValue() ? 1 : 0) : fv.isNumber() && fv.doubleValue() != 0 ? 1 : 0);
          return b;
        case INT:
        case UINT:
          Elements.putLong(dt, b, 0, integer(fv, dt));
          return b;
        case FLOAT:
          if (fv.isTextual() && fv.textValue().startsWith("0x")) {
            long bits = Long.parseUnsignedLong(fv.textValue().substring(2), 16);
            putBits(dt, b, bits);
            return b;
          }
          Elements.putDouble(dt, b, 0, floating(fv));
          return b;
        case COMPLEX: {
          DType part = DType.of(DType.Kind.FLOAT, dt.itemSize() / 2, dt.order());
          double re = fv.isArray() ? floating(fv.get(0)) : floating(fv);
          double im = fv.isArray() && fv.size() > 1 ? floating(fv.get(1)) : 0;
          byte[] h = new byte[part.itemSize()];
          Elements.putDouble(part, h, 0, re);
          System.arraycopy(h, 0, b, 0, h.length);
          Elements.putDouble(part, h, 0, im);
          System.arraycopy(h, 0, b, h.length, h.length);
          return b;
        }
        case BYTES:
        case OPAQUE:
          if (fv.isTextual()) {
            byte[] d = Base64.getDecoder().decode(fv.textValue());
            System.arraycopy(d, 0, b, 0, Math.min(d.length, b.length));
          } else if (fv.isArray()) {
            for (int i = 0; i < Math.min(fv.size(), b.length); i++) {
              b[i] = (byte) fv.get(i).asInt();
            }
          } else if (!(fv.isNumber() && fv.doubleValue() == 0)) {
            throw new FormatException(what + ": fill_value " + fv + " is not base64 bytes");
          }
          return b;
        case UNICODE: {
          String s = fv.isTextual() ? fv.textValue() : fv.isNumber() && fv.doubleValue() == 0 ? "" : null;
          if (s == null) {
            throw new FormatException(what + ": fill_value " + fv + " is not a string");
          }
          ByteBuffer bb = ByteBuffer.wrap(b).order(dt.order());
          s.codePoints().limit(dt.itemSize() / 4).forEach(bb::putInt);
          return b;
        }
        default:
          throw new FormatException(what + ": no fill value for " + dt);
      }
    } catch (IllegalArgumentException e) {
      throw new FormatException(what + ": fill_value " + fv + " does not fit dtype " + dt + ": " + e.getMessage(), e);
    }
  }

  private static void putBits(DType dt, byte[] b, long bits) {
    int s = dt.itemSize();
    for (int k = 0; k < s; k++) {
      int shift = 8 * (dt.order() == java.nio.ByteOrder.BIG_ENDIAN ? s - 1 - k : k);
      b[k] = (byte) (bits >>> shift);
    }
  }

  private static long integer(JsonNode fv, DType dt) {
    if (fv.isIntegralNumber()) {
      BigInteger v = fv.bigIntegerValue();
      if (v.bitLength() > 64 || v.signum() < 0 && dt.kind() == DType.Kind.UINT) {
        throw new IllegalArgumentException("out of range");
      }
      return v.longValue();
    }
    if (fv.isNumber()) {
      double d = fv.doubleValue();
      if (d != Math.rint(d)) {
        throw new IllegalArgumentException("not an integer");
      }
      return (long) d;
    }
    if (fv.isBoolean()) {
      return fv.booleanValue() ? 1 : 0;
    }
    throw new IllegalArgumentException("not a number");
  }

  private static double floating(JsonNode fv) {
    if (fv.isNumber()) {
      return fv.doubleValue();
    }
    if (fv.isTextual()) {
      switch (fv.textValue()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
        case "+Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          return Double.parseDouble(fv.textValue());
      }
    }
    throw new IllegalArgumentException("not a number");
  }

  /**
   * The value a never-written element of an array without fill value reads as: NaN for floats, netCDF's default fill
   * for integers (and bool), zeros (empty strings) otherwise.
   */
  static byte[] missing(DType dt) {
    byte[] b = new byte[dt.itemSize()];
    switch (dt.kind()) {
      case FLOAT:
        Elements.putDouble(dt, b, 0, Double.NaN);
        break;
      case INT:
        Elements.putLong(dt, b, 0, dt.itemSize() == 1 ? -127 : dt.itemSize() == 2 ? -32767 : dt.itemSize() == 4
            ? -2147483647L : -9223372036854775806L);
        break;
      case UINT:
        Elements.putLong(dt, b, 0, dt.itemSize() == 8 ? -2L : (1L << (8 * dt.itemSize())) - 1);
        break;
      case BOOL:
        b[0] = (byte) 0xFF; // neither false nor true: UBYTE's default fill 255
        break;
      default:
        break;
    }
    return b;
  }

  /** True when a missing-value fill can be stated as a CDM {@code _FillValue} for this type. */
  static boolean numeric(DType dt) {
    return dt.kind() == DType.Kind.INT || dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.FLOAT
        || dt.kind() == DType.Kind.BOOL;
  }

  /** Puts {@code _FillValue} = the element {@code fill} in the variable's CDM type (unsigned where the type is). */
  static void putFillValue(Attributes a, DType dt, byte[] fill) {
    Object v = boxed(dt, fill);
    if (v == null) {
      return;
    }
    if (dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.BOOL) {
      a.putUnsigned("_FillValue", v);
    } else {
      a.put("_FillValue", v);
    }
  }

  /** One element as the boxed value of its CDM type, or null for non-numeric types. */
  static Object boxed(DType dt, byte[] e) {
    switch (dt.kind()) {
      case FLOAT:
        double d = Elements.getDouble(dt, e, 0);
        return dt.itemSize() == 8 ? (Object) d : (Object) (float) d;
      case INT:
      case UINT:
      case BOOL:
        long l = Elements.getLong(dt, e, 0);
        switch (dt.itemSize()) {
          case 1:
            return (byte) l;
          case 2:
            return (short) l;
          case 4:
            return (int) l;
          default:
            return l;
        }
      default:
        return null;
    }
  }

  /** A number (JSON) as the boxed value of the variable's CDM type, or null when it is not a number of that type. */
  static Object boxed(DType dt, JsonNode n) {
    if (!numeric(dt) || n == null || !(n.isNumber() || n.isTextual() || n.isBoolean())) {
      return null;
    }
    try {
      byte[] e = parse(n, dt.kind() == DType.Kind.BOOL ? DType.of(DType.Kind.UINT, 1, dt.order()) : dt, "attribute");
      return boxed(dt, e);
    } catch (IOException | RuntimeException ex) {
      return null;
    }
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
