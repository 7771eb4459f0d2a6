package org.chunkcdm.blosc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;


/**
 * The last filter step of a Blosc block written straight into the typed destination of a read
 * ({@link TypedDestination}: {@code short[]}, {@code int[]}/{@code float[]}, {@code long[]}/{@code double[]}), so
 * that a typed read needs no piece buffer and no copy of the decoded bytes into its array (c-blosc2 unshuffles
 * into the caller's memory the same way). A byte unshuffle is a transpose of the byte planes; the destination's
 * byte order is a permutation of those planes (a big-endian item takes its planes in reverse order), so one kernel
 * serves both orders. With the Vector API the kernels of {@link VectorTyped} (the structure of
 * {@link VectorUnshuffle}'s, storing lanes into the typed array). Without it every block keeps the byte path:
 * the plain-Java {@link WordTranspose} kernels plus the piece copy measured faster than a typed register transpose
 * (see {@link #serves}).
 * Every method returns false, having written nothing, when it does not serve the case; the caller then
 * decodes the block into bytes as before.
 */
final class TypedUnshuffle {
  private TypedUnshuffle() {}


  /** Whether blocks of item size {@code ts} can end in {@code td} (checked once per chunk). */
  static boolean serves(int ts, TypedDestination td) {
    if (td == null || td.itemSize != ts) {
      return false;
    }
    // only with the Vector API: without it, a typesize-8 register transpose storing straight into the long[] read
    // whole frames 2-8% slower (thread CPU) than the word unshuffle with its plane pre-read plus the piece copy
    // (bench's WholeReadBench typedab), so those blocks take the byte path
    return Filters.VECTOR && VectorTyped.handles(ts);
  }

  /**
   * Byte unshuffle of {@code n} items of {@code ts} bytes from planes {@code pa[j][po[j]..]} into elements
   * {@code ti .. ti+n} of {@code td}; false when this item size has no typed kernel here.
   */
  static boolean planes(int ts, byte[][] pa, int[] po, int n, TypedDestination td, int ti) throws IOException {
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
    if (n >= 64) {
      done = VectorTyped.unshuffle(ts, pa, po, a, ti, n);
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
  static boolean bits(int ts, byte[] src, int sp, int len, TypedDestination td, int ti) throws IOException {
    if (!serves(ts, td) || !Filters.VECTOR_BITS || ts == 8 && !VectorUnshuffle.BYTE_PERMUTE) {
      return false;
    }
    int items = len / ts;
    checkRange(td.array, ti, items);
    int n8 = items - items % 8;
    if (n8 > 0) {
      byte[] planes = Filters.planeScratch(n8 * ts);
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
  static void put(byte[] src, int sp, TypedDestination td, int ti, int items) throws IOException {
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
      throw new CodecException("Blosc chunk: " + n + " items at element " + ti + " do not fit the destination of "
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
}
