package org.chunkcdm.bench;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.hdf5.H5Iosp;

/**
 * HDF5 filters benchmark (docs/BENCHMARKS.md, "HDF5 filters: Bitshuffle+LZ4, LZ4, Zstd"); a main class, never run by
 * {@code mvn verify}. Each round reads the 1 GiB variable {@code t} of {@code DIR/bench_<kind>.h5} whole, for every
 * kind, through {@code NetcdfFiles.open} with {@link H5Iosp} registered and through the kind's C reference command
 * (h5py and the HDF5 filter plugin), and once the same values stored shuffle + deflate-1 through stock netcdf-java
 * ({@code H5iospNew}), all interleaved so that every reader sees the same machine load. Prints one line per read,
 * then best and median per reader and the ratios (best against best).
 *
 * <p>Arguments: DIR, rounds, then {@code kind=command} pairs (the command is run with {@code sh -c}, e.g.
 * {@code lz4=/usr/bin/python3 bench/hdf5filters_bench.py read DIR lz4 1}).
 */
public final class H5FiltersBench {
  private static final String STOCK = "ucar.nc2.internal.iosp.hdf5.H5iospNew";

  private H5FiltersBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Map<String, String> refs = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      refs.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    H5Iosp.register();
    System.out.println("# java " + System.getProperty("java.version") + ", decode threads "
        + Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()));
    Map<String, List<Double>> mbs = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      System.out.println("# round " + r + ", load average " + H5BloscBench.loadavg());
      for (Map.Entry<String, String> k : refs.entrySet()) {
        H5BloscBench.runReference(new ProcessBuilder("sh", "-c", k.getValue()).redirectErrorStream(true),
            "C " + k.getKey(), mbs);
        Path f = dir.resolve("bench_" + k.getKey() + ".h5");
        mbs.computeIfAbsent("chunkcdm " + k.getKey(), x -> new ArrayList<>())
            .add(H5BloscBench.read("chunkcdm-" + k.getKey(), f, "t", null, r));
      }
      mbs.computeIfAbsent("netcdf-java deflate1", x -> new ArrayList<>())
          .add(H5BloscBench.read("netcdf-java-deflate1", dir.resolve("bench_deflate1.h5"), "t", STOCK, r));
    }
    System.out.println("# load average at the end " + H5BloscBench.loadavg());
    Map<String, Double> best = H5BloscBench.summary(mbs);
    double deflate = best.get("netcdf-java deflate1");
    for (String k : refs.keySet()) {
      double ours = best.get("chunkcdm " + k);
      System.out.printf("%s: chunkcdm / C %.2fx, chunkcdm / netcdf-java deflate1 %.1fx (best against best)%n", k,
          ours / best.get("C " + k), ours / deflate);
    }
  }
}
