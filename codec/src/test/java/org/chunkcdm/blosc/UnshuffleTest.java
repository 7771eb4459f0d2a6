package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The three byte-unshuffle paths (Vector API, 64-bit registers, byte loop) against the definition: byte j of
 * item i is byte {@code i} of plane {@code j}; the last {@code len % ts} bytes are copied. core's tests run
 * with {@code --add-modules jdk.incubator.vector} (core/pom.xml), so the vector path is on here.
 */
class UnshuffleTest {
  static byte[] definition(int ts, byte[] src, int sp, int len) {
    return KernelData.byteShuffle(ts, src, sp, len, false);
  }

  @Test
  void vectorPathIsOnUnderTheTestJvm() {
    if (!Boolean.getBoolean("chunkcdm.test.withoutVector")) {
      assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(), "surefire argLine lost --add-modules");
    } else {
      // codec/pom.xml's second run of the filter tests, in a JVM without the module: the plain-Java paths only
      assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty(), "the second run has the module");
      assertTrue(!Filters.VECTOR && !Filters.VECTOR_BITS, "vector paths on without the module");
      assertEquals("no jdk.incubator.vector", Blosc.vectorUnshuffleOff());
      return;
    }
    assertTrue(Filters.VECTOR, "the Vector API unshuffle did not pass its self-check: " + Blosc.vectorUnshuffleOff());
    assertNull(Blosc.vectorUnshuffleOff());
    assertTrue(VectorUnshuffle.handles(2) && VectorUnshuffle.handles(4), "no 256-bit vectors on this machine");
  }

  @Test
  void everyPathAgreesWithTheDefinition() {
    Random rnd = new Random(5);
    int[] lens = {0, 1, 2, 3, 7, 8, 15, 16, 31, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 1000, 1023, 1024,
        4096, 4097, 4103, 65536, 65541, 262144 + 12};
    for (int ts : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 32}) {
      for (int len : lens) {
        KernelData k = new KernelData(rnd, len, 9, 3, 5);
        byte[] want = definition(ts, k.src, k.sp, len);
        Filters.unshuffle(ts, k.src, k.sp, k.got, k.dp, len);
        k.assertWritten(want, "ts " + ts + " len " + len); // and nothing outside [dp, dp+len) is written
        int n = len / ts;
        if (ts == 2 || ts == 4 || ts % 8 == 0) { // the register paths (ts 16, 24, 32: 8x8 byte transposes)
          byte[] swar = new byte[k.dp + len];
          int done = Filters.unshuffleSwar(ts, k.src, k.sp, swar, k.dp, n);
          assertEquals(n - n % 8, done);
          assertArrayEquals(java.util.Arrays.copyOf(want, done * ts), java.util.Arrays.copyOfRange(swar, k.dp, k.dp + done * ts),
              "64-bit path, ts " + ts + " len " + len);
          if (Filters.VECTOR && VectorUnshuffle.handles(ts)) {
            byte[] vec = new byte[k.dp + len];
            int vd = VectorUnshuffle.unshuffle(ts, k.src, k.sp, vec, k.dp, n);
            assertTrue(vd <= n && n - vd < 64, "vector path left " + (n - vd) + " of " + n + " items");
            assertArrayEquals(java.util.Arrays.copyOf(want, vd * ts), java.util.Arrays.copyOfRange(vec, k.dp, k.dp + vd * ts),
                "vector path, ts " + ts + " len " + len);
          }
        }
      }
    }
  }

  /**
   * Both 512-bit kernels for 8-byte items, the byte-permute one (taken where the CPU has AVX-512 VBMI) and the
   * widening one, on planes that lie in different arrays at odd offsets, item counts below, at and above multiples
   * of 64; runs on any machine with the vector module (without VBMI the JDK permutes in plain Java).
   */
  @Test
  @Tag("vector")
  void bothTypesize8VectorKernelsAgreeWithTheDefinition() {
    Random rnd = new Random(41);
    for (int n : new int[] {0, 8, 63, 64, 65, 127, 128, 200, 1000, 4096, 4096 + 57, 16384 + 8}) {
      int[] po = new int[8];
      byte[][] pa = KernelData.randomPlanes(rnd, 8, n, po, 11, 5);
      KernelData k = new KernelData(rnd, 8 * n, 7, 6);
      byte[] widened = k.want.clone();
      int vp = VectorUnshuffle.unshuffle8Permuted(pa, po, k.got, k.dp, n);
      int vw = VectorUnshuffle.unshuffle8(pa, po, widened, k.dp, n);
      assertEquals(n & ~63, vp, "byte-permute kernel items, n " + n);
      assertTrue(vw <= n && n - vw < 8, "widening kernel left " + (n - vw) + " of " + n);
      KernelData.unshufflePlanes(pa, po, 0, vp, k.want, k.dp);
      assertArrayEquals(k.want, k.got, "byte-permute kernel (incl. bytes around), n " + n);
      // the widening kernel also did items past the last 64
      KernelData.unshufflePlanes(pa, po, vp, vw, k.want, k.dp);
      assertArrayEquals(k.want, widened, "widening kernel (incl. bytes around), n " + n);
    }
  }
}
