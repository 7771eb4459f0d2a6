package org.chunkcdm.bench;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.Streams;

/**
 * An upper bound for each row of the c-blosc2 table (docs/BENCHMARKS.md, bench/run-blosc2-bound.sh): for every Blosc2 chunk set
 * ({@code bench/blosc2/b2bench.py write}), the speed of our whole chunk decode, of our codec alone on the chunks'
 * compressed streams, and of the native library of that codec alone on the same streams, all as GB/s of the chunks'
 * decoded bytes. Streams stored raw, the filters and the Blosc framing cost nothing in the two codec columns, so a
 * whole chunk can never decode faster than its codec column: divided by c-blosc2's speed for the whole chunk (timed
 * by the script), our codec column is the most the row can reach with this codec, whatever the filters and the
 * framing cost. The native codec column shows how much of c-blosc2's own time is its codec.
 *
 * <p>Native codecs: liblz4 ({@code LZ4_decompress_safe} through JNA; about a microsecond of call overhead per
 * stream counts against it), libzstd (zstd-jni), zlib (java.util.zip: the system's zlib, not c-blosc2's zlib-ng);
 * BloscLZ exists only inside c-blosc2 ("-").
 *
 * <p>Usage: {@code CodecAloneBench DIR SECONDS NAME...}; prints "NAME ROW CODEC NATIVE" (GB/s; NATIVE "-" when there
 * is none, CODEC and NATIVE "-" when every stream of the set is stored raw), each the best pass after one second of
 * warm-up. With {@code -Dchunkcdm.bench.cpu=true} passes are timed by this thread's CPU time. Before timing, every stream must decode to its full size with our codec and to the same
 * bytes with the native codec. Never run by {@code mvn verify}.
 */
public final class CodecAloneBench {
  private CodecAloneBench() {}

  private interface Pass {
    void run() throws Exception;
  }

  /** A native library decoding one stream ({chunk, position, compressed size, decoded size}) of a set. */
  private interface NativeStream {
    /** Decodes stream {@code s}; returns the bytes it wrote. */
    int decode(int[] s) throws Exception;

    /** The first {@code n} bytes the last {@link #decode} wrote. */
    byte[] output(int n);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    double seconds = Double.parseDouble(args[1]);
    for (String name : List.of(args).subList(2, args.length)) {
      Path file = dir.resolve(name + ".chunks");
      ChunkStreams cs = ChunkStreams.load(file);
      List<BloscHeader> headers = new ArrayList<>();
      int most = 0; // the largest chunk (1 MiB in the codec sets, 8 MiB in a frame's chunks)
      for (byte[] c : cs.chunks) {
        BloscHeader h = BloscHeader.parse(c, 0, c.length);
        headers.add(h);
        most = Math.max(most, h.nbytes());
      }
      byte[] dst = new byte[most];
      byte[] out = new byte[most];
      Pass row = () -> {
        for (byte[] c : cs.chunks) {
          Blosc.decompress(c, 0, c.length, dst, 0, Blosc.Impl.JAVA);
        }
      };
      // Streams.decode refuses a stream that does not decode to its full size, so one untimed pass checks ours
      Pass codec = () -> {
        for (int[] s : cs.streams) {
          Streams.decode(headers.get(s[0]).compressor(), cs.chunks.get(s[0]), s[1], s[2], out, 0, s[3]);
        }
      };
      codec.run();
      // a set without compressed streams (all stored raw) costs its codec nothing: "-" in both codec columns
      NativeStream lib = cs.streams.isEmpty() ? null : nativeStream(headers.get(cs.streams.get(0)[0]).compressor(), cs, out);
      Pass nat = null;
      if (lib != null) {
        checkNative(file, cs, headers, lib, new byte[most]);
        nat = () -> {
          for (int[] s : cs.streams) {
            int n = lib.decode(s);
            if (n != s[3]) {
              throw new IllegalStateException(file + ": the native codec decoded " + n + " bytes, not " + s[3]);
            }
          }
        };
      }
      double r = best(row, cs.total, seconds);
      String c = cs.streams.isEmpty() ? "-" : String.format("%.3f", best(codec, cs.total, seconds));
      String n = nat == null ? "-" : String.format("%.3f", best(nat, cs.total, seconds));
      System.out.printf("%s %.3f %s %s%n", name, r, c, n);
      System.out.flush();
    }
  }

  /**
   * Every stream decodes with the native library to the same bytes as with ours (our whole chunk decode's bytes are
   * checked against python-blosc2's by Blosc2CodecBench).
   */
  private static void checkNative(Path file, ChunkStreams cs, List<BloscHeader> headers, NativeStream lib, byte[] ours)
      throws Exception {
    for (int[] s : cs.streams) {
      int n = lib.decode(s);
      Streams.decode(headers.get(s[0]).compressor(), cs.chunks.get(s[0]), s[1], s[2], ours, 0, s[3]);
      if (n != s[3] || !Arrays.equals(lib.output(n), 0, n, ours, 0, n)) {
        throw new IllegalStateException(file + ": the native codec and ours differ on a stream");
      }
    }
  }

  /** The native library of {@code kind} on the streams of {@code cs}, writing into {@code out}; null when none. */
  private static NativeStream nativeStream(BloscCompressor kind, ChunkStreams cs, byte[] out) {
    switch (kind) {
      case LZ4: {
        com.sun.jna.Function lz4 = com.sun.jna.NativeLibrary.getInstance("lz4").getFunction("LZ4_decompress_safe");
        List<com.sun.jna.Memory> mem = new ArrayList<>();
        for (byte[] c : cs.chunks) {
          com.sun.jna.Memory m = new com.sun.jna.Memory(c.length);
          m.write(0, c, 0, c.length);
          mem.add(m);
        }
        com.sun.jna.Memory nout = new com.sun.jna.Memory(out.length);
        return new NativeStream() {
          @Override
          public int decode(int[] s) {
            return lz4.invokeInt(new Object[] {mem.get(s[0]).share(s[1]), nout, s[2], s[3]});
          }

          @Override
          public byte[] output(int n) {
            return nout.getByteArray(0, n);
          }
        };
      }
      case ZSTD: {
        ZstdDecompressCtx z = new ZstdDecompressCtx();
        return new NativeStream() {
          @Override
          public int decode(int[] s) {
            return z.decompressByteArray(out, 0, s[3], cs.chunks.get(s[0]), s[1], s[2]);
          }

          @Override
          public byte[] output(int n) {
            return out;
          }
        };
      }
      case ZLIB: {
        java.util.zip.Inflater inf = new java.util.zip.Inflater();
        return new NativeStream() {
          @Override
          public int decode(int[] s) throws java.util.zip.DataFormatException {
            inf.reset();
            inf.setInput(cs.chunks.get(s[0]), s[1], s[2]);
            return inf.inflate(out, 0, s[3]);
          }

          @Override
          public byte[] output(int n) {
            return out;
          }
        };
      }
      default:
        return null;
    }
  }

  /** {@link Blosc2CodecBench#bestGBps} of {@code pass}. */
  private static double best(Pass pass, long total, double seconds) {
    return Blosc2CodecBench.bestGBps(() -> {
      try {
        pass.run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, total, seconds);
  }
}
