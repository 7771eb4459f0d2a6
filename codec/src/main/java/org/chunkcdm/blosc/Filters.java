package org.chunkcdm.blosc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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
    byte[][] pa = new byte[ts][];
    int[] po = new int[ts];
    for (int j = 0; j < ts; j++) {
      pa[j] = src;
      po[j] = sp + j * n;
    }
    unshufflePlanes(ts, pa, po, dst, dp, n);
    int tail = len - n * ts;
    if (tail > 0) {
      System.arraycopy(src, sp + n * ts, dst, dp + n * ts, tail);
    }
  }

  /**
   * Byte unshuffle of {@code n} items of {@code ts >= 2} bytes from planes that need not be adjacent: plane
   * {@code j} (byte j of every item) is {@code pa[j][po[j]..po[j]+n)}. Lets Blosc unshuffle a block whose split
   * streams were stored raw straight from the chunk, beside the decoded ones, without copying them first.
   */
  static void unshufflePlanes(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int done; // items handled by the vector or 8-at-a-time paths
    if (VECTOR && n >= 64 && VectorUnshuffle.handles(ts)) {
      done = VectorUnshuffle.unshuffle(ts, pa, po, dst, dp, n);
    } else if (!VECTOR && (ts == 2 || ts == 4 || ts == 8)) {
      // the word kernel reads each plane once first (WordTranspose.touch), so typesize 8 does not wait on planes the
      // codec left out of cache
      done = WordTranspose.unshuffle(ts, pa, po, dst, dp, n);
    } else {
      done = unshuffleSwar(ts, pa, po, dst, dp, n);
    }
    for (int j = 0; j < ts; j++) {
      byte[] a = pa[j];
      int s = po[j];
      for (int i = done; i < n; i++) {
        dst[dp + i * ts + j] = a[s + i];
      }
    }
  }

  /** {@link #unshuffleSwar(int, byte[][], int[], byte[], int, int)} on adjacent planes at {@code src[sp..]}. */
  static int unshuffleSwar(int ts, byte[] src, int sp, byte[] dst, int dp, int n) {
    byte[][] pa = new byte[ts][];
    int[] po = new int[ts];
    for (int j = 0; j < ts; j++) {
      pa[j] = src;
      po[j] = sp + j * n;
    }
    return unshuffleSwar(ts, pa, po, dst, dp, n);
  }

  /** The 8-items-at-a-time register paths for item sizes 2, 4, 8 and multiples of 8; returns the items done. */
  static int unshuffleSwar(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    switch (ts) {
      case 2:
        return unshuffle2(pa[0], po[0], pa[1], po[1], dst, dp, n);
      case 4:
        return unshuffle4(pa, po, dst, dp, n);
      case 8:
        return unshuffle8(pa, po, dst, dp, n);
      default:
        return ts % 8 == 0 ? unshuffleBy8(ts, pa, po, dst, dp, n) : 0;
    }
  }

  /**
   * Whether byte unshuffle uses {@link VectorUnshuffle}: the JVM must have {@code jdk.incubator.vector}
   * ({@code --add-modules jdk.incubator.vector}) and the path must agree with the scalar code.
   */
  static final boolean VECTOR;

  /** Why {@link #VECTOR} is false (for {@code chunkcdm --version}), or null when it holds. */
  static final String VECTOR_OFF;

  static {
    String off = null;
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      off = "no jdk.incubator.vector";
    } else {
      boolean ok;
      try {
        ok = VectorUnshuffle.selfCheck();
      } catch (LinkageError | RuntimeException e) { // an incubator API that changed in a later JDK
        ok = false;
      }
      if (!ok) {
        off = "jdk.incubator.vector present, but its kernels failed their self-check on Java "
            + Runtime.version().feature();
      }
    }
    VECTOR_OFF = off;
    VECTOR = off == null;
  }

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M8 = 0x00FF00FF00FF00FFL;
  private static final long M16 = 0x0000FFFF0000FFFFL;
  private static final long M32 = 0x00000000FFFFFFFFL;

  /** Spreads the four 16-bit units of the low 32 bits of x to every other 16-bit lane. */
  private static long spread16(long x) {
    x &= M32;
    return (x | (x << 16)) & M16;
  }

  /** Two byte planes, 8 items at a time: a 2x8 byte transpose in registers. */
  private static int unshuffle2(byte[] a0, int o0, byte[] a1, int o1, byte[] dst, int dp, int n) {
    int n8 = n & ~7;
    for (int i = 0; i < n8; i += 8) {
      long a = (long) LONG.get(a0, o0 + i);
      long b = (long) LONG.get(a1, o1 + i);
      long x0 = (a & M8) | ((b & M8) << 8); // items 0,2,4,6
      long x1 = ((a >>> 8) & M8) | (b & ~M8); // items 1,3,5,7
      int o = dp + 2 * i;
      LONG.set(dst, o, spread16(x0) | (spread16(x1) << 16));
      LONG.set(dst, o + 8, spread16(x0 >>> 32) | (spread16(x1 >>> 32) << 16));
    }
    return n8;
  }

  /** Four byte planes, 8 items at a time: a 4x8 byte transpose in registers. */
  private static int unshuffle4(byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int n8 = n & ~7;
    final byte[] p0 = pa[0], p1 = pa[1], p2 = pa[2], p3 = pa[3];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3];
    for (int i = 0; i < n8; i += 8) {
      long r0 = (long) LONG.get(p0, o0 + i);
      long r1 = (long) LONG.get(p1, o1 + i);
      long r2 = (long) LONG.get(p2, o2 + i);
      long r3 = (long) LONG.get(p3, o3 + i);
      long a0 = (r0 & M8) | ((r1 & M8) << 8);
      long a1 = ((r0 >>> 8) & M8) | (r1 & ~M8);
      long a2 = (r2 & M8) | ((r3 & M8) << 8);
      long a3 = ((r2 >>> 8) & M8) | (r3 & ~M8);
      long c0 = (a0 & M16) | ((a2 & M16) << 16); // items 0 and 4
      long c2 = ((a0 >>> 16) & M16) | (a2 & ~M16); // items 2 and 6
      long c1 = (a1 & M16) | ((a3 & M16) << 16); // items 1 and 5
      long c3 = ((a1 >>> 16) & M16) | (a3 & ~M16); // items 3 and 7
      int o = dp + 4 * i;
      LONG.set(dst, o, (c0 & M32) | (c1 << 32));
      LONG.set(dst, o + 8, (c2 & M32) | (c3 << 32));
      LONG.set(dst, o + 16, (c0 >>> 32) | (c1 & ~M32));
      LONG.set(dst, o + 24, (c2 >>> 32) | (c3 & ~M32));
    }
    return n8;
  }

  /**
   * Eight byte planes, 8 items at a time: an 8x8 byte transpose in registers (register index swapped with byte
   * index by three rounds of delta swaps).
   */
  private static int unshuffle8(byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int n8 = n & ~7;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3], a4 = pa[4], a5 = pa[5], a6 = pa[6], a7 = pa[7];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3], o4 = po[4], o5 = po[5], o6 = po[6], o7 = po[7];
    for (int i = 0; i < n8; i += 8) {
      long r0 = (long) LONG.get(a0, o0 + i);
      long r1 = (long) LONG.get(a1, o1 + i);
      long r2 = (long) LONG.get(a2, o2 + i);
      long r3 = (long) LONG.get(a3, o3 + i);
      long r4 = (long) LONG.get(a4, o4 + i);
      long r5 = (long) LONG.get(a5, o5 + i);
      long r6 = (long) LONG.get(a6, o6 + i);
      long r7 = (long) LONG.get(a7, o7 + i);
      long t;
      t = ((r0 >>> 8) ^ r1) & M8; r1 ^= t; r0 ^= t << 8;
      t = ((r2 >>> 8) ^ r3) & M8; r3 ^= t; r2 ^= t << 8;
      t = ((r4 >>> 8) ^ r5) & M8; r5 ^= t; r4 ^= t << 8;
      t = ((r6 >>> 8) ^ r7) & M8; r7 ^= t; r6 ^= t << 8;
      t = ((r0 >>> 16) ^ r2) & M16; r2 ^= t; r0 ^= t << 16;
      t = ((r1 >>> 16) ^ r3) & M16; r3 ^= t; r1 ^= t << 16;
      t = ((r4 >>> 16) ^ r6) & M16; r6 ^= t; r4 ^= t << 16;
      t = ((r5 >>> 16) ^ r7) & M16; r7 ^= t; r5 ^= t << 16;
      t = ((r0 >>> 32) ^ r4) & M32; r4 ^= t; r0 ^= t << 32;
      t = ((r1 >>> 32) ^ r5) & M32; r5 ^= t; r1 ^= t << 32;
      t = ((r2 >>> 32) ^ r6) & M32; r6 ^= t; r2 ^= t << 32;
      t = ((r3 >>> 32) ^ r7) & M32; r7 ^= t; r3 ^= t << 32;
      int o = dp + 8 * i;
      LONG.set(dst, o, r0);
      LONG.set(dst, o + 8, r1);
      LONG.set(dst, o + 16, r2);
      LONG.set(dst, o + 24, r3);
      LONG.set(dst, o + 32, r4);
      LONG.set(dst, o + 40, r5);
      LONG.set(dst, o + 48, r6);
      LONG.set(dst, o + 56, r7);
    }
    return n8;
  }

  /**
   * Item sizes 16, 24, ...: for every 8 items, each run of eight byte planes {@code 8h..8h+7} is one 8x8 byte
   * transpose (as in {@link #unshuffle8}) giving bytes {@code 8h..8h+7} of the eight items. (Typesize 8 keeps
   * its own copy with constant strides: through this method it ran 11.3 → 8.8 GB/s, FilterPathBench 131072 8.)
   */
  private static int unshuffleBy8(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int n8 = n & ~7;
    for (int h = 0; h < ts; h += 8) {
      final byte[] a0 = pa[h], a1 = pa[h + 1], a2 = pa[h + 2], a3 = pa[h + 3];
      final byte[] a4 = pa[h + 4], a5 = pa[h + 5], a6 = pa[h + 6], a7 = pa[h + 7];
      final int o0 = po[h], o1 = po[h + 1], o2 = po[h + 2], o3 = po[h + 3];
      final int o4 = po[h + 4], o5 = po[h + 5], o6 = po[h + 6], o7 = po[h + 7];
      for (int i = 0; i < n8; i += 8) {
        long r0 = (long) LONG.get(a0, o0 + i);
        long r1 = (long) LONG.get(a1, o1 + i);
        long r2 = (long) LONG.get(a2, o2 + i);
        long r3 = (long) LONG.get(a3, o3 + i);
        long r4 = (long) LONG.get(a4, o4 + i);
        long r5 = (long) LONG.get(a5, o5 + i);
        long r6 = (long) LONG.get(a6, o6 + i);
        long r7 = (long) LONG.get(a7, o7 + i);
        long t;
        t = ((r0 >>> 8) ^ r1) & M8; r1 ^= t; r0 ^= t << 8;
        t = ((r2 >>> 8) ^ r3) & M8; r3 ^= t; r2 ^= t << 8;
        t = ((r4 >>> 8) ^ r5) & M8; r5 ^= t; r4 ^= t << 8;
        t = ((r6 >>> 8) ^ r7) & M8; r7 ^= t; r6 ^= t << 8;
        t = ((r0 >>> 16) ^ r2) & M16; r2 ^= t; r0 ^= t << 16;
        t = ((r1 >>> 16) ^ r3) & M16; r3 ^= t; r1 ^= t << 16;
        t = ((r4 >>> 16) ^ r6) & M16; r6 ^= t; r4 ^= t << 16;
        t = ((r5 >>> 16) ^ r7) & M16; r7 ^= t; r5 ^= t << 16;
        t = ((r0 >>> 32) ^ r4) & M32; r4 ^= t; r0 ^= t << 32;
        t = ((r1 >>> 32) ^ r5) & M32; r5 ^= t; r1 ^= t << 32;
        t = ((r2 >>> 32) ^ r6) & M32; r6 ^= t; r2 ^= t << 32;
        t = ((r3 >>> 32) ^ r7) & M32; r7 ^= t; r3 ^= t << 32;
        int o = dp + i * ts + h;
        LONG.set(dst, o, r0);
        LONG.set(dst, o + ts, r1);
        LONG.set(dst, o + 2 * ts, r2);
        LONG.set(dst, o + 3 * ts, r3);
        LONG.set(dst, o + 4 * ts, r4);
        LONG.set(dst, o + 5 * ts, r5);
        LONG.set(dst, o + 6 * ts, r6);
        LONG.set(dst, o + 7 * ts, r7);
      }
    }
    return n8;
  }

  /**
   * Whether {@link #bitunshuffleBlocks} takes whole blocks of {@code bs} bytes of {@code ts}-byte items together:
   * on the path without 512-bit vectors ({@link WordTranspose}), with a multiple of 64 items a block.
   */
  static boolean bitBlocks(int ts, int bs) {
    return !VECTOR_BITS && WordTranspose.handles(ts) && ts > 0 && bs % ts == 0 && (bs / ts) % 64 == 0;
  }

  /**
   * {@link #bitunshuffle} of {@code blocks} whole blocks of {@code bs} bytes, one after another at {@code src[sp..]}
   * into {@code dst[dp..]}, in one pass of the word kernel ({@link #bitBlocks}{@code (ts, bs)} must hold).
   */
  static void bitunshuffleBlocks(int ts, byte[] src, int sp, int blocks, int bs, byte[] dst, int dp) {
    if (!bitBlocks(ts, bs)) {
      throw new IllegalArgumentException("blocks of " + bs + " bytes of " + ts + "-byte items");
    }
    WordTranspose.bitunshuffleBlocks(ts, src, sp, blocks, dst, dp, bs / ts);
  }

  /**
   * Bit unshuffle of the first {@code n8 = items - items % 8} items: {@code 8 * ts} rows of {@code n8 / 8}
   * bytes, row {@code 8 * j + k} holding bit k (LSB first) of byte j of every item, item i in bit
   * {@code i % 8} of row byte {@code i / 8}. The remaining bytes are copied as they are.
   *
   * <p>Two passes: the eight rows of byte j become byte plane j (64 items at a time, an 8 x 64 bit-matrix
   * transpose in eight 64-bit registers), then the planes are byte-unshuffled ({@link #unshuffle}). With item
   * size 1 the plane is the result.
   */
  static void bitunshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int len) {
    int items = len / ts;
    int n8 = items - items % 8;
    if (n8 > 0) {
      if (ts == 1 && VECTOR_BITS) {
        bitsToPlanes(1, src, sp, dst, dp, n8);
      } else if (ts == 8 && VECTOR_BITS && !VectorUnshuffle.BYTE_PERMUTE && VectorUnshuffle.handles(8) && n8 >= 512) {
        // with the byte permute (VBMI) the plain planes are faster: 128 KiB block, 15.5 (units) vs 17.3 GB/s (plain)
        // with the lane-swap-free bitRowsPermuted alone, 22 GB/s with unshuffle8Permuted as well
        bitunshuffle8Units(src, sp, dst, dp, n8);
      } else if (!VECTOR_BITS && WordTranspose.handles(ts)) {
        // no 512-bit vectors: the 64 x 64 transposes in loops C2 vectorizes, then the items after the last 64
        int wide = WordTranspose.bitunshuffle(ts, src, sp, dst, dp, n8);
        bitunshuffleRowTail(ts, src, sp, dst, dp, n8, wide / 8);
      } else {
        byte[] planes = planeScratch(n8 * ts);
        bitsToPlanes(ts, src, sp, planes, 0, n8);
        unshuffle(ts, planes, 0, dst, dp, n8 * ts);
      }
    }
    int done = n8 * ts;
    if (len > done) {
      System.arraycopy(src, sp + done, dst, dp + done, len - done);
    }
  }

  /**
   * Bit unshuffle of {@code n8} items of 8 bytes with 512-bit vectors: the bit rows become planes whose 512-item
   * tiles hold their 8-item units in a permuted order (the vector kernel then skips its lane swaps, half of its
   * time), which the byte unshuffle reads back in order ({@link VectorUnshuffle#unshuffle8Units}); the items after
   * the last whole tile go the usual way.
   */
  static void bitunshuffle8Units(byte[] src, int sp, byte[] dst, int dp, int n8) {
    int rowBytes = n8 / 8;
    int wide = rowBytes & ~63; // row bytes in whole tiles (512 items)
    byte[] planes = planeScratch(8 * n8);
    for (int j = 0; j < 8; j++) {
      int s0 = sp + 8 * j * rowBytes;
      int o = j * n8;
      int g = VectorUnshuffle.bitRows(src, s0, rowBytes, planes, o, true);
      bitRows(src, s0, rowBytes, planes, o, g);
    }
    int tiles = wide / 64;
    VectorUnshuffle.unshuffle8Units(planes, 0, n8, tiles, dst, dp);
    int done = 512 * tiles;
    if (done < n8) {
      byte[][] pa = new byte[8][];
      int[] po = new int[8];
      for (int j = 0; j < 8; j++) {
        pa[j] = planes;
        po[j] = j * n8 + done;
      }
      unshufflePlanes(8, pa, po, dst, dp + 8 * done, n8 - done);
    }
  }

  private static final ThreadLocal<byte[][]> PLANES = ThreadLocal.withInitial(() -> new byte[1][]);

  /** A per-thread scratch array of at least {@code size} bytes for bit planes (also TypedUnshuffle's). */
  static byte[] planeScratch(int size) {
    byte[][] s = PLANES.get();
    if (s[0] == null || s[0].length < size) {
      s[0] = new byte[Math.max(size, 1 << 16)];
    }
    return s[0];
  }

  /**
   * Turns the {@code 8 * ts} bit rows at {@code src[sp..]} (rows of {@code n8 / 8} bytes) into {@code ts} byte
   * planes of {@code n8} bytes at {@code dst[dp..]}: plane j holds byte j of every item.
   */
  static void bitsToPlanes(int ts, byte[] src, int sp, byte[] dst, int dp, int n8) {
    int rowBytes = n8 / 8;
    for (int j = 0; j < ts; j++) {
      int s0 = sp + 8 * j * rowBytes;
      int o = dp + j * n8;
      int g = VECTOR_BITS ? VectorUnshuffle.bitRows(src, s0, rowBytes, dst, o) : 0;
      bitRows(src, s0, rowBytes, dst, o, g);
    }
  }

  /**
   * Whether {@link #bitsToPlanes} takes 512 items at a time in 512-bit vectors ({@link VectorUnshuffle#bitRows});
   * needs the vector module as {@link #VECTOR} does, and 512-bit registers.
   */
  static final boolean VECTOR_BITS = VECTOR && VectorUnshuffle.handlesBits();

  /**
   * One byte plane from its eight bit rows of {@code rowBytes} bytes at {@code src[s0..]}, starting at row byte
   * {@code from} (64 items at a time in eight 64-bit registers, the last row bytes one at a time).
   */
  static void bitRows(byte[] src, int s0, int rowBytes, byte[] dst, int o, int from) {
    int wide = from + ((rowBytes - from) & ~7);
    for (int g = from; g < wide; g += 8) {
      int s = s0 + g;
      long r0 = (long) LONG.get(src, s);
      long r1 = (long) LONG.get(src, s + rowBytes);
      long r2 = (long) LONG.get(src, s + 2 * rowBytes);
      long r3 = (long) LONG.get(src, s + 3 * rowBytes);
      long r4 = (long) LONG.get(src, s + 4 * rowBytes);
      long r5 = (long) LONG.get(src, s + 5 * rowBytes);
      long r6 = (long) LONG.get(src, s + 6 * rowBytes);
      long r7 = (long) LONG.get(src, s + 7 * rowBytes);
      long t;
      // rK byte m bit b = bit K of item 8 * (g + m) + b; wanted: long m byte b bit K. Swap the register index
      // with the bit index (three steps), then with the byte index (three steps).
      t = ((r0 >>> 1) ^ r1) & 0x5555555555555555L; r1 ^= t; r0 ^= t << 1;
      t = ((r2 >>> 1) ^ r3) & 0x5555555555555555L; r3 ^= t; r2 ^= t << 1;
      t = ((r4 >>> 1) ^ r5) & 0x5555555555555555L; r5 ^= t; r4 ^= t << 1;
      t = ((r6 >>> 1) ^ r7) & 0x5555555555555555L; r7 ^= t; r6 ^= t << 1;
      t = ((r0 >>> 2) ^ r2) & 0x3333333333333333L; r2 ^= t; r0 ^= t << 2;
      t = ((r1 >>> 2) ^ r3) & 0x3333333333333333L; r3 ^= t; r1 ^= t << 2;
      t = ((r4 >>> 2) ^ r6) & 0x3333333333333333L; r6 ^= t; r4 ^= t << 2;
      t = ((r5 >>> 2) ^ r7) & 0x3333333333333333L; r7 ^= t; r5 ^= t << 2;
      t = ((r0 >>> 4) ^ r4) & 0x0F0F0F0F0F0F0F0FL; r4 ^= t; r0 ^= t << 4;
      t = ((r1 >>> 4) ^ r5) & 0x0F0F0F0F0F0F0F0FL; r5 ^= t; r1 ^= t << 4;
      t = ((r2 >>> 4) ^ r6) & 0x0F0F0F0F0F0F0F0FL; r6 ^= t; r2 ^= t << 4;
      t = ((r3 >>> 4) ^ r7) & 0x0F0F0F0F0F0F0F0FL; r7 ^= t; r3 ^= t << 4;
      t = ((r0 >>> 8) ^ r1) & 0x00FF00FF00FF00FFL; r1 ^= t; r0 ^= t << 8;
      t = ((r2 >>> 8) ^ r3) & 0x00FF00FF00FF00FFL; r3 ^= t; r2 ^= t << 8;
      t = ((r4 >>> 8) ^ r5) & 0x00FF00FF00FF00FFL; r5 ^= t; r4 ^= t << 8;
      t = ((r6 >>> 8) ^ r7) & 0x00FF00FF00FF00FFL; r7 ^= t; r6 ^= t << 8;
      t = ((r0 >>> 16) ^ r2) & 0x0000FFFF0000FFFFL; r2 ^= t; r0 ^= t << 16;
      t = ((r1 >>> 16) ^ r3) & 0x0000FFFF0000FFFFL; r3 ^= t; r1 ^= t << 16;
      t = ((r4 >>> 16) ^ r6) & 0x0000FFFF0000FFFFL; r6 ^= t; r4 ^= t << 16;
      t = ((r5 >>> 16) ^ r7) & 0x0000FFFF0000FFFFL; r7 ^= t; r5 ^= t << 16;
      t = ((r0 >>> 32) ^ r4) & 0x00000000FFFFFFFFL; r4 ^= t; r0 ^= t << 32;
      t = ((r1 >>> 32) ^ r5) & 0x00000000FFFFFFFFL; r5 ^= t; r1 ^= t << 32;
      t = ((r2 >>> 32) ^ r6) & 0x00000000FFFFFFFFL; r6 ^= t; r2 ^= t << 32;
      t = ((r3 >>> 32) ^ r7) & 0x00000000FFFFFFFFL; r7 ^= t; r3 ^= t << 32;
      int d = o + 8 * g;
      LONG.set(dst, d, r0);
      LONG.set(dst, d + 8, r1);
      LONG.set(dst, d + 16, r2);
      LONG.set(dst, d + 24, r3);
      LONG.set(dst, d + 32, r4);
      LONG.set(dst, d + 40, r5);
      LONG.set(dst, d + 48, r6);
      LONG.set(dst, d + 56, r7);
    }
    for (int g = wide; g < rowBytes; g++) {
      long x = 0;
      for (int k = 0; k < 8; k++) {
        x |= (long) (src[s0 + k * rowBytes + g] & 0xff) << (8 * k);
      }
      LONG.set(dst, o + 8 * g, transpose8(x));
    }
  }

  /**
   * The plain byte-at-a-time bit unshuffle, the reference the tests hold {@link #bitunshuffle} to (and
   * {@code KernelBench}'s "before"): the same result, one 8x8 bit transpose per 8 items and byte position.
   */
  static void bitunshuffleScalar(int ts, byte[] src, int sp, byte[] dst, int dp, int len) {
    int items = len / ts;
    int n8 = items - items % 8;
    bitunshuffleRowTail(ts, src, sp, dst, dp, n8, 0);
    int done = n8 * ts;
    if (len > done) {
      System.arraycopy(src, sp + done, dst, dp + done, len - done);
    }
  }

  /**
   * The items of row bytes {@code from .. n8 / 8} of a bit-shuffled block (the {@code 8 * ts} rows of
   * {@code n8 / 8} bytes at {@code src[sp..]}), one 8x8 bit transpose per 8 items and byte position.
   */
  static void bitunshuffleRowTail(int ts, byte[] src, int sp, byte[] dst, int dp, int n8, int from) {
    int rowBytes = n8 / 8;
    for (int j = 0; j < ts; j++) {
      int rowBase = sp + 8 * j * rowBytes;
      for (int g = from; g < rowBytes; g++) {
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
