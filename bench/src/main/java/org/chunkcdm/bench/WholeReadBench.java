package org.chunkcdm.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Whole reads of the 1 GiB float64 series of {@code bench/run-blosc2-whole.sh} through
 * {@code NetcdfFiles.open} + {@code Variable.read()}: a b2nd array ({@code NAME.b2nd}), a plain Blosc2 frame
 * ({@code NAME.b2frame}, read as the frame's 1-D typesize-8 variable) or a bcolz carray ({@code NAME.bcolz/}),
 * NAME being the set name with '-' turned into '_' (as {@code bench/blosc2/b2bench.py} writes them). The time
 * covers open, read and close, like the python-blosc2 side (which opens the file in its timed part too). A main
 * class, never run by {@code mvn verify}.
 *
 * <p>Usage: {@code read KIND DIR ROUNDS NAME...} with KIND {@code b2nd}, {@code frame} or {@code bcolz}: one line
 * per NAME, {@code NAME seconds}, the best of ROUNDS reads in this process (the first are JIT warm-up).
 */
public final class WholeReadBench {
  private WholeReadBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length >= 4 && args[0].equals("decode")) {
      decode(Paths.get(args[1]), Double.parseDouble(args[2]), Arrays.copyOfRange(args, 3, args.length));
      return;
    }
    boolean ab = args.length >= 5 && (args[0].equals("typedab") || args[0].equals("mmapab")
        || args[0].equals("openmmapab"));
    if (args.length < 5 || !args[0].equals("read") && !ab) {
      throw new IllegalArgumentException("usage: read|typedab|mmapab|openmmapab b2nd|frame|bcolz DIR ROUNDS NAME... | decode DIR SECONDS NAME...");
    }
    String suffix;
    switch (args[1]) {
      case "b2nd":
        suffix = ".b2nd";
        break;
      case "frame":
        suffix = ".b2frame";
        break;
      case "bcolz":
        suffix = ".bcolz";
        break;
      default:
        throw new IllegalArgumentException("kind " + args[1] + " is not b2nd, frame or bcolz");
    }
    Path dir = Paths.get(args[2]);
    int rounds = Integer.parseInt(args[3]);
    for (int i = 4; i < args.length; i++) {
      String name = args[i];
      Path p = dir.resolve(name.replace('-', '_') + suffix);
      if (ab) {
        if (args[0].equals("mmapab")) {
          org.chunkcdm.io.FileHandles.MapMode was = org.chunkcdm.io.FileHandles.mapMode();
          ab(name, p, rounds, new String[] {"pread", "mmap"}, org.chunkcdm.io.FileHandles::setMmap);
          org.chunkcdm.io.FileHandles.setMapMode(was);
          continue;
        }
        if (args[0].equals("openmmapab")) { // the dataset opened once, read again and again (a file a server keeps open)
          try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
            Variable v = nc.getVariables().get(0);
            v.setCaching(false);
            keep = v;
            ab(name, p, rounds, new String[] {"pread", "reread"}, on -> org.chunkcdm.io.FileHandles.setMapMode(on
                ? org.chunkcdm.io.FileHandles.MapMode.REREAD : org.chunkcdm.io.FileHandles.MapMode.OFF));
          } finally {
            keep = null;
            org.chunkcdm.io.FileHandles.setMapMode(org.chunkcdm.io.FileHandles.MapMode.parse(System.getProperty("chunkcdm.mmap")));
          }
          continue;
        }
        typedAb(name, p, rounds);
        continue;
      }
      System.out.printf("%s %.3f%n", name, read(p, rounds));
      System.out.flush();
    }
  }

  /**
   * The codec alone on the frames' own chunks: DIR/NAME.chunks (uint32 length + chunk, as {@code b2bench.py
   * framechunks} writes the first 8 chunks of 8 MiB of each frame), decoded whole by the pure-Java codec on this
   * thread (run with {@code -Dchunkcdm.blosc.parallelBytes=2147483647}), best GB/s by this thread's CPU time over
   * SECONDS; prints {@code NAME GB/s}.
   */
  static void decode(Path dir, double seconds, String[] names) throws IOException {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    for (String name : names) {
      Blosc2CodecBench.ChunkSet set = Blosc2CodecBench.ChunkSet.load(dir.resolve(name + ".chunks"));
      java.util.List<byte[]> chunks = set.chunks();
      java.util.List<BloscHeader> heads = set.headers();
      long total = set.total();
      byte[] out = new byte[heads.get(0).nbytes()];
      double best = 0;
      long end = System.nanoTime() + (long) (seconds * 1e9);
      do {
        long t = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < chunks.size(); i++) {
          Blosc.decompress(heads.get(i), chunks.get(i), 0, out, 0, Blosc.Impl.JAVA);
        }
        best = Math.max(best, total / ((mx.getCurrentThreadCpuTime() - t) / 1e9) / 1e9);
      } while (System.nanoTime() < end);
      System.out.printf("%s %.3f%n", name, best);
      System.out.flush();
    }
  }

  /**
   * The typed read's two ways in one JVM, alternated read by read (so that load and JIT state hit both alike):
   * {@code copy}, every decoded piece copied into the result array ({@code SectionReader.setTypedPieces(false)}),
   * and {@code typed}, the blocks' last unshuffle storing straight into it. Prints two lines per NAME: the best
   * and the median CPU seconds of all Java threads per open + read + close (less disturbed by other processes
   * than the wall clock), then the best and the median wall-clock seconds, over {@code rounds} reads each.
   */
  static void typedAb(String name, Path file, int rounds) throws IOException {
    ab(name, file, rounds, new String[] {"copy", "typed"}, org.chunkcdm.chunk.SectionReader::setTypedPieces);
    org.chunkcdm.chunk.SectionReader.setTypedPieces(true);
  }

  /**
   * Two ways in one JVM, alternated read by read (a different one first in every round), {@code set} switching to
   * way 0 ({@code false}) or 1 ({@code true}); output as {@link #typedAb}. {@code mmapab}: way 0 reads the stored
   * bytes through {@code FileChannel.read} ({@code FileHandles.setMmap(false)}), way 1 through the file's mapping
   * from the first read (a fresh mapping per open). {@code openmmapab}: the dataset is opened once and read again
   * and again (a file a server or a viewer keeps open), way 0 through the channel, way 1 in the default mode
   * {@code REREAD} (mapped from its second read on).
   */
  static void ab(String name, Path file, int rounds, String[] names, java.util.function.Consumer<Boolean> set)
      throws IOException {
    double[][] t = new double[2][rounds];
    double[][] cpu = new double[2][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int way = (k + r) % 2; // a different way first in every round
        set.accept(way == 1);
        java.util.Map<Long, Long> before = threadCpu();
        t[way][r] = read(file, 1);
        long sum = 0;
        for (java.util.Map.Entry<Long, Long> e : threadCpu().entrySet()) {
          sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        cpu[way][r] = sum / 1e9;
      }
    }
    for (double[][] m : new double[][][] {cpu, t}) {
      StringBuilder sb = new StringBuilder(name).append(m == cpu ? " cpu" : " wall");
      for (int w = 0; w < 2; w++) {
        double[] x = m[w].clone();
        Arrays.sort(x);
        sb.append(String.format(" %s %.3f %.3f", names[w], x[0], x[x.length / 2]));
      }
      System.out.println(sb);
    }
    System.out.flush();
  }

  /** CPU nanoseconds of every live Java thread (the JIT's compiler threads are not among them). */
  static java.util.Map<Long, Long> threadCpu() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    java.util.Map<Long, Long> m = new java.util.HashMap<>();
    for (long id : mx.getAllThreadIds()) {
      long c = mx.getThreadCpuTime(id);
      if (c >= 0) {
        m.put(id, c);
      }
    }
    return m;
  }

  /** With openmmapab: the open variable every read reads (no open and close per read). */
  private static Variable keep;

  /** Best wall-clock seconds of {@code rounds} open + whole read + close of the dataset's one variable. */
  static double read(Path file, int rounds) throws IOException {
    if (keep != null) {
      long t = System.nanoTime();
      Array a = keep.read();
      if (a.getSize() * 8 != 1L << 30) {
        throw new IllegalStateException(file + ": read " + a.getSize() + " values");
      }
      return (System.nanoTime() - t) / 1e9;
    }
    double best = Double.MAX_VALUE;
    for (int r = 0; r < rounds; r++) {
      long t = System.nanoTime();
      Array a;
      try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
        Variable v = nc.getVariables().get(0);
        v.setCaching(false);
        a = v.read();
      }
      best = Math.min(best, (System.nanoTime() - t) / 1e9);
      if (Boolean.getBoolean("wholeread.verbose")) { // every read's time, to see the JIT warm up
        System.err.printf("%s read %d: %.3f s%n", file.getFileName(), r, (System.nanoTime() - t) / 1e9);
      }
      if (a.getSize() * 8 != 1L << 30) {
        throw new IllegalStateException(file + ": read " + a.getSize() + " values");
      }
    }
    return best;
  }
}
