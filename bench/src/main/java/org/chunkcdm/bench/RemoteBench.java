package org.chunkcdm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.remote.RemoteStats;
import org.chunkcdm.io.remote.RemoteStores;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenOptions;

/**
 * Remote reads against a loopback S3 server (bench/run-remote.sh starts s3proxy on a directory; the datasets are
 * files in it). Prints Markdown tables:
 * <ul>
 *   <li>{@code counts ENDPOINT BUCKET KEY...}: requests and bytes of an open, of a whole read and of a small
 *       section read (one element in the middle) of each dataset, counted by chunkcdm's clients;
 *   <li>{@code whole ENDPOINT BUCKET ROUNDS LOCALDIR KEY...}: best whole-read time of each (1 GiB) dataset from
 *       the server, against plain GETs of the same objects (one stream, and as many parallel streams as
 *       chunkcdm's fetch threads) and against the local files (page cache warm).
 * </ul>
 * Run with {@code -Daws.endpointUrl=ENDPOINT -Dchunkcdm.s3.anonymous=true}.
 */
public final class RemoteBench {
  private RemoteBench() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "counts":
        counts(args[1], args[2], List.of(args).subList(3, args.length));
        break;
      case "whole":
        whole(args[1], args[2], Integer.parseInt(args[3]), Paths.get(args[4]), List.of(args).subList(5, args.length));
        break;
      default:
        throw new IllegalArgumentException("counts | whole");
    }
  }

  private static OpenOptions noCache() {
    return OpenOptions.defaults().withCache(new ChunkCache(0));
  }

  private static byte[] readAll(ChunkedVariable v) throws IOException {
    long[] shape = v.array().grid().shape();
    long[] stride = new long[shape.length];
    java.util.Arrays.fill(stride, 1);
    return SectionReader.readBytes(v.array(), new long[shape.length], shape, stride);
  }

  private static long[] taken() {
    long[] r = {RemoteStats.REQUESTS.sum(), RemoteStats.BYTES.sum()};
    RemoteStats.reset();
    return r;
  }

  static void counts(String endpoint, String bucket, List<String> keys) throws Exception {
    System.out.println("| dataset (s3://" + bucket + "/...) | open: requests | open: bytes | whole read: requests | whole read: bytes"
        + " | one element: requests | one element: bytes | decoded bytes |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    org.chunkcdm.hdf5.H5Iosp.register();
    for (String key : keys) {
      RemoteStores.reset(); // nothing known about the objects: a first open
      RemoteStats.reset();
      String loc = "s3://" + bucket + "/" + key;
      if (key.endsWith(".nc") || key.endsWith(".h5")) { // HDF5: netcdf-java's reader with chunkcdm's filters
        try (ucar.nc2.NetcdfFile nc = ucar.nc2.NetcdfFiles.open(loc)) {
          long[] open = taken();
          long elements = 0;
          for (ucar.nc2.Variable v : nc.getVariables()) {
            elements += v.read().getSizeBytes();
          }
          long[] whole = taken();
          System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | - | - | %d |%n", key, open[0], open[1], whole[0], whole[1],
              elements);
        }
        continue;
      }
      try (ChunkedDataset d = Datasets.open(loc, noCache())) {
        long[] open = taken();
        long elements = 0;
        boolean large = false;
        for (ChunkedVariable v : d.variables()) {
          if (v.array() != null) {
            long n = v.array().grid().size() * v.array().dtype().itemSize();
            large |= n > (256L << 20); // whole reads of the 1 GiB sets: the `whole` table
            if (n <= (256L << 20)) {
              elements += readAll(v).length;
            }
          }
        }
        long[] whole = large ? new long[] {-1, -1} : taken();
        ChunkedVariable v = d.variables().stream().filter(x -> x.array() != null).findFirst().orElseThrow();
        long[] shape = v.array().grid().shape();
        long[] mid = new long[shape.length];
        long[] one = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
          mid[i] = shape[i] / 2;
          one[i] = 1;
        }
        SectionReader.readBytes(v.array(), mid, one, one);
        long[] point = taken();
        System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d |%n", key, open[0], open[1], whole[0], whole[1],
            point[0], point[1], elements);
      }
    }
  }

  /** Plain GETs of every object under a key (a file, or every object of a directory dataset), n streams. */
  static double rawGet(String endpoint, String bucket, Path local, String key, int streams) throws Exception {
    List<String> objects = new ArrayList<>();
    if (Files.isDirectory(local)) {
      try (Stream<Path> s = Files.walk(local)) {
        for (Path f : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
          objects.add(key + "/" + local.relativize(f).toString().replace('\\', '/'));
        }
      }
    } else {
      objects.add(key);
    }
    ExecutorService pool = Executors.newFixedThreadPool(streams);
    long t0 = System.nanoTime();
    try {
      List<Future<Long>> fs = new ArrayList<>();
      for (int t = 0; t < streams; t++) {
        int first = t;
        fs.add(pool.submit(() -> {
          long n = 0;
          byte[] buf = new byte[1 << 20];
          for (int i = first; i < objects.size(); i += streams) {
            HttpURLConnection c = (HttpURLConnection) URI.create(endpoint + "/" + bucket + "/" + objects.get(i)).toURL()
                .openConnection();
            try (InputStream in = c.getInputStream()) {
              for (int k; (k = in.read(buf)) > 0; ) {
                n += k;
              }
            }
          }
          return n;
        }));
      }
      for (Future<Long> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Wall seconds and CPU seconds of the server and of this JVM over one timed phase. */
  record Phase(double wall, double server, double client) {
    Phase min(Phase o) {
      return o == null || wall <= o.wall ? this : o;
    }
  }

  /** A phase to time: the CPU the server (its pid in -Dbench.serverPid) and this JVM spend during it. */
  interface Timed {
    void run() throws Exception;
  }

  static Phase measure(Timed t) throws Exception {
    double s0 = serverCpu();
    double c0 = clientCpu();
    long t0 = System.nanoTime();
    t.run();
    double wall = (System.nanoTime() - t0) / 1e9;
    return new Phase(wall, serverCpu() - s0, clientCpu() - c0);
  }

  /** User + system seconds of the server process, from /proc (0 when no pid was given). */
  static double serverCpu() throws IOException {
    String pid = System.getProperty("bench.serverPid");
    if (pid == null) {
      return 0;
    }
    String stat = Files.readString(Paths.get("/proc", pid, "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ 100)
  }

  static double clientCpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  static void whole(String endpoint, String bucket, int rounds, Path localDir, List<String> keys) throws Exception {
    int threads = Integer.getInteger("chunkcdm.remote.fetchThreads", 4);
    int cores = Runtime.getRuntime().availableProcessors();
    StringBuilder cpu = new StringBuilder("| dataset | plain GET: s, server CPU s, client CPU s | remote read: s, server CPU"
        + " s, reader CPU s | local read: s, CPU s | least CPU s a remote read needs / " + cores + " cores | 0.8x"
        + " the GET's throughput needs |\n|---|---|---|---|---|---|\n");
    System.out.println("| dataset | stored MB | remote whole read s | plain GET, 1 stream s | plain GET, " + threads
        + " streams s | local whole read s | remote / 1-stream GET throughput | remote / " + threads
        + "-stream GET | remote / local |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (String key : keys) {
      Path local = localDir.resolve(key);
      long stored;
      try (Stream<Path> s = Files.walk(local)) {
        stored = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
      }
      Phase remote = null;
      Phase get1 = null;
      Phase getN = null;
      Phase loc = null;
      for (int r = 0; r < rounds; r++) {
        get1 = measure(() -> rawGet(endpoint, bucket, local, key, 1)).min(get1);
        getN = measure(() -> rawGet(endpoint, bucket, local, key, threads)).min(getN);
        RemoteStores.reset();
        remote = measure(() -> {
          try (ChunkedDataset d = Datasets.open("s3://" + bucket + "/" + key, noCache())) {
            readAll(d.variables().get(0));
          }
        }).min(remote);
        loc = measure(() -> {
          try (ChunkedDataset d = Datasets.open(local, noCache())) {
            readAll(d.variables().get(0));
          }
        }).min(loc);
      }
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", key, stored / 1e6,
          remote.wall, get1.wall, getN.wall, loc.wall, get1.wall / remote.wall, getN.wall / remote.wall,
          loc.wall / remote.wall);
      // what a remote read cannot avoid: the server sending the bytes and this side receiving them (the plain GET's
      // CPU on both sides) plus decoding them (the local read's CPU); on these cores no schedule beats that sum
      Phase get = get1.wall <= getN.wall ? get1 : getN;
      double least = (get.server + get.client + loc.client) / cores;
      cpu.append(String.format(Locale.ROOT, "| %s | %.2f, %.2f, %.2f | %.2f, %.2f, %.2f | %.2f, %.2f | %.2f s | %.2f s |%n",
          key, get.wall, get.server, get.client, remote.wall, remote.server, remote.client, loc.wall, loc.client, least,
          get.wall / 0.8));
    }
    System.out.println();
    System.out.print(cpu);
  }
}
