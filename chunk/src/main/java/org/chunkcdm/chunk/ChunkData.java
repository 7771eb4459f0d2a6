package org.chunkcdm.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.chunkcdm.blosc.PieceSink;

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
   * As {@link #read}, for the only range its reader wants from this chunk (a point of a time series): nothing decoded
   * for it need be kept for later reads, so an implementation may decode less than the blocks the range lies in (a
   * Blosc block stored as one stream per item byte decodes only the start of each stream). Wrappers forward it.
   * Default: {@link #read}.
   */
  default void readOnce(long offset, byte[] dst, int dstOff, int len) throws IOException {
    read(offset, dst, dstOff, len);
  }

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
   * Receives decoded bytes of a chunk (see {@link PieceSink}): {@code len} bytes at {@code a[off..]} are the chunk's
   * bytes from byte {@code at} on, valid only during the call; disjoint pieces may arrive from several threads at once.
   * A typed read ({@link #typed()} non-null) may get some elements stored straight into its array instead.
   */
  interface Pieces extends PieceSink {}

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

  /**
   * The whole decoded content into {@code dst} from its position on (which stays where it is; at least
   * {@link #size()} bytes remain), e.g. a direct buffer that a channel then writes without a copy. A Blosc chunk that
   * native c-blosc decodes goes straight into a direct buffer; the default reads through a per-thread scratch
   * array. Wrappers forward it.
   */
  default void readAll(ByteBuffer dst) throws IOException {
    long n = size();
    if (n > dst.remaining()) {
      throw new IOException("a chunk of " + n + " bytes does not fit the " + dst.remaining() + " bytes left");
    }
    byte[] tmp = ChunkRuns.takeScratch((int) n);
    try {
      read(0, tmp, 0, (int) n);
      dst.put(dst.position(), tmp, 0, (int) n);
    } finally {
      ChunkRuns.giveScratch(tmp);
    }
  }

  /**
   * {@code data} whose read failures pass through {@code context}, e.g. to name the file, variable and chunk in a
   * decoder's message; everything else is {@code data}'s.
   */
  static ChunkData withContext(ChunkData data, java.util.function.UnaryOperator<IOException> context) {
    return new ContextChunkData(data, e -> context.apply((IOException) e), false);
  }

  /** As {@link #withContext}, and unchecked failures of the decoder pass through {@code context} too. */
  static ChunkData withAnyContext(ChunkData data, java.util.function.Function<Exception, IOException> context) {
    return new ContextChunkData(data, context, true);
  }

  /** Decodes a chunk into {@code dst[off..off + size)} (see {@link #decodedOnRead}). */
  interface DecodeInto {
    void decodeInto(byte[] dst, int off) throws IOException;
  }

  /**
   * A chunk of {@code size} bytes decoded when it is first read: straight into the reader's array when the reader takes
   * the whole chunk in one read (a whole read's result or scratch buffer: no chunk-sized array of its own), else once
   * into an array of its own, kept for the reads after it.
   */
  static ChunkData decodedOnRead(long size, DecodeInto decoder) {
    return new DecodedOnRead(size, decoder);
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
