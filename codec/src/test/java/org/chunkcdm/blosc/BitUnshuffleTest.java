package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The wide bit unshuffle ({@link Filters#bitunshuffle}: 8 x 64 bit-matrix transposes into byte planes, then byte
 * unshuffle) against the byte-at-a-time path ({@link Filters#bitunshuffleScalar}) and against the definition, on
 * random data, item sizes 1-17 and 24, block sizes that are and are not multiples of 8 x typesize and of 64 items.
 */
class BitUnshuffleTest {
  /** Bit k of byte j of item i is bit i % 8 of byte (8 * j + k) * (n8 / 8) + i / 8; the tail is copied. */
  static byte[] definition(int ts, byte[] src, int sp, int len) {
    return KernelData.bitShuffle(ts, src, sp, len, false);
  }

  @Test
  void widePathAgreesWithTheScalarPathAndTheDefinition() {
    Random rnd = new Random(17);
    int[] items = {0, 1, 7, 8, 9, 15, 16, 24, 56, 63, 64, 65, 72, 127, 128, 136, 200, 511, 512, 520, 1000, 1024,
        4096 + 8, 4096 + 13, 8192, 32768 + 40};
    int[] sizes = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24};
    for (int ts : sizes) {
      for (int n : items) {
        for (int extra : new int[] {0, ts > 1 ? ts - 1 : 0, 3}) {
          int len = n * ts + extra;
          KernelData k = new KernelData(rnd, len, 9, 3, 5);
          byte[] want = definition(ts, k.src, k.sp, len);
          byte[] wide = k.got.clone();
          Filters.bitunshuffleScalar(ts, k.src, k.sp, k.got, k.dp, len);
          Filters.bitunshuffle(ts, k.src, k.sp, wide, k.dp, len);
          String what = "ts " + ts + " len " + len;
          k.assertWritten(want, "scalar path, " + what);
          assertArrayEquals(k.got, wide, "wide path (incl. bytes around the block), " + what);
        }
      }
    }
  }

  /**
   * The typesize-8 vector path whose planes hold permuted 8-item units ({@link Filters#bitunshuffle8Units}) against
   * the byte-at-a-time path: item counts of whole 512-item tiles, tiles plus a tail, and tails whose row bytes are not
   * a multiple of 8, at odd offsets.
   */
  @Test
  void unitOrderVectorPathAgreesWithTheScalarPath() {
    if (!Filters.VECTOR_BITS || !VectorUnshuffle.handles(8)) {
      return; // no 512-bit vectors here: the path is never taken (vectorBitPathIsOnWhereTheMachineHas512BitVectors)
    }
    Random rnd = new Random(29);
    for (int n8 : new int[] {512, 520, 1024, 1088, 1536 + 8, 4096, 4096 + 448, 16384, 16384 + 504, 32768 + 40}) {
      int len = 8 * n8;
      KernelData k = new KernelData(rnd, len, 9, 3, 5);
      Filters.bitunshuffleScalar(8, k.src, k.sp, k.want, k.dp, len);
      Filters.bitunshuffle8Units(k.src, k.sp, k.got, k.dp, n8);
      assertArrayEquals(k.want, k.got, "items " + n8);
    }
  }

  @Test
  void vectorBitPathIsOnWhereTheMachineHas512BitVectors() {
    // the codec's tests run with --add-modules jdk.incubator.vector: the self-check must pass where the lanes exist
    // (codec/pom.xml runs the filter tests a second time in a JVM without the module: then it must be off)
    boolean on = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    assertEquals(on && VectorUnshuffle.handlesBits(), Filters.VECTOR_BITS);
  }

  @Test
  void vectorAndRegisterRowPathsAgree() {
    Random rnd = new Random(11);
    for (int rowBytes : new int[] {0, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200, 1000, 4096 + 24}) {
      byte[] src = new byte[7 + 8 * rowBytes];
      rnd.nextBytes(src);
      byte[] want = new byte[3 + 8 * rowBytes + 4];
      for (int i = 0; i < 8 * rowBytes; i++) {
        int v = 0;
        for (int k = 0; k < 8; k++) {
          v |= ((src[7 + k * rowBytes + i / 8] >>> (i % 8)) & 1) << k;
        }
        want[3 + i] = (byte) v;
      }
      byte[] regs = new byte[want.length];
      Filters.bitRows(src, 7, rowBytes, regs, 3, 0);
      assertArrayEquals(want, regs, "64-bit register path, row bytes " + rowBytes);
      if (Filters.VECTOR && VectorUnshuffle.handlesBits()) {
        byte[] vec = new byte[want.length];
        int done = VectorUnshuffle.bitRows(src, 7, rowBytes, vec, 3);
        assertEquals(rowBytes & ~63, done);
        Filters.bitRows(src, 7, rowBytes, vec, 3, done);
        assertArrayEquals(want, vec, "512-bit vector path, row bytes " + rowBytes);
      }
    }
  }

  /**
   * Both 512-bit row kernels, the one with lane swaps and the one that permutes the bytes of every loaded row
   * ({@link VectorUnshuffle#bitRowsPermuted}, taken where the CPU has AVX-512 VBMI), against the 64-bit register
   * path on random rows: row byte counts below, at and above whole 64-byte groups, odd offsets, bytes around the
   * output untouched. Runs on any machine with the vector module (without VBMI the JDK permutes in plain Java).
   */
  @Test
  @Tag("vector")
  void permutedAndLaneSwapRowKernelsAgreeWithTheRegisterPath() {
    Random rnd = new Random(23);
    for (int rowBytes : new int[] {0, 8, 63, 64, 65, 71, 128, 191, 200, 512 + 8, 1000, 4096, 4096 + 24, 16384 + 56}) {
      KernelData k = new KernelData(rnd, 8 * rowBytes, 13, 5, 7);
      byte[] swaps = k.want.clone();
      Filters.bitRows(k.src, k.sp, rowBytes, k.want, k.dp, 0);
      int done = VectorUnshuffle.bitRowsPermuted(k.src, k.sp, rowBytes, k.got, k.dp);
      assertEquals(rowBytes & ~63, done, "row bytes " + rowBytes);
      Filters.bitRows(k.src, k.sp, rowBytes, k.got, k.dp, done);
      assertArrayEquals(k.want, k.got, "byte-permute kernel, row bytes " + rowBytes);
      done = VectorUnshuffle.bitRows(k.src, k.sp, rowBytes, swaps, k.dp, false);
      assertEquals(rowBytes & ~63, done, "row bytes " + rowBytes);
      Filters.bitRows(k.src, k.sp, rowBytes, swaps, k.dp, done);
      assertArrayEquals(k.want, swaps, "lane-swap kernel, row bytes " + rowBytes);
    }
  }

  @Test
  @Tag("vector")
  void vbmiIsReadFromTheCpuFlagsLineOnly() {
    assertEquals(true, VectorUnshuffle.vbmiFlag("flags\t\t: fpu sse2 avx512f avx512bw avx512vbmi avx512_vbmi2"));
    assertEquals(false, VectorUnshuffle.vbmiFlag("flags\t\t: fpu sse2 avx512f avx512bw avx512_vbmi2"));
    assertEquals(false, VectorUnshuffle.vbmiFlag("model name\t: avx512vbmi"));
    assertEquals(false, VectorUnshuffle.vbmiFlag("flags"));
  }

  @Test
  void planesHoldOneByteOfEveryItem() {
    Random rnd = new Random(3);
    for (int ts : new int[] {1, 2, 3, 8, 16}) {
      for (int n8 : new int[] {8, 64, 72, 520, 4096}) {
        byte[] src = new byte[5 + n8 * ts];
        rnd.nextBytes(src);
        byte[] planes = new byte[2 + n8 * ts];
        Filters.bitsToPlanes(ts, src, 5, planes, 2, n8);
        byte[] items = definition(ts, src, 5, n8 * ts);
        for (int j = 0; j < ts; j++) {
          for (int i = 0; i < n8; i++) {
            if (planes[2 + j * n8 + i] != items[i * ts + j]) {
              throw new AssertionError("ts " + ts + " n8 " + n8 + " plane " + j + " item " + i);
            }
          }
        }
      }
    }
  }
}
