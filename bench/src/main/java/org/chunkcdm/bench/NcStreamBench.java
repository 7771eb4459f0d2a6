package org.chunkcdm.bench;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.ncstream.NcStreamOut;
import org.chunkcdm.nativeblosc.JnaBlosc;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamWriter;

/**
 * The 1 GiB float64 lz4 bcolz carray of {@link BcolzBench} written to a file on one disk three ways, in one JVM
 * (run it with {@code -Xmx256m}), rounds interleaved: chunkcdm's {@link NcStreamOut#writeAll} (1 MiB
 * chunk-aligned messages in the chunks' byte order, the default; once more with 4 MiB messages), netcdf-java's {@code new NcStreamWriter(nc, loc).streamAll}
 * (what a THREDDS cdmremote request ends in), and the raw decoded bytes (decoded once into memory before the
 * rounds, 4 MiB at a time: the same bytes, only the write is timed; the reference is the faster of two raw
 * writes, through a FileChannel and through a FileOutputStream); plus NcStreamOut into a discarding stream
 * (reading and decoding alone, the floor of any writer of this data). Times include closing the file; a second
 * table adds {@code fsync}. Before each timed write, {@code sync} flushes the dirty pages of earlier rounds, the
 * shared decoded-chunk cache is emptied, and
 * the writers take turns in a rotating order. Heap: the peak of the heap pools during a writer's rounds (what G1
 * let grow before collecting: bounded by -Xmx, not the live set). {@code min-heap WRITER} as the second argument
 * writes once to a discarding stream and exits 0 (run-ncstream.sh tries decreasing -Xmx with it).
 *
 * Every file is written through a {@code FileChannel} stream (as {@code chunkcdm convert} writes), plus the raw
 * bytes once more through a {@code FileOutputStream}; each row also gives the least process CPU time of its
 * rounds, and the run ends with the CPU floor of any decoding writer: (decode CPU + raw write CPU) / cores.
 *
 * <p>Usage: {@code bench/run-ncstream.sh [dir [rounds [outdir]]]} (the carray under dir, default
 * /tmp/chunkcdm-bench; the outputs under outdir, default dir).
 */
public final class NcStreamBench {
  private NcStreamBench() {}

  static final String RAW = "raw decoded bytes";
  static final String RAW_FOS = "raw decoded bytes through a FileOutputStream";
  static final String NCS = "chunkcdm NcStreamOut";
  static final String NULL = "chunkcdm NcStreamOut to a discarding stream (no file: read + decode only)";
  static final String NCW = "netcdf-java NcStreamWriter.streamAll";
  static final String NCS4 = "chunkcdm NcStreamOut, 4 MiB messages";
  static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  interface Writer {
    void write(Path out, boolean sync) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path root = Paths.get(args.length > 0 ? args[0] : "/tmp/chunkcdm-bench");
    if (args.length > 2 && args[1].equals("min-heap")) {
      minHeap(root.resolve("big_float64.bcolz"), args[2]);
      return;
    }
    if (args.length > 2 && args[1].equals("floor")) { // NcStreamOut into a discarding stream with a message bound
      for (int r = 0; r < 5; r++) {
        try (NetcdfFile nc = NetcdfFiles.open(root.resolve("big_float64.bcolz").toString())) {
          long t0 = System.nanoTime();
          new NcStreamOut(OutputStream.nullOutputStream(), NcStreamOut.Options.defaults().messageBytes(Long.parseLong(args[2])))
              .writeAll(nc, "bench", null);
          System.out.printf(Locale.ROOT, "messageBytes %s: %.3f s%n", args[2], (System.nanoTime() - t0) / 1e9);
          Variable v = nc.getVariables().get(0);
          int rows = (int) (Long.parseLong(args[2]) / 8);
          t0 = System.nanoTime();
          for (long r0 = 0; r0 < BcolzBench.ROWS; r0 += rows) {
            v.read(new Section(new int[] {(int) r0}, new int[] {(int) Math.min(rows, BcolzBench.ROWS - r0)}));
          }
          System.out.printf(Locale.ROOT, "Variable.read in pieces of %s bytes: %.3f s%n", args[2], (System.nanoTime() - t0) / 1e9);
        }
      }
      return;
    }
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path outDir = Paths.get(args.length > 2 ? args[2] : root.toString());
    Files.createDirectories(outDir);
    JnaBlosc nat = new JnaBlosc();
    if (!nat.isAvailable()) {
      throw new IllegalStateException("needs native c-blosc to make the carray (apt-get install libblosc1)");
    }
    Path dir = root.resolve("big_float64.bcolz");
    BcolzBench.write(dir, nat);
    long bytes = BcolzBench.ROWS * 8;
    System.out.printf(Locale.ROOT, "carray %s: %d float64 (%.2f GiB), 1 MiB lz4 chunks; JVM max heap %d MiB, %d decode threads%n",
        dir, BcolzBench.ROWS, bytes / (double) (1L << 30), Runtime.getRuntime().maxMemory() >> 20,
        Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()));

    // the raw decoded bytes, in 4 MiB pieces: 1 GiB does not fit a 256 MiB heap, so the raw writer writes one
    // decoded 4 MiB piece per distinct chunk content (BcolzBench repeats 32 contents), the same bytes the file holds
    int piece = 4 << 20;
    List<byte[]> pieces = new ArrayList<>();
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.getVariables().get(0);
      int rowsPerPiece = piece / 8;
      for (int i = 0; i < 8; i++) { // 8 pieces x 4 chunks = the 32 distinct chunks
        Array a = v.read(new Section(new int[] {i * rowsPerPiece}, new int[] {rowsPerPiece}));
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(piece).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        bb.asDoubleBuffer().put((double[]) a.get1DJavaArray(ucar.ma2.DataType.DOUBLE));
        pieces.add(bb.array());
      }
    }
    Map<String, Writer> writers = new LinkedHashMap<>();
    // every file writer writes through a FileChannel (Files.newOutputStream, as chunkcdm convert does): the JDK
    // copies heap bytes into a cached direct buffer. A FileOutputStream instead mallocs a native buffer for every
    // write over 8 KiB (page faults on each 4 MiB write); it is kept as a second raw row, for comparison.
    writers.put(RAW, (out, sync) -> {
      try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream fo = Channels.newOutputStream(ch)) {
        for (long done = 0, i = 0; done < bytes; done += piece, i++) {
          fo.write(pieces.get((int) (i % pieces.size())));
        }
        if (sync) {
          ch.force(true);
        }
      }
    });
    writers.put(RAW_FOS, (out, sync) -> {
      try (FileOutputStream fo = new FileOutputStream(out.toFile())) {
        for (long done = 0, i = 0; done < bytes; done += piece, i++) {
          fo.write(pieces.get((int) (i % pieces.size())));
        }
        if (sync) {
          fo.getFD().sync();
        }
      }
    });
    writers.put(NCS, (out, sync) -> {
      try (NetcdfFile nc = NetcdfFiles.open(dir.toString());
          FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream o = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
        new NcStreamOut(o).writeAll(nc, "bench", null);
        o.flush();
        if (sync) {
          ch.force(true);
        }
      }
    });
    writers.put(NCS4, (out, sync) -> {
      try (NetcdfFile nc = NetcdfFiles.open(dir.toString());
          FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream o = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
        new NcStreamOut(o, NcStreamOut.Options.defaults().messageBytes(4 << 20)).writeAll(nc, "bench", null);
        o.flush();
        if (sync) {
          ch.force(true);
        }
      }
    });
    writers.put(NULL, (out, sync) -> {
      try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
        new NcStreamOut(OutputStream.nullOutputStream()).writeAll(nc, "bench", null);
      }
      Files.write(out, new byte[0]);
    });
    writers.put(NCW, (out, sync) -> {
      try (NetcdfFile nc = NetcdfFiles.open(dir.toString());
          FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream o = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16)) {
        new NcStreamWriter(nc, "bench").streamAll(o);
        o.flush();
        if (sync) {
          ch.force(true);
        }
      }
    });

    for (boolean sync : new boolean[] {false, true}) {
      Map<String, Double> best = new LinkedHashMap<>();
      Map<String, Double> cpu = new LinkedHashMap<>();
      Map<String, List<Double>> all = new LinkedHashMap<>();
      Map<String, Long> heap = new LinkedHashMap<>();
      Map<String, Long> size = new LinkedHashMap<>();
      List<Map.Entry<String, Writer>> order = new ArrayList<>(writers.entrySet());
      for (int r = 0; r < rounds + 1; r++) { // round 0 warms up the JIT and the page cache of the input
        java.util.Collections.rotate(order, 1);
        for (Map.Entry<String, Writer> w : order) {
          Path out = outDir.resolve("ncstream-bench.out");
          Files.deleteIfExists(out);
          new ProcessBuilder("sync").inheritIO().start().waitFor();
          ChunkCache.shared().clear(); // every writer starts with an empty decoded-chunk cache
          System.gc();
          resetPeaks();
          long c0 = OS.getProcessCpuTime();
          long t0 = System.nanoTime();
          w.getValue().write(out, sync);
          double s = (System.nanoTime() - t0) / 1e9;
          double c = (OS.getProcessCpuTime() - c0) / 1e9;
          long peak = peakHeap();

          size.put(w.getKey(), Files.size(out));
          Files.delete(out);
          if (r > 0) {
            best.merge(w.getKey(), s, Math::min);
            cpu.merge(w.getKey(), c, Math::min);
            all.computeIfAbsent(w.getKey(), k -> new ArrayList<>()).add(s);
            heap.merge(w.getKey(), peak, Math::max);
          }
        }
      }
      // the reference: the faster of the two raw writes (on this machine a 4 MiB heap write through a FileChannel
      // is sometimes far slower in the kernel, in no pattern found; the FileOutputStream row is steadier)
      double raw = Math.min(best.get(RAW), best.get(RAW_FOS));
      double rawCpu = Math.min(cpu.get(RAW), cpu.get(RAW_FOS));
      double ncw = best.get(NCW);
      System.out.printf(Locale.ROOT, "%n%s, best of %d rounds (load average %.2f at the end):%n",
          sync ? "with fsync" : "to the page cache (no fsync)", rounds, OS.getSystemLoadAverage());
      System.out.printf(Locale.ROOT, "| writer | file bytes | time s (best) | median s | MB/s | time vs raw write | speed vs NcStreamWriter | process CPU s (least) | heap pools peak MiB |%n");
      System.out.printf(Locale.ROOT, "|---|---:|---:|---:|---:|---:|---:|---:|---:|%n");
      for (String k : writers.keySet()) {
        double t = best.get(k);
        List<Double> ts = all.get(k);
        java.util.Collections.sort(ts);
        System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.0f | %.2fx | %.2fx | %.2f | %d |%n", k, size.get(k), t,
            ts.get(ts.size() / 2), bytes / t / 1e6, t / raw, ncw / t, cpu.get(k), heap.get(k) >> 20);
      }
      // the floor on this machine: decoding (the discarding row) and writing (the raw row) need at least their
      // CPU time together, spread over every core
      double floor = (cpu.get(NULL) + rawCpu) / Runtime.getRuntime().availableProcessors();
      System.out.printf(Locale.ROOT, "CPU floor of any decoding writer: (decode CPU %.2f s + raw write CPU %.2f s) / %d cores = %.2f s"
          + " = %.2fx the raw write; NcStreamOut %.2fx that floor%n", cpu.get(NULL), rawCpu,
          Runtime.getRuntime().availableProcessors(), floor, floor / raw, best.get(NCS) / floor);
      System.out.printf(Locale.ROOT, "NcStreamOut (best times): %.2fx the raw write (target <= 1.5x), %.2fx as fast as"
          + " NcStreamWriter (target >= 3x)%n", best.get(NCS) / raw, ncw / best.get(NCS));
    }
  }

  /** One write of the carray by {@code which} (ncstreamout | ncstreamwriter) to a discarding stream. */
  static void minHeap(Path dir, String which) throws Exception {
    OutputStream sink = OutputStream.nullOutputStream();
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      if (which.equals("ncstreamout")) {
        new NcStreamOut(sink).writeAll(nc, "bench", null);
      } else {
        new NcStreamWriter(nc, "bench").streamAll(sink);
      }
    }
  }

  static void resetPeaks() {
    for (MemoryPoolMXBean m : ManagementFactory.getMemoryPoolMXBeans()) {
      if (m.getType() == MemoryType.HEAP) {
        m.resetPeakUsage();
      }
    }
  }

  static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean m : ManagementFactory.getMemoryPoolMXBeans()) {
      if (m.getType() == MemoryType.HEAP) {
        peak += m.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
