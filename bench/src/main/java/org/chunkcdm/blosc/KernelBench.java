package org.chunkcdm.blosc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;

/**
 * The filter kernels alone on one random block (a main class, never run by {@code mvn verify}): GB/s of
 * block bytes per second of this thread's CPU time (so that other jobs on a shared machine do not count), best of
 * five rounds. Usage: {@code java [--add-modules jdk.incubator.vector] -cp bench/target/benchmarks.jar
 * org.chunkcdm.blosc.KernelBench [typesize] [block bytes]}. In package {@code org.chunkcdm.blosc} to reach the
 * package-private kernels.
 */
public final class KernelBench {
  private KernelBench() {}

  interface Kernel {
    void run();
  }

  public static void main(String[] args) {
    int ts = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int len = args.length > 1 ? Integer.parseInt(args[1]) : 256 << 10;
    byte[] src = new byte[len];
    new Random(1).nextBytes(src);
    byte[] dst = new byte[len];
    byte[] planes = new byte[len];
    System.out.printf("typesize %d, block %d bytes, vector unshuffle %b, vector bit rows %b (GB/s of CPU time)%n", ts, len,
        Filters.VECTOR, Filters.VECTOR_BITS);
    report("bit unshuffle, byte at a time (before)", len, () -> Filters.bitunshuffleScalar(ts, src, 0, dst, 0, len));
    report("bit rows -> byte planes", len, () -> Filters.bitsToPlanes(ts, src, 0, planes, 0, len / ts / 8 * 8));
    report("byte unshuffle", len, () -> Filters.unshuffle(ts, planes, 0, dst, 0, len));
    report("bit unshuffle (both steps)", len, () -> Filters.bitunshuffle(ts, src, 0, dst, 0, len));
    report("System.arraycopy", len, () -> System.arraycopy(src, 0, dst, 0, len));
  }

  /** GB/s of one timed run of about a second's worth of repetitions (thread CPU time). */
  static double gbs(int len, Kernel k) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    int reps = Math.max(1, (int) (5e8 / len));
    long t = mx.getCurrentThreadCpuTime();
    for (int i = 0; i < reps; i++) {
      k.run();
    }
    return (double) reps * len / (mx.getCurrentThreadCpuTime() - t);
  }

  static void report(String what, int len, Kernel k) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    int reps = Math.max(1, (int) (1e9 / len));
    double best = 0;
    for (int r = 0; r < 6; r++) {
      long t = mx.getCurrentThreadCpuTime();
      for (int i = 0; i < reps; i++) {
        k.run();
      }
      double gbs = (double) reps * len / (mx.getCurrentThreadCpuTime() - t);
      if (r > 0) {
        best = Math.max(best, gbs);
      }
    }
    System.out.printf("  %-40s %6.2f%n", what, best);
  }
}
