package org.chunkcdm.bench;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.Lz4;
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
 * The LZ4 streams inside the chunks c-blosc 1 makes from {@link CodecBench}'s data (lz4, clevel 5, byte
 * shuffle: one stream per byte plane of a block), decoded by chunkcdm's {@link Lz4} and by aircompressor's
 * Lz4Decompressor. Streams stored raw are left out. Run:
 * {@code java -jar bench/target/benchmarks.jar Lz4Bench}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class Lz4Bench {
  @Param({"float64", "int32"})
  public String data;

  @Param({"java", "aircompressor"})
  public String impl;

  byte[][] streams;
  int[] sizes;
  byte[] out = new byte[CodecBench.CHUNK_BYTES];
  Lz4Decompressor air = new Lz4Decompressor();

  @Setup(Level.Trial)
  public void setup() throws IOException {
    JnaBlosc nat = new JnaBlosc();
    Random rnd = new Random(7);
    List<byte[]> st = new ArrayList<>();
    List<Integer> sz = new ArrayList<>();
    int ts = data.equals("float64") ? 8 : 4;
    for (int c = 0; c < CodecBench.CHUNKS; c++) {
      byte[] chunk = nat.compress(CodecBench.make(data, c, rnd), 5, 1, ts, "lz4", 0);
      BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
      boolean split = (h.flags() & 0x10) == 0;
      for (int b = 0; b < h.nblocks(); b++) {
        int bsize = Math.min(h.blocksize(), h.nbytes() - b * h.blocksize());
        int nstreams = split && bsize == h.blocksize() ? ts : 1;
        int p = le(chunk, 16 + 4 * b);
        for (int s = 0; s < nstreams; s++) {
          int csize = le(chunk, p);
          p += 4;
          if (csize != bsize / nstreams) {
            st.add(Arrays.copyOfRange(chunk, p, p + csize));
            sz.add(bsize / nstreams);
          }
          p += csize;
        }
      }
    }
    streams = st.toArray(new byte[0][]);
    sizes = sz.stream().mapToInt(Integer::intValue).toArray();
    byte[] other = new byte[out.length];
    for (int i = 0; i < streams.length; i++) { // both decoders agree before they are timed
      Lz4.decode(streams[i], 0, streams[i].length, out, 0, sizes[i], null);
      air.decompress(streams[i], 0, streams[i].length, other, 0, sizes[i]);
      if (!Arrays.equals(out, 0, sizes[i], other, 0, sizes[i])) {
        throw new IOException("decoders disagree on stream " + i);
      }
    }
  }

  private static int le(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  @Benchmark
  public void decode(Blackhole bh) throws IOException {
    boolean java = impl.equals("java");
    for (int i = 0; i < streams.length; i++) {
      if (java) {
        Lz4.decode(streams[i], 0, streams[i].length, out, 0, sizes[i], null);
      } else {
        air.decompress(streams[i], 0, streams[i].length, out, 0, sizes[i]);
      }
    }
    bh.consume(out[0]);
  }
}
