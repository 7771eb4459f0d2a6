package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Arrays;
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
        KernelData k = new KernelData(rnd, len, 13, 5, 9);
        Filters.bitunshuffleScalar(ts, k.src, k.sp, k.want, k.dp, len);
        String what = "ts " + ts + " items " + n8;
        if (!WordTranspose.handles(ts)) {
          continue;
        }
        int done = WordTranspose.bitunshuffle(ts, k.src, k.sp, k.got, k.dp, n8);
        assertEquals(n8 / 64 * 64, done, what);
        Filters.bitunshuffleRowTail(ts, k.src, k.sp, k.got, k.dp, n8, done / 8);
        assertArrayEquals(k.want, k.got, what);
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
          KernelData k = new KernelData(rnd, len, 9, 3, 4);
          Filters.bitunshuffleScalar(ts, k.src, k.sp, k.want, k.dp, len);
          Filters.bitunshuffle(ts, k.src, k.sp, k.got, k.dp, len);
          assertArrayEquals(k.want, k.got, "ts " + ts + " len " + len);
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
        byte[][] pa = KernelData.randomPlanes(rnd, ts, n, po, 11, 5);
        KernelData k = new KernelData(rnd, ts * n, 7, 6);
        int done = WordTranspose.unshuffle(ts, pa, po, k.got, k.dp, n);
        String what = "ts " + ts + " n " + n;
        assertEquals(ts >= 2 && WordTranspose.handles(ts) ? n - n % 8 : 0, done, what);
        KernelData.unshufflePlanes(pa, po, 0, done, k.want, k.dp);
        assertArrayEquals(k.want, k.got, what);
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
        KernelData k = new KernelData(rnd, len, 9, 3, 4);
        System.arraycopy(UnshuffleTest.definition(ts, k.src, k.sp, len), 0, k.want, k.dp, len);
        Filters.unshuffle(ts, k.src, k.sp, k.got, k.dp, len);
        assertArrayEquals(k.want, k.got, "ts " + ts + " len " + len);
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
        byte[][] pa = KernelData.randomPlanes(rnd, ts, n, po, 17, 0);
        KernelData k = new KernelData(rnd, ts * n, 9, 3);
        KernelData.unshufflePlanes(pa, po, 0, n, k.want, k.dp);
        Filters.unshufflePlanes(ts, pa, po, k.got, k.dp, n);
        assertArrayEquals(k.want, k.got, "ts " + ts + " n " + n);
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
  /**
   * {@link WordTranspose#bitunshuffleBlocks}: several blocks of whole 64-item lanes in one pass, against the
   * byte-at-a-time path block by block, every item size it handles up to 40, 1-9 blocks (tiles that end inside a
   * block and blocks that span tiles), odd offsets, bytes around the output untouched.
   */
  @Test
  void bitKernelOverSeveralBlocksAgreesBlockByBlock() {
    Random rnd = new Random(71);
    for (int ts = 1; ts <= 40; ts++) {
      if (!WordTranspose.handles(ts)) {
        continue;
      }
      for (int n8 : new int[] {64, 128, 192, 2048, 64 * 37}) {
        for (int blocks = 1; blocks <= 9; blocks += rnd.nextInt(3) + 1) {
          int bs = n8 * ts;
          KernelData k = new KernelData(rnd, blocks * bs, 13, 5, 9);
          for (int b = 0; b < blocks; b++) {
            Filters.bitunshuffleScalar(ts, k.src, k.sp + b * bs, k.want, k.dp + b * bs, bs);
          }
          String what = "ts " + ts + " items " + n8 + " blocks " + blocks;
          assertEquals(n8, WordTranspose.bitunshuffleBlocks(ts, k.src, k.sp, blocks, k.got, k.dp, n8), what);
          assertArrayEquals(k.want, k.got, what);
        }
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> WordTranspose.bitunshuffleBlocks(8, new byte[8 * 72 * 2], 0, 2, new byte[8 * 72 * 2], 0, 72));
  }

  /** Which blocks {@link Filters#bitunshuffleBlocks} takes: the word kernel's item sizes, whole 64-item lanes. */
  @Test
  void bitBlocksOnlyOnTheWordKernelWithWholeLanes() {
    for (int ts = 1; ts <= 40; ts++) {
      for (int items : new int[] {8, 56, 64, 72, 128, 2048, 2048 + 8}) {
        boolean want = !Filters.VECTOR_BITS && WordTranspose.handles(ts) && items % 64 == 0;
        assertEquals(want, Filters.bitBlocks(ts, items * ts), "ts " + ts + " items " + items);
      }
      assertEquals(false, Filters.bitBlocks(ts, 64 * ts + 1), "ts " + ts + " bytes not whole items");
    }
  }

  /**
   * Whole chunks of small bit-shuffled blocks ({@link JavaBlosc#decodeBitBlocks}, which bit-unshuffles runs of whole
   * blocks together where {@link JavaBlosc#bitBatch} allows): typesizes 1-16, blocks of 64-448 items (several
   * batches a chunk), a short last block, bytes not a multiple of the item size, streams stored raw or zlib
   * beside each other; must give the original bytes, and the batched path must be the one taken whenever the
   * kernel takes the blocks (so this fails if the batching is switched off or broken).
   */
  @Test
  void smallBitShuffledBlocksDecodeAsWholeChunks() throws IOException {
    Random rnd = new Random(73);
    for (int ts = 1; ts <= 16; ts++) {
      for (int k : new int[] {1, 2, 3, 7}) {
        int bs = 64 * ts * k;
        byte[] d = RawStreamTest.data(rnd, ts, 64 * k * (20 + rnd.nextInt(300)) + 8 * rnd.nextInt(7) + rnd.nextInt(8));
        for (int mode = 0; mode < 2; mode++) {
          int m = mode;
          byte[] c = RawStreamTest.chunk(d, ts, bs, true, s -> m == 1 && s % 3 == 0);
          BloscHeader h = BloscHeader.parse(c, 0, c.length);
          String what = "ts " + ts + " bs " + bs + " nbytes " + d.length + " mode " + mode;
          assertEquals(Filters.bitBlocks(ts, bs) ? JavaBlosc.BIT_BATCH_BYTES / bs : 0, JavaBlosc.bitBatch(h), what);
          assertArrayEquals(d, RawStreamTest.decode(c), what);
        }
      }
      // blocks not of whole lanes, and byte-shuffled ones, are never batched
      byte[] d = RawStreamTest.data(rnd, ts, 3000);
      byte[] c = RawStreamTest.chunk(d, ts, 72 * ts, true, s -> false);
      assertEquals(0, JavaBlosc.bitBatch(BloscHeader.parse(c, 0, c.length)), "ts " + ts + " 72 items a block");
      assertArrayEquals(d, RawStreamTest.decode(c), "ts " + ts + " 72 items a block");
      c = RawStreamTest.chunk(d, ts, 64 * ts, false, s -> false);
      assertEquals(0, JavaBlosc.bitBatch(BloscHeader.parse(c, 0, c.length)), "ts " + ts + " byte shuffle");
      assertArrayEquals(d, RawStreamTest.decode(c), "ts " + ts + " byte shuffle");
    }
  }

  /**
   * A batched chunk cut short, with a stream size past its end, or with random bytes changed in its streams gives
   * an IOException (or, for changed bytes that still decode, some bytes), never another exception.
   */
  @Test
  void corruptSmallBitShuffledBlocksGiveIOException() throws IOException {
    Random rnd = new Random(79);
    byte[] d = RawStreamTest.data(rnd, 8, 64 * 2 * 100 + 5);
    byte[] c = RawStreamTest.chunk(d, 8, 1024, true, s -> s % 4 == 0);
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    byte[] out = new byte[h.nbytes()];
    // block 3's stream size far past the end of the chunk
    byte[] bad = c.clone();
    int bstart = BloscHeader.le32(c, 16 + 4 * 3);
    bad[bstart + 3] = 0x70;
    assertThrows(IOException.class, () -> Blosc.decompress(h, bad, 0, out, 0, Blosc.Impl.JAVA));
    // block 5 starting past the chunk's data
    byte[] bad2 = c.clone();
    bad2[16 + 4 * 5 + 3] = 0x70;
    assertThrows(IOException.class, () -> Blosc.decompress(h, bad2, 0, out, 0, Blosc.Impl.JAVA));
    for (int t = 0; t < 300; t++) {
      byte[] x = c.clone();
      for (int j = 1 + rnd.nextInt(4); j > 0; j--) {
        int at = 16 + 4 * h.nblocks() + rnd.nextInt(x.length - 16 - 4 * h.nblocks());
        x[at] = (byte) rnd.nextInt(256);
      }
      try {
        Blosc.decompress(h, x, 0, out, 0, Blosc.Impl.JAVA);
      } catch (IOException expected) {
        // a clear error
      }
    }
    Arrays.fill(out, (byte) 0);
    Blosc.decompress(h, c, 0, out, 0, Blosc.Impl.JAVA);
    assertArrayEquals(d, out);
  }
}
