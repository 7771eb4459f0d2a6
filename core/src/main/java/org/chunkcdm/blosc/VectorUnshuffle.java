package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.B2L;
import static jdk.incubator.vector.VectorOperators.B2S;
import static jdk.incubator.vector.VectorOperators.LSHL;

import java.util.Random;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Byte unshuffle for item sizes 2, 4 and 8 on the JDK's incubating Vector API (SIMD from plain Java: no native
 * library). Each byte plane is widened to the item's lane type, shifted to its byte position and OR-ed in; the
 * lanes are stored as little-endian bytes. Used only when the JVM runs with
 * {@code --add-modules jdk.incubator.vector} and {@link #selfCheck()} agrees with the scalar code (see
 * {@link Filters}); otherwise this class is never loaded.
 */
final class VectorUnshuffle {
  /** Hardware vector width: 512-bit registers (AVX-512) take twice the items per step. */
  private static final int BITS = VectorShape.preferredShape().vectorBitSize();
  private static final boolean WIDE = BITS >= 512;
  private static final VectorSpecies<Byte> PLANE2 = WIDE ? ByteVector.SPECIES_256 : ByteVector.SPECIES_128;
  private static final VectorSpecies<Short> ITEMS2 = WIDE ? ShortVector.SPECIES_512 : ShortVector.SPECIES_256;
  private static final VectorSpecies<Byte> PLANE4 = WIDE ? ByteVector.SPECIES_128 : ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> ITEMS4 = WIDE ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
  private static final VectorSpecies<Long> ITEMS8 = LongVector.SPECIES_512;

  private VectorUnshuffle() {}

  /** True when the item size has a vector path on this machine. */
  static boolean handles(int ts) {
    return BITS >= 256 && (ts == 2 || ts == 4 || (ts == 8 && WIDE));
  }

  /**
   * Unshuffles the first items of {@code n} (planes of {@code n} bytes at {@code src[sp..]}) into
   * {@code dst[dp..]}; returns how many items it did (a multiple of the vector length; the caller does the rest).
   */
  static int unshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int n) {
    switch (ts) {
      case 2:
        return unshuffle2(src, sp, dst, dp, n);
      case 4:
        return unshuffle4(src, sp, dst, dp, n);
      case 8:
        return unshuffle8(src, sp, dst, dp, n);
      default:
        return 0;
    }
  }

  private static int unshuffle2(byte[] src, int sp, byte[] dst, int dp, int n) {
    int step = ITEMS2.length();
    int m = n - n % step;
    for (int i = 0; i < m; i += step) {
      ShortVector lo = (ShortVector) ByteVector.fromArray(PLANE2, src, sp + i).convertShape(B2S, ITEMS2, 0);
      ShortVector hi = (ShortVector) ByteVector.fromArray(PLANE2, src, sp + n + i).convertShape(B2S, ITEMS2, 0);
      lo.and((short) 0xff).or(hi.lanewise(LSHL, 8)).reinterpretAsBytes().intoArray(dst, dp + 2 * i);
    }
    return m;
  }

  private static int unshuffle4(byte[] src, int sp, byte[] dst, int dp, int n) {
    int step = ITEMS4.length();
    int m = n - n % step;
    for (int i = 0; i < m; i += step) {
      int s = sp + i;
      IntVector b0 = (IntVector) ByteVector.fromArray(PLANE4, src, s).convertShape(B2I, ITEMS4, 0);
      IntVector b1 = (IntVector) ByteVector.fromArray(PLANE4, src, s + n).convertShape(B2I, ITEMS4, 0);
      IntVector b2 = (IntVector) ByteVector.fromArray(PLANE4, src, s + 2 * n).convertShape(B2I, ITEMS4, 0);
      IntVector b3 = (IntVector) ByteVector.fromArray(PLANE4, src, s + 3 * n).convertShape(B2I, ITEMS4, 0);
      b0.and(0xff).or(b1.and(0xff).lanewise(LSHL, 8)).or(b2.and(0xff).lanewise(LSHL, 16)).or(b3.lanewise(LSHL, 24))
          .reinterpretAsBytes().intoArray(dst, dp + 4 * i);
    }
    return m;
  }

  private static int unshuffle8(byte[] src, int sp, byte[] dst, int dp, int n) {
    int step = ITEMS8.length(); // 8: one 64-bit load per plane
    int m = n - n % step;
    for (int i = 0; i < m; i += step) {
      int s = sp + i;
      LongVector r = (LongVector) ByteVector.fromArray(ByteVector.SPECIES_64, src, s).convertShape(B2L, ITEMS8, 0);
      r = r.and(0xffL);
      for (int j = 1; j < 7; j++) {
        LongVector b = (LongVector) ByteVector.fromArray(ByteVector.SPECIES_64, src, s + j * n).convertShape(B2L, ITEMS8, 0);
        r = r.or(b.and(0xffL).lanewise(LSHL, 8 * j));
      }
      LongVector b7 = (LongVector) ByteVector.fromArray(ByteVector.SPECIES_64, src, s + 7 * n).convertShape(B2L, ITEMS8, 0);
      r.or(b7.lanewise(LSHL, 56)).reinterpretAsBytes().intoArray(dst, dp + 8 * i);
    }
    return m;
  }

  /**
   * Compares this path with the plain definition of the unshuffle on random planes of several lengths and
   * offsets; false (and the scalar code is used) on any difference, e.g. a JDK whose incubator API behaves
   * differently.
   */
  static boolean selfCheck() {
    Random rnd = new Random(42);
    for (int ts : new int[] {2, 4, 8}) {
      if (!handles(ts)) {
        continue;
      }
      for (int n : new int[] {0, 1, 7, 8, 63, 64, 65, 1000, 4099}) {
        byte[] src = new byte[3 + ts * n];
        rnd.nextBytes(src);
        byte[] got = new byte[5 + ts * n];
        byte[] want = new byte[5 + ts * n];
        int done = unshuffle(ts, src, 3, got, 5, n);
        if (done < 0 || done > n || n - done >= 64) {
          return false;
        }
        for (int i = 0; i < done; i++) {
          for (int j = 0; j < ts; j++) {
            want[5 + i * ts + j] = src[3 + j * n + i];
          }
        }
        if (!java.util.Arrays.equals(got, want)) {
          return false;
        }
      }
    }
    return true;
  }
}
