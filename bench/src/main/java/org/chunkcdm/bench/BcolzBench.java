package org.chunkcdm.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.CodecProbes;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.nativeblosc.JnaBlosc;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Whole read of a 1 GiB float64 bcolz carray through {@code Variable.read()} versus decoding the same chunks
 * with native c-blosc alone, in the same process; then single-element read latency and blocks decoded.
 * Usage: {@code bench/run-bcolz.sh [dir]} (writes the carray under dir, default /tmp/chunkcdm-bench); with a second
 * argument {@code write} it only writes the carray (when missing) and prints its path.
 */
public final class BcolzBench {
  static final long ROWS = 1L << 27; // 134,217,728 float64 = 1 GiB
  static final int CHUNKLEN = 1 << 17; // 1 MiB chunks, as bcolz chooses for large float64 carrays
  static final int DISTINCT = 32; // distinct chunk contents, repeated over the 1024 chunk files

  private BcolzBench() {}

  public static void main(String[] args) throws Exception {
    Path root = Paths.get(args.length > 0 ? args[0] : "/tmp/chunkcdm-bench");
    JnaBlosc nat = new JnaBlosc();
    if (!nat.isAvailable()) {
      throw new IllegalStateException("needs native c-blosc (apt-get install libblosc1): " + nat.version());
    }
    Path dir = root.resolve("big_float64.bcolz");
    byte[][] chunks = write(dir, nat);
    if (args.length > 1 && args[1].equals("write")) { // only make the carray (bench/run-coldstart.sh)
      System.out.println(dir);
      return;
    }
    int files = (int) (ROWS / CHUNKLEN);
    System.out.printf("carray: %s, %d rows float64 (%.2f GiB), %d chunk files of %d rows, lz4 clevel 5 byte shuffle%n", dir,
        ROWS, ROWS * 8 / (double) (1L << 30), files, CHUNKLEN);
    long comp = 0;
    for (int c = 0; c < files; c++) {
      comp += chunks[c % DISTINCT].length;
    }
    System.out.printf("compression ratio %.2f%n", ROWS * 8.0 / comp);
    double nativeAlone = decodeAlone(chunks, files);
    wholeReads(dir, nativeAlone);
    singleElementReads(dir, chunks);
  }

  /** Decodes every chunk in memory with native c-blosc and with the pure-Java decoder; the native time. */
  private static double decodeAlone(byte[][] chunks, int files) throws Exception {
    byte[] out = new byte[CHUNKLEN * 8];
    double nativeAlone = best(3, () -> {
      for (int c = 0; c < files; c++) {
        byte[] ch = chunks[c % DISTINCT];
        Blosc.decompress(BloscHeader.parse(ch, 0, ch.length), ch, 0, out, 0, Blosc.Impl.NATIVE);
      }
    });
    double javaAlone = best(3, () -> {
      for (int c = 0; c < files; c++) {
        byte[] ch = chunks[c % DISTINCT];
        Blosc.decompress(BloscHeader.parse(ch, 0, ch.length), ch, 0, out, 0, Blosc.Impl.JAVA);
      }
    });
    System.out.printf("native c-blosc decode alone, 1 thread, chunks in memory: %.2f s = %.0f MB/s%n", nativeAlone,
        ROWS * 8 / nativeAlone / 1e6);
    System.out.printf("pure-Java decode alone, 1 thread, chunks in memory:      %.2f s = %.0f MB/s%n", javaAlone,
        ROWS * 8 / javaAlone / 1e6);
    return nativeAlone;
  }

  /** {@code Variable.read()} of the whole carray with the pure-Java and the automatic decoder. */
  private static void wholeReads(Path dir, double nativeAlone) throws Exception {
    for (String impl : new String[] {"java", "auto"}) {
      System.setProperty("chunkcdm.blosc", impl);
      double t = best(7, () -> { // the first rounds warm up the JIT (several seconds for the pure-Java decoder)
        try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
          Variable v = nc.findVariable("big_float64");
          v.setCaching(false);
          Array a = v.read();
          if (a.getSize() != ROWS) {
            throw new IllegalStateException("read " + a.getSize());
          }
        }
      });
      System.out.printf("Variable.read() of the whole carray, decoder %s (%d decode threads): %.2f s = %.0f MB/s = %.2f x native decode alone%n",
          impl, Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()), t,
          ROWS * 8 / t / 1e6, nativeAlone / t);
    }
    System.clearProperty("chunkcdm.blosc");
  }

  /** Latency of random single-element reads, chunks touched and Blosc blocks decoded per read. */
  private static void singleElementReads(Path dir, byte[][] chunks) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.findVariable("big_float64");
      v.setCaching(false);
      Random rnd = new Random(3);
      int n = 2000;
      long[] ns = new long[n];
      long blocks0 = CodecProbes.blocksDecoded();
      long touched0 = SectionReader.chunksTouched();
      ChunkCache.shared().clear();
      for (int i = 0; i < n; i++) {
        int row = (int) (rnd.nextDouble() * ROWS);
        long t0 = System.nanoTime();
        Array a = v.read(new Section(new int[] {row}, new int[] {1}));
        ns[i] = System.nanoTime() - t0;
        if (a.getSize() != 1) {
          throw new IllegalStateException();
        }
      }
      Arrays.sort(ns);
      BloscHeader h = BloscHeader.parse(chunks[0], 0, chunks[0].length);
      System.out.printf("single-element reads (%d random rows): median %.1f us, p90 %.1f us; chunks touched per read %.2f,"
          + " Blosc blocks decoded per read %.2f (block = %d KiB of a %d KiB chunk)%n", n, ns[n / 2] / 1e3, ns[n * 9 / 10] / 1e3,
          (SectionReader.chunksTouched() - touched0) / (double) n, (CodecProbes.blocksDecoded() - blocks0) / (double) n,
          h.blocksize() / 1024, h.nbytes() / 1024);
    }
  }

  interface Body {
    void run() throws Exception;
  }

  /** Best wall time of {@code reps} runs, in seconds. */
  static double best(int reps, Body b) throws Exception {
    double best = Double.MAX_VALUE;
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      b.run();
      best = Math.min(best, (System.nanoTime() - t0) / 1e9);
    }
    return best;
  }

  /** Writes the carray (once; reused when present) and returns the distinct compressed chunks. */
  static byte[][] write(Path dir, JnaBlosc nat) throws Exception {
    byte[][] chunks = new byte[DISTINCT][];
    Random rnd = new Random(11);
    for (int d = 0; d < DISTINCT; d++) {
      ByteBuffer b = ByteBuffer.allocate(CHUNKLEN * 8).order(ByteOrder.LITTLE_ENDIAN);
      for (int r = 0; r < CHUNKLEN; r++) {
        double t = (d * (double) CHUNKLEN + r) * 1e-3;
        // temperature-like: smooth signal with values stored to 2 decimals
        b.putDouble(Math.round((15 + 10 * Math.sin(t * 0.01) + 2 * Math.sin(t) + rnd.nextGaussian() * 0.1) * 100) / 100.0);
      }
      chunks[d] = nat.compress(b.array(), 5, 1, 8, "lz4", 0);
    }
    int files = (int) (ROWS / CHUNKLEN);
    Path marker = dir.resolve("data/__" + (files - 1) + ".blp");
    if (Files.isRegularFile(marker)) {
      return chunks;
    }
    Files.createDirectories(dir.resolve("meta"));
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("meta/sizes"), "{\"shape\": [" + ROWS + "], \"nbytes\": " + ROWS * 8 + ", \"cbytes\": 0}\n");
    Files.writeString(dir.resolve("meta/storage"), "{\"dtype\": \"float64\", \"cparams\": {\"clevel\": 5, \"shuffle\": 1, "
        + "\"cname\": \"lz4\", \"quantize\": 0}, \"chunklen\": " + CHUNKLEN + ", \"expectedlen\": " + ROWS + ", \"dflt\": 0.0}\n");
    Files.writeString(dir.resolve("__attrs__"), "{}\n");
    byte[] head = {0x62, 0x6c, 0x70, 0x6b, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (int c = 0; c < files; c++) {
      byte[] ch = chunks[c % DISTINCT];
      byte[] f = new byte[16 + ch.length];
      System.arraycopy(head, 0, f, 0, 16);
      System.arraycopy(ch, 0, f, 16, ch.length);
      Files.write(dir.resolve("data/__" + c + ".blp"), f);
    }
    return chunks;
  }
}
