package org.chunkcdm.chunk;

import java.io.IOException;

/**
 * The decoded content of one chunk, read by byte range. Implementations decode only what a range needs
 * (a Blosc chunk decodes only the blocks covering it), so a point read costs one block.
 */
public interface ChunkData {
  /** Decoded size in bytes. */
  long size();

  /** Copies decoded bytes {@code [offset, offset+len)} into {@code dst[dstOff..]}. */
  void read(long offset, byte[] dst, int dstOff, int len) throws IOException;

  /**
   * Decoded bytes per independently decoded block (the last may be shorter), 0 when the content has no such
   * blocks. A {@link #read} of the block-aligned range {@code [b*blockSize, (b+1)*blockSize)} then decodes
   * block b alone, so section reads can cache decoded blocks of a chunk they need only a little of.
   * Wrappers that present the inner content unchanged (byte for byte at the same offsets) forward it.
   */
  default int blockSize() {
    return 0;
  }

  /**
   * Tells the content that its reader is done with it: an implementation over a pooled buffer of stored bytes
   * ({@link FetchBuffers}) gives the buffer back. The one that got this object from {@link ChunkedArray#chunk}
   * calls it once it has read what it needed; reads after it remain correct (the stored bytes are fetched
   * again), so a reader that keeps the object loses only the reuse. Arrays returned by {@link #readAll()} are
   * not affected. Wrappers forward it. Default: nothing.
   */
  default void release() {}

  /**
   * Receives decoded bytes of a chunk: {@code len} bytes at {@code a[off..]} are the chunk's bytes from byte
   * {@code at} on. The array is valid only during the call (it may be a reused buffer or the stored bytes
   * themselves): copy from it, never keep or modify it. Calls for disjoint pieces may come from several threads
   * at once.
   */
  interface Pieces {
    void accept(byte[] a, int off, long at, int len) throws IOException;

    /**
     * The primitive array these pieces are converted into, when they are (a typed read), else null (the
     * default). A {@link #readPieces} implementation may then write some of the chunk's elements straight into
     * it (e.g. a Blosc block's last unshuffle storing {@code long}s) instead of handing their bytes to
     * {@link #accept}; every element still arrives exactly once, one way or the other.
     */
    default Typed typed() {
      return null;
    }
  }

  /**
   * Where a typed read puts a chunk's elements: chunk byte {@code at} (a multiple of {@code itemSize}) is the
   * first byte of element {@code base + at / itemSize} of {@code array}, a {@code short[]} (item size 2),
   * {@code int[]} or {@code float[]} (4), {@code long[]} or {@code double[]} (8) holding the stored items
   * converted from {@code order} (float32/float64 as their IEEE bits, integers as their bit pattern). Item sizes
   * whose typed read converts values (float16, bool) have no such destination.
   */
  final class Typed {
    public final Object array;
    public final int base;
    public final int itemSize;
    public final java.nio.ByteOrder order;

    public Typed(Object array, int base, int itemSize, java.nio.ByteOrder order) {
      Class<?> c = array.getClass().getComponentType();
      int want = c == short.class ? 2 : c == int.class || c == float.class ? 4 : c == long.class || c == double.class ? 8 : 0;
      if (want == 0 || want != itemSize || base < 0) {
        throw new IllegalArgumentException("no typed destination of " + itemSize + "-byte items in a "
            + array.getClass().getSimpleName() + " at " + base);
      }
      this.array = array;
      this.base = base;
      this.itemSize = itemSize;
      this.order = order;
    }

    /** The element that chunk byte {@code at} starts. */
    public int index(long at) {
      return base + (int) (at / itemSize);
    }
  }

  /**
   * Whether {@link #readPieces} hands the content over without first decoding all of it into one array: in
   * pieces small enough to stay in the CPU cache while the receiver copies them (a Blosc chunk block by block),
   * or straight from the stored bytes (a Blosc chunk stored raw). A typed read (which converts bytes into a
   * {@code double[]} etc. and cannot decode into its destination) then saves a pass over a chunk-sized scratch
   * array. Wrappers that present the inner content unchanged forward it. Default false.
   */
  default boolean readsInPieces() {
    return false;
  }

  /**
   * Hands the whole decoded content to {@code sink}, every byte exactly once, in pieces (see {@link Pieces}) that
   * start at multiples of {@code unit} bytes (e.g. the item size of a typed read, so that no item is split).
   * Default: {@link #readAll()} as one piece.
   */
  default void readPieces(int unit, Pieces sink) throws IOException {
    byte[] all = readAll();
    sink.accept(all, 0, 0, (int) Math.min(all.length, size()));
  }

  /** The whole decoded content (may return an internal array: do not modify). */
  default byte[] readAll() throws IOException {
    long n = size();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IOException("chunk of " + n + " bytes is too large to decode in one piece");
    }
    byte[] out = new byte[(int) n];
    read(0, out, 0, out.length);
    return out;
  }

  /** Chunk content already in memory. */
  static ChunkData of(byte[] bytes) {
    return new ChunkData() {
      @Override
      public long size() {
        return bytes.length;
      }

      @Override
      public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
        if (offset < 0 || len < 0 || offset + len > bytes.length) {
          throw new IOException("read of " + len + " bytes at " + offset + " outside a chunk of " + bytes.length + " bytes");
        }
        System.arraycopy(bytes, (int) offset, dst, dstOff, len);
      }

      @Override
      public byte[] readAll() {
        return bytes;
      }
    };
  }
}
