package org.chunkcdm.blosc;

/** Undoes Blosc's byte shuffle, bit shuffle and delta filters on one block. */
final class Filters {
  private Filters() {}

  /**
   * Byte unshuffle: {@code src} holds byte 0 of every item, then byte 1, ...; the last {@code len % ts}
   * bytes are stored as they are.
   */
  static void unshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int len) {
    int n = len / ts;
    if (ts <= 1 || n == 0) {
      System.arraycopy(src, sp, dst, dp, len);
      return;
    }
    switch (ts) {
      case 2:
        for (int i = 0; i < n; i++) {
          dst[dp + 2 * i] = src[sp + i];
          dst[dp + 2 * i + 1] = src[sp + n + i];
        }
        break;
      case 4:
        for (int i = 0; i < n; i++) {
          int o = dp + 4 * i;
          dst[o] = src[sp + i];
          dst[o + 1] = src[sp + n + i];
          dst[o + 2] = src[sp + 2 * n + i];
          dst[o + 3] = src[sp + 3 * n + i];
        }
        break;
      case 8:
        for (int i = 0; i < n; i++) {
          int o = dp + 8 * i;
          int s = sp + i;
          dst[o] = src[s];
          dst[o + 1] = src[s + n];
          dst[o + 2] = src[s + 2 * n];
          dst[o + 3] = src[s + 3 * n];
          dst[o + 4] = src[s + 4 * n];
          dst[o + 5] = src[s + 5 * n];
          dst[o + 6] = src[s + 6 * n];
          dst[o + 7] = src[s + 7 * n];
        }
        break;
      default:
        for (int j = 0; j < ts; j++) {
          int s = sp + j * n;
          for (int i = 0; i < n; i++) {
            dst[dp + i * ts + j] = src[s + i];
          }
        }
    }
    int tail = len - n * ts;
    if (tail > 0) {
      System.arraycopy(src, sp + n * ts, dst, dp + n * ts, tail);
    }
  }

  /**
   * Bit unshuffle of the first {@code n8 = items - items % 8} items: {@code 8 * ts} rows of {@code n8 / 8}
   * bytes, row {@code 8 * j + k} holding bit k (LSB first) of byte j of every item, item i in bit
   * {@code i % 8} of row byte {@code i / 8}. The remaining bytes are copied as they are.
   */
  static void bitunshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int len) {
    int items = len / ts;
    int n8 = items - items % 8;
    int rowBytes = n8 / 8;
    for (int j = 0; j < ts; j++) {
      int rowBase = sp + 8 * j * rowBytes;
      for (int g = 0; g < rowBytes; g++) {
        long x = 0;
        for (int k = 0; k < 8; k++) {
          x |= (long) (src[rowBase + k * rowBytes + g] & 0xff) << (8 * k);
        }
        x = transpose8(x);
        int o = dp + 8 * g * ts + j;
        for (int b = 0; b < 8; b++) {
          dst[o + b * ts] = (byte) (x >>> (8 * b));
        }
      }
    }
    int done = n8 * ts;
    if (len > done) {
      System.arraycopy(src, sp + done, dst, dp + done, len - done);
    }
  }

  /** Transposes an 8x8 bit matrix held as 8 bytes (byte r, bit c) → (byte c, bit r). */
  static long transpose8(long x) {
    long t;
    t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
    x = x ^ t ^ (t << 28);
    return x;
  }

  /** The delta unit for a typesize: the typesize when 1/2/4/8, else 8 when a multiple of 8, else 1. */
  static int deltaUnit(int ts) {
    if (ts == 1 || ts == 2 || ts == 4 || ts == 8) {
      return ts;
    }
    return ts % 8 == 0 ? 8 : 1;
  }

  /**
   * Undoes DELTA in place on block {@code buf[p..p+len)}. Block 0 ({@code ref == null}) is a running XOR of
   * units; any other block XORs each unit with the unit at the same position of the decoded block 0
   * ({@code ref[rp..]}). Trailing bytes that do not fill a unit are left alone.
   */
  static void undelta(int ts, byte[] buf, int p, int len, byte[] ref, int rp) {
    int unit = deltaUnit(ts);
    int units = len / unit;
    int bytes = units * unit;
    if (ref == null) {
      for (int i = unit; i < bytes; i++) {
        buf[p + i] ^= buf[p + i - unit];
      }
    } else {
      for (int i = 0; i < bytes; i++) {
        buf[p + i] ^= ref[rp + i];
      }
    }
  }
}
