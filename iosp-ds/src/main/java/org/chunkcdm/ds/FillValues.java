package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.nio.ByteOrder;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.open.Attributes;

/**
 * A numeric or bool variable's fill value: the file's {@code _FillValue} when the variable's type can hold it,
 * else netCDF-3's default for masked and data-less variables; as the {@code _FillValue} attribute and as the
 * element bytes masked cells read as.
 */
final class FillValues {
  private FillValues() {}

  /**
   * Puts the variable's {@code _FillValue} into {@code attrs} ({@code ds_FillValue} for a file's value the type
   * cannot hold) and returns it as one element in the dtype's byte order, or null when the variable has none.
   * {@code fileFill}: the member's {@code _FillValue} (or null); {@code needed}: masked or without data.
   */
  static byte[] attribute(Attributes attrs, JsonNode fileFill, DType dt, boolean needed) {
    Number fv = fileFill == null ? null : fillNumber(fileFill, dt);
    if (fileFill != null && fv == null) {
      // not representable in the variable's type: keep it visible, but not as _FillValue
      attrs.putJson("ds_FillValue", fileFill);
    }
    if (fv == null && needed) {
      fv = defaultFill(dt);
    }
    if (fv == null) {
      return null;
    }
    Object boxed = boxed(dt, fv);
    if (dt.kind() == DType.Kind.UINT) {
      attrs.putUnsigned("_FillValue", boxed);
    } else {
      attrs.put("_FillValue", boxed);
    }
    return bytes(dt, fv);
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
      case BOOL:
        return integer(v, dt);
      default:
        return null;
    }
  }

  /** An integral fill value within the range of the integer type, else null. */
  private static Number integer(JsonNode v, DType dt) {
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

  /** The fill value as one element in the dtype's byte order (bool: one byte; floats as their bits). */
  private static byte[] bytes(DType dt, Number v) {
    int n = dt.itemSize();
    long bits = dt.kind() != DType.Kind.FLOAT ? v.longValue()
        : n == 4 ? Float.floatToRawIntBits(v.floatValue()) : Double.doubleToRawLongBits(v.doubleValue());
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (bits >>> (dt.order() == ByteOrder.BIG_ENDIAN ? 8 * (n - 1 - i) : 8 * i));
    }
    return b;
  }
}
