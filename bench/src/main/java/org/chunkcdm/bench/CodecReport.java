package org.chunkcdm.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.chunkcdm.nativeblosc.JnaBlosc;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link CodecBench} with 1 and 2 threads and prints a Markdown table of decode throughput (MB/s of
 * decoded data) and the java/native ratio. Usage: {@code bench/run-codec.sh}.
 */
public final class CodecReport {
  private CodecReport() {}

  public static void main(String[] args) throws Exception {
    int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Map<String, double[]> rows = new LinkedHashMap<>(); // data/codec/threads -> {java, java-scalar, native}
    // "1 core": one caller and no decode threads (-Dchunkcdm.decode.threads=1), the strict single-core
    // comparison; "1": one caller, the pure-Java decoder spreads a chunk's blocks over the decode threads;
    // "2": two callers (both decoders keep both cores busy)
    // java and native run with the Vector API module; java-scalar is the same decoder in a JVM without it
    String vector = "--add-modules=jdk.incubator.vector";
    String[][] runs = {{"1 (1 core)", "1", "-Dchunkcdm.decode.threads=1"}, {"1", "1"}, {"2", "2"}};
    for (String[] run : runs) {
      for (boolean withVector : new boolean[] {true, false}) {
        java.util.List<String> jvm = new java.util.ArrayList<>(java.util.Arrays.asList(run).subList(2, run.length));
        if (withVector) {
          jvm.add(vector);
        }
        OptionsBuilder ob = new OptionsBuilder();
        ob.include(CodecBench.class.getSimpleName()).threads(Integer.parseInt(run[1])).forks(1)
            .jvmArgsAppend(jvm.toArray(new String[0])).warmupIterations(2).warmupTime(TimeValue.seconds(1))
            .measurementIterations(iterations).measurementTime(TimeValue.seconds(1));
        if (withVector) {
          ob.param("impl", "java", "native");
        } else {
          ob.param("impl", "java");
        }
        for (RunResult r : new Runner(ob.build()).run()) {
          Map<String, String> p = new LinkedHashMap<>();
          for (String k : r.getParams().getParamsKeys()) {
            p.put(k, r.getParams().getParam(k));
          }
          double mbps = r.getPrimaryResult().getScore() * CodecBench.CHUNKS * CodecBench.CHUNK_BYTES / 1e6;
          String key = p.get("data") + " | " + p.get("codec") + " | " + run[0];
          int col = !withVector ? 1 : p.get("impl").equals("java") ? 0 : 2;
          rows.computeIfAbsent(key, k -> new double[3])[col] = mbps;
        }
      }
    }
    JnaBlosc nat = new JnaBlosc();
    System.out.println();
    System.out.println("Native: " + nat.version() + "; JVM: " + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.version") + "; cores: " + Runtime.getRuntime().availableProcessors());
    System.out.println();
    System.out.println("| data | codec | threads | compression ratio | pure Java MB/s | pure Java, no vector API, MB/s"
        + " | native c-blosc MB/s | java/native | java without vector API/native |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (Map.Entry<String, double[]> e : rows.entrySet()) {
      String[] k = e.getKey().split(" \\| ");
      double ratio = compressionRatio(nat, k[0], k[1]);
      double[] v = e.getValue();
      System.out.printf("| %s | %s | %s | %.1f | %.0f | %.0f | %.0f | %.2f | %.2f |%n", k[0], k[1], k[2], ratio, v[0], v[1], v[2],
          v[0] / v[2], v[1] / v[2]);
    }
  }

  static double compressionRatio(JnaBlosc nat, String data, String codec) throws Exception {
    long raw = 0;
    long comp = 0;
    Random rnd = new Random(7);
    for (int c = 0; c < CodecBench.CHUNKS; c++) {
      byte[] b = CodecBench.make(data, c, rnd);
      raw += b.length;
      comp += nat.compress(b, 5, 1, data.equals("float64") ? 8 : 4, codec, 0).length;
    }
    return (double) raw / comp;
  }
}
