package org.chunkcdm.sframe;

import java.io.IOException;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FormatException;

/**
 * A Blosc2 contiguous frame held in a byte array, read by the same parser as frame files ({@code Frame}: header,
 * metalayers, offsets index, trailer, every size checked against the array) and, when it carries a {@code b2nd}
 * metalayer, the same b2nd layout code ({@code B2nd}: block padding dropped, a byte range decodes only the blocks
 * it needs). Made for formats that store whole frames as their chunks, such as the HDF5 Blosc2 filter (32026).
 * Thread-safe once parsed; the array is not copied and must not change while the frame is used.
 */
public final class ContiguousFrame {
  private final Frame f;
  private final B2nd nd;

  private ContiguousFrame(Frame f, B2nd nd) {
    this.f = f;
    this.nd = nd;
  }

  /**
   * Parses the frame in {@code frame}; {@code name} starts every error message (say which file, variable and
   * chunk held the frame). A sparse frame, a lying header or index, or a bad b2nd metalayer is an IOException.
   */
  public static ContiguousFrame parse(byte[] frame, String name) throws IOException {
    Frame f = Frame.of(frame, name);
    byte[] meta = f.metalayers.get("b2nd");
    B2nd nd = null;
    if (meta != null) {
      try {
        nd = B2nd.parse(meta, f.typesize);
      } catch (IOException e) {
        throw f.error(e.getMessage());
      }
    }
    return new ContiguousFrame(f, nd);
  }

  /** Number of chunks in the offsets index. */
  public int chunks() {
    return f.nchunks();
  }

  /** Uncompressed bytes of the whole frame (the header's nbytes). */
  public long nbytes() {
    return f.nbytes;
  }

  /** The item size the frame was compressed with. */
  public int typesize() {
    return f.typesize;
  }

  /** True when the frame holds a b2nd N-d array. */
  public boolean isB2nd() {
    return nd != null;
  }

  /** The b2nd array shape, or null when {@link #isB2nd()} is false. */
  public long[] shape() {
    return nd == null ? null : nd.shape.clone();
  }

  /** The b2nd chunk shape, or null. */
  public int[] chunkShape() {
    return nd == null ? null : nd.chunkshape.clone();
  }

  /** The b2nd block shape, or null. */
  public int[] blockShape() {
    return nd == null ? null : nd.blockshape.clone();
  }

  /** e.g. "blosc2 zstd clevel 5; filters: shuffle; typesize 8; blocksize 8192". */
  public String compression() {
    return f.compression();
  }

  /**
   * The decoded content of chunk {@code k}: for a b2nd frame in C order over the b2nd chunk shape with items of
   * the frame's typesize (block padding dropped; {@link ChunkData#blockSize()} is the Blosc block size only where
   * the layout already is C order), otherwise the chunk's bytes. A zeros or uninitialized index entry reads as
   * zeros. Decoding happens on reads, block by block for small ones; errors name the frame and chunk.
   */
  public ChunkData chunk(int k) throws IOException {
    if (k < 0 || k >= f.nchunks()) {
      throw new FormatException(f.name + ": no chunk " + k + " (the frame has " + f.nchunks() + ")");
    }
    long stored = f.chunkBytes()[k];
    if (nd != null) {
      long ext = Math.multiplyExact(nd.extItems(), (long) f.typesize);
      if (stored != ext) {
        throw f.chunkError(k, "holds " + stored + " bytes, but a b2nd chunk of extchunkshape "
            + java.util.Arrays.toString(nd.extchunkshape) + " and typesize " + f.typesize + " needs " + ext);
      }
    }
    ChunkData c = f.chunk(k);
    if (c == null) {
      c = new Zeros(stored);
    }
    return nd == null ? c : nd.view(c, f.typesize);
  }

  /** A zeros / uninitialized index entry. */
  private static final class Zeros implements ChunkData {
    private final long size;

    Zeros(long size) {
      this.size = size;
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
      if (offset < 0 || len < 0 || offset > size - len) {
        throw new FormatException("read of " + len + " bytes at " + offset + " outside a zeros chunk of " + size + " bytes");
      }
      java.util.Arrays.fill(dst, dstOff, dstOff + len, (byte) 0);
    }
  }
}
