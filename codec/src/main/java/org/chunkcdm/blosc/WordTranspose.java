package org.chunkcdm.blosc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Plain-Java bit unshuffle (and byte unshuffle, {@link #unshuffle}) for the JVM without the Vector API,
 * in loops that C2's auto-vectorizer (superword) turns into SIMD code on JDK 17.
 *
 * <p>The bit rows of a block are 64-bit words: word {@code w} of row {@code r} holds bit {@code r % 8} of byte
 * {@code r / 8} of the items {@code 64w .. 64w + 63}, item {@code 64w + p} in bit {@code p}. Think of the rows as
 * registers {@code R[r]} and of {@code w} as the lane. Six rounds of delta swaps, each exchanging one bit of the
 * register index with one bit of the position inside the word, leave in every word the bytes of whole items, as
 * they lie in the output (for item size 8: {@code R[x][w]} is item {@code 64w + x}); a last scalar pass stores the
 * words at their place in the output. Every round is the same operation on every lane, so a loop over {@code w}
 * that does one or two rounds on two or four registers held in separate {@code long[]} arrays is vectorized by C2
 * (measured on JDK 17 with AVX-512: a loop with two rounds on four arrays runs at ~110 GB/s, a loop with three
 * rounds on eight arrays is not vectorized and runs at ~11 GB/s; a loop that loads two rows of the source
 * {@code byte[]} through a {@code VarHandle} view and stores into {@code long[]} arrays is vectorized, one that
 * loads four is not). The loops' bodies are therefore kept at that size.
 *
 * <p>Item sizes 1, 2, 4 and multiples of 8 (each run of eight bytes of an item is its own 64 x 64 transpose).
 * Items after the last whole 64 are left to the caller.
 */
final class WordTranspose {
  private WordTranspose() {}

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Mask of the bit positions whose position bit {@code p} is 0. */
  private static final long[] MASK = {
      0x5555555555555555L, 0x3333333333333333L, 0x0F0F0F0F0F0F0F0FL,
      0x00FF00FF00FF00FFL, 0x0000FFFF0000FFFFL, 0x00000000FFFFFFFFL};

  /**
   * Six rounds per item size, as pairs (register bit, word bit): round 1 runs on the loads, rounds 2+3 and 4+5 in
   * one loop each (their register bits differ), round 6 alone. Rounds that share a bit keep their order; the others
   * commute. Afterwards every word holds whole items: bit {@code 8j + k} of an item's bytes in its place.
   */
  private static final int[][] ROUNDS = {
      // typesize 1: registers [k2 k1 k0], word [i5..i0] -> word [i2 i1 i0 k2 k1 k0], registers [i5 i4 i3]
      {0, 0, 1, 1, 2, 2, 0, 3, 1, 4, 2, 5},
      // typesize 2: registers [j k2 k1 k0] -> word [i1 i0 j k2 k1 k0], registers [i3 i2 i5 i4]
      {0, 0, 1, 1, 2, 2, 0, 4, 3, 3, 1, 5},
      // typesize 4: registers [j1 j0 k2 k1 k0] -> word [i0 j1 j0 k2 k1 k0], registers [i4 i3 i2 i1 i5]
      {0, 0, 1, 1, 2, 2, 0, 5, 3, 3, 4, 4},
      // typesize 8 (and each run of 8 bytes of larger items): the 64 x 64 transpose, register x = item 64w + x
      {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}};

  /** For item size 1, 2, 4, 8: the output word (of the 64 items' {@code 8 * ts} words) each register ends in. */
  private static final int[][] PLACE = new int[4][];

  /** The inverse of {@link #PLACE}: which register lands in output word {@code o}. */
  private static final int[][] SOURCE = new int[4][];

  static {
    for (int v = 0; v < 4; v++) {
      int regBits = v + 3;
      // follow the labels: item bit b is label b (0..5), register bit q of the input is label 6 + q
      int[] word = {0, 1, 2, 3, 4, 5};
      int[] reg = new int[regBits];
      for (int q = 0; q < regBits; q++) {
        reg[q] = 6 + q;
      }
      int[] rounds = ROUNDS[v];
      for (int i = 0; i < rounds.length; i += 2) {
        int q = rounds[i];
        int p = rounds[i + 1];
        int t = reg[q];
        reg[q] = word[p];
        word[p] = t;
      }
      int perWord = 8 >> v; // items per output word
      int itemBits = Integer.numberOfTrailingZeros(perWord);
      // the word must now hold [item bits 0 .. itemBits-1 above j, k]: byte j bit k of item e at bit 8*(ts*e + j)+k
      for (int p = 0; p < 6; p++) {
        int want = p < 6 - itemBits ? 6 + p : p - (6 - itemBits);
        if (word[p] != want) {
          throw new AssertionError("WordTranspose plan for typesize " + (1 << v) + " is wrong at word bit " + p);
        }
      }
      int regs = 1 << regBits;
      int[] place = new int[regs];
      for (int r = 0; r < regs; r++) {
        int item = 0;
        for (int q = 0; q < regBits; q++) {
          item |= ((r >>> q) & 1) << reg[q];
        }
        place[r] = item >>> itemBits;
      }
      PLACE[v] = place;
      int[] source = new int[regs];
      for (int x = 0; x < regs; x++) {
        source[place[x]] = x;
      }
      SOURCE[v] = source;
    }
  }

  /** Whether {@link #bitunshuffle} handles this item size. */
  static boolean handles(int ts) {
    return ts == 1 || ts == 2 || ts == 4 || (ts > 0 && ts % 8 == 0);
  }

  /** Lanes (64-item words) per tile: the registers of a tile stay in L2 (64 x 256 x 8 bytes). */
  private static final int TILE = 256;

  private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> {
    long[][] s = new long[64][];
    for (int i = 0; i < 64; i++) {
      s[i] = new long[TILE];
    }
    return s;
  });

  /**
   * Bit unshuffle of the first {@code 64 * (rowBytes / 8)} of {@code n8} items ({@code n8 % 8 == 0}, rows of
   * {@code rowBytes = n8 / 8} bytes at {@code src[sp..]}) into {@code dst[dp..]}; returns the number of items done.
   */
  static int bitunshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int n8) {
    int rowBytes = n8 / 8;
    int lanes = rowBytes / 8;
    if (lanes == 0) {
      return 0;
    }
    long[][] r = SCRATCH.get();
    int v = ts >= 8 ? 3 : Integer.numberOfTrailingZeros(ts);
    int regs = ts >= 8 ? 64 : 8 * ts;
    int groups = ts >= 8 ? ts / 8 : 1;
    int[] rounds = ROUNDS[v];
    int[] source = SOURCE[v];
    for (int w0 = 0; w0 < lanes; w0 += TILE) {
      int n = Math.min(TILE, lanes - w0);
      for (int h = 0; h < groups; h++) {
        int base = sp + 64 * h * rowBytes + 8 * w0;
        // round 1 on the loads
        int a = 1 << rounds[0];
        int s = 1 << rounds[1];
        long m = MASK[rounds[1]];
        for (int x = 0; x < regs; x++) {
          if ((x & a) == 0) {
            load(src, base + x * rowBytes, src, base + (x | a) * rowBytes, r[x], r[x | a], s, m, n);
          }
        }
        laterRounds(r, regs, rounds, n);
        // place the words: register source[o], lane w is output word wordsPerLane * w + o (times groups, + h)
        int wordsPerLane = regs; // output words per 64 items for ts <= 8: 8 * ts; for ts = 8 * groups: 64 per group
        int laneStep = 8 * wordsPerLane * groups; // bytes of output per lane
        int d0 = dp + w0 * laneStep + 8 * h;
        for (int o = 0; o < wordsPerLane; o += 8) {
          long[] a0 = r[source[o]], a1 = r[source[o + 1]], a2 = r[source[o + 2]], a3 = r[source[o + 3]];
          long[] a4 = r[source[o + 4]], a5 = r[source[o + 5]], a6 = r[source[o + 6]], a7 = r[source[o + 7]];
          int d = d0 + 8 * groups * o;
          if (v == 3 && groups == 1) { // the lane step as a constant: see store4of8
            store4of8(a0, a1, a2, a3, dst, d, 512, n);
            store4of8(a4, a5, a6, a7, dst, d + 32, 512, n);
          } else if (v == 1) { // typesize 2 (typesizes 1 and 4 measured no faster in whole chunks this way)
            store4of8(a0, a1, a2, a3, dst, d, 128, n);
            store4of8(a4, a5, a6, a7, dst, d + 32, 128, n);
          } else {
            store8(a0, a1, a2, a3, a4, a5, a6, a7, dst, d, 8 * groups, laneStep, n);
          }
        }
      }
    }
    return 64 * lanes;
  }

  /**
   * {@link #bitunshuffle} of {@code blocks} blocks of {@code n8} items each, one after another in {@code src} and in
   * {@code dst} ({@code n8 * ts} bytes apart); {@code n8} must be a multiple of 64 (then a
   * block's output is exactly its lanes', and the lanes of consecutive blocks are consecutive in the output). The
   * rounds and the stores then run over the lanes of several blocks at once: on 16 KiB blocks of 8-byte items
   * the loops have only 32 lanes each, too short for C2's vector main loop. Returns the items
   * done in each block.
   */
  static int bitunshuffleBlocks(int ts, byte[] src, int sp, int blocks, byte[] dst, int dp, int n8) {
    int rowBytes = n8 / 8;
    int lanes = rowBytes / 8;
    if (lanes == 0) {
      return 0;
    }
    if (n8 % 64 != 0) {
      throw new IllegalArgumentException("blocks of " + n8 + " items are not whole lanes");
    }
    int blockBytes = n8 * ts;
    int total = lanes * blocks;
    long[][] r = SCRATCH.get();
    int v = ts >= 8 ? 3 : Integer.numberOfTrailingZeros(ts);
    int regs = ts >= 8 ? 64 : 8 * ts;
    int groups = ts >= 8 ? ts / 8 : 1;
    int[] rounds = ROUNDS[v];
    for (int w0 = 0; w0 < total; w0 += TILE) {
      int n = Math.min(TILE, total - w0);
      for (int h = 0; h < groups; h++) {
        firstRound(src, sp, blockBytes, rowBytes, lanes, h, w0, n, regs, rounds, r);
        laterRounds(r, regs, rounds, n);
        placeBlocks(r, SOURCE[v], v, regs, groups, dst, dp, w0, h, n);
      }
    }
    return n8;
  }

  /**
   * Round 1 of {@link #bitunshuffleBlocks} on the loads of the tile of {@code n} lanes from lane {@code w0} (counted
   * over all the blocks, {@code lanes} per block; group {@code h} of 8 bytes of the items), block by block.
   */
  private static void firstRound(byte[] src, int sp, int blockBytes, int rowBytes, int lanes, int h, int w0, int n,
      int regs, int[] rounds, long[][] r) {
    int a = 1 << rounds[0];
    int s = 1 << rounds[1];
    long m = MASK[rounds[1]];
    for (int lane = w0; lane < w0 + n; ) {
      int blk = lane / lanes;
      int w = lane - blk * lanes;
      int len = Math.min(lanes - w, w0 + n - lane);
      int base = sp + blk * blockBytes + 64 * h * rowBytes + 8 * w;
      for (int x = 0; x < regs; x++) {
        if ((x & a) == 0 && lane == w0) { // the first block of the tile (the only one when blocks = 1)
          load(src, base + x * rowBytes, src, base + (x | a) * rowBytes, r[x], r[x | a], s, m, len);
        } else if ((x & a) == 0) {
          load(src, base + x * rowBytes, src, base + (x | a) * rowBytes, r[x], r[x | a], lane - w0, s, m, len);
        }
      }
      lane += len;
    }
  }

  /** Rounds 2+3, 4+5 and 6 ({@code rounds}) on the first {@code n} lanes of the {@code regs} registers {@code r}. */
  private static void laterRounds(long[][] r, int regs, int[] rounds, int n) {
    for (int k = 2; k < 10; k += 4) {
      int qa = 1 << rounds[k];
      int qb = 1 << rounds[k + 2];
      int sa = 1 << rounds[k + 1];
      int sb = 1 << rounds[k + 3];
      long ma = MASK[rounds[k + 1]];
      long mb = MASK[rounds[k + 3]];
      for (int x = 0; x < regs; x++) {
        if ((x & (qa | qb)) == 0) {
          two(r[x], r[x | qa], r[x | qb], r[x | qa | qb], sa, ma, sb, mb, n);
        }
      }
    }
    int a = 1 << rounds[10];
    int s = 1 << rounds[11];
    long m = MASK[rounds[11]];
    for (int x = 0; x < regs; x++) {
      if ((x & a) == 0) {
        one(r[x], r[x | a], s, m, n);
      }
    }
  }

  /**
   * The last pass of {@link #bitunshuffleBlocks}: places the words of the tile of {@code n} lanes from lane
   * {@code w0} (group {@code h}) in the output; register {@code source[o]}, lane w is output word
   * {@code wordsPerLane * w + o} (times groups, + h).
   */
  private static void placeBlocks(long[][] r, int[] source, int v, int regs, int groups, byte[] dst, int dp, int w0,
      int h, int n) {
    int wordsPerLane = regs; // output words per 64 items for ts <= 8: 8 * ts; for ts = 8 * groups: 64 per group
    int laneStep = 8 * wordsPerLane * groups; // bytes of output per lane
    int d0 = dp + w0 * laneStep + 8 * h;
    for (int o = 0; o < wordsPerLane; o += 8) {
      long[] a0 = r[source[o]], a1 = r[source[o + 1]], a2 = r[source[o + 2]], a3 = r[source[o + 3]];
      long[] a4 = r[source[o + 4]], a5 = r[source[o + 5]], a6 = r[source[o + 6]], a7 = r[source[o + 7]];
      int d = d0 + 8 * groups * o;
      if (groups > 1) {
        store8(a0, a1, a2, a3, a4, a5, a6, a7, dst, d, 8 * groups, laneStep, n);
      } else if (v == 3) { // the lane step as a constant: see store4of8
        store4of8(a0, a1, a2, a3, dst, d, 512, n);
        store4of8(a4, a5, a6, a7, dst, d + 32, 512, n);
      } else if (v == 2) {
        store4of8(a0, a1, a2, a3, dst, d, 256, n);
        store4of8(a4, a5, a6, a7, dst, d + 32, 256, n);
      } else if (v == 1) {
        store4of8(a0, a1, a2, a3, dst, d, 128, n);
        store4of8(a4, a5, a6, a7, dst, d + 32, 128, n);
      } else {
        store4of8(a0, a1, a2, a3, dst, d, 64, n);
        store4of8(a4, a5, a6, a7, dst, d + 32, 64, n);
      }
    }
  }

  /**
   * Byte unshuffle of the first {@code n - n % 8} of {@code n} items of {@code ts} bytes (1 < ts, ts = 2, 4 or a
   * multiple of 8) from planes {@code pa[j][po[j]..]} into {@code dst[dp..]}; returns the items done. Word w of
   * plane j holds byte j of items {@code 8w .. 8w + 7}: three rounds exchange the plane index with the byte index
   * inside the word, as in {@link #bitunshuffle}.
   */
  static int unshuffle(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int lanes = n / 8;
    if (lanes == 0 || ts < 2 || !handles(ts)) {
      return 0;
    }
    for (int j = 0; j < ts; j++) { // read each plane once first: see touch
      touch(pa[j], po[j], po[j] + n);
    }
    long[][] r = SCRATCH.get();
    for (int w0 = 0; w0 < lanes; w0 += TILE) {
      int c = Math.min(TILE, lanes - w0);
      int q = 8 * w0;
      if (ts == 2) {
        // [i2 i1 i0] -> [i1 i0 j], register i2
        load(pa[0], po[0] + q, pa[1], po[1] + q, r[0], r[1], 8, MASK[3], c);
        twoOnOnePair(r[0], r[1], 16, MASK[4], 32, MASK[5], c);
        store2(r[0], r[1], dst, dp + 16 * w0, c);
      } else if (ts == 4) {
        // [i2 i1 i0] -> [i0 j1 j0], registers [i1 i2]
        load(pa[0], po[0] + q, pa[1], po[1] + q, r[0], r[1], 8, MASK[3], c);
        load(pa[2], po[2] + q, pa[3], po[3] + q, r[2], r[3], 8, MASK[3], c);
        two(r[0], r[1], r[2], r[3], 32, MASK[5], 16, MASK[4], c);
        store4(r[0], r[2], r[1], r[3], dst, dp + 32 * w0, c);
      } else {
        // each run of 8 planes: [i2 i1 i0] -> [j2 j1 j0], register x = item 8w + x
        int groups = ts / 8;
        for (int h = 0; h < groups; h++) {
          int j = 8 * h;
          for (int x = 0; x < 8; x += 2) {
            load(pa[j + x], po[j + x] + q, pa[j + x + 1], po[j + x + 1] + q, r[x], r[x + 1], 8, MASK[3], c);
          }
          two(r[0], r[2], r[4], r[6], 16, MASK[4], 32, MASK[5], c);
          two(r[1], r[3], r[5], r[7], 16, MASK[4], 32, MASK[5], c);
          if (groups == 1) { // see store4of8
            store4of8(r[0], r[1], r[2], r[3], dst, dp + 64 * w0, 64, c);
            store4of8(r[4], r[5], r[6], r[7], dst, dp + 64 * w0 + 32, 64, c);
          } else {
            store8(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], dst, dp + 64 * groups * w0 + 8 * h, 8 * groups,
                64 * groups, c);
          }
        }
      }
    }
    return 8 * lanes;
  }

  private static long sink; // receives the touched bytes, so that C2 keeps the loads

  /**
   * Reads one byte of every 64 in {@code a[from..to)}, in order. {@link #unshuffle} first reads its planes so, plane by
   * plane: the planes a codec has just decoded are largely out of L2 by the time the block is complete (the compressed
   * input and the last block's output pushed them out), and the kernels' first loops, which read two planes a tile at a
   * time at vector speed, would then wait on memory; one sequential pass per plane lets the hardware prefetcher stream
   * each plane in.
   */
  static void touch(byte[] a, int from, int to) {
    long acc = 0;
    for (int i = from; i < to; i += 64) {
      acc += a[i];
    }
    sink += acc;
  }

  /** Two rounds on one pair of registers: by {@code s1}, then by {@code s2}. */
  private static void twoOnOnePair(long[] a, long[] b, int s1, long m1, int s2, long m2, int n) {
    for (int i = 0; i < n; i++) {
      long x = a[i], y = b[i];
      long t = ((x >>> s1) ^ y) & m1;
      y ^= t;
      x ^= t << s1;
      t = ((x >>> s2) ^ y) & m2;
      a[i] = x ^ (t << s2);
      b[i] = y ^ t;
    }
  }

  /** Lane i of a0, a1 to the two words at {@code d + 16 * i}. */
  private static void store2(long[] a0, long[] a1, byte[] dst, int d, int n) {
    for (int i = 0; i < n; i++, d += 16) {
      LONG.set(dst, d, a0[i]);
      LONG.set(dst, d + 8, a1[i]);
    }
  }

  /** Lane i of a0..a3 to the four words at {@code d + 32 * i}. */
  private static void store4(long[] a0, long[] a1, long[] a2, long[] a3, byte[] dst, int d, int n) {
    for (int i = 0; i < n; i++, d += 32) {
      LONG.set(dst, d, a0[i]);
      LONG.set(dst, d + 8, a1[i]);
      LONG.set(dst, d + 16, a2[i]);
      LONG.set(dst, d + 24, a3[i]);
    }
  }

  /** One round on two rows loaded from the source: {@code a[i], b[i]} from the words at {@code sa[pa..], sb[pb..]}. */
  private static void load(byte[] sa, int pa, byte[] sb, int pb, long[] a, long[] b, int s, long m, int n) {
    for (int i = 0; i < n; i++) {
      long x = (long) LONG.get(sa, pa + 8 * i);
      long y = (long) LONG.get(sb, pb + 8 * i);
      long t = ((x >>> s) ^ y) & m;
      a[i] = x ^ (t << s);
      b[i] = y ^ t;
    }
  }

  /** {@link #load} into lanes {@code at .. at + n - 1} of {@code a} and {@code b}. */
  private static void load(byte[] sa, int pa, byte[] sb, int pb, long[] a, long[] b, int at, int s, long m, int n) {
    for (int i = 0; i < n; i++) {
      long x = (long) LONG.get(sa, pa + 8 * i);
      long y = (long) LONG.get(sb, pb + 8 * i);
      long t = ((x >>> s) ^ y) & m;
      a[at + i] = x ^ (t << s);
      b[at + i] = y ^ t;
    }
  }

  /** Two rounds on four registers: pairs (a, b), (c, d) by {@code sa}, then (a, c), (b, d) by {@code sb}. */
  private static void two(long[] a, long[] b, long[] c, long[] d, int sa, long ma, int sb, long mb, int n) {
    for (int i = 0; i < n; i++) {
      long x0 = a[i], x1 = b[i], x2 = c[i], x3 = d[i], t;
      t = ((x0 >>> sa) ^ x1) & ma; x1 ^= t; x0 ^= t << sa;
      t = ((x2 >>> sa) ^ x3) & ma; x3 ^= t; x2 ^= t << sa;
      t = ((x0 >>> sb) ^ x2) & mb; x2 ^= t; x0 ^= t << sb;
      t = ((x1 >>> sb) ^ x3) & mb; x3 ^= t; x1 ^= t << sb;
      a[i] = x0;
      b[i] = x1;
      c[i] = x2;
      d[i] = x3;
    }
  }

  /** One round on two registers. */
  private static void one(long[] a, long[] b, int s, long m, int n) {
    for (int i = 0; i < n; i++) {
      long x = a[i], y = b[i];
      long t = ((x >>> s) ^ y) & m;
      a[i] = x ^ (t << s);
      b[i] = y ^ t;
    }
  }

  /**
   * Lane i of a0..a3 to the four words at {@code d + laneStep * i}: half of {@link #store8}'s work, called twice
   * (words 0-3, then 4-7 of each lane) with a constant {@code laneStep}. Inlined into the kernels, store8's loop keeps
   * its eight array bases in vector registers and moves one into a general register before every load, and with a
   * lane step that is not a constant it checks every store's range; four arrays fit the registers, and the constant
   * lets C2 check the range once and unroll: typesize-8 byte unshuffle on a block
   * in cache 14.5 → 22.7 GB/s, bit unshuffle on 16 KiB blocks ts 8 / 4 6.6 → 8.0 / 6.4 → 11.3 GB/s
   * ({@code FilterPathBench}, no flag). The single-block bit unshuffle uses it for typesizes 8 and 2 only: with
   * typesize 4 (and 1) whole chunks of lz4 + bitshuffle ts4 read 5-8% slower this way, kernel gain or not.
   */
  private static void store4of8(long[] a0, long[] a1, long[] a2, long[] a3, byte[] dst, int d, int laneStep, int n) {
    for (int i = 0; i < n; i++, d += laneStep) {
      LONG.set(dst, d, a0[i]);
      LONG.set(dst, d + 8, a1[i]);
      LONG.set(dst, d + 16, a2[i]);
      LONG.set(dst, d + 24, a3[i]);
    }
  }

  /** Lane i of a0..a7 to the eight words at {@code d + i * laneStep + k * stride}. */
  private static void store8(long[] a0, long[] a1, long[] a2, long[] a3, long[] a4, long[] a5, long[] a6, long[] a7,
      byte[] dst, int d, int stride, int laneStep, int n) {
    for (int i = 0; i < n; i++, d += laneStep) {
      LONG.set(dst, d, a0[i]);
      LONG.set(dst, d + stride, a1[i]);
      LONG.set(dst, d + 2 * stride, a2[i]);
      LONG.set(dst, d + 3 * stride, a3[i]);
      LONG.set(dst, d + 4 * stride, a4[i]);
      LONG.set(dst, d + 5 * stride, a5[i]);
      LONG.set(dst, d + 6 * stride, a6[i]);
      LONG.set(dst, d + 7 * stride, a7[i]);
    }
  }
}
