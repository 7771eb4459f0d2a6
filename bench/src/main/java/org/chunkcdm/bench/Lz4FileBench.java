package org.chunkcdm.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.chunkcdm.blosc.Lz4;

/**
 * LZ4 block streams from a file, timed with chunkcdm's {@link Lz4} and aircompressor's decoder in ns per sequence,
 * the file format shared with the C harness {@code bench/lz4/lz4bench.c} (system liblz4) so that both sides decode
 * the same bytes: little-endian int32 count, then per stream int32 compressed size, int32 decoded size, the bytes.
 * {@code bench/run-lz4-synth.sh} runs both on the synthetic one-class streams of {@code bench/lz4/lz4synth.py} and
 * on the LZ4 streams of Blosc2 chunk sets. Never run by
 * {@code mvn verify}.
 *
 * <p>usage: {@code Lz4FileBench dump DIR OUTDIR NAME...} (the LZ4 streams of {@code DIR/NAME.chunks}, as
 * {@link Lz4SequenceBench} reads them, to {@code OUTDIR/NAME.bin}) or {@code Lz4FileBench time SECONDS ROUNDS
 * FILE...} (thread CPU time, best pass, the two decoders interleaved round by round, aircompressor's bytes checked
 * against ours first).
 */
public final class Lz4FileBench {
  private Lz4FileBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length >= 3 && args[0].equals("dump")) {
      for (int k = 3; k < args.length; k++) {
        dump(Paths.get(args[1], args[k] + ".chunks"), Paths.get(args[2], args[k] + ".bin"));
      }
    } else if (args.length >= 4 && args[0].equals("time")) {
      for (int k = 3; k < args.length; k++) {
        time(Paths.get(args[k]), Double.parseDouble(args[1]), Integer.parseInt(args[2]));
      }
    } else {
      System.err.println("usage: Lz4FileBench dump DIR OUTDIR NAME... | time SECONDS ROUNDS FILE...");
      System.exit(2);
    }
  }

  private static void dump(Path chunks, Path to) throws IOException {
    ChunkStreams cs = ChunkStreams.load(chunks);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ByteBuffer head = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    bytes.write(head.putInt(0, cs.streams.size()).array(), 0, 4);
    for (int i = 0; i < cs.streams.size(); i++) {
      byte[] s = cs.copy(i);
      bytes.write(head.putInt(0, s.length).putInt(4, cs.streams.get(i)[3]).array(), 0, 8);
      bytes.write(s, 0, s.length);
    }
    Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
    Files.write(tmp, bytes.toByteArray());
    Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    System.out.println(to + ": " + cs.streams.size() + " streams");
  }

  /** Sequences in one block stream (the last, literal-only one included). */
  static long sequences(byte[] p) {
    long s = 0;
    int i = 0;
    int n = p.length;
    while (i < n) {
      int token = p[i++] & 0xff;
      int lit = token >>> 4;
      int b;
      if (lit == 15) {
        do {
          b = p[i++] & 0xff;
          lit += b;
        } while (b == 255 && i < n);
      }
      i += lit;
      s++;
      if (i >= n) {
        break;
      }
      i += 2;
      if ((token & 15) == 15) {
        do {
          b = p[i++] & 0xff;
        } while (b == 255 && i < n);
      }
    }
    return s;
  }

  private static void time(Path file, double seconds, int rounds) throws Exception {
    ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    int n = bb.getInt();
    byte[][] in = new byte[n][];
    int[] size = new int[n];
    long seqs = 0;
    for (int i = 0; i < n; i++) {
      in[i] = new byte[bb.getInt()];
      size[i] = bb.getInt();
      bb.get(in[i]);
      seqs += sequences(in[i]);
    }
    io.airlift.compress.lz4.Lz4Decompressor air = new io.airlift.compress.lz4.Lz4Decompressor();
    int max = Arrays.stream(size).max().orElse(0);
    byte[] out = new byte[max];
    byte[] want = new byte[max];
    for (int i = 0; i < n; i++) {
      Lz4.decode(in[i], 0, in[i].length, want, 0, size[i], null);
      int got = air.decompress(in[i], 0, in[i].length, out, 0, size[i]);
      if (got != size[i] || !Arrays.equals(out, 0, size[i], want, 0, size[i])) {
        throw new IllegalStateException("aircompressor decodes stream " + i + " of " + file + " differently");
      }
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
    for (int r = -1; r < rounds; r++) { // round -1: warm-up
      for (int d = 0; d < 2; d++) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        do {
          long t = mx.getCurrentThreadCpuTime();
          for (int i = 0; i < n; i++) {
            if (d == 0) {
              Lz4.decode(in[i], 0, in[i].length, out, 0, size[i], null);
            } else {
              air.decompress(in[i], 0, in[i].length, out, 0, size[i]);
            }
          }
          long dt = mx.getCurrentThreadCpuTime() - t;
          if (r >= 0) {
            best[d] = Math.min(best[d], dt);
          }
        } while (System.nanoTime() < end);
      }
    }
    System.out.printf("%s chunkcdm %d streams %d sequences %.3f ns/sequence aircompressor %.3f ns/sequence%n", file, n,
        seqs, best[0] / (double) seqs, best[1] / (double) seqs);
  }
}
