package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.B2L;
import static jdk.incubator.vector.VectorOperators.B2S;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The byte unshuffle kernels of {@link VectorUnshuffle} with their lanes stored into a typed array
 * ({@code short[]}, {@code int[]}/{@code float[]}, {@code long[]}/{@code double[]}) instead of a {@code byte[]}:
 * the last filter step of a typed read ({@link TypedUnshuffle}). A lane holds the item's bytes little-endian,
 * so the stored value is the item read little-endian (the caller reverses the planes of a big-endian dtype).
 * Loaded only when {@link Filters#VECTOR}.
 */
final class VectorTyped {
  private VectorTyped() {}

  private static final int BITS = VectorShape.preferredShape().vectorBitSize();
  private static final boolean WIDE = BITS >= 512;
  private static final VectorSpecies<Byte> PLANE2 = WIDE ? ByteVector.SPECIES_256 : ByteVector.SPECIES_128;
  private static final VectorSpecies<Short> ITEMS2 = WIDE ? ShortVector.SPECIES_512 : ShortVector.SPECIES_256;
  private static final VectorSpecies<Byte> PLANE4 = WIDE ? ByteVector.SPECIES_128 : ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> ITEMS4 = WIDE ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
  private static final VectorSpecies<Long> ITEMS8 = LongVector.SPECIES_512;
  private static final VectorSpecies<Byte> B512 = ByteVector.SPECIES_512;
  /** Byte p of a 512-bit register takes byte 8 * (p % 8) + p / 8 (as in {@link VectorUnshuffle}). */
  private static final VectorShuffle<Byte> T88 = VectorShuffle.fromOp(B512, p -> 8 * (p % 8) + p / 8);

  /** As {@link VectorUnshuffle#handles(int)}. */
  static boolean handles(int ts) {
    return VectorUnshuffle.handles(ts);
  }

  /** Unshuffles the first items of {@code n} into {@code a[ai..]}; returns how many (a multiple of the vector length). */
  static int unshuffle(int ts, byte[][] pa, int[] po, Object a, int ai, int n) {
    switch (ts) {
      case 2:
        return unshuffle2(pa[0], po[0], pa[1], po[1], (short[]) a, ai, n);
      case 4:
        return unshuffle4(pa, po, a, ai, n);
      case 8:
        return VectorUnshuffle.BYTE_PERMUTE ? unshuffle8Permuted(pa, po, a, ai, n) : unshuffle8(pa, po, a, ai, n);
      default:
        return 0;
    }
  }

  private static int unshuffle2(byte[] a0, int o0, byte[] a1, int o1, short[] dst, int di, int n) {
    int step = ITEMS2.length();
    int m = n - n % step;
    for (int i = 0; i < m; i += step) {
      ShortVector lo = (ShortVector) ByteVector.fromArray(PLANE2, a0, o0 + i).convertShape(B2S, ITEMS2, 0);
      ShortVector hi = (ShortVector) ByteVector.fromArray(PLANE2, a1, o1 + i).convertShape(B2S, ITEMS2, 0);
      lo.and((short) 0xff).or(hi.lanewise(LSHL, 8)).intoArray(dst, di + i);
    }
    return m;
  }

  private static int unshuffle4(byte[][] pa, int[] po, Object a, int di, int n) {
    int[] ia = a instanceof int[] ? (int[]) a : null;
    float[] fa = ia == null ? (float[]) a : null;
    int step = ITEMS4.length();
    int m = n - n % step;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3];
    for (int i = 0; i < m; i += step) {
      IntVector b0 = (IntVector) ByteVector.fromArray(PLANE4, a0, o0 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b1 = (IntVector) ByteVector.fromArray(PLANE4, a1, o1 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b2 = (IntVector) ByteVector.fromArray(PLANE4, a2, o2 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b3 = (IntVector) ByteVector.fromArray(PLANE4, a3, o3 + i).convertShape(B2I, ITEMS4, 0);
      IntVector r = b0.and(0xff).or(b1.and(0xff).lanewise(LSHL, 8)).or(b2.and(0xff).lanewise(LSHL, 16))
          .or(b3.lanewise(LSHL, 24));
      if (ia != null) {
        r.intoArray(ia, di + i);
      } else {
        r.reinterpretAsFloats().intoArray(fa, di + i);
      }
    }
    return m;
  }

  private static LongVector widen(byte[] a, int p) {
    return (LongVector) ByteVector.fromArray(ByteVector.SPECIES_64, a, p).convertShape(B2L, ITEMS8, 0);
  }

  private static int unshuffle8(byte[][] pa, int[] po, Object a, int di, int n) {
    long[] la = a instanceof long[] ? (long[]) a : null;
    double[] da = la == null ? (double[]) a : null;
    int step = ITEMS8.length();
    int m = n - n % step;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3], a4 = pa[4], a5 = pa[5], a6 = pa[6], a7 = pa[7];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3], o4 = po[4], o5 = po[5], o6 = po[6], o7 = po[7];
    for (int i = 0; i < m; i += step) {
      LongVector r = widen(a0, o0 + i).and(0xffL);
      r = r.or(widen(a1, o1 + i).and(0xffL).lanewise(LSHL, 8));
      r = r.or(widen(a2, o2 + i).and(0xffL).lanewise(LSHL, 16));
      r = r.or(widen(a3, o3 + i).and(0xffL).lanewise(LSHL, 24));
      r = r.or(widen(a4, o4 + i).and(0xffL).lanewise(LSHL, 32));
      r = r.or(widen(a5, o5 + i).and(0xffL).lanewise(LSHL, 40));
      r = r.or(widen(a6, o6 + i).and(0xffL).lanewise(LSHL, 48));
      r = r.or(widen(a7, o7 + i).lanewise(LSHL, 56));
      if (la != null) {
        r.intoArray(la, di + i);
      } else {
        r.reinterpretAsDoubles().intoArray(da, di + i);
      }
    }
    return m;
  }

  /** {@link VectorUnshuffle#unshuffle8Permuted} storing register r's eight items at element {@code di + i + 8r}. */
  private static int unshuffle8Permuted(byte[][] pa, int[] po, Object a, int di, int n) {
    long[] la = a instanceof long[] ? (long[]) a : null;
    double[] da = la == null ? (double[]) a : null;
    int m = n & ~63;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3], a4 = pa[4], a5 = pa[5], a6 = pa[6], a7 = pa[7];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3], o4 = po[4], o5 = po[5], o6 = po[6], o7 = po[7];
    for (int i = 0; i < m; i += 64) {
      LongVector r0 = ByteVector.fromArray(B512, a0, o0 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r1 = ByteVector.fromArray(B512, a1, o1 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r2 = ByteVector.fromArray(B512, a2, o2 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r3 = ByteVector.fromArray(B512, a3, o3 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r4 = ByteVector.fromArray(B512, a4, o4 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r5 = ByteVector.fromArray(B512, a5, o5 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r6 = ByteVector.fromArray(B512, a6, o6 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r7 = ByteVector.fromArray(B512, a7, o7 + i).rearrange(T88).reinterpretAsLongs();
      LongVector t;
      t = r0.lanewise(LSHR, 8).lanewise(XOR, r1).and(0x00FF00FF00FF00FFL);
      r1 = r1.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r2.lanewise(LSHR, 8).lanewise(XOR, r3).and(0x00FF00FF00FF00FFL);
      r3 = r3.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r4.lanewise(LSHR, 8).lanewise(XOR, r5).and(0x00FF00FF00FF00FFL);
      r5 = r5.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r6.lanewise(LSHR, 8).lanewise(XOR, r7).and(0x00FF00FF00FF00FFL);
      r7 = r7.lanewise(XOR, t);
      r6 = r6.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r0.lanewise(LSHR, 16).lanewise(XOR, r2).and(0x0000FFFF0000FFFFL);
      r2 = r2.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r1.lanewise(LSHR, 16).lanewise(XOR, r3).and(0x0000FFFF0000FFFFL);
      r3 = r3.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r4.lanewise(LSHR, 16).lanewise(XOR, r6).and(0x0000FFFF0000FFFFL);
      r6 = r6.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r5.lanewise(LSHR, 16).lanewise(XOR, r7).and(0x0000FFFF0000FFFFL);
      r7 = r7.lanewise(XOR, t);
      r5 = r5.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r0.lanewise(LSHR, 32).lanewise(XOR, r4).and(0x00000000FFFFFFFFL);
      r4 = r4.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r1.lanewise(LSHR, 32).lanewise(XOR, r5).and(0x00000000FFFFFFFFL);
      r5 = r5.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r2.lanewise(LSHR, 32).lanewise(XOR, r6).and(0x00000000FFFFFFFFL);
      r6 = r6.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r3.lanewise(LSHR, 32).lanewise(XOR, r7).and(0x00000000FFFFFFFFL);
      r7 = r7.lanewise(XOR, t);
      r3 = r3.lanewise(XOR, t.lanewise(LSHL, 32));
      int d = di + i;
      if (la != null) { // written out: a helper method taking the vectors was not inlined (boxed vectors, 3x slower)
        r0.intoArray(la, d);
        r1.intoArray(la, d + 8);
        r2.intoArray(la, d + 16);
        r3.intoArray(la, d + 24);
        r4.intoArray(la, d + 32);
        r5.intoArray(la, d + 40);
        r6.intoArray(la, d + 48);
        r7.intoArray(la, d + 56);
      } else {
        r0.reinterpretAsDoubles().intoArray(da, d);
        r1.reinterpretAsDoubles().intoArray(da, d + 8);
        r2.reinterpretAsDoubles().intoArray(da, d + 16);
        r3.reinterpretAsDoubles().intoArray(da, d + 24);
        r4.reinterpretAsDoubles().intoArray(da, d + 32);
        r5.reinterpretAsDoubles().intoArray(da, d + 40);
        r6.reinterpretAsDoubles().intoArray(da, d + 48);
        r7.reinterpretAsDoubles().intoArray(da, d + 56);
      }
    }
    return m;
  }
}
