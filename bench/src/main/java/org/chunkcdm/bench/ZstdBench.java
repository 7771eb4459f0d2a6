package org.chunkcdm.bench;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.blosc.zstd.ZstdDecoder;
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
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Zstd streams of {@link CodecBench}'s data, decoded by our pure-Java {@link ZstdDecoder}, by aircompressor's
 * ZstdDecompressor and by native zstd (zstd-jni). Layout "blosc1": the streams inside the chunks c-blosc 1
 * makes (zstd, clevel 5, byte shuffle; c-blosc 1 keeps a shuffled block in one stream); "planes": every byte
 * plane of each shuffled block in its own zstd level 9 frame, as Blosc2 splits blocks into streams. One
 * operation decodes every stream of {@link CodecBench#CHUNKS} chunks; streams that do not compress (Blosc
 * stores those raw) are left out. Usage: {@code bench/run-zstd.sh}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class ZstdBench {
  @Param({"float64", "int32"})
  public String data;

  @Param({"blosc1", "planes"})
  public String layout;

  /** java: org.chunkcdm.blosc.zstd.ZstdDecoder; aircompressor: io.airlift ZstdDecompressor 0.27; native: zstd-jni. */
  @Param({"java", "aircompressor", "native"})
  public String impl;

  byte[][] frames;
  int[] sizes;
  long decodedBytes;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    List<byte[]> f = new ArrayList<>();
    List<Integer> s = new ArrayList<>();
    streams(data, layout, f, s);
    frames = f.toArray(new byte[0][]);
    sizes = s.stream().mapToInt(Integer::intValue).toArray();
    decodedBytes = s.stream().mapToLong(Integer::longValue).sum();
    // every decoder must agree before it is timed
    byte[] a = new byte[CodecBench.CHUNK_BYTES];
    byte[] b = new byte[CodecBench.CHUNK_BYTES];
    ZstdDecoder mine = new ZstdDecoder();
    ZstdDecompressor air = new ZstdDecompressor();
    for (int i = 0; i < frames.length; i++) {
      mine.decompress(frames[i], 0, frames[i].length, a, 0, sizes[i]);
      air.decompress(frames[i], 0, frames[i].length, b, 0, sizes[i]);
      if (!java.util.Arrays.equals(a, 0, sizes[i], b, 0, sizes[i])) {
        throw new IOException("decoders disagree on stream " + i);
      }
    }
  }

  /** The zstd streams of {@code kind} data in a layout (see the class comment), with their decoded sizes. */
  static void streams(String kind, String layout, List<byte[]> frames, List<Integer> sizes) throws IOException {
    if (layout.equals("planes")) {
      planes(kind, frames, sizes);
      return;
    }
    CodecBench.blosc1Streams(kind, "zstd", frames, sizes);
  }

  /** Shuffled blocks of 256 KiB, each byte plane compressed on its own (zstd-jni, level 9). */
  static void planes(String kind, List<byte[]> frames, List<Integer> sizes) {
    Random rnd = new Random(7);
    int ts = kind.equals("float64") ? 8 : 4;
    int block = 256 << 10;
    int n = block / ts;
    for (int c = 0; c < CodecBench.CHUNKS; c++) {
      byte[] raw = CodecBench.make(kind, c, rnd);
      for (int off = 0; off < raw.length; off += block) {
        for (int j = 0; j < ts; j++) {
          byte[] plane = new byte[n];
          for (int i = 0; i < n; i++) {
            plane[i] = raw[off + i * ts + j];
          }
          byte[] z = com.github.luben.zstd.Zstd.compress(plane, 9);
          if (z.length < n) {
            frames.add(z);
            sizes.add(n);
          }
        }
      }
    }
  }

  /** Per-thread decoders and output buffer. */
  @State(Scope.Thread)
  public static class Decoders {
    byte[] out = new byte[CodecBench.CHUNK_BYTES];
    ZstdDecoder java = new ZstdDecoder();
    ZstdDecompressor air = new ZstdDecompressor();
    ZstdDecompressCtx nat = new ZstdDecompressCtx();
  }

  @Benchmark
  public void decode(Decoders d, Blackhole bh) throws IOException {
    byte[] out = d.out;
    switch (impl) {
      case "java":
        for (int i = 0; i < frames.length; i++) {
          bh.consume(d.java.decompress(frames[i], 0, frames[i].length, out, 0, sizes[i]));
        }
        break;
      case "aircompressor":
        for (int i = 0; i < frames.length; i++) {
          bh.consume(d.air.decompress(frames[i], 0, frames[i].length, out, 0, sizes[i]));
        }
        break;
      default:
        for (int i = 0; i < frames.length; i++) {
          bh.consume(d.nat.decompressByteArray(out, 0, sizes[i], frames[i], 0, frames[i].length));
        }
    }
  }

  /** Runs the benchmark (1 thread) and prints a Markdown table of MB/s of decoded data. */
  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Options opt = new OptionsBuilder().include(ZstdBench.class.getSimpleName()).forks(1)
        .warmupIterations(3).warmupTime(TimeValue.seconds(1)).measurementIterations(iterations)
        .measurementTime(TimeValue.seconds(1)).build();
    Collection<RunResult> results = new Runner(opt).run();
    Map<String, double[]> rows = new LinkedHashMap<>(); // data and layout -> {java, aircompressor, native} MB/s
    Map<String, String> info = new LinkedHashMap<>();
    for (RunResult r : results) {
      String data = r.getParams().getParam("data");
      String layout = r.getParams().getParam("layout");
      String d = data + " | " + layout;
      String impl = r.getParams().getParam("impl");
      List<byte[]> f = new ArrayList<>();
      List<Integer> s = new ArrayList<>();
      streams(data, layout, f, s);
      long bytes = s.stream().mapToLong(Integer::longValue).sum();
      long comp = f.stream().mapToLong(x -> x.length).sum();
      info.put(d, String.format("%d streams, %.1f MB, ratio %.2f", f.size(), bytes / 1e6, (double) bytes / comp));
      double mbps = r.getPrimaryResult().getScore() * bytes / 1e6;
      rows.computeIfAbsent(d, k -> new double[3])[impl.equals("java") ? 0 : impl.equals("aircompressor") ? 1 : 2] = mbps;
    }
    System.out.println();
    System.out.println("JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + "; cores: "
        + Runtime.getRuntime().availableProcessors());
    System.out.println();
    System.out.println("| data | layout | zstd streams | pure Java (ours) MB/s | aircompressor MB/s | native zstd MB/s"
        + " | ours/aircompressor | ours/native |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (Map.Entry<String, double[]> e : rows.entrySet()) {
      double[] v = e.getValue();
      System.out.printf("| %s | %s | %.0f | %.0f | %.0f | %.2f | %.2f |%n", e.getKey(), info.get(e.getKey()), v[0], v[1], v[2],
          v[0] / v[1], v[0] / v[2]);
    }
  }
}
