package org.chunkcdm.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Java side of {@code bench/run-blosc2.sh} (never run by {@code mvn verify}).
 *
 * <ul>
 *   <li>{@code time DIR SECONDS NAME...}: pure-Java decode speed of each chunk set written by
 *       {@code bench/blosc2/b2bench.py write} (one thread when run with {@code -Dchunkcdm.decode.threads=1}); prints "NAME GB/s", the best pass over the set within
 *       SECONDS after one second of warm-up; every chunk is checked against the first pass's bytes.
 *   <li>{@code streams DIR SECONDS NAME...}: the codec alone on the compressed streams inside the chunks
 *       (aircompressor's, the system liblz4's (JNA) and our LZ4 for lz4 sets, java.util.zip's and our
 *       {@code Inflate} for the others).
 *   <li>{@code copy DIR SECONDS NAME...}: the floor of a set whose chunks c-blosc2 stored raw ("memcpyed"):
 *       {@code System.arraycopy} of each chunk's data bytes into the same 1 MiB destination, nothing else (GB/s;
 *       b2bench.py's {@code memcpy} is the C side of it).
 *   <li>{@code read DIR ROUNDS NAME...}: seconds of {@code Variable.read()} of DIR/NAME.b2nd, best of ROUNDS.
 * </ul>
 */
public final class Blosc2CodecBench {
  private Blosc2CodecBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[1]);
    List<String> names = List.of(args).subList(3, args.length);
    if (args[0].equals("time")) {
      double seconds = Double.parseDouble(args[2]);
      for (String name : names) {
        System.out.printf("%s %.3f%n", name, time(dir.resolve(name + ".chunks"), seconds));
        System.out.flush();
      }
    } else if (args[0].equals("streams")) {
      double seconds = Double.parseDouble(args[2]);
      for (String name : names) {
        for (String impl : name.startsWith("lz4") ? new String[] {"aircompressor", "liblz4", "chunkcdm"}
            : new String[] {"java.util.zip", "chunkcdm-inflate"}) {
          System.out.printf("%s %s %.3f%n", name, impl, streamsOnly(dir.resolve(name + ".chunks"), seconds, impl));
        }
        System.out.flush();
      }
    } else if (args[0].equals("copy")) {
      double seconds = Double.parseDouble(args[2]);
      for (String name : names) {
        System.out.printf("%s %.3f%n", name, copyOnly(dir.resolve(name + ".chunks"), seconds));
        System.out.flush();
      }
    } else if (args[0].equals("read")) {
      int rounds = Integer.parseInt(args[2]);
      for (String name : names) {
        System.out.printf("%s %.3f%n", name, read(dir.resolve(name.replace('-', '_') + ".b2nd"), rounds));
        System.out.flush();
      }
    } else {
      throw new IllegalArgumentException(
          "usage: time DIR SECONDS NAME... | streams DIR SECONDS NAME... | copy DIR SECONDS NAME... | read DIR ROUNDS NAME...");
    }
  }

  /**
   * The chunks of a set file (each a 4-byte little-endian length, then the chunk), their headers, decoded bytes
   * (also WholeReadBench's decode mode).
   */
  record ChunkSet(List<byte[]> chunks, List<BloscHeader> headers, long total) {
    static ChunkSet load(Path file) throws IOException {
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
      List<byte[]> chunks = new ArrayList<>();
      List<BloscHeader> headers = new ArrayList<>();
      long total = 0;
      while (b.hasRemaining()) {
        byte[] c = new byte[b.getInt()];
        b.get(c);
        chunks.add(c);
        BloscHeader h = BloscHeader.parse(c, 0, c.length);
        headers.add(h);
        total += h.nbytes();
      }
      return new ChunkSet(chunks, headers, total);
    }
  }

  static double time(Path file, double seconds) throws IOException {
    ChunkSet set = ChunkSet.load(file);
    List<byte[]> chunks = set.chunks();
    List<BloscHeader> headers = set.headers();
    long total = set.total();
    byte[][] want = new byte[chunks.size()][];
    for (int i = 0; i < chunks.size(); i++) {
      want[i] = new byte[headers.get(i).nbytes()];
      Blosc.decompress(headers.get(i), chunks.get(i), 0, want[i], 0, Blosc.Impl.JAVA);
    }
    byte[] dst = new byte[1 << 20];
    long warm = System.nanoTime() + 1_000_000_000L;
    while (System.nanoTime() < warm) {
      pass(chunks, headers, dst);
    }
    double best = 0;
    long end = System.nanoTime() + (long) (seconds * 1e9);
    do {
      long t = clock();
      pass(chunks, headers, dst);
      best = Math.max(best, total / ((clock() - t) / 1e9) / 1e9);
    } while (System.nanoTime() < end);
    for (int i = 0; i < chunks.size(); i++) { // the timed decodes gave the same bytes
      Blosc.decompress(headers.get(i), chunks.get(i), 0, dst, 0, Blosc.Impl.JAVA);
      if (!java.util.Arrays.equals(dst, 0, want[i].length, want[i], 0, want[i].length)) {
        throw new IllegalStateException(file + ": chunk " + i + " decoded differently");
      }
    }
    return best;
  }

  /** GB/s of {@code System.arraycopy} of each chunk's bytes after its header (its data, when stored raw). */
  static double copyOnly(Path file, double seconds) throws IOException {
    ChunkSet set = ChunkSet.load(file);
    List<byte[]> chunks = set.chunks();
    List<BloscHeader> headers = set.headers();
    long total = set.total();
    for (int i = 0; i < headers.size(); i++) {
      if (!headers.get(i).isMemcpyed()) {
        throw new IllegalArgumentException(file + ": chunk " + i + " is not stored raw");
      }
    }
    byte[] dst = new byte[1 << 20];
    Runnable pass = () -> {
      for (int i = 0; i < chunks.size(); i++) {
        BloscHeader h = headers.get(i);
        System.arraycopy(chunks.get(i), h.headerLength(), dst, 0, h.nbytes());
      }
    };
    return bestGBps(pass, total, seconds);
  }

  /** Wall-clock nanoseconds; with {@code -Dchunkcdm.bench.cpu=true} this thread's CPU time. */
  private static long clock() {
    return CPU ? java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() : System.nanoTime();
  }

  private static final boolean CPU = Boolean.getBoolean("chunkcdm.bench.cpu");

  /**
   * One decode of every chunk, header parse included: c-blosc2's {@code blosc2_decompress} reads and checks the
   * header on every call too (until 2026-11-26 the headers were parsed once before the timed passes).
   */
  private static void pass(List<byte[]> chunks, List<BloscHeader> headers, byte[] dst) throws IOException {
    for (int i = 0; i < chunks.size(); i++) {
      byte[] c = chunks.get(i);
      Blosc.decompress(c, 0, c.length, dst, 0, Blosc.Impl.JAVA);
    }
  }

  /**
   * GB/s (of the chunks' decoded bytes) of the codec alone on the compressed streams inside the chunks (no
   * filters, no Blosc framing; streams stored raw cost nothing here): {@code java.util.zip.Inflater} or our
   * {@code Inflate} for zlib,
   * aircompressor's or chunkcdm's LZ4 decoder for LZ4. The bound for a row as long as that codec decodes it.
   */
  static double streamsOnly(Path file, double seconds, String impl) throws Exception {
    ChunkStreams cs = ChunkStreams.load(file);
    List<int[]> streams = cs.streams; // chunk index, position, csize, decoded size
    List<byte[]> chunks = cs.chunks;
    long total = cs.total;
    // liblz4 (the system's, through JNA; about a microsecond of call overhead per stream, which counts against it)
    com.sun.jna.Function lz4 = null;
    List<com.sun.jna.Memory> nativeChunks = new ArrayList<>();
    com.sun.jna.Memory nativeOut = null;
    if (impl.equals("liblz4")) {
      lz4 = com.sun.jna.NativeLibrary.getInstance("lz4").getFunction("LZ4_decompress_safe");
      for (byte[] c : chunks) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(c.length);
        m.write(0, c, 0, c.length);
        nativeChunks.add(m);
      }
      nativeOut = new com.sun.jna.Memory(1 << 20);
    }
    final com.sun.jna.Function lz4f = lz4;
    final com.sun.jna.Memory nout = nativeOut;
    java.util.zip.Inflater inf = new java.util.zip.Inflater();
    io.airlift.compress.lz4.Lz4Decompressor air = new io.airlift.compress.lz4.Lz4Decompressor();
    byte[] out = new byte[1 << 20];
    Runnable pass = () -> {
      try {
        for (int[] s : streams) {
          int n = s[3];
          if (impl.equals("java.util.zip")) {
            inf.reset();
            inf.setInput(chunks.get(s[0]), s[1], s[2]);
            n = inf.inflate(out, 0, s[3]);
          } else if (impl.equals("chunkcdm-inflate")) {
            org.chunkcdm.blosc.Streams.decode(org.chunkcdm.blosc.BloscCompressor.ZLIB, chunks.get(s[0]), s[1], s[2], out, 0,
                s[3]);
          } else if (impl.equals("liblz4")) {
            n = lz4f.invokeInt(new Object[] {nativeChunks.get(s[0]).share(s[1]), nout, s[2], s[3]});
          } else if (impl.equals("aircompressor")) {
            n = air.decompress(chunks.get(s[0]), s[1], s[2], out, 0, s[3]);
          } else {
            org.chunkcdm.blosc.Streams.decode(org.chunkcdm.blosc.BloscCompressor.LZ4, chunks.get(s[0]), s[1], s[2], out, 0,
                s[3]);
          }
          if (n != s[3]) {
            throw new IllegalStateException("stream decoded to " + n + " bytes, not " + s[3]);
          }
        }
      } catch (java.util.zip.DataFormatException | IOException e) {
        throw new IllegalStateException(e);
      }
    };
    return bestGBps(pass, total, seconds);
  }

  /**
   * One second of warm-up, then the best GB/s ({@code total} bytes per pass) of the passes in {@code seconds}; with
   * {@code -Dchunkcdm.bench.cpu=true} by this thread's CPU time (also CodecAloneBench's clock).
   */
  public static double bestGBps(Runnable pass, long total, double seconds) {
    long warm = System.nanoTime() + 1_000_000_000L;
    while (System.nanoTime() < warm) {
      pass.run();
    }
    double best = 0;
    long end = System.nanoTime() + (long) (seconds * 1e9);
    do {
      long t = clock();
      pass.run();
      best = Math.max(best, total / ((clock() - t) / 1e9) / 1e9);
    } while (System.nanoTime() < end);
    return best;
  }

  static double read(Path file, int rounds) throws IOException {
    double best = Double.MAX_VALUE;
    for (int r = 0; r < rounds; r++) {
      try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
        Variable v = nc.getVariables().get(0);
        v.setCaching(false);
        long t = System.nanoTime();
        Array a = v.read();
        best = Math.min(best, (System.nanoTime() - t) / 1e9);
        if (a.getSize() * 8 != 1L << 30) {
          throw new IllegalStateException(file + ": read " + a.getSize() + " values");
        }
      }
    }
    return best;
  }
}
