package org.chunkcdm.hdf5;

import java.io.IOException;

/**
 * An HDF5 fixed-point or floating-point file datatype as its datatype message describes it, and the conversion
 * HDF5 applies when it reads such a type into the native type of the same size (what h5py, netCDF4 and h5dump
 * return): an integer whose significant bits are fewer than the element's ({@code precision < 8 * size}) or do not
 * start at bit 0 ({@code offset > 0}) becomes {@code (element >> offset)} masked to {@code precision} bits,
 * sign-extended for signed types; a float whose fields differ from IEEE 754 binary32/binary64 (e.g. a shortened
 * mantissa, as the N-bit filter's examples use) becomes the IEEE float of the same size with the same value (NaN:
 * sign kept, exponent and mantissa all ones; infinities and zeros keep their sign).
 *
 * <p>Elements are converted in place, in the dataset's byte order.
 */
final class H5Type {
  static final int FIXED = 0;
  static final int FLOAT = 1;
  static final int NORM_NONE = 0;
  static final int NORM_MSBSET = 1;
  static final int NORM_IMPLIED = 2;

  final int cls;
  final int size;
  final boolean bigEndian;
  final boolean signed;
  final int offset;
  final int precision;
  // floating point only
  final int signPos;
  final int expPos;
  final int expSize;
  final int mantPos;
  final int mantSize;
  final long bias;
  final int norm;

  private H5Type(int cls, int size, boolean bigEndian, boolean signed, int offset, int precision, int signPos,
      int expPos, int expSize, int mantPos, int mantSize, long bias, int norm) {
    this.cls = cls;
    this.size = size;
    this.bigEndian = bigEndian;
    this.signed = signed;
    this.offset = offset;
    this.precision = precision;
    this.signPos = signPos;
    this.expPos = expPos;
    this.expSize = expSize;
    this.mantPos = mantPos;
    this.mantSize = mantSize;
    this.bias = bias;
    this.norm = norm;
  }

  /** An integer type (tests, and the N-bit filter's parameters when no datatype message is at hand). */
  static H5Type integer(int size, boolean bigEndian, boolean signed, int offset, int precision) throws IOException {
    return check(new H5Type(FIXED, size, bigEndian, signed, offset, precision, 0, 0, 0, 0, 0, 0, 0));
  }

  /** A floating-point type with the given fields. */
  static H5Type floating(int size, boolean bigEndian, int offset, int precision, int signPos, int expPos, int expSize,
      int mantPos, int mantSize, long bias, int norm) throws IOException {
    return check(new H5Type(FLOAT, size, bigEndian, true, offset, precision, signPos, expPos, expSize, mantPos, mantSize,
        bias, norm));
  }

  /**
   * Parses the body of a datatype message (version 1-3) of class 0 (fixed-point) or 1 (floating-point): byte 0
   * class and version, bytes 1-3 the class bit field, bytes 4-7 the size, then the class's properties. Null for
   * other classes.
   */
  static H5Type parse(byte[] m) throws IOException {
    if (m.length < 12) {
      throw new IOException("datatype message of " + m.length + " bytes is too short");
    }
    int cls = m[0] & 0x0f;
    int b0 = m[1] & 0xff;
    int b1 = m[2] & 0xff;
    int size = (m[4] & 0xff) | (m[5] & 0xff) << 8 | (m[6] & 0xff) << 16 | (m[7] & 0xff) << 24;
    int offset = (m[8] & 0xff) | (m[9] & 0xff) << 8;
    int precision = (m[10] & 0xff) | (m[11] & 0xff) << 8;
    if (cls == FIXED) {
      return check(new H5Type(FIXED, size, (b0 & 1) != 0, (b0 & 8) != 0, offset, precision, 0, 0, 0, 0, 0, 0, 0));
    }
    if (cls == FLOAT) {
      if (m.length < 20) {
        throw new IOException("floating-point datatype message of " + m.length + " bytes is too short");
      }
      if ((b0 & 0x40) != 0) {
        throw new IOException("VAX byte order of a floating-point type is not supported");
      }
      long bias = (m[16] & 0xffL) | (m[17] & 0xffL) << 8 | (m[18] & 0xffL) << 16 | (m[19] & 0xffL) << 24;
      return check(new H5Type(FLOAT, size, (b0 & 1) != 0, true, offset, precision, b1, m[12] & 0xff, m[13] & 0xff,
          m[14] & 0xff, m[15] & 0xff, bias, (b0 >>> 4) & 3));
    }
    return null;
  }

  private static H5Type check(H5Type t) throws IOException {
    int bits = 8 * t.size;
    boolean ok = (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8) && t.precision >= 1
        && t.offset + t.precision <= bits;
    if (ok && t.cls == FLOAT) {
      ok = t.size >= 4 && t.expSize >= 1 && t.expSize <= 16 && t.mantSize >= 1 && t.mantSize <= 62
          && t.signPos < bits && t.expPos + t.expSize <= bits && t.mantPos + t.mantSize <= bits && t.norm != 3
          && (t.norm != NORM_MSBSET || t.mantSize >= 2);
    }
    if (!ok) {
      throw new IOException("unsupported " + t);
    }
    return t;
  }

  /** Whether values need no conversion: a full-precision integer, or an IEEE 754 float of this size. */
  boolean isNative() {
    if (cls == FIXED) {
      return offset == 0 && precision == 8 * size;
    }
    if (size == 4) {
      return offset == 0 && precision == 32 && signPos == 31 && expPos == 23 && expSize == 8 && mantPos == 0
          && mantSize == 23 && bias == 127 && norm == NORM_IMPLIED;
    }
    return size == 8 && offset == 0 && precision == 64 && signPos == 63 && expPos == 52 && expSize == 11
        && mantPos == 0 && mantSize == 52 && bias == 1023 && norm == NORM_IMPLIED;
  }

  /** Converts {@code n} elements at {@code a[off..]} in place. */
  void convert(byte[] a, int off, int n) {
    for (int i = 0, p = off; i < n; i++, p += size) {
      put(a, p, convertBits(get(a, p)));
    }
  }

  /** The value HDF5 returns for one element's bits (the element read as an unsigned number). */
  long convertBits(long raw) {
    return cls == FIXED ? convertInteger(raw) : convertFloat(raw);
  }

  private long convertInteger(long raw) {
    long v = precision == 64 ? raw : (raw >>> offset) & ((1L << precision) - 1);
    if (signed && precision < 64 && ((v >>> (precision - 1)) & 1) != 0) {
      v |= -1L << precision;
    }
    return size == 8 ? v : v & ((1L << (8 * size)) - 1);
  }

  private static long field(long raw, int pos, int len) {
    return len >= 64 ? raw >>> pos : (raw >>> pos) & ((1L << len) - 1);
  }

  private long convertFloat(long raw) {
    boolean neg = ((raw >>> signPos) & 1) != 0;
    long e = field(raw, expPos, expSize);
    long m = field(raw, mantPos, mantSize);
    long allOnes = (1L << expSize) - 1;
    boolean dbl = size == 8;
    long signBit = neg ? (dbl ? Long.MIN_VALUE : 0x80000000L) : 0;
    if (e == allOnes) {
      if (m == 0) {
        return signBit | (dbl ? 0x7ff0000000000000L : 0x7f800000L);
      }
      return signBit | (dbl ? 0x7fffffffffffffffL : 0x7fffffffL); // NaN: every exponent and mantissa bit set
    }
    if (m == 0 && (e == 0 || norm != NORM_IMPLIED)) {
      return signBit; // zero
    }
    long mant;
    long exp2;
    if (norm == NORM_IMPLIED) {
      if (e == 0) { // denormalized
        mant = m;
        exp2 = 1 - bias - mantSize;
      } else {
        mant = m | (1L << mantSize);
        exp2 = e - bias - mantSize;
      }
    } else if (norm == NORM_MSBSET) {
      mant = m;
      exp2 = e - bias - (mantSize - 1);
    } else {
      mant = m;
      exp2 = e - bias + 1 - mantSize;
    }
    return signBit | ieee(mant, exp2, dbl);
  }

  /**
   * The IEEE 754 binary32 ({@code dbl} false) or binary64 bits, without the sign, of {@code mant * 2^exp2}
   * ({@code mant > 0}), in integer arithmetic: rounded to nearest (ties to even) when the mantissa does not fit,
   * subnormal or infinite where the value leaves the normal range.
   */
  static long ieee(long mant, long exp2, boolean dbl) {
    int m = dbl ? 52 : 23;
    long bias = dbl ? 1023 : 127;
    long maxExp = dbl ? 2047 : 255;
    int msb = 63 - Long.numberOfLeadingZeros(mant);
    long e = exp2 + msb + bias; // biased exponent of the normalized value
    long shift; // the mantissa is shifted left by this (right when negative) to its stored position
    if (e >= 1) {
      shift = m - msb;
    } else { // subnormal: the value is k * 2^(1 - bias - m)
      shift = exp2 - (1 - bias - m);
      e = 0;
    }
    long k;
    if (shift >= 0) {
      k = shift >= 63 ? 0 : mant << shift;
    } else {
      long r = -shift;
      if (r >= 64) {
        k = 0;
      } else {
        k = mant >>> r;
        long rest = mant & ((1L << r) - 1);
        long half = 1L << (r - 1);
        if (rest > half || rest == half && (k & 1) != 0) {
          k++;
        }
      }
    }
    if (e == 0) {
      return k; // a subnormal that rounded up to the smallest normal has exactly the normal's bits
    }
    if (k >>> (m + 1) != 0) { // rounding carried into a new bit
      k >>>= 1;
      e++;
    }
    if (e >= maxExp) {
      return maxExp << m; // infinity
    }
    return e << m | (k & ((1L << m) - 1));
  }

  long get(byte[] a, int p) {
    long v = 0;
    if (bigEndian) {
      for (int i = 0; i < size; i++) {
        v = v << 8 | (a[p + i] & 0xff);
      }
    } else {
      for (int i = size - 1; i >= 0; i--) {
        v = v << 8 | (a[p + i] & 0xff);
      }
    }
    return v;
  }

  void put(byte[] a, int p, long v) {
    if (bigEndian) {
      for (int i = size - 1; i >= 0; i--, v >>>= 8) {
        a[p + i] = (byte) v;
      }
    } else {
      for (int i = 0; i < size; i++, v >>>= 8) {
        a[p + i] = (byte) v;
      }
    }
  }

  @Override
  public String toString() {
    String s = (cls == FIXED ? (signed ? "signed" : "unsigned") + " integer" : "float") + " of " + size + " bytes ("
        + (bigEndian ? "big" : "little") + "-endian, precision " + precision + ", offset " + offset;
    if (cls == FLOAT) {
      s += ", sign bit " + signPos + ", exponent " + expPos + "+" + expSize + " bias " + bias + ", mantissa " + mantPos
          + "+" + mantSize + ", normalization " + norm;
    }
    return s + ")";
  }
}
