package org.chunkcdm.chunk;

import java.io.IOException;
import org.chunkcdm.blosc.TypedDestination;
import org.chunkcdm.io.Bounds;

/**
 * Where a chunk's decoded bytes go: runs of the chunk copied into the output ({@link RunSink}, {@link ArraySink}),
 * pieces of a decoder handed straight to the output ({@link PieceSink}), and the per-thread scratch buffers a chunk is
 * decoded into when it cannot go to the output directly.
 */
final class ChunkRuns {
  private ChunkRuns() {}

  /** Receives one run: {@code len} bytes of the chunk from {@code src} go to output byte {@code dst}. */
  interface RunSink {
    void copy(long src, int dst, int len) throws IOException;
  }

  /** Runs copied out of a decoded chunk held in an array. */
  static final class ArraySink implements RunSink {
    final byte[] src;
    final int size; // bytes of src that hold the chunk
    final Output out;

    ArraySink(byte[] src, Output out) {
      this(src, src.length, out);
    }

    ArraySink(byte[] src, int size, Output out) {
      this.src = src;
      this.size = size;
      this.out = out;
    }

    @Override
    public void copy(long s, int dst, int len) throws IOException {
      if (s < 0 || s + len > size) {
        throw new IOException("chunk holds " + size + " bytes, but bytes " + s + ".." + (s + len) + " are needed");
      }
      out.put(src, (int) s, dst, len);
    }
  }

  /**
   * Whether typed reads offer decoders their destination array ({@link ChunkData.Pieces#typed()}), so that a Blosc
   * block's last unshuffle stores the elements straight into it instead of into a piece buffer that is then copied.
   * Off only in tests that compare both ways.
   */
  static volatile boolean typedPieces = true;

  /** The pieces of a chunk whose decoded bytes land in one run of the output from section byte {@code base}. */
  static final class PieceSink implements ChunkData.Pieces {
    private final Output out;
    private final int base;

    PieceSink(Output out, int base) {
      this.out = out;
      this.base = base;
    }

    @Override
    public void accept(byte[] a, int off, long at, int len) {
      out.put(a, off, base + (int) at, len);
    }

    @Override
    public TypedDestination typed() {
      return typedPieces ? out.typed(base) : null;
    }
  }

  /** A scratch buffer larger than this is not kept by its thread after use. */
  private static final int SCRATCH_KEEP = 16 << 20;

  private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1][]);

  /**
   * A per-thread buffer of at least {@code n} bytes, taken from the thread until {@link #giveScratch}: a thread
   * that joins decode work while it holds one (work stealing inside a nested decode) gets another, never the
   * one in use.
   */
  static byte[] takeScratch(int n) throws IOException {
    byte[][] s = SCRATCH.get();
    byte[] b = s[0];
    if (b == null || b.length < n) {
      Bounds.checkAllocation(n, "decode buffer");
      return new byte[Math.max(n, 4096)];
    }
    s[0] = null;
    return b;
  }

  /** Hands a buffer of {@link #takeScratch} back to this thread (kept when not too large). */
  static void giveScratch(byte[] b) {
    if (b.length <= SCRATCH_KEEP) {
      byte[][] s = SCRATCH.get();
      if (s[0] == null || s[0].length < b.length) {
        s[0] = b;
      }
    }
  }
}
