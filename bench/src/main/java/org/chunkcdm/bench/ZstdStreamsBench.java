package org.chunkcdm.bench;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.zstd.ZstdDecoder;

/**
 * The zstd streams inside Blosc2 chunk sets ({@code bench/blosc2/b2bench.py write}) decoded alone (no
 * Blosc framing, no unshuffle) by our pure-Java {@link ZstdDecoder}, by aircompressor's pure-Java
 * ZstdDecompressor and by native libzstd (zstd-jni; the library c-blosc2 uses), rounds interleaved so that all
 * three see the same machine load. Never run by {@code mvn verify}.
 *
 * <p>Usage: {@code ZstdStreamsBench DIR SECONDS ROUNDS NAME...} (NAME: a chunk set such as
 * {@code zstd-shuffle-ts8-c5}); prints one line per set and implementation: "NAME IMPL GB/s", the best pass
 * (GB/s of decoded stream bytes) over all rounds, then the ratios. With {@code -Dchunkcdm.bench.cpu=true} passes
 * are timed by this thread's CPU time. Every implementation's output is checked against ours once.
 */
public final class ZstdStreamsBench {
  private ZstdStreamsBench() {}

  /** {@code -Dchunkcdm.bench.impls=chunkcdm} times ours alone (for a profiler). */
  private static final String[] IMPLS = System.getProperty("chunkcdm.bench.impls", "chunkcdm,aircompressor,libzstd")
      .split(",");

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    double seconds = Double.parseDouble(args[1]);
    int rounds = Integer.parseInt(args[2]);
    for (String name : List.of(args).subList(3, args.length)) {
      Streams s = load(dir.resolve(name + ".chunks"));
      s.check();
      double[] best = new double[IMPLS.length];
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < IMPLS.length; i++) {
          best[i] = Math.max(best[i], s.time(IMPLS[i], seconds));
        }
      }
      for (int i = 0; i < IMPLS.length; i++) {
        System.out.printf("%s %s %.3f%n", name, IMPLS[i], best[i]);
      }
      if (IMPLS.length == 3) {
        System.out.printf("%s chunkcdm/aircompressor %.2f chunkcdm/libzstd %.2f (%d streams, %.1f MB)%n", name,
            best[0] / best[1], best[0] / best[2], s.frames.size(), s.total / 1e6);
      }
      System.out.flush();
    }
  }

  static final class Streams {
    final List<byte[]> frames = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    long total;
    final ZstdDecoder ours = new ZstdDecoder();
    final ZstdDecompressor air = new ZstdDecompressor();
    final ZstdDecompressCtx nat = new ZstdDecompressCtx();
    final byte[] out = new byte[1 << 20];

    void check() throws IOException {
      byte[] a = new byte[1 << 20];
      for (int i = 0; i < frames.size(); i++) {
        byte[] f = frames.get(i);
        int n = sizes.get(i);
        ours.decompress(f, 0, f.length, a, 0, n);
        air.decompress(f, 0, f.length, out, 0, n);
        if (!Arrays.equals(a, 0, n, out, 0, n)) {
          throw new IllegalStateException("stream " + i + ": ours and aircompressor differ");
        }
        nat.decompressByteArray(out, 0, n, f, 0, f.length);
        if (!Arrays.equals(a, 0, n, out, 0, n)) {
          throw new IllegalStateException("stream " + i + ": ours and libzstd differ");
        }
      }
    }

    void pass(String impl) throws IOException {
      for (int i = 0; i < frames.size(); i++) {
        byte[] f = frames.get(i);
        int n = sizes.get(i);
        switch (impl) {
          case "chunkcdm":
            ours.decompress(f, 0, f.length, out, 0, n);
            break;
          case "aircompressor":
            air.decompress(f, 0, f.length, out, 0, n);
            break;
          default:
            nat.decompressByteArray(out, 0, n, f, 0, f.length);
        }
      }
    }

    double time(String impl, double seconds) throws IOException {
      long warm = System.nanoTime() + 300_000_000L;
      while (System.nanoTime() < warm) {
        pass(impl);
      }
      double best = 0;
      long end = System.nanoTime() + (long) (seconds * 1e9);
      do {
        long t = clock();
        pass(impl);
        best = Math.max(best, total / ((clock() - t) / 1e9) / 1e9);
      } while (System.nanoTime() < end);
      return best;
    }
  }

  /** The zstd streams (one zstd frame each) of a file of [int32 LE length][Blosc2 chunk] records. */
  static Streams load(Path file) throws IOException {
    ChunkStreams cs = ChunkStreams.load(file);
    Streams s = new Streams();
    for (int i = 0; i < cs.streams.size(); i++) {
      s.frames.add(cs.copy(i));
      s.sizes.add(cs.streams.get(i)[3]);
    }
    s.total = cs.compressedTotal;
    return s;
  }

  private static long clock() {
    return CPU ? java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() : System.nanoTime();
  }

  private static final boolean CPU = Boolean.getBoolean("chunkcdm.bench.cpu");
}
