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
    if (args.length < 5 || !args[0].equals("read")) {
      throw new IllegalArgumentException("usage: read b2nd|frame|bcolz DIR ROUNDS NAME... | decode DIR SECONDS NAME...");
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
      System.out.printf("%s %.3f%n", name, read(p, rounds));
      System.out.flush();
    }
  }

  /**
   * The codec alone on the frames' own chunks: DIR/NAME.chunks (uint32 length + chunk, as {@code b2bench.py
   * framechunks} writes the first 8 chunks of 8 MiB of each frame), decoded whole by the pure-Java codec on this
   * thread, best GB/s by this thread's CPU time over
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

  /** Best wall-clock seconds of {@code rounds} open + whole read + close of the dataset's one variable. */
  static double read(Path file, int rounds) throws IOException {
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
