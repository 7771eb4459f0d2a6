package org.chunkcdm.blosc;

import java.util.Random;

/**
 * Never run by {@code mvn verify}: the byte and bit unshuffle as dispatched on this JVM against the
 * kernels one by one: a plain byte loop; the 64-bit register (SWAR) byte unshuffle ({@code Filters.unshuffleSwar},
 * and for the bit unshuffle bit rows to planes first); the word transposes C2 vectorizes ({@link WordTranspose},
 * the path without the Vector API), on one random block, rounds alternating, GB/s of block
 * bytes per second of this thread's CPU time, best of five rounds. A kernel that does not take the item size does
 * nothing and shows a meaningless figure. Usage: {@code java [--add-modules
 * jdk.incubator.vector] -cp bench/target/benchmarks.jar org.chunkcdm.blosc.FilterPathBench [block bytes]
 * [typesize...]}.
 */
public final class FilterPathBench {
  private FilterPathBench() {}

  public static void main(String[] args) {
    int len = args.length > 0 ? Integer.parseInt(args[0]) : 128 << 10;
    int[] sizes = {1, 2, 4, 8, 16, 24, 32};
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
      KernelBench.Kernel swar = () -> Filters.unshuffleSwar(ts, src, 0, dst, 0, n);
      byte[][] pa = planesOf(ts, src, n);
      int[] po = offsetsOf(ts, n);
      KernelBench.Kernel words = () -> WordTranspose.unshuffle(ts, pa, po, dst, 0, n);
      KernelBench.Kernel unshuffle = () -> Filters.unshuffle(ts, src, 0, dst, 0, n * ts);
      KernelBench.Kernel bitsLoop = () -> {
        Filters.bitsToPlanes(ts, src, 0, planes, 0, n8);
        byteLoop(ts, planes, dst, n8);
      };
      KernelBench.Kernel bitsSwar = () -> {
        Filters.bitsToPlanes(ts, src, 0, planes, 0, n8);
        Filters.unshuffleSwar(ts, planes, 0, dst, 0, n8);
      };
      KernelBench.Kernel bitsWords = () -> WordTranspose.bitunshuffle(ts, src, 0, dst, 0, n8);
      KernelBench.Kernel bits = () -> Filters.bitunshuffle(ts, src, 0, dst, 0, n8 * ts);
      KernelBench.Kernel[] all = {loop, swar, words, unshuffle, bitsLoop, bitsSwar, bitsWords, bits};
      double[] best = new double[all.length];
      for (int r = 0; r < 5; r++) {
        for (int k = 0; k < all.length; k++) {
          best[k] = Math.max(best[k], KernelBench.gbs(len, all[k]));
        }
      }
      System.out.printf("typesize %2d: byte unshuffle: byte loop %6.2f  registers %6.2f  words %6.2f  dispatch %6.2f;"
          + "  bit unshuffle: planes + byte loop %6.2f  planes + registers %6.2f  words %6.2f  dispatch %6.2f%n",
          ts, best[0], best[1], best[2], best[3], best[4], best[5], best[6], best[7]);
    }
  }

  private static byte[][] planesOf(int ts, byte[] src, int n) {
    byte[][] pa = new byte[ts][];
    java.util.Arrays.fill(pa, src);
    return pa;
  }

  private static int[] offsetsOf(int ts, int n) {
    int[] po = new int[ts];
    for (int j = 0; j < ts; j++) {
      po[j] = j * n;
    }
    return po;
  }

  private static void byteLoop(int ts, byte[] src, byte[] dst, int n) {
    for (int j = 0; j < ts; j++) {
      for (int i = 0; i < n; i++) {
        dst[i * ts + j] = src[j * n + i];
      }
    }
  }
}
