package org.chunkcdm.blosc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FormatException;

/**
 * The last filter step of a Blosc block written straight into the typed destination of a read
 * ({@link ChunkData.Typed}: {@code short[]}, {@code int[]}/{@code float[]}, {@code long[]}/{@code double[]}), so
 * that a typed read needs no piece buffer and no copy of the decoded bytes into its array (c-blosc2 unshuffles
 * into the caller's memory the same way). A byte unshuffle is a transpose of the byte planes; the destination's
 * byte order is a permutation of those planes (a big-endian item takes its planes in reverse order), so one kernel
 * serves both orders. With the Vector API the kernels of {@link VectorTyped} (the structure of
 * {@link VectorUnshuffle}'s, storing lanes into the typed array); without it 8-byte items go through 8x8 byte
 * transposes in 64-bit registers (as {@link Filters}' register path for that size), and the other sizes keep the
 * byte path (their plain-Java kernel, {@link WordTranspose}, is faster than a typed register path would be).
 * Every method returns false, having written nothing, when it does not serve the case; the caller then
 * decodes the block into bytes as before.
 */
final class TypedUnshuffle {
  private TypedUnshuffle() {}

  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M8 = 0x00FF00FF00FF00FFL;
  private static final long M16 = 0x0000FFFF0000FFFFL;
  private static final long M32 = 0x00000000FFFFFFFFL;

  /** Whether blocks of item size {@code ts} can end in {@code td} (checked once per chunk). */
  static boolean serves(int ts, ChunkData.Typed td) {
    if (td == null || td.itemSize != ts) {
      return false;
    }
    if (Filters.VECTOR && VectorTyped.handles(ts)) {
      return true;
    }
    return ts == 8;
  }

  /**
   * Byte unshuffle of {@code n} items of {@code ts} bytes from planes {@code pa[j][po[j]..]} into elements
   * {@code ti .. ti+n} of {@code td}; false when this item size has no typed kernel here.
   */
  static boolean planes(int ts, byte[][] pa, int[] po, int n, ChunkData.Typed td, int ti) throws IOException {
    if (!serves(ts, td)) {
      return false;
    }
    Object a = td.array;
    checkRange(a, ti, n);
    if (td.order == ByteOrder.BIG_ENDIAN) { // item byte j is plane ts-1-j of the value
      byte[][] ra = new byte[ts][];
      int[] ro = new int[ts];
      for (int j = 0; j < ts; j++) {
        ra[j] = pa[ts - 1 - j];
        ro[j] = po[ts - 1 - j];
      }
      pa = ra;
      po = ro;
    }
    int done = 0;
    if (Filters.VECTOR && n >= 64 && VectorTyped.handles(ts)) {
      done = VectorTyped.unshuffle(ts, pa, po, a, ti, n);
    } else if (ts == 8) {
      done = unshuffle8(pa, po, a, ti, n);
    }
    for (int i = done; i < n; i++) { // the items after the last whole vector
      long v = 0;
      for (int j = ts - 1; j >= 0; j--) {
        v = v << 8 | (pa[j][po[j] + i] & 0xff);
      }
      store(a, ti + i, v);
    }
    return true;
  }

  /**
   * Bit unshuffle of a block of {@code len} bytes at {@code src[sp..]} (items of {@code ts} bytes) into elements
   * from {@code ti} of {@code td}: the bit rows become byte planes ({@link Filters#bitsToPlanes}) and those are
   * unshuffled into the array; the items after the last multiple of 8, stored as they are, are converted. False
   * when this is not faster than the byte path: without 512-bit vectors (the plain-Java bit kernel writes items
   * directly, {@link WordTranspose}), and for 8-byte items without the CPU's byte permute (the byte path then
   * skips a step).
   */
  static boolean bits(int ts, byte[] src, int sp, int len, ChunkData.Typed td, int ti) throws IOException {
    if (!serves(ts, td) || !Filters.VECTOR_BITS || ts == 8 && !VectorUnshuffle.BYTE_PERMUTE) {
      return false;
    }
    int items = len / ts;
    checkRange(td.array, ti, items);
    int n8 = items - items % 8;
    if (n8 > 0) {
      byte[] planes = planeScratch(n8 * ts);
      Filters.bitsToPlanes(ts, src, sp, planes, 0, n8);
      byte[][] pa = new byte[ts][];
      int[] po = new int[ts];
      for (int j = 0; j < ts; j++) {
        pa[j] = planes;
        po[j] = j * n8;
      }
      planes(ts, pa, po, n8, td, ti);
    }
    if (items > n8) {
      put(src, sp + n8 * ts, td, ti + n8, items - n8);
    }
    return true;
  }

  /** Converts {@code items} stored items at {@code src[sp..]} into elements from {@code ti} of {@code td}. */
  static void put(byte[] src, int sp, ChunkData.Typed td, int ti, int items) throws IOException {
    Object a = td.array;
    checkRange(a, ti, items);
    ByteBuffer bb = ByteBuffer.wrap(src, sp, items * td.itemSize).order(td.order);
    if (a instanceof long[]) {
      bb.asLongBuffer().get((long[]) a, ti, items);
    } else if (a instanceof double[]) {
      bb.asDoubleBuffer().get((double[]) a, ti, items);
    } else if (a instanceof int[]) {
      bb.asIntBuffer().get((int[]) a, ti, items);
    } else if (a instanceof float[]) {
      bb.asFloatBuffer().get((float[]) a, ti, items);
    } else {
      bb.asShortBuffer().get((short[]) a, ti, items);
    }
  }

  private static void checkRange(Object a, int ti, int n) throws IOException {
    int len = java.lang.reflect.Array.getLength(a);
    if (ti < 0 || n < 0 || ti > len - n) {
      throw new FormatException("Blosc chunk: " + n + " items at element " + ti + " do not fit the destination of "
          + len + " elements");
    }
  }

  /** Stores item {@code v} (its bytes little-endian in the low {@code itemSize} bytes) as element {@code i}. */
  private static void store(Object a, int i, long v) {
    if (a instanceof long[]) {
      ((long[]) a)[i] = v;
    } else if (a instanceof double[]) {
      ((double[]) a)[i] = Double.longBitsToDouble(v);
    } else if (a instanceof int[]) {
      ((int[]) a)[i] = (int) v;
    } else if (a instanceof float[]) {
      ((float[]) a)[i] = Float.intBitsToFloat((int) v);
    } else {
      ((short[]) a)[i] = (short) v;
    }
  }

  /**
   * Eight byte planes, 8 items at a time, into a {@code long[]} or {@code double[]}: the 8x8 byte transpose of
   * {@link Filters}' register path, each register then one item. Returns the items done.
   */
  private static int unshuffle8(byte[][] pa, int[] po, Object a, int ti, int n) {
    long[] la = a instanceof long[] ? (long[]) a : null;
    double[] da = la == null ? (double[]) a : null;
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
      int o = ti + i;
      if (la != null) {
        la[o] = r0;
        la[o + 1] = r1;
        la[o + 2] = r2;
        la[o + 3] = r3;
        la[o + 4] = r4;
        la[o + 5] = r5;
        la[o + 6] = r6;
        la[o + 7] = r7;
      } else {
        da[o] = Double.longBitsToDouble(r0);
        da[o + 1] = Double.longBitsToDouble(r1);
        da[o + 2] = Double.longBitsToDouble(r2);
        da[o + 3] = Double.longBitsToDouble(r3);
        da[o + 4] = Double.longBitsToDouble(r4);
        da[o + 5] = Double.longBitsToDouble(r5);
        da[o + 6] = Double.longBitsToDouble(r6);
        da[o + 7] = Double.longBitsToDouble(r7);
      }
    }
    return n8;
  }

  private static final ThreadLocal<byte[][]> PLANES = ThreadLocal.withInitial(() -> new byte[1][]);

  private static byte[] planeScratch(int size) {
    byte[][] s = PLANES.get();
    if (s[0] == null || s[0].length < size) {
      s[0] = new byte[Math.max(size, 1 << 16)];
    }
    return s[0];
  }
}
