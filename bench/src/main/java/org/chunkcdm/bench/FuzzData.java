package org.chunkcdm.bench;

import java.util.Arrays;
import java.util.Random;

/**
 * Generated inputs for the bench's differential codec campaigns ({@code zstd.ZstdFuzz}, {@link InflateFuzz}): byte-
 * and bit-shuffled float series (typesizes 2, 4 and 8, as Blosc's filters leave them), up to 41 KiB of random bytes
 * before compressible data (a long first literal run), random bytes, and mixes of runs, short-offset repeats and far
 * copies.
 */
public final class FuzzData {
  /** The bytes kept free on either side of a campaign's output, each holding 0x5A. */
  public static final int PAD = 64;

  private FuzzData() {}

  /** An output array with room for {@code room} bytes at {@code [PAD..]} and {@link #PAD} canaries (0x5A) around. */
  public static byte[] guarded(int room) {
    byte[] out = new byte[room + 2 * PAD];
    rearm(out);
    return out;
  }

  /** Sets every byte of a {@link #guarded} array to the canary again, before the next decode into it. */
  public static void rearm(byte[] out) {
    Arrays.fill(out, (byte) 0x5A);
  }

  /** True when the {@link #PAD} bytes on either side of the n-byte output at {@code out[PAD..]} still hold 0x5A. */
  public static boolean canariesKept(byte[] out, int n) {
    for (int i = 0; i < PAD; i++) {
      if (out[i] != 0x5A || out[PAD + n + i] != 0x5A) {
        return false;
      }
    }
    return true;
  }

  /** One input of a campaign: up to 2,000 bytes a quarter of the time, else up to 140 KB or 600 KB. */
  public static byte[] input(Random r) {
    return data(r, r.nextInt(4) == 0 ? r.nextInt(2000) : r.nextInt(r.nextBoolean() ? 140_000 : 600_000));
  }

  /** {@code n} bytes of one of the kinds above, chosen by {@code r}. */
  public static byte[] data(Random r, int n) {
    byte[] b = new byte[n];
    int ts = 1 << (1 + r.nextInt(3));
    switch (r.nextInt(8)) {
      case 0: { // a float series, byte-shuffled (typesize 2, 4 or 8)
        int items = n / ts;
        byte[] raw = series(r, items, ts);
        for (int i = 0; i < items; i++) {
          for (int j = 0; j < ts; j++) {
            b[j * items + i] = raw[i * ts + j];
          }
        }
        break;
      }
      case 1: { // a float series, bit-shuffled
        int items = (n / ts) & ~7;
        byte[] raw = series(r, items, ts);
        for (int i = 0; i < items; i++) {
          for (int j = 0; j < ts * 8; j++) {
            int bit = (raw[i * ts + j / 8] >>> (j & 7)) & 1;
            int pos = j * items + i;
            b[pos >>> 3] |= (byte) (bit << (pos & 7));
          }
        }
        break;
      }
      case 2: { // up to 41 KiB of random bytes, then a mix: a block's first sequence takes a long literal run
        int pre = Math.min(n, 1024 + r.nextInt(40000));
        byte[] x = new byte[pre];
        r.nextBytes(x);
        System.arraycopy(x, 0, b, 0, pre);
        fillMix(r, b, pre, n);
        break;
      }
      case 3:
        r.nextBytes(b);
        break;
      default:
        fillMix(r, b, 0, n);
    }
    return b;
  }

  private static byte[] series(Random r, int items, int ts) {
    byte[] raw = new byte[items * ts];
    double v = r.nextDouble() * 100;
    double noise = Math.pow(10, -r.nextInt(8));
    for (int i = 0; i < items; i++) {
      v += Math.sin(i * 0.001) * 0.01 + r.nextGaussian() * noise;
      long bits = ts == 8 ? Double.doubleToLongBits(v)
          : ts == 4 ? Float.floatToIntBits((float) v) : (long) (v * 100) & 0xFFFF;
      for (int j = 0; j < ts; j++) {
        raw[i * ts + j] = (byte) (bits >>> (8 * j));
      }
    }
    return raw;
  }

  private static void fillMix(Random r, byte[] b, int from, int n) {
    int p = from;
    int alpha = 2 + r.nextInt(255);
    while (p < n) {
      int len = Math.min(n - p, 1 + (r.nextInt(4) == 0 ? r.nextInt(3000) : r.nextInt(40)));
      switch (r.nextInt(5)) {
        case 0:
          for (int i = 0; i < len; i++) {
            b[p + i] = (byte) r.nextInt(alpha);
          }
          break;
        case 1:
          Arrays.fill(b, p, p + len, (byte) r.nextInt(256));
          break;
        case 2:
        case 3: // a copy from earlier: offsets 1..7 half of the time
          if (p == 0) {
            b[p] = 1;
            len = 1;
            break;
          }
          int far = Math.min(p, 1 << (4 + r.nextInt(14)));
          int off = 1 + (r.nextBoolean() ? r.nextInt(Math.min(7, p)) : r.nextInt(far));
          for (int i = 0; i < len; i++) {
            b[p + i] = b[p + i - off];
          }
          break;
        default:
          for (int i = 0; i < len; i++) {
            b[p + i] = (byte) r.nextInt(256);
          }
      }
      p += len;
    }
  }
}
