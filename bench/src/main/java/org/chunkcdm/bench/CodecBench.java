package org.chunkcdm.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.nativeblosc.JnaBlosc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decodes the same c-blosc-made chunks with the pure-Java decoder and with native c-blosc. One operation
 * decodes {@link #CHUNKS} chunks of {@link #CHUNK_BYTES} bytes each.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class CodecBench {
  static final int CHUNK_BYTES = 2 << 20;
  static final int CHUNKS = 4;

  /** float64: a smooth signal with noise (typesize 8); int32: slowly increasing counts (typesize 4). */
  @Param({"float64", "int32"})
  public String data;

  @Param({"blosclz", "lz4", "zstd", "zlib"})
  public String codec;

  /**
   * java: the pure-Java decoder (with the Vector API unshuffle where the fork runs with
   * {@code --add-modules jdk.incubator.vector}: CodecReport runs it both ways); native: c-blosc through JNA.
   */
  @Param({"java", "native"})
  public String impl;

  byte[][] chunks;
  Blosc.Impl which;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    JnaBlosc nat = new JnaBlosc();
    if (!nat.isAvailable()) {
      throw new IOException("the codec benchmark needs native c-blosc (apt-get install libblosc1): " + nat.version());
    }
    Random rnd = new Random(7);
    chunks = new byte[CHUNKS][];
    for (int c = 0; c < CHUNKS; c++) {
      byte[] raw = make(data, c, rnd);
      int ts = data.equals("float64") ? 8 : 4;
      chunks[c] = nat.compress(raw, 5, 1, ts, codec, 0);
    }
    which = impl.equals("java") ? Blosc.Impl.JAVA : Blosc.Impl.NATIVE;
  }

  static byte[] make(String kind, int c, Random rnd) {
    ByteBuffer b = ByteBuffer.allocate(CHUNK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    if (kind.equals("float64")) {
      for (int i = 0; b.remaining() >= 8; i++) {
        double t = (c * (CHUNK_BYTES / 8) + i) * 1e-4;
        b.putDouble(15 + 10 * Math.sin(t) + 0.5 * Math.sin(37 * t) + Math.round(rnd.nextGaussian() * 100) / 1000.0);
      }
    } else {
      int v = c * 1000;
      while (b.remaining() >= 4) {
        v += rnd.nextInt(4);
        b.putInt(v);
      }
    }
    return b.array();
  }

  /**
   * The codec streams inside the chunks c-blosc 1 makes from {@code kind} data ({@code codec}, clevel 5, byte
   * shuffle), with their decoded sizes; streams stored raw are left out. A block is split into one stream per
   * byte plane when c-blosc 1 splits it (not flagged unsplit, a whole block, typesize <= 16, >= 128 items).
   */
  static void blosc1Streams(String kind, String codec, List<byte[]> streams, List<Integer> sizes) throws IOException {
    JnaBlosc nat = new JnaBlosc();
    if (!nat.isAvailable()) {
      throw new IOException("this benchmark needs native c-blosc (apt-get install libblosc1): " + nat.version());
    }
    Random rnd = new Random(7);
    int ts = kind.equals("float64") ? 8 : 4;
    for (int c = 0; c < CHUNKS; c++) {
      byte[] chunk = nat.compress(make(kind, c, rnd), 5, 1, ts, codec, 0);
      BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
      for (int b = 0; b < h.nblocks(); b++) {
        int bsize = Math.min(h.blocksize(), h.nbytes() - b * h.blocksize());
        boolean split = (h.flags() & 0x10) == 0 && bsize == h.blocksize() && ts <= 16 && bsize / ts >= 128;
        int nstreams = split ? ts : 1;
        int pos = le32(chunk, h.headerLength() + 4 * b);
        for (int s = 0; s < nstreams; s++) {
          int csize = le32(chunk, pos);
          pos += 4;
          if (csize != bsize / nstreams) {
            streams.add(Arrays.copyOfRange(chunk, pos, pos + csize));
            sizes.add(bsize / nstreams);
          }
          pos += csize;
        }
      }
    }
    if (streams.isEmpty()) {
      throw new IOException("no " + codec + " streams found in the " + kind + " chunks");
    }
  }

  private static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  /** Per-thread output buffer. */
  @State(Scope.Thread)
  public static class Out {
    byte[] buf = new byte[CHUNK_BYTES];
  }

  @Benchmark
  public void decode(Out out, Blackhole bh) throws IOException {
    for (byte[] c : chunks) {
      BloscHeader h = BloscHeader.parse(c, 0, c.length);
      Blosc.decompress(h, c, 0, out.buf, 0, which);
      bh.consume(out.buf[h.nbytes() - 1]);
    }
  }

  /** Compression ratio of the generated chunks, for the report. */
  double ratio() {
    long c = 0;
    for (byte[] b : chunks) {
      c += b.length;
    }
    return (double) CHUNKS * CHUNK_BYTES / c;
  }
}
