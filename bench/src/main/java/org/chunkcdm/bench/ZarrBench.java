package org.chunkcdm.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import ucar.ma2.Array;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Zarr benchmark (docs/BENCHMARKS.md, "Zarr"); a main class, never run by {@code mvn verify}. One case per run, on
 * the stores {@code bench/zarr_bench.py} writes: {@code whole-v2} (1 GiB float64, Blosc lz4 + shuffle, 1 MiB chunks,
 * read whole through {@code Variable.read}), {@code whole-v3} (the same values in Zarr v3 shards, zstd inner chunks),
 * {@code chunk} (16 single-chunk sections of the v2 array a round) and {@code series} (4 time series a round, each a
 * 1-D section through all 1,000 chunks of a float32 [1000, 256, 256] array). Each round opens the store through
 * {@code NetcdfFiles.open}, reads, and then runs every reference command once (zarr-python, tensorstore: {@code
 * bench/zarr_bench.py read DIR CASE 1 IMPL} with {@code ZARR_BENCH_ROUND} set), so all readers see the same load and
 * the same chunks; before the rounds the Java side reads untimed ({@code -Dzarr.bench.warmup}, default 1 round for
 * whole reads, 4 for the others) so that the JIT has compiled the read path. Prints one line per round, then best and median milliseconds per read for each reader and the
 * speed ratios (opening is not timed, on either side).
 *
 * <p>Arguments: DIR CASE ROUNDS, then reference commands separated by {@code ;} (each a list of words).
 */
public final class ZarrBench {
  private static final Pattern MS = Pattern.compile("([0-9.]+) ms/read");

  private ZarrBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    String kase = args[1];
    int rounds = Integer.parseInt(args[2]);
    List<List<String>> refs = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      if (args[i].equals(";")) {
        refs.add(cur);
        cur = new ArrayList<>();
      } else {
        cur.add(args[i]);
      }
    }
    if (!cur.isEmpty()) {
      refs.add(cur);
    }
    String store = kase.equals("whole-v3") ? "v3_shard_zstd" : kase.equals("series") ? "series" : "v2_blosc_lz4";
    Path p = dir.resolve(store + ".zarr");
    System.out.println("# java " + System.getProperty("java.version") + ", case " + kase + ", decode threads "
        + System.getProperty("chunkcdm.decode.threads", "(all cores)") + ", cache bytes "
        + System.getProperty("chunkcdm.cache.bytes", "(default)") + ", cores " + Runtime.getRuntime().availableProcessors());
    Map<String, List<Double>> ms = new LinkedHashMap<>();
    int warmup = Integer.getInteger("zarr.bench.warmup", kase.startsWith("whole") ? 1 : 4);
    for (int w = 0; w < warmup; w++) { // JIT warm-up of the Java side, untimed (other chunks than the rounds read)
      System.out.print("# warm-up: ");
      read(p, store, kase, 1000 + w);
    }
    for (int r = 0; r < rounds; r++) {
      System.out.println("# round " + r + ", load average " + H5BloscBench.loadavg());
      ms.computeIfAbsent("chunkcdm", k -> new ArrayList<>()).add(read(p, store, kase, r));
      for (List<String> ref : refs) {
        reference(ref, r, ms);
      }
    }
    System.out.println("# load average at the end " + H5BloscBench.loadavg());
    Map<String, Double> best = new LinkedHashMap<>();
    for (Map.Entry<String, List<Double>> e : ms.entrySet()) {
      List<Double> v = new ArrayList<>(e.getValue());
      v.sort(null);
      best.put(e.getKey(), v.get(0));
      System.out.printf("%-12s %-9s ms/read by round %s  best %.2f  median %.2f%n", e.getKey(), kase, fmt(e.getValue()),
          v.get(0), v.get(v.size() / 2));
    }
    for (Map.Entry<String, Double> e : best.entrySet()) {
      if (!e.getKey().equals("chunkcdm")) {
        System.out.printf("%s chunkcdm / %s: %.2fx as fast (best against best)%n", kase, e.getKey(),
            e.getValue() / best.get("chunkcdm"));
      }
    }
  }

  /** What one round reads (as bench/zarr_bench.py's selections): CDM sections. */
  static List<Section> sections(String kase, int[] shape, int r) throws Exception {
    List<Section> out = new ArrayList<>();
    if (kase.startsWith("whole")) {
      out.add(new Section(shape));
    } else if (kase.equals("chunk")) {
      for (int i = 0; i < 16; i++) {
        int k = (37 * (16 * r + i)) % shape[0];
        int j = (16 * r + i) % 8;
        out.add(new Section(List.of(new Range(k, k), new Range(128 * j, 128 * j + 127), new Range(0, shape[2] - 1))));
      }
    } else {
      for (int i = 0; i < 4; i++) {
        int y = (7 + 13 * (4 * r + i)) % shape[1];
        int x = (11 + 17 * (4 * r + i)) % shape[2];
        out.add(new Section(List.of(new Range(0, shape[0] - 1), new Range(y, y), new Range(x, x))));
      }
    }
    return out;
  }

  private static double read(Path p, String var, String kase, int r) throws Exception {
    long bytes = 0;
    double check = 0;
    int n;
    double sec;
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) { // opening is not timed (nor is zarr.open / ts.open)
      Variable v = nc.findVariable(var);
      v.setCaching(false);
      List<Section> secs = sections(kase, v.getShape(), r);
      n = secs.size();
      long t0 = System.nanoTime();
      for (Section s : secs) {
        Array a = kase.startsWith("whole") ? v.read() : v.read(s);
        bytes += a.getSize() * v.getElementSize();
        for (long i = 0; i < a.getSize(); i += 4099) {
          check += a.getDouble((int) i);
        }
      }
      sec = (System.nanoTime() - t0) / 1e9;
    }
    System.out.printf("chunkcdm %s round %d: %d reads %.4f s %.0f MB/s %.2f ms/read checksum %.6e%n", kase, r, n, sec,
        bytes / sec / 1e6, sec / n * 1e3, check);
    System.gc();
    return sec / n * 1e3;
  }

  private static void reference(List<String> cmd, int round, Map<String, List<Double>> ms) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("ZARR_BENCH_ROUND", Integer.toString(round));
    Process p = pb.start();
    String name = cmd.get(cmd.size() - 1);
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        System.out.println(line);
        Matcher m = MS.matcher(line);
        if (line.contains(" round ") && m.find()) {
          ms.computeIfAbsent(name, k -> new ArrayList<>()).add(Double.parseDouble(m.group(1)));
        }
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("reference command failed: " + cmd);
    }
  }

  private static String fmt(List<Double> l) {
    StringBuilder sb = new StringBuilder();
    for (double d : l) {
      sb.append(sb.length() > 0 ? ", " : "").append(String.format(java.util.Locale.ROOT, "%.1f", d));
    }
    return sb.toString();
  }

}
