package org.chunkcdm.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.hdf5blosc.H5BloscIosp;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * HDF5 / NetCDF-4 Blosc benchmark (docs/BENCHMARKS.md, "HDF5 / NetCDF-4 with the Blosc filter"); a main class, never run by
 * {@code mvn verify}. Each round reads one variable whole from the Blosc file through {@code NetcdfFiles.open}
 * with {@link H5BloscIosp} registered, and from the deflate file through stock netcdf-java ({@code H5iospNew});
 * with a reference command given, each round also runs it (the C library: {@code bench/hdf5blosc_bench.py read DIR
 * 1}, once with c-blosc's default thread count and once with {@code BLOSC_NTHREADS=2}), so every reader sees the
 * same machine load (A B C D A B C D ...). Prints one line per read (seconds, MB/s, a checksum of the values so
 * all readers are seen to return the same data), then best and median per reader and the ratios.
 *
 * <p>Arguments: blosc file, deflate file ({@code -}: none), variable name, rounds (default 3), then optionally the reference
 * command (e.g. {@code /usr/bin/python3 bench/hdf5blosc_bench.py read DIR 1}).
 */
public final class H5BloscBench {
  private static final String STOCK = "ucar.nc2.internal.iosp.hdf5.H5iospNew";
  private static final Pattern MBS = Pattern.compile("([0-9.]+) s ([0-9]+) MB/s");

  private H5BloscBench() {}

  public static void main(String[] args) throws Exception {
    Path blosc = Paths.get(args[0]);
    Path deflate = Paths.get(args[1]);
    String var = args[2];
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    List<String> ref = args.length > 4 ? Arrays.asList(args).subList(4, args.length) : List.of();
    H5BloscIosp.register();
    // with the codec left to choose (auto) and a native c-blosc present, also time the pure-Java codec
    boolean pureJava = Blosc.configured() == Blosc.Impl.AUTO && Blosc.nativeBlosc() != null;
    System.out.println("# java " + System.getProperty("java.version") + ", codec " + Blosc.configured()
        + ", decode threads " + Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors())
        + ", cache bytes " + Long.getLong("chunkcdm.cache.bytes", 64L << 20) + ", native c-blosc "
        + (Blosc.nativeBlosc() != null ? "loaded (auto uses it; pure-Java rounds too)" : "not loaded (pure Java)"));
    Map<String, List<Double>> mbs = new LinkedHashMap<>();
    for (int r = 0; r < rounds; r++) {
      System.out.println("# round " + r + ", load average " + loadavg());
      if (!ref.isEmpty()) {
        reference(ref, null, mbs);
        reference(ref, "2", mbs);
      }
      mbs.computeIfAbsent("chunkcdm H5BloscIosp", k -> new ArrayList<>()).add(read("chunkcdm-blosc", blosc, var, null, r));
      if (pureJava) { // the same read with the pure-Java codec forced (chunkcdm.blosc=java)
        String was = System.getProperty("chunkcdm.blosc");
        System.setProperty("chunkcdm.blosc", "java");
        try {
          mbs.computeIfAbsent("chunkcdm H5BloscIosp, pure Java", k -> new ArrayList<>())
              .add(read("chunkcdm-blosc-java", blosc, var, null, r));
        } finally {
          if (was == null) {
            System.clearProperty("chunkcdm.blosc");
          } else {
            System.setProperty("chunkcdm.blosc", was);
          }
        }
      }
      if (!args[1].equals("-")) { // "-": no deflate file (e.g. an A/B of two chunkcdm builds)
        mbs.computeIfAbsent("netcdf-java deflate-1", k -> new ArrayList<>()).add(read("netcdf-java-deflate1", deflate, var, STOCK, r));
      }
    }
    System.out.println("# load average at the end " + loadavg());
    Map<String, Double> best = new LinkedHashMap<>();
    for (Map.Entry<String, List<Double>> e : mbs.entrySet()) {
      List<Double> v = new ArrayList<>(e.getValue());
      v.sort(null);
      best.put(e.getKey(), v.get(v.size() - 1));
      System.out.printf("%-32s rounds %s  best %.0f  median %.0f MB/s%n", e.getKey(), fmt(e.getValue()),
          v.get(v.size() - 1), v.get(v.size() / 2));
    }
    for (Map.Entry<String, Double> o : best.entrySet()) {
      if (o.getKey().startsWith("chunkcdm")) {
        for (Map.Entry<String, Double> e : best.entrySet()) {
          if (!e.getKey().startsWith("chunkcdm")) {
            System.out.printf("%s / %s: %.2fx (best against best)%n", o.getKey(), e.getKey(), o.getValue() / e.getValue());
          }
        }
      }
    }
  }

  private static String fmt(List<Double> l) {
    StringBuilder sb = new StringBuilder();
    for (double d : l) {
      sb.append(sb.length() > 0 ? ", " : "").append(Math.round(d));
    }
    return sb.toString();
  }

  private static String loadavg() {
    try {
      String[] f = Files.readString(Paths.get("/proc/loadavg")).trim().split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "?";
    }
  }

  /** Runs the reference reader once (BLOSC_NTHREADS as given, or unset) and records its MB/s. */
  private static void reference(List<String> cmd, String threads, Map<String, List<Double>> mbs) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    if (threads == null) {
      pb.environment().remove("BLOSC_NTHREADS");
    } else {
      pb.environment().put("BLOSC_NTHREADS", threads);
    }
    Process p = pb.start();
    String name = "C: h5py + plugin, " + (threads == null ? "1 thread" : "BLOSC_NTHREADS=" + threads);
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        System.out.println(line);
        Matcher m = MBS.matcher(line);
        if (m.find()) {
          mbs.computeIfAbsent(name, k -> new ArrayList<>()).add(Double.parseDouble(m.group(2)));
        }
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("reference command failed: " + cmd);
    }
  }

  private static double read(String what, Path file, String var, String iosp, int round) throws Exception {
    long t0 = System.nanoTime();
    try (NetcdfFile nc = iosp == null ? NetcdfFiles.open(file.toString()) : NetcdfFiles.open(file.toString(), iosp, -1, null, null)) {
      Variable v = nc.findVariable(var);
      if (v == null) {
        throw new IllegalArgumentException(file + ": no variable " + var);
      }
      Array a = v.read();
      double s = 0;
      double[] d = (double[]) a.getStorage();
      for (int i = 0; i < d.length; i += 4099) {
        s += d[i];
      }
      double sec = (System.nanoTime() - t0) / 1e9;
      long bytes = a.getSize() * 8;
      System.out.printf("%s round %d: %s %s %.3f s %.0f MB/s checksum %.6e iosp %s%n", what, round, file.getFileName(),
          Arrays.toString(v.getShape()), sec, bytes / sec / 1e6, s, nc.getIosp().getClass().getSimpleName());
      System.gc();
      return bytes / sec / 1e6;
    }
  }
}
