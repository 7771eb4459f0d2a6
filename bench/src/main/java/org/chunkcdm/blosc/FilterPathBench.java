package org.chunkcdm.blosc;

import java.util.Random;

/**
 * Issue 17, fourth pass (never run by {@code mvn verify}): the byte and bit unshuffle as dispatched on this JVM
 * against the paths item sizes without a register path took before (a plain byte loop for the byte unshuffle; bit
 * rows to planes, then that byte loop, for the bit unshuffle), on one random block, rounds alternating, GB/s of block
 * bytes per second of this thread's CPU time, best of five rounds. Usage: {@code java [--add-modules
 * jdk.incubator.vector] -cp bench/target/benchmarks.jar org.chunkcdm.blosc.FilterPathBench [block bytes]
 * [typesize...]}.
 */
public final class FilterPathBench {
  private FilterPathBench() {}

  public static void main(String[] args) {
    int len = args.length > 0 ? Integer.parseInt(args[0]) : 128 << 10;
    int[] sizes = {2, 4, 8, 16, 24, 32};
    if (args.length > 1) {
      sizes = new int[args.length - 1];
      for (int i = 1; i < args.length; i++) {
        sizes[i - 1] = Integer.parseInt(args[i]);
      }
    }
    System.out.printf("block %d bytes, vector unshuffle %b, vector bit rows %b, byte permute (VBMI) %b"
        + " (GB/s of CPU time)%n", len, Filters.VECTOR, Filters.VECTOR_BITS,
        Filters.VECTOR && VectorUnshuffle.BYTE_PERMUTE);
    for (int ts : sizes) {
      byte[] src = new byte[len];
      new Random(ts).nextBytes(src);
      byte[] dst = new byte[len];
      byte[] planes = new byte[len];
      int n = len / ts;
      int n8 = n / 8 * 8;
      KernelBench.Kernel loop = () -> byteLoop(ts, src, dst, n);
      KernelBench.Kernel unshuffle = () -> Filters.unshuffle(ts, src, 0, dst, 0, n * ts);
      KernelBench.Kernel bitsLoop = () -> {
        Filters.bitsToPlanes(ts, src, 0, planes, 0, n8);
        byteLoop(ts, planes, dst, n8);
      };
      KernelBench.Kernel bits = () -> Filters.bitunshuffle(ts, src, 0, dst, 0, n8 * ts);
      double[] best = new double[4];
      for (int r = 0; r < 5; r++) {
        best[0] = Math.max(best[0], KernelBench.gbs(len, loop));
        best[1] = Math.max(best[1], KernelBench.gbs(len, unshuffle));
        best[2] = Math.max(best[2], KernelBench.gbs(len, bitsLoop));
        best[3] = Math.max(best[3], KernelBench.gbs(len, bits));
      }
      System.out.printf("typesize %2d: byte unshuffle: byte loop %6.2f  dispatch %6.2f;"
          + "  bit unshuffle: planes + byte loop %6.2f  dispatch %6.2f%n", ts, best[0], best[1], best[2], best[3]);
    }
  }

  private static void byteLoop(int ts, byte[] src, byte[] dst, int n) {
    for (int j = 0; j < ts; j++) {
      for (int i = 0; i < n; i++) {
        dst[i * ts + j] = src[j * n + i];
      }
    }
  }
}
