package org.chunkcdm.bench;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenOptions;
import org.chunkcdm.sframe.SframeProbes;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/**
 * python-blosc2 stores benchmark (docs/BENCHMARKS.md, "python-blosc2 stores"); a main class, never run by
 * {@code mvn verify}. Data: {@code bench/blosc2_stores_bench.py DIR}.
 *
 * <ol>
 *   <li>Opening a DictStore of 1,000 arrays ({@code many.b2d}, {@code many.b2z}) through the opener SPI and through
 *       {@code NetcdfFiles.open}, each round in turn: milliseconds per open (wall clock, and the opening thread's CPU
 *       time, which a loaded machine does not inflate), and the Blosc2 chunks fetched while opening (must be 0).
 *   <li>Reading one 64 MiB float64 array whole, stored as a {@code .b2nd} file, as the leaf {@code /data} of a
 *       DictStore directory and as a stored member of a {@code .b2z}, interleaved round by round (each first in
 *       turn), each read with a fresh 1 MiB private cache (every chunk is decoded) and one decode thread (the
 *       reading thread's CPU time is the read's whole cost): MB/s (decoded bytes per second of wall clock and of
 *       CPU time) and the store/{@code .b2nd} ratios of the medians.
 * </ol>
 * Arguments: DIR, rounds (default 7).
 */
public final class StoreBench {
  private StoreBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    System.out.println("# java " + System.getProperty("java.version") + ", cores " + Runtime.getRuntime().availableProcessors()
        + ", load average " + H5BloscBench.loadavg());
    Map<String, List<Double>> open = new LinkedHashMap<>();
    Map<String, List<Double>> cpu = new LinkedHashMap<>();
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long fetched = 0;
    for (int r = 0; r < rounds; r++) {
      for (String name : List.of("many.b2d", "many.b2z")) {
        Path p = dir.resolve(name);
        for (boolean cdm : new boolean[] {false, true}) {
          String what = name + (cdm ? " NetcdfFiles" : " opener");
          long f0 = SframeProbes.chunksFetched();
          long c0 = mx.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          int n;
          if (cdm) {
            try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
              n = nc.getVariables().size();
            }
          } else {
            try (ChunkedDataset ds = Datasets.open(p)) {
              n = ds.variables().size();
            }
          }
          double ms = (System.nanoTime() - t0) / 1e6;
          double cms = (mx.getCurrentThreadCpuTime() - c0) / 1e6;
          fetched += SframeProbes.chunksFetched() - f0;
          open.computeIfAbsent(what, k -> new ArrayList<>()).add(ms);
          cpu.computeIfAbsent(what, k -> new ArrayList<>()).add(cms);
          System.out.printf("open round %d %-22s %d variables, %.1f ms (CPU %.1f ms)%n", r, what, n, ms, cms);
        }
      }
    }
    System.out.println("# chunks fetched while opening: " + fetched);
    for (Map.Entry<String, List<Double>> e : open.entrySet()) {
      System.out.printf("open %-22s best %7.1f ms  median %7.1f ms  (CPU: best %6.1f ms, median %6.1f ms)%n", e.getKey(),
          best(e.getValue(), false), median(e.getValue()), best(cpu.get(e.getKey()), false), median(cpu.get(e.getKey())));
    }

    Map<String, List<Double>> mbs = new LinkedHashMap<>();
    Map<String, List<Double>> cpuMbs = new LinkedHashMap<>();
    String[][] sets = {{"one.b2nd", "one"}, {"one.b2d", "data"}, {"one.b2z", "data"}};
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < sets.length; i++) {
        String[] s = sets[(i + r) % sets.length]; // each set first in turn
        // one decode thread: the reading thread's CPU time is the whole cost of the read
        OpenOptions o = OpenOptions.defaults().withCache(new ChunkCache(1 << 20)).withDecodeThreads(1);
        try (ChunkedDataset ds = Datasets.open(dir.resolve(s[0]), o)) {
          ChunkedVariable v = ds.variable(s[1]);
          ChunkedArray a = v.array();
          long[] shape = a.grid().shape();
          long c0 = mx.getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          double[] d = (double[]) SectionReader.readTyped(a, new long[shape.length], shape, null);
          double sec = (System.nanoTime() - t0) / 1e9;
          double csec = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
          double rate = d.length * 8.0 / sec / 1e6;
          double crate = d.length * 8.0 / csec / 1e6;
          mbs.computeIfAbsent(s[0], k -> new ArrayList<>()).add(rate);
          cpuMbs.computeIfAbsent(s[0], k -> new ArrayList<>()).add(crate);
          System.out.printf("read round %d %-9s %.3f s %6.0f MB/s, CPU %.3f s %6.0f MB/s  sum %.6f%n", r, s[0], sec,
              rate, csec, crate, sum(d));
        }
      }
    }
    double ref = median(mbs.get("one.b2nd"));
    double cref = median(cpuMbs.get("one.b2nd"));
    for (Map.Entry<String, List<Double>> e : mbs.entrySet()) {
      double m = median(e.getValue());
      double c = median(cpuMbs.get(e.getKey()));
      System.out.printf("read %-9s wall: best %6.0f MB/s, median %6.0f MB/s (/ .b2nd %.3f); CPU: median %6.0f MB/s"
          + " (/ .b2nd %.3f)%n", e.getKey(), best(e.getValue(), true), m, m / ref, c, c / cref);
    }
    System.out.println("# load average at the end " + H5BloscBench.loadavg());
  }

  static double median(List<Double> v) {
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  static double best(List<Double> v, boolean max) {
    double b = v.get(0);
    for (double x : v) {
      b = max ? Math.max(b, x) : Math.min(b, x);
    }
    return b;
  }

  static double sum(double[] d) {
    double s = 0;
    for (double x : d) {
      s += x;
    }
    return s;
  }
}
