package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The superword-shaped plain-Java bit unshuffle ({@link WordTranspose}, the path without 512-bit vectors) against
 * the byte-at-a-time path ({@link Filters#bitunshuffleScalar}) on random data: every item size 1-16 and 24, 32,
 * 40, item counts below, at and above whole 64-item words and several tiles, rows not a multiple of 8 bytes, odd
 * offsets, bytes around the output untouched. The tests call the kernels directly, so they run the same with and
 * without the Vector API module.
 */
class WordTransposeTest {
  private static final int[] ITEMS = {0, 8, 56, 64, 72, 120, 128, 192, 512, 520, 1000, 4096, 4096 + 64 + 24,
      16384, 16384 + 8, 16384 + 448, 65536 + 200};

  @Test
  void wordKernelAgreesWithTheByteAtATimePath() {
    Random rnd = new Random(61);
    for (int ts = 1; ts <= 40; ts++) {
      if (ts > 16 && ts % 8 != 0) {
        continue;
      }
      for (int n8 : ITEMS) {
        if ((long) n8 * ts > 1 << 20) {
          continue;
        }
        int len = n8 * ts;
        int sp = rnd.nextInt(13);
        int dp = rnd.nextInt(13);
        byte[] src = new byte[sp + len + 5];
        rnd.nextBytes(src);
        byte[] want = new byte[dp + len + 9];
        rnd.nextBytes(want);
        byte[] got = want.clone();
        Filters.bitunshuffleScalar(ts, src, sp, want, dp, len);
        String what = "ts " + ts + " items " + n8;
        if (!WordTranspose.handles(ts)) {
          continue;
        }
        int done = WordTranspose.bitunshuffle(ts, src, sp, got, dp, n8);
        assertEquals(n8 / 64 * 64, done, what);
        Filters.bitunshuffleRowTail(ts, src, sp, got, dp, n8, done / 8);
        assertArrayEquals(want, got, what);
      }
    }
  }

  /**
   * {@link Filters#bitunshuffle} as dispatched, on blocks with trailing bytes (items not a multiple of 8, bytes
   * not a multiple of the item size), against the byte-at-a-time path: the word kernel where there are no 512-bit
   * vectors, the vector path otherwise (both are held to the same bytes).
   */
  @Test
  void dispatchedBitUnshuffleAgreesOnOddBlocks() {
    Random rnd = new Random(67);
    for (int ts = 1; ts <= 17; ts++) {
      for (int items : new int[] {63, 64, 65, 129, 1000, 4099, 20001}) {
        for (int extra : new int[] {0, ts - 1}) {
          int len = items * ts + extra;
          int sp = rnd.nextInt(9);
          int dp = rnd.nextInt(9);
          byte[] src = new byte[sp + len + 3];
          rnd.nextBytes(src);
          byte[] want = new byte[dp + len + 4];
          rnd.nextBytes(want);
          byte[] got = want.clone();
          Filters.bitunshuffleScalar(ts, src, sp, want, dp, len);
          Filters.bitunshuffle(ts, src, sp, got, dp, len);
          assertArrayEquals(want, got, "ts " + ts + " len " + len);
        }
      }
    }
  }

  /**
   * The byte unshuffle from planes in separate arrays at odd offsets, against the definition: every item size
   * 1-16, 24, 32, 40 (the sizes the kernel does not take must report 0 items done), item counts below, at and above
   * multiples of 8 and of whole tiles, bytes around the output untouched.
   */
  @Test
  void byteUnshuffleFromPlanesAgreesWithTheDefinition() {
    Random rnd = new Random(71);
    for (int ts = 1; ts <= 40; ts++) {
      if (ts > 16 && ts % 8 != 0) {
        continue;
      }
      for (int n : new int[] {0, 7, 8, 9, 63, 64, 65, 200, 2047, 2048, 2049, 4103, 16384 + 5, 65536 + 24}) {
        int[] po = new int[ts];
        byte[][] pa = randomPlanes(rnd, ts, n, po, 11, 5);
        int dp = rnd.nextInt(7);
        byte[] want = new byte[dp + ts * n + 6];
        rnd.nextBytes(want);
        byte[] got = want.clone();
        int done = WordTranspose.unshuffle(ts, pa, po, got, dp, n);
        String what = "ts " + ts + " n " + n;
        assertEquals(ts >= 2 && WordTranspose.handles(ts) ? n - n % 8 : 0, done, what);
        definition(pa, po, done, want, dp);
        assertArrayEquals(want, got, what);
      }
    }
  }

  /**
   * {@link Filters#unshuffle} as dispatched (the word kernel where the Vector API is off, the vector kernels
   * otherwise, then the items after the last 8 and the trailing bytes) against the definition on odd block sizes.
   */
  @Test
  void dispatchedByteUnshuffleAgreesOnOddBlocks() {
    Random rnd = new Random(73);
    for (int ts = 1; ts <= 17; ts++) {
      for (int len : new int[] {5, 64 * ts + 3, 1000 * ts + ts - 1, 4099 * ts + 1, 20001 * ts + 2}) {
        int sp = rnd.nextInt(9);
        int dp = rnd.nextInt(9);
        byte[] src = new byte[sp + len + 3];
        rnd.nextBytes(src);
        byte[] want = new byte[dp + len + 4];
        rnd.nextBytes(want);
        byte[] got = want.clone();
        System.arraycopy(UnshuffleTest.definition(ts, src, sp, len), 0, want, dp, len);
        Filters.unshuffle(ts, src, sp, got, dp, len);
        assertArrayEquals(want, got, "ts " + ts + " len " + len);
      }
    }
  }

  /**
   * {@link Filters#unshufflePlanes} as dispatched (the word kernel for item sizes 2, 4 and 8 where the Vector API is
   * off, the vector kernels otherwise), on planes in arrays of their own that end exactly where the plane ends (as
   * raw streams read straight from a chunk may), at odd offsets, against the definition; with the pre-read of
   * {@link WordTranspose#TOUCH} on, it must stay inside each plane.
   */
  @Test
  void dispatchedUnshuffleOfSeparatePlanesEndingAtTheirArraysEnd() {
    Random rnd = new Random(79);
    for (int ts = 2; ts <= 17; ts++) {
      for (int n : new int[] {1, 7, 8, 63, 64, 65, 127, 2049, 4096 + 7, 65536 + 9}) {
        int[] po = new int[ts];
        byte[][] pa = randomPlanes(rnd, ts, n, po, 17, 0);
        int dp = rnd.nextInt(9);
        byte[] want = new byte[dp + ts * n + 3];
        rnd.nextBytes(want);
        byte[] got = want.clone();
        definition(pa, po, n, want, dp);
        Filters.unshufflePlanes(ts, pa, po, got, dp, n);
        assertArrayEquals(want, got, "ts " + ts + " n " + n);
      }
    }
  }

  /**
   * {@code ts} random planes of {@code n} bytes, plane j at a random offset {@code po[j] < offBound} in an array of its
   * own with {@code 0 .. slackBound-1} bytes after it (none, ending exactly at the plane's end, when slackBound is 0).
   */
  private static byte[][] randomPlanes(Random rnd, int ts, int n, int[] po, int offBound, int slackBound) {
    byte[][] pa = new byte[ts][];
    for (int j = 0; j < ts; j++) {
      po[j] = rnd.nextInt(offBound);
      pa[j] = new byte[po[j] + n + (slackBound > 0 ? rnd.nextInt(slackBound) : 0)];
      rnd.nextBytes(pa[j]);
    }
    return pa;
  }

  /** The byte unshuffle's definition: item i's byte j is plane j's byte i, for the first {@code n} items. */
  private static void definition(byte[][] pa, int[] po, int n, byte[] dst, int dp) {
    int ts = pa.length;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < ts; j++) {
        dst[dp + i * ts + j] = pa[j][po[j] + i];
      }
    }
  }

  /** The pre-read stays inside its range at every alignment and length, and changes nothing. */
  @Test
  void touchReadsOnlyItsRange() {
    Random rnd = new Random(83);
    for (int len = 0; len < 300; len++) {
      byte[] a = new byte[len];
      rnd.nextBytes(a);
      byte[] before = a.clone();
      for (int from = 0; from <= len; from += 1 + from / 3) {
        WordTranspose.touch(a, from, len);
        WordTranspose.touch(a, from, from);
      }
      assertArrayEquals(before, a, "len " + len);
    }
  }

  @Test
  void handlesOnlyPowersOfTwoUpTo4AndMultiplesOf8() {
    for (int ts = 1; ts <= 64; ts++) {
      boolean want = ts == 1 || ts == 2 || ts == 4 || ts % 8 == 0;
      assertEquals(want, WordTranspose.handles(ts), "ts " + ts);
    }
    assertEquals(false, WordTranspose.handles(0));
  }
}
