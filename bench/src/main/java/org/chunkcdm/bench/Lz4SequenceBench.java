package org.chunkcdm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.Lz4;

/**
 * The LZ4 streams inside Blosc2 chunk sets ({@code bench/run-blosc2.sh}'s {@code DIR/NAME.chunks}), per sequence:
 * the shape of the sequences (literal counts, match lengths and offsets) and the time per sequence of chunkcdm's
 * {@link Lz4}, aircompressor's decoder and the system liblz4 (JNA; about a microsecond of call overhead per stream
 * counts against it), each stream copied to its own array, raw stored streams left out. Thread CPU time, the best
 * pass of each decoder per round, decoders interleaved round by round; every decoder's bytes are checked against
 * ours before timing. Never run by {@code mvn verify}.
 *
 * <p>usage: {@code Lz4SequenceBench DIR SECONDS_PER_ROUND ROUNDS NAME...}; with {@code -Dlz4.onlyChunkcdm=true} it prints
 * the shape and then only decodes with {@link Lz4} for SECONDS_PER_ROUND x ROUNDS (for a profiler:
 * {@code bench/run-lz4-profile.sh}).
 */
public final class Lz4SequenceBench {
  private Lz4SequenceBench() {}

  /** Histogram buckets: each is the smallest value it holds. */
  private static final int[] LIT_BUCKETS = {0, 1, 2, 3, 4, 8, 15, 32, 64, 128, 256};
  private static final int[] LEN_BUCKETS = {4, 5, 6, 7, 8, 9, 13, 19, 25, 65, 256};
  private static final int[] OFF_BUCKETS = {1, 2, 3, 8, 24, 256, 4096};
  private static final int[] GAP_BUCKETS = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512};

  private static int bucket(int[] buckets, int v) {
    int b = 0;
    while (b + 1 < buckets.length && v >= buckets[b + 1]) {
      b++;
    }
    return b;
  }

  /** One line: each bucket as "from-to: percent" of {@code total} (or counts when total < 0). */
  private static String histogram(String title, int[] buckets, long[] counts, long total) {
    StringBuilder sb = new StringBuilder(title).append(':');
    for (int b = 0; b < buckets.length; b++) {
      String range = b + 1 == buckets.length ? buckets[b] + "+"
          : buckets[b + 1] - 1 == buckets[b] ? String.valueOf(buckets[b]) : buckets[b] + "-" + (buckets[b + 1] - 1);
      sb.append(' ').append(range).append(": ");
      sb.append(total < 0 ? String.valueOf(counts[b]) : String.format("%.1f%%", 100.0 * counts[b] / total));
    }
    return sb.toString();
  }

  interface Decoder {
    void decode(byte[] in, byte[] out, int outLen) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    double seconds = Double.parseDouble(args[1]);
    int rounds = Integer.parseInt(args[2]);
    for (String name : Arrays.asList(args).subList(3, args.length)) {
      List<byte[]> streams = new ArrayList<>();
      List<Integer> sizes = new ArrayList<>();
      load(dir.resolve(name + ".chunks"), streams, sizes);
      run(name, streams, sizes, seconds, rounds);
    }
  }

  static void load(Path file, List<byte[]> streams, List<Integer> sizes) throws Exception {
    ChunkStreams cs = ChunkStreams.load(file);
    for (int i = 0; i < cs.streams.size(); i++) {
      streams.add(cs.copy(i));
      sizes.add(cs.streams.get(i)[3]);
    }
  }

  static void run(String name, List<byte[]> streamList, List<Integer> sizeList, double seconds, int rounds)
      throws Exception {
    byte[][] in = streamList.toArray(new byte[0][]);
    int[] size = sizeList.stream().mapToInt(Integer::intValue).toArray();
    long bytes = 0;
    long seqs = 0;
    long smallLit = 0;
    long shortMatch = 0;
    long offset2 = 0;
    long offset16 = 0;
    // histograms: literal runs, match lengths, offsets, and the number of sequences between two
    // with 15 or more literals (the ones the fast loop of Lz4.decode hands to its careful path)
    long[] litH = new long[LIT_BUCKETS.length];
    long[] lenH = new long[LEN_BUCKETS.length];
    long[] offH = new long[OFF_BUCKETS.length];
    long[] gapH = new long[GAP_BUCKETS.length];
    long literalBytes = 0;
    long longLiteralBytes = 0;
    int gap = 0;
    for (int i = 0; i < in.length; i++) {
      bytes += size[i];
      int ip = 0;
      byte[] s = in[i];
      while (true) { // the shape of the stream's sequences
        int token = s[ip++] & 0xff;
        int lit = token >>> 4;
        if (lit == 15) {
          int b;
          do {
            b = s[ip++] & 0xff;
            lit += b;
          } while (b == 255);
        }
        ip += lit;
        literalBytes += lit;
        if (ip == s.length) {
          break;
        }
        int offset = (s[ip] & 0xff) | (s[ip + 1] & 0xff) << 8;
        ip += 2;
        int len = token & 15;
        if (len == 15) {
          int b;
          do {
            b = s[ip++] & 0xff;
            len += b;
          } while (b == 255);
        }
        len += 4;
        seqs++;
        smallLit += lit <= 3 ? 1 : 0;
        shortMatch += len <= 7 ? 1 : 0;
        offset2 += offset == 2 ? 1 : 0;
        offset16 += offset >= 16 ? 1 : 0;
        litH[bucket(LIT_BUCKETS, lit)]++;
        lenH[bucket(LEN_BUCKETS, len)]++;
        offH[bucket(OFF_BUCKETS, offset)]++;
        if (lit >= 15) {
          longLiteralBytes += lit;
          gapH[bucket(GAP_BUCKETS, gap)]++;
          gap = 0;
        } else {
          gap++;
        }
      }
    }
    System.out.printf("%s: %d streams, %d sequences, %.1f decoded bytes per sequence; literals 0-3: %.0f%%, "
            + "match 4-7 bytes: %.0f%%, offset 2: %.0f%%, offset >= 16: %.0f%%%n", name, in.length, seqs,
        (double) bytes / seqs, 100.0 * smallLit / seqs, 100.0 * shortMatch / seqs, 100.0 * offset2 / seqs,
        100.0 * offset16 / seqs);
    System.out.printf("  literal bytes %.1f%% of the output, %.1f%% in runs of 15 or more%n", 100.0 * literalBytes / bytes,
        100.0 * longLiteralBytes / bytes);
    System.out.println(histogram("  literal run", LIT_BUCKETS, litH, seqs));
    System.out.println(histogram("  match length", LEN_BUCKETS, lenH, seqs));
    System.out.println(histogram("  offset", OFF_BUCKETS, offH, seqs));
    System.out.println(histogram("  sequences between two with 15+ literals", GAP_BUCKETS, gapH, -1));
    if (Boolean.getBoolean("lz4.onlyChunkcdm")) { // for a profiler (bench/run-lz4-profile.sh): our decoder alone
      byte[] o = new byte[1 << 20];
      long end = System.nanoTime() + (long) (seconds * rounds * 1e9);
      do {
        for (int i = 0; i < in.length; i++) {
          Lz4.decode(in[i], 0, in[i].length, o, 0, size[i], null);
        }
      } while (System.nanoTime() < end);
      return;
    }

    io.airlift.compress.lz4.Lz4Decompressor air = new io.airlift.compress.lz4.Lz4Decompressor();
    com.sun.jna.Function lib = com.sun.jna.NativeLibrary.getInstance("lz4").getFunction("LZ4_decompress_safe");
    com.sun.jna.Memory[] nativeIn = new com.sun.jna.Memory[in.length];
    for (int i = 0; i < in.length; i++) {
      nativeIn[i] = new com.sun.jna.Memory(in[i].length);
      nativeIn[i].write(0, in[i], 0, in[i].length);
    }
    com.sun.jna.Memory nativeOut = new com.sun.jna.Memory(1 << 20);
    String[] names = {"chunkcdm", "aircompressor", "liblz4"};
    boolean[] check = {true};
    Decoder[] decoders = {
      (s, out, n) -> Lz4.decode(s, 0, s.length, out, 0, n, null),
      (s, out, n) -> air.decompress(s, 0, s.length, out, 0, n),
      null
    };
    int[] current = new int[1];
    decoders[2] = (s, out, n) -> {
      int got = lib.invokeInt(new Object[] {nativeIn[current[0]], nativeOut, s.length, n});
      if (got != n) {
        throw new IllegalStateException("liblz4 decoded " + got + " bytes, not " + n);
      }
      if (check[0]) {
        nativeOut.read(0, out, 0, n);
      }
    };
    byte[] out = new byte[1 << 20];
    byte[] want = new byte[1 << 20];
    for (int d = 1; d < decoders.length; d++) { // every decoder gives our bytes
      for (int i = 0; i < in.length; i++) {
        current[0] = i;
        Lz4.decode(in[i], 0, in[i].length, want, 0, size[i], null);
        decoders[d].decode(in[i], out, size[i]);
        if (!Arrays.equals(out, 0, size[i], want, 0, size[i])) {
          throw new IllegalStateException(names[d] + " decodes stream " + i + " of " + name + " differently");
        }
      }
    }
    check[0] = false;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] best = new long[decoders.length];
    Arrays.fill(best, Long.MAX_VALUE);
    for (int r = -1; r < rounds; r++) { // round -1: warm-up
      for (int d = 0; d < decoders.length; d++) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        do {
          long t = mx.getCurrentThreadCpuTime();
          for (int i = 0; i < in.length; i++) {
            current[0] = i;
            decoders[d].decode(in[i], out, size[i]);
          }
          long dt = mx.getCurrentThreadCpuTime() - t;
          if (r >= 0) {
            best[d] = Math.min(best[d], dt);
          }
        } while (System.nanoTime() < end);
      }
    }
    String load = new String(Files.readAllBytes(Paths.get("/proc/loadavg"))).trim();
    StringBuilder line = new StringBuilder("  ");
    for (int d = 0; d < decoders.length; d++) {
      line.append(String.format("%s %.2f GB/s %.2f ns/sequence; ", names[d], bytes / (double) best[d],
          best[d] / (double) seqs));
    }
    System.out.println(line.append("load ").append(load.substring(0, Math.min(14, load.length()))));
  }
}
