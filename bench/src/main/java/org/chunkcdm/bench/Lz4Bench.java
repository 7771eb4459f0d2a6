package org.chunkcdm.bench;

import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.blosc.Lz4;
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
    List<byte[]> st = new ArrayList<>();
    List<Integer> sz = new ArrayList<>();
    CodecBench.blosc1Streams(data, "lz4", st, sz);
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
