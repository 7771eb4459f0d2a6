package org.chunkcdm.bench;

import org.chunkcdm.chunk.ChunkProbes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
 * Small reads of the 1 GiB float64 lz4 carray of {@link BcolzBench}: a front-to-back scan through
 * {@code Variable.read(origin, shape)} in consecutive pieces of 65,536, 8,192 and 1,024 elements, a repeated
 * single-element read in a cached chunk, and cold random single-element reads (each in a chunk not read before)
 * next to the decode of the block each needs, alone from memory, and the floor of fetching its stored bytes. Prints the shared cache's decode counters per scan. Also writes the 32
 * distinct decoded chunks to {@code dir/distinct_chunks.f64} for bench/scan_netcdf4.py, which builds the same
 * values as NetCDF-4 and scans them with netCDF4-python. Usage: {@code bench/run-scan.sh [dir]}.
 */
public final class ScanBench {
  private ScanBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("scatter")) {
      scatter(Paths.get(args[1]), args[2], args.length > 3 ? Integer.parseInt(args[3]) : 3);
      return;
    }
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
    Path frame = root.resolve("big_float64.b2nd");
    if (!Files.isRegularFile(frame)) {
      writeFrame(frame, chunks);
    }
    String what = args.length > 3 ? args[3] : "whole,scan,point,cold";
    for (String which : (args.length > 2 ? args[2] : "bcolz,b2nd").split(",")) {
      if (which.equals("bcolz")) {
        measure("bcolz carray", dir, chunks, h, rounds, what);
      } else {
        measure("b2nd frame (the same Blosc chunks in a Blosc2 frame)", frame, chunks, h, rounds, what);
      }
    }
    System.out.println("load average: " + String.join(" ", Files.readString(Paths.get("/proc/loadavg")).split(" ", 4)).trim()
        .replaceAll(" \\S+$", ""));
  }

  static void measure(String label, Path path, byte[][] chunks, BloscHeader h, int rounds, String what)
      throws Exception {
    long rows = BcolzBench.ROWS;
    ChunkCache cache = ChunkCache.shared();
    try (NetcdfFile nc = NetcdfFiles.open(path.toString())) {
      System.out.println("--- " + label + ": " + path);
      Variable v = nc.findVariable("big_float64");
      v.setCaching(false);
      int[] origin = new int[1];
      int[] shape = new int[1];
      double whole = Double.MAX_VALUE;
      for (int r = 0; r < rounds + 1 && what.contains("whole"); r++) { // the ceiling: the whole variable in one read, chunks decoded in parallel
        cache.clear();
        long t0 = System.nanoTime();
        Array a = v.read();
        whole = Math.min(whole, (System.nanoTime() - t0) / 1e9);
        if (a.getSize() != rows) {
          throw new IllegalStateException("read " + a.getSize());
        }
      }
      if (what.contains("whole")) System.out.printf("whole Variable.read() (reference ceiling): %.2f s = %.0f MB/s%n", whole, rows * 8 / whole / 1e6);
      for (int piece : what.contains("scan") ? new int[] {65536, 8192, 1024} : new int[0]) {
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

      shape[0] = 1;
      if (what.contains("point")) { // repeated single element in a cached chunk
      origin[0] = 12345;
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
      }
      if (!what.contains("cold")) {
        return;
      }

      // Cold random element reads against the decode of the block that read needs, from memory, in the same run,
      // interleaved (decode, fetch, read, decode, fetch, read, ...). The decode is the same codec call the read
      // makes (Blosc.configured()) on the same stored content (chunk k of the carray is distinct chunk k % 32) into
      // a reused array: a whole-chunk decode when the chunk is one block, else the block's range alone. "fetch" is
      // the floor of getting the stored bytes: a positional read of the chunk's compressed size from the same file
      // (bcolz: the chunk's file) into a reused heap array, as FileChannel does it (kernel copy into a temporary
      // direct buffer, then into the array).
      byte[] out = new byte[h.nbytes()];
      byte[] fetched = new byte[2 * h.nbytes() + 4096];
      Random rnd = new Random(5);
      int coldReads = Integer.getInteger("scan.coldReads", 500);
      long[] dec = new long[coldReads];
      long[] cold = new long[coldReads];
      long[] fetch = new long[coldReads];
      boolean bcolz = Files.isDirectory(path);
      // each read in a chunk no read before touched (a random order of the chunks): cold like a long-running
      // server's point read, whose cache holds other chunks, without clearing the cache (which would also drop
      // what the cache keeps for reuse)
      int nchunks = (int) (rows / BcolzBench.CHUNKLEN);
      int[] order = new int[nchunks];
      for (int i = 0; i < nchunks; i++) {
        order[i] = i;
      }
      for (int i = nchunks - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      cache.clear();
      // the first cold reads (in chunks of their own) only warm the JIT up, so that a run of this part alone
      // ("... cold") measures what a run after the scans does
      int warm = Integer.getInteger("scan.coldWarmup", 100);
      if (coldReads + warm > nchunks) {
        throw new IllegalArgumentException("at most " + nchunks + " cold reads and warm-up reads");
      }
      for (int i = 0; i < warm; i++) {
        origin[0] = (int) (order[nchunks - 1 - i] * (long) BcolzBench.CHUNKLEN + rnd.nextInt(BcolzBench.CHUNKLEN));
        v.read(origin, shape);
      }
      long reused0 = counter("org.chunkcdm.chunk.FetchBuffers", "REUSED", null);
      long alloc0 = counter("org.chunkcdm.chunk.FetchBuffers", "ALLOCATED", null);
      long partsReused0 = counter(null, "partBuffersReused", cache);
      long parts0 = cache.partDecodes();
      long whole0 = cache.chunkDecodes();
      try (FileChannel frameCh = bcolz ? null : FileChannel.open(path, StandardOpenOption.READ)) {
        for (int i = 0; i < cold.length; i++) {
          origin[0] = (int) (order[i] * (long) BcolzBench.CHUNKLEN + rnd.nextInt(BcolzBench.CHUNKLEN));
          long k = origin[0] / BcolzBench.CHUNKLEN;
          byte[] ch = chunks[(int) (k % BcolzBench.DISTINCT)];
          BloscHeader hk = BloscHeader.parse(ch, 0, ch.length);
          long s = System.nanoTime();
          if (hk.nblocks() <= 1) {
            Blosc.decompress(BloscHeader.parse(ch, 0, ch.length), ch, 0, out, 0, Blosc.configured());
          } else {
            int bs = hk.blocksize();
            int at = (int) (origin[0] % BcolzBench.CHUNKLEN) * 8 / bs * bs;
            Blosc.decompressRange(ch, 0, ch.length, at, Math.min(bs, hk.nbytes() - at), out, 0);
          }
          dec[i] = System.nanoTime() - s;
          long kk = (long) (rnd.nextDouble() * (rows / BcolzBench.CHUNKLEN));
          s = System.nanoTime();
          if (bcolz) {
            try (FileChannel c = FileChannel.open(path.resolve("data").resolve("__" + kk + ".blp"), StandardOpenOption.READ)) {
              s = System.nanoTime(); // the open is not part of a read through open handles
              readAt(c, fetched, 0, (int) c.size());
            }
          } else {
            readAt(frameCh, fetched, kk * ((frameCh.size() - ch.length) / (rows / BcolzBench.CHUNKLEN)), ch.length);
          }
          fetch[i] = System.nanoTime() - s;
          s = System.nanoTime();
          v.read(origin, shape);
          cold[i] = System.nanoTime() - s;
        }
      }
      long parts = cache.partDecodes() - parts0;
      long wholes = cache.chunkDecodes() - whole0;
      Arrays.sort(dec);
      Arrays.sort(cold);
      Arrays.sort(fetch);
      System.out.printf("cold random single-element read: median %.1f us, p90 %.1f us; the block it needs (%d KiB) decoded"
          + " alone from memory: median %.1f us; difference %.1f us (fetch floor, the stored bytes read into a reused array:"
          + " median %.1f us); %d reads decoded %d blocks and %d whole chunks; fetch buffers reused %d, allocated %d;"
          + " decoded-block arrays reused %d%n",
          cold[cold.length / 2] / 1e3, cold[cold.length * 9 / 10] / 1e3, h.blocksize() / 1024, dec[dec.length / 2] / 1e3,
          (cold[cold.length / 2] - dec[dec.length / 2]) / 1e3, fetch[fetch.length / 2] / 1e3, cold.length, parts, wholes,
          counter("org.chunkcdm.chunk.FetchBuffers", "REUSED", null) - reused0,
          counter("org.chunkcdm.chunk.FetchBuffers", "ALLOCATED", null) - alloc0,
          counter(null, "partBuffersReused", cache) - partsReused0);
    }
  }

  /**
   * A counter read by reflection (a static LongAdder field, or a long method of {@code on}), -1 when this build has
   * none: the same bench class then runs against an older build for before/after comparisons.
   */
  static long counter(String cls, String name, Object on) {
    try {
      if (on != null) {
        return (Long) on.getClass().getMethod(name).invoke(on);
      }
      return ((java.util.concurrent.atomic.LongAdder) Class.forName(cls).getField(name).get(null)).sum();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }

  private static void readAt(FileChannel c, byte[] dst, long pos, int len) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(dst, 0, len);
    while (bb.hasRemaining()) {
      if (c.read(bb, pos + bb.position()) < 0) {
        throw new IOException("short file");
      }
    }
  }

  /**
   * Whole {@code Variable.read()} of an N-d variable whose chunks land in several pieces of the result (e.g. the
   * HDF5 file of bench/run-hdf5blosc.sh with HDF5BLOSC_CHUNKS=8,256,256), interleaved in one JVM: chunks
   * scattered straight from the decode into the result (the default) against the path through the cache
   * ({@code ChunkProbes.setScatterBytes(Long.MAX_VALUE)}, how every such chunk was read before). Usage:
   * {@code ScanBench scatter <file> <variable> [rounds]}.
   */
  static void scatter(Path file, String var, int rounds) throws Exception {
    org.chunkcdm.hdf5blosc.H5BloscIosp.register();
    ChunkCache cache = ChunkCache.shared();
    long dflt = ChunkProbes.setScatterBytes(Long.MAX_VALUE);
    ChunkProbes.setScatterBytes(dflt);
    double[][] t = new double[2][rounds];
    String[] names = {"scatter", "through the cache"};
    double[] sums = new double[2];
    for (int r = -1; r < rounds; r++) { // round -1 warms up
      for (int m = 0; m < 2; m++) {
        ChunkProbes.setScatterBytes(m == 0 ? dflt : Long.MAX_VALUE);
        cache.clear();
        long d0 = cache.chunkDecodes();
        long s0 = ChunkProbes.scattered();
        long t0 = System.nanoTime();
        long n;
        double sum = 0;
        try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
          Variable v = nc.findVariable(var);
          Array a = v.read();
          double sec = (System.nanoTime() - t0) / 1e9;
          n = a.getSize();
          double[] d = (double[]) a.getStorage();
          for (int i = 0; i < d.length; i += 4099) {
            sum += d[i];
          }
          if (r >= 0) {
            t[m][r] = sec;
          }
          System.out.printf("%s round %d: %.3f s = %.0f MB/s, chunks decoded %d, scattered %d, iosp %s, checksum %.6e%n",
              names[m], r, sec, n * 8 / sec / 1e6, cache.chunkDecodes() - d0,
              ChunkProbes.scattered() - s0, nc.getIosp().getClass().getSimpleName(), sum);
        }
        sums[m] = sum;
        System.gc();
      }
    }
    ChunkProbes.setScatterBytes(dflt);
    if (sums[0] != sums[1]) {
      throw new IllegalStateException("the two paths read different values");
    }
    double[] best = new double[2];
    for (int m = 0; m < 2; m++) {
      best[m] = Arrays.stream(t[m]).min().getAsDouble();
    }
    System.out.printf("best of %d: scatter %.3f s, through the cache %.3f s: scatter is %.2fx as fast; load average %s%n",
        rounds, best[0], best[1], best[1] / best[0], Files.readString(Paths.get("/proc/loadavg")).trim());
  }

  /**
   * A contiguous Blosc2 frame with the b2nd metalayer (1-D, float64) holding the carray's chunks: each Blosc 1
   * chunk rewritten with the 32-byte Blosc2 header (same streams, block offsets moved by 16).
   */
  static void writeFrame(Path file, byte[][] chunks) throws IOException {
    int n = (int) (BcolzBench.ROWS / BcolzBench.CHUNKLEN);
    byte[][] b2 = new byte[chunks.length][];
    for (int d = 0; d < chunks.length; d++) {
      b2[d] = toBlosc2(chunks[d]);
    }
    BloscHeader h = BloscHeader.parse(chunks[0], 0, chunks[0].length);
    byte[] meta = B2ndBench.b2ndMeta(new long[] {BcolzBench.ROWS}, new int[] {BcolzBench.CHUNKLEN},
        new int[] {h.blocksize() / 8}, "<f8");
    byte[] header = B2ndBench.header(meta, 0, 0, BcolzBench.ROWS * 8, 8, h.blocksize(), BcolzBench.CHUNKLEN * 8, 0x51);
    long[] offsets = new long[n];
    long pos = header.length;
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (int k = 0; k < n; k++) {
        byte[] c = b2[k % b2.length];
        offsets[k] = pos - header.length;
        B2ndBench.writeFully(ch, ByteBuffer.wrap(c), pos);
        pos += c.length;
      }
      long cbytes = pos - header.length;
      ByteBuffer index = ByteBuffer.allocate(32 + 8 * n).order(ByteOrder.LITTLE_ENDIAN);
      B2ndBench.chunkHeader(index, 0x07, 8, 8 * n, 8 * n, 32 + 8 * n, 0, 0); // memcpyed
      for (long o : offsets) {
        index.putLong(o);
      }
      index.flip();
      B2ndBench.writeFully(ch, index, pos);
      pos += 32 + 8L * n;
      ByteBuffer trailer = ByteBuffer.allocate(35); // big-endian msgpack
      trailer.put((byte) 0x94).put((byte) 0x01);
      trailer.put((byte) 0x93).put((byte) 0xcd).putShort((short) 6).put((byte) 0xde).putShort((short) 0)
          .put((byte) 0xdc).putShort((short) 0);
      trailer.put((byte) 0xce).putInt(35);
      trailer.put((byte) 0xd8).put((byte) 0).put(new byte[16]);
      trailer.flip();
      B2ndBench.writeFully(ch, trailer, pos);
      pos += 35;
      B2ndBench.writeFully(ch, ByteBuffer.wrap(B2ndBench.header(meta, pos, cbytes, BcolzBench.ROWS * 8, 8, h.blocksize(),
          BcolzBench.CHUNKLEN * 8, 0x51)), 0);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /** A Blosc 1 chunk (shuffle or not, split streams, lz4) with the Blosc2 extended header. */
  static byte[] toBlosc2(byte[] c1) throws IOException {
    BloscHeader h = BloscHeader.parse(c1, 0, c1.length);
    int flags1 = c1[2] & 0xff;
    if ((flags1 & 0x02) != 0 || h.compressor() == null) {
      throw new IOException("only compressed Blosc 1 chunks are rewritten");
    }
    int nblocks = h.nblocks();
    ByteBuffer out = ByteBuffer.allocate(c1.length + 16).order(ByteOrder.LITTLE_ENDIAN);
    int shuffle = (flags1 & 0x01) != 0 ? 1 : (flags1 & 0x04) != 0 ? 2 : 0;
    int format = flags1 >> 5;
    int codecId = format == 1 ? 1 : format == 0 ? 0 : format == 3 ? 4 : format == 4 ? 5 : -1; // lz4, blosclz, zlib, zstd
    if (codecId < 0) {
      throw new IOException("codec format " + format + " not rewritten");
    }
    B2ndBench.chunkHeader(out, (flags1 & 0xf0) | 0x05, h.typesize(), h.nbytes(), h.blocksize(), c1.length + 16, shuffle,
        codecId);
    ByteBuffer in = ByteBuffer.wrap(c1).order(ByteOrder.LITTLE_ENDIAN);
    for (int b = 0; b < nblocks; b++) {
      out.putInt(in.getInt(16 + 4 * b) + 16);
    }
    out.put(c1, 16 + 4 * nblocks, c1.length - 16 - 4 * nblocks);
    return out.array();
  }
}
