package org.chunkcdm.blosc;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The zlib streams inside Blosc chunk sets ({@code NAME.chunks} files written by bench/run-blosc2.sh), decoded by
 * the current {@link Inflate}, by java.util.zip.Inflater and by any older copy of Inflate compiled under another
 * class name in this package and named in {@code -Dchunkcdm.bench.decoders} (e.g. the decoder of an earlier
 * commit, {@code git show C:core/.../Inflate.java} renamed to InflateRef), <b>interleaved</b> (A B C A B C ...)
 * so that all see the same machine load. Prints
 * per set and decoder the best and the median GB/s (decoded bytes of the whole chunks per thread-CPU second; with
 * {@code -Dchunkcdm.bench.wall=true} per wall second).
 *
 * <p>usage: {@code InflateBench DIR SECONDS_PER_TURN ROUNDS NAME...}; {@code -Dchunkcdm.bench.decoders=Inflate,InflateRef}
 * times only those (one decoder per JVM, JVMs alternated, takes the JIT's compile-to-compile variance out of a
 * comparison).
 */
public final class InflateBench {
  private static final boolean WALL = Boolean.getBoolean("chunkcdm.bench.wall");
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  private static long clock() {
    return WALL ? System.nanoTime() : MX.getCurrentThreadCpuTime();
  }

  /** The zlib streams of one chunk set: {input array, offset, length, decoded length}. */
  static final class Streams {
    final List<byte[]> in = new ArrayList<>();
    final List<int[]> s = new ArrayList<>();
    long total; // decoded bytes of the chunks, stored streams included
  }

  static Streams load(Path file) throws Exception {
    org.chunkcdm.bench.ChunkStreams cs = org.chunkcdm.bench.ChunkStreams.load(file);
    Streams st = new Streams();
    st.in.addAll(cs.chunks);
    st.s.addAll(cs.streams);
    st.total = cs.total;
    return st;
  }

  interface Decoder {
    void run(byte[] in, int ip, int len, byte[] out, int outLen) throws Exception;
  }

  static double pass(Streams st, Decoder d, byte[] out) throws Exception {
    long t = clock();
    for (int[] s : st.s) {
      d.run(st.in.get(s[0]), s[1], s[2], out, s[3]);
    }
    return st.total / ((clock() - t) / 1e9) / 1e9;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    double seconds = Double.parseDouble(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Inflate cur = new Inflate();
    java.util.zip.Inflater jdk = new java.util.zip.Inflater();
    String[] names = {"Inflate", "java.util.zip"};
    List<String> only = Arrays.asList(System.getProperty("chunkcdm.bench.decoders", String.join(",", names)).split(","));
    Decoder[] dec = {
        (in, ip, len, out, n) -> cur.decode(in, ip, len, out, 0, n),
        (in, ip, len, out, n) -> {
          jdk.reset();
          jdk.setInput(in, ip, len);
          if (jdk.inflate(out, 0, n) != n) {
            throw new IllegalStateException("short");
          }
        }};
    // more decoders by class name (copies of Inflate under another name, for trying variants): -Dchunkcdm.bench.decoders
    for (String n : only) {
      if (!Arrays.asList(names).contains(n)) {
        Object o = Class.forName("org.chunkcdm.blosc." + n).getDeclaredConstructor().newInstance();
        java.lang.reflect.Method m = o.getClass().getMethod("decode", byte[].class, int.class, int.class, byte[].class,
            int.class, int.class);
        names = Arrays.copyOf(names, names.length + 1);
        dec = Arrays.copyOf(dec, dec.length + 1);
        names[names.length - 1] = names[names.length - 2];
        dec[dec.length - 1] = dec[dec.length - 2]; // java.util.zip stays last
        names[names.length - 2] = n;
        dec[dec.length - 2] = (in, ip, len, out, k) -> m.invoke(o, in, ip, len, out, 0, k);
      }
    }
    byte[] out = new byte[1 << 20];
    for (int a = 3; a < args.length; a++) {
      Streams st = load(dir.resolve(args[a] + ".chunks"));
      // the same bytes as java.util.zip on every stream
      byte[] o2 = new byte[1 << 20];
      for (int[] s : st.s) {
        for (int k = 0; k < dec.length - 1; k++) {
          if (!only.contains(names[k])) {
            continue;
          }
          dec[dec.length - 1].run(st.in.get(s[0]), s[1], s[2], out, s[3]);
          dec[k].run(st.in.get(s[0]), s[1], s[2], o2, s[3]);
          if (!Arrays.equals(out, 0, s[3], o2, 0, s[3])) {
            throw new IllegalStateException(names[k] + " differs");
          }
        }
      }
      // warm-up: each decoder for a second
      for (int k = 0; k < dec.length; k++) {
        Decoder d = dec[k];
        if (!only.contains(names[k])) {
          continue;
        }
        long end = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
          pass(st, d, out);
        }
      }
      double[][] r = new double[dec.length][];
      for (int k = 0; k < dec.length; k++) {
        r[k] = new double[0];
      }
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < dec.length; k++) {
          if (!only.contains(names[k])) {
            continue;
          }
          long end = System.nanoTime() + (long) (seconds * 1e9);
          do {
            r[k] = Arrays.copyOf(r[k], r[k].length + 1);
            r[k][r[k].length - 1] = pass(st, dec[k], out);
          } while (System.nanoTime() < end);
        }
      }
      StringBuilder sb = new StringBuilder(String.format("%-26s", args[a]));
      for (int k = 0; k < dec.length; k++) {
        if (r[k].length == 0) {
          continue;
        }
        double[] x = r[k].clone();
        Arrays.sort(x);
        sb.append(String.format("  %s best %.2f med %.2f", names[k], x[x.length - 1], x[x.length / 2]));
      }
      sb.append(String.format("  (%d streams, load %s)", st.s.size(), load()));
      System.out.println(sb);
    }
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (Exception e) {
      return "?";
    }
  }
}
