package org.chunkcdm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.nativeblosc.JnaBlosc;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Small reads of the 1 GiB float64 lz4 carray of {@link BcolzBench} (issue 14): a front-to-back scan through
 * {@code Variable.read(origin, shape)} in consecutive pieces of 65,536, 8,192 and 1,024 elements, a repeated
 * single-element read in a cached chunk, and cold random single-element reads (cache cleared before each) next to
 * the decode of one block alone. Prints the shared cache's decode counters per scan. Also writes the 32
 * distinct decoded chunks to {@code dir/distinct_chunks.f64} for bench/scan_netcdf4.py, which builds the same
 * values as NetCDF-4 and scans them with netCDF4-python. Usage: {@code bench/run-scan.sh [dir]}.
 */
public final class ScanBench {
  private ScanBench() {}

  public static void main(String[] args) throws Exception {
    Path root = Paths.get(args.length > 0 ? args[0] : "/tmp/chunkcdm-bench");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    JnaBlosc nat = new JnaBlosc();
    if (!nat.isAvailable()) {
      throw new IllegalStateException("needs native c-blosc (apt-get install libblosc1): " + nat.version());
    }
    Path dir = root.resolve("big_float64.bcolz");
    byte[][] chunks = BcolzBench.write(dir, nat);
    Path raw = root.resolve("distinct_chunks.f64");
    if (!Files.isRegularFile(raw)) {
      byte[] all = new byte[BcolzBench.DISTINCT * BcolzBench.CHUNKLEN * 8];
      for (int d = 0; d < BcolzBench.DISTINCT; d++) {
        byte[] ch = chunks[d];
        Blosc.decompress(BloscHeader.parse(ch, 0, ch.length), ch, 0, all, d * BcolzBench.CHUNKLEN * 8, Blosc.Impl.JAVA);
      }
      Path tmp = root.resolve("distinct_chunks.f64.tmp");
      Files.write(tmp, all);
      Files.move(tmp, raw, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
    long rows = BcolzBench.ROWS;
    BloscHeader h = BloscHeader.parse(chunks[0], 0, chunks[0].length);
    System.out.printf("carray %s: %d float64 rows, chunks of %d rows (%d KiB, blocks of %d KiB), cache %d MiB, decoder %s,"
        + " %d decode threads%n", dir, rows, BcolzBench.CHUNKLEN, h.nbytes() / 1024, h.blocksize() / 1024,
        ChunkCache.shared().maxBytes() >> 20, Blosc.configured(),
        Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()));
    ChunkCache cache = ChunkCache.shared();
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.findVariable("big_float64");
      v.setCaching(false);
      int[] origin = new int[1];
      int[] shape = new int[1];
      for (int piece : new int[] {65536, 8192, 1024}) {
        double best = Double.MAX_VALUE;
        long decodes = 0;
        long parts = 0;
        long ahead = 0;
        for (int r = 0; r < rounds; r++) {
          cache.clear();
          long d0 = cache.chunkDecodes();
          long p0 = cache.partDecodes();
          long a0 = cache.prefetched();
          long t0 = System.nanoTime();
          double sum = 0;
          for (long at = 0; at < rows; at += piece) {
            origin[0] = (int) at;
            shape[0] = (int) Math.min(piece, rows - at);
            Array a = v.read(origin, shape);
            sum += a.getDouble(0);
          }
          double s = (System.nanoTime() - t0) / 1e9;
          if (s < best) {
            best = s;
            decodes = cache.chunkDecodes() - d0;
            parts = cache.partDecodes() - p0;
            ahead = cache.prefetched() - a0;
          }
          if (Double.isNaN(sum)) {
            throw new IllegalStateException();
          }
        }
        long reads = (rows + piece - 1) / piece;
        System.out.printf("scan in %,d-element pieces: %.2f s = %.0f MB/s (%.1f us per read); chunks decoded %d of %d"
            + " (%d by read-ahead), blocks decoded alone %d%n", piece, best, rows * 8 / best / 1e6, best / reads * 1e6,
            decodes, rows / BcolzBench.CHUNKLEN, ahead, parts);
      }

      // repeated single element in a cached chunk
      origin[0] = 12345;
      shape[0] = 1;
      v.read(origin, shape);
      int n = 200_000;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        v.read(origin, shape);
      }
      double rep = (System.nanoTime() - t0) / 1e3 / n;
      long[] ns = new long[2000];
      for (int i = 0; i < ns.length; i++) {
        long s = System.nanoTime();
        v.read(origin, shape);
        ns[i] = System.nanoTime() - s;
      }
      Arrays.sort(ns);
      System.out.printf("repeated single-element read in a cached chunk: mean %.2f us over %d reads, median %.2f us%n", rep,
          n, ns[ns.length / 2] / 1e3);

      // cold random element reads versus one block decode alone
      byte[] out = new byte[h.nbytes()];
      long[] dec = new long[200];
      for (int i = 0; i < dec.length; i++) {
        byte[] ch = chunks[i % BcolzBench.DISTINCT];
        long s = System.nanoTime();
        Blosc.decompress(BloscHeader.parse(ch, 0, ch.length), ch, 0, out, 0, Blosc.configured());
        dec[i] = System.nanoTime() - s;
      }
      Arrays.sort(dec);
      Random rnd = new Random(5);
      long[] cold = new long[500];
      for (int i = 0; i < cold.length; i++) {
        cache.clear();
        origin[0] = (int) (rnd.nextDouble() * rows);
        long s = System.nanoTime();
        v.read(origin, shape);
        cold[i] = System.nanoTime() - s;
      }
      Arrays.sort(cold);
      System.out.printf("cold random single-element read: median %.1f us, p90 %.1f us; one block (%d KiB) decoded alone:"
          + " median %.1f us; difference %.1f us%n", cold[cold.length / 2] / 1e3, cold[cold.length * 9 / 10] / 1e3,
          h.blocksize() / 1024, dec[dec.length / 2] / 1e3, (cold[cold.length / 2] - dec[dec.length / 2]) / 1e3);
    }
    System.out.println("load average: " + String.join(" ", Files.readString(Paths.get("/proc/loadavg")).split(" ", 4)).trim()
        .replaceAll(" \\S+$", ""));
  }
}
