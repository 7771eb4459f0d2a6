package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;

/**
 * Random inputs for the filter kernels' tests: a source range at a random offset with bytes after it, and a
 * destination filled with random bytes ({@link #want}) and its copy ({@link #got}), so that a kernel writing into
 * {@code got} must leave the bytes around its range as they are in {@code want}.
 */
final class KernelData {
  final int sp;
  final int dp;
  final byte[] src;
  final byte[] want;
  final byte[] got;

  /**
   * {@code sp} and {@code dp} below {@code offBound}; {@code src}: {@code sp + len + srcSlack} random bytes;
   * {@code want}: {@code dp + len + dstSlack} random bytes; {@code got}: a copy of {@code want}.
   */
  KernelData(Random rnd, int len, int offBound, int srcSlack, int dstSlack) {
    sp = rnd.nextInt(offBound);
    dp = rnd.nextInt(offBound);
    src = new byte[sp + len + srcSlack];
    rnd.nextBytes(src);
    want = new byte[dp + len + dstSlack];
    rnd.nextBytes(want);
    got = want.clone();
  }

  /** A destination only (the source is in planes): {@code src} null, {@code sp} 0, the rest as above. */
  KernelData(Random rnd, int len, int offBound, int dstSlack) {
    sp = 0;
    src = null;
    dp = rnd.nextInt(offBound);
    want = new byte[dp + len + dstSlack];
    rnd.nextBytes(want);
    got = want.clone();
  }

  /** Asserts that {@link #got} holds {@code written} at {@code dp} and, around it, the bytes of {@link #want}. */
  void assertWritten(byte[] written, String what) {
    int len = written.length;
    assertArrayEquals(written, Arrays.copyOfRange(got, dp, dp + len), what);
    byte[] around = got.clone();
    System.arraycopy(want, dp, around, dp, len);
    assertArrayEquals(want, around, "bytes around the output, " + what);
  }

  /**
   * {@code ts} random planes of {@code n} bytes, plane j at a random offset {@code po[j] < offBound} in an array of its
   * own with {@code 0 .. slackBound-1} bytes after it (none, ending exactly at the plane's end, when slackBound is 0).
   */
  static byte[][] randomPlanes(Random rnd, int ts, int n, int[] po, int offBound, int slackBound) {
    byte[][] pa = new byte[ts][];
    for (int j = 0; j < ts; j++) {
      po[j] = rnd.nextInt(offBound);
      pa[j] = new byte[po[j] + n + (slackBound > 0 ? rnd.nextInt(slackBound) : 0)];
      rnd.nextBytes(pa[j]);
    }
    return pa;
  }

  /** The byte unshuffle's definition for items {@code from .. to-1}: item i's byte j is plane j's byte i. */
  static void unshufflePlanes(byte[][] pa, int[] po, int from, int to, byte[] dst, int dp) {
    int ts = pa.length;
    for (int i = from; i < to; i++) {
      for (int j = 0; j < ts; j++) {
        dst[dp + i * ts + j] = pa[j][po[j] + i];
      }
    }
  }

  /**
   * Blosc's byte shuffle of {@code len} bytes of {@code ts}-byte items at {@code b[off..]} ({@code toPlanes}: byte j of
   * item i goes to plane j at i) or its inverse; the {@code len % ts} trailing bytes are copied.
   */
  static byte[] byteShuffle(int ts, byte[] b, int off, int len, boolean toPlanes) {
    int n = len / ts;
    byte[] out = new byte[len];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < ts; j++) {
        int item = i * ts + j;
        int plane = j * n + i;
        out[toPlanes ? plane : item] = b[off + (toPlanes ? item : plane)];
      }
    }
    System.arraycopy(b, off + n * ts, out, n * ts, len - n * ts);
    return out;
  }

  /**
   * Blosc's bit shuffle of whole groups of 8 items ({@code toPlanes}: bit k of byte j of item i goes to bit i % 8 of
   * byte i / 8 of row 8j+k) or its inverse; the bytes after the last whole group are copied.
   */
  static byte[] bitShuffle(int ts, byte[] b, int off, int len, boolean toPlanes) {
    int items = len / ts;
    int n8 = items - items % 8;
    int rowBytes = n8 / 8;
    byte[] out = new byte[len];
    for (int i = 0; i < n8; i++) {
      for (int j = 0; j < ts; j++) {
        for (int k = 0; k < 8; k++) {
          int item = i * ts + j;
          int row = (8 * j + k) * rowBytes + i / 8;
          int from = toPlanes ? item : row;
          int fromBit = toPlanes ? k : i % 8;
          if ((b[off + from] >>> fromBit & 1) != 0) {
            out[toPlanes ? row : item] |= (byte) (1 << (toPlanes ? i % 8 : k));
          }
        }
      }
    }
    System.arraycopy(b, off + n8 * ts, out, n8 * ts, len - n8 * ts);
    return out;
  }
}
