package org.chunkcdm.zarr;

import java.nio.ByteOrder;
import org.chunkcdm.chunk.DType;

/**
 * Element access for the numeric filters: element {@code i} of a byte array of a {@link DType} read as a long or a
 * double and written back, with numpy's C casts (integers wrap, floats truncate toward zero into integers).
 */
final class Elements {
  private Elements() {}

  static boolean isInteger(DType t) {
    return t.kind() == DType.Kind.INT || t.kind() == DType.Kind.UINT || t.kind() == DType.Kind.BOOL;
  }

  static boolean isNumeric(DType t) {
    return isInteger(t) || t.kind() == DType.Kind.FLOAT;
  }

  private static long raw(byte[] b, int p, int size, boolean big) {
    long v = 0;
    if (big) {
      for (int k = 0; k < size; k++) {
        v = v << 8 | (b[p + k] & 0xFF);
      }
    } else {
      for (int k = size - 1; k >= 0; k--) {
        v = v << 8 | (b[p + k] & 0xFF);
      }
    }
    return v;
  }

  private static void putRaw(byte[] b, int p, int size, boolean big, long v) {
    if (big) {
      for (int k = size - 1; k >= 0; k--) {
        b[p + k] = (byte) v;
        v >>>= 8;
      }
    } else {
      for (int k = 0; k < size; k++) {
        b[p + k] = (byte) v;
        v >>>= 8;
      }
    }
  }

  /** An integer element as a long (signed types sign-extended, unsigned 64-bit as its bit pattern). */
  static long getLong(DType t, byte[] b, int i) {
    int s = t.itemSize();
    long v = raw(b, i * s, s, t.order() == ByteOrder.BIG_ENDIAN);
    if (t.kind() == DType.Kind.INT && s < 8) {
      int shift = 64 - 8 * s;
      v = v << shift >> shift;
    }
    return v;
  }

  /** Any numeric element as a double (unsigned 64-bit values as their unsigned value). */
  static double getDouble(DType t, byte[] b, int i) {
    int s = t.itemSize();
    if (t.kind() == DType.Kind.FLOAT) {
      long r = raw(b, i * s, s, t.order() == ByteOrder.BIG_ENDIAN);
      return s == 8 ? Double.longBitsToDouble(r) : s == 4 ? Float.intBitsToFloat((int) r) : DType.halfToFloat((short) r);
    }
    long v = getLong(t, b, i);
    if (t.kind() == DType.Kind.UINT && s == 8 && v < 0) {
      return (double) (v >>> 1) * 2.0 + (v & 1);
    }
    return v;
  }

  static void putLong(DType t, byte[] b, int i, long v) {
    if (t.kind() == DType.Kind.FLOAT) {
      putDouble(t, b, i, v);
      return;
    }
    if (t.kind() == DType.Kind.BOOL) {
      v = v != 0 ? 1 : 0;
    }
    putRaw(b, i * t.itemSize(), t.itemSize(), t.order() == ByteOrder.BIG_ENDIAN, v);
  }

  /** Writes a double: rounded to the float type, or truncated toward zero into an integer type. */
  static void putDouble(DType t, byte[] b, int i, double v) {
    int s = t.itemSize();
    boolean big = t.order() == ByteOrder.BIG_ENDIAN;
    if (t.kind() == DType.Kind.FLOAT) {
      long r = s == 8 ? Double.doubleToRawLongBits(v) : s == 4 ? Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL
          : floatToHalf((float) v) & 0xFFFFL;
      putRaw(b, i * s, s, big, r);
      return;
    }
    long x;
    if (t.kind() == DType.Kind.BOOL) {
      x = v != 0 ? 1 : 0;
    } else if (t.kind() == DType.Kind.UINT && s == 8 && v >= 0x1p63) {
      x = (long) (v - 0x1p63) ^ Long.MIN_VALUE;
    } else {
      x = (long) v;
    }
    putRaw(b, i * s, s, big, x);
  }

  /** Casts element {@code i} of {@code src} (type {@code from}) into element {@code i} of {@code dst} (type {@code to}). */
  static void cast(DType from, byte[] src, DType to, byte[] dst, int i) {
    if (isInteger(from) && isInteger(to)) {
      putLong(to, dst, i, getLong(from, src, i));
    } else if (isInteger(from) && from.kind() != DType.Kind.UINT) {
      putDouble(to, dst, i, getLong(from, src, i));
    } else {
      putDouble(to, dst, i, getDouble(from, src, i));
    }
  }

  /** IEEE 754 float to half precision, rounding to nearest even (numpy's conversion). */
  static short floatToHalf(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int exp = (bits >>> 23) & 0xFF;
    int mant = bits & 0x7FFFFF;
    if (exp == 0xFF) {
      return (short) (sign | 0x7C00 | (mant != 0 ? 0x200 | (mant >>> 13) : 0));
    }
    int e = exp - 127 + 15;
    if (e >= 0x1F) {
      return (short) (sign | 0x7C00);
    }
    if (e <= 0) {
      if (e < -10) {
        return (short) sign;
      }
      mant |= 0x800000;
      int shift = 14 - e;
      int h = mant >>> shift;
      int rem = mant & ((1 << shift) - 1);
      int half = 1 << (shift - 1);
      if (rem > half || rem == half && (h & 1) != 0) {
        h++;
      }
      return (short) (sign | h);
    }
    int h = (e << 10) | (mant >>> 13);
    int rem = mant & 0x1FFF;
    if (rem > 0x1000 || rem == 0x1000 && (h & 1) != 0) {
      h++;
    }
    return (short) (sign | h);
  }
}
