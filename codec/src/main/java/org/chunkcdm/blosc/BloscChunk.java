package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * One Blosc1 or Blosc2 chunk at {@code src[off..off+len)}: its validated header and (c-blosc2) dictionary, ready to
 * decode whole, one block at a time, a byte range, or in cache-sized pieces. Parsing checks every size the header
 * declares against {@code len}; nothing is decoded until asked. Immutable: decodes from any number of threads at once.
 */
public final class BloscChunk {
  private final byte[] src;
  private final int off;
  private final int len;
  private final BloscHeader header;
  private final ChunkDictionary dict; // a copy: never refers to src

  private BloscChunk(byte[] src, int off, int len, BloscHeader header, ChunkDictionary dict) {
    this.src = src;
    this.off = off;
    this.len = len;
    this.header = header;
    this.dict = dict;
  }

  /** Validates the chunk at {@code src[off..off+len)}; a {@link CodecException} says what is wrong. */
  public static BloscChunk parse(byte[] src, int off, int len) throws IOException {
    BloscHeader h = BloscHeader.parse(src, off, len);
    return new BloscChunk(src, off, len, h, JavaBlosc.dictionary(h, src, off));
  }

  /** The whole array as one chunk. */
  public static BloscChunk parse(byte[] chunk) throws IOException {
    return parse(chunk, 0, chunk.length);
  }

  /**
   * The same chunk in another array at the same offset (e.g. its bytes read again from a file), checked to have the
   * same sizes; shares the parsed dictionary.
   */
  public BloscChunk rebind(byte[] again) throws IOException {
    BloscHeader h;
    try {
      h = BloscHeader.parse(again, off, len);
    } catch (IOException e) {
      throw new CodecException("Blosc chunk changed since it was first read: " + e.getMessage(), e);
    }
    if (h.nbytes() != header.nbytes() || h.cbytes() != header.cbytes() || h.blocksize() != header.blocksize()) {
      throw new CodecException("Blosc chunk changed since it was first read (" + header.cbytes() + " stored bytes then, "
          + h.cbytes() + " now)");
    }
    return new BloscChunk(again, off, len, h, dict);
  }

  public BloscHeader header() {
    return header;
  }

  /** Decoded size in bytes. */
  public int size() {
    return header.nbytes();
  }

  /** The decoded chunk, in pure Java, in the calling thread. */
  public byte[] decode() throws IOException {
    MemoryLimit.check(header.nbytes(), "Blosc chunk");
    byte[] out = new byte[header.nbytes()];
    decode(out, 0, BlockExecutor.SERIAL, Blosc.Impl.JAVA);
    return out;
  }

  /**
   * Decodes the whole chunk into {@code dst[dp..dp+size())}: with {@code impl} (native c-blosc only where
   * {@link Blosc.Impl} says so), the blocks of a large chunk on {@code ex}.
   */
  public void decode(byte[] dst, int dp, BlockExecutor ex, Blosc.Impl impl) throws IOException {
    Blosc.decompress(header, src, off, dst, dp, impl, ex);
  }

  /**
   * Decodes the whole chunk into {@code dst} from its position on (position unchanged) when {@code impl} hands it to
   * native c-blosc, which writes a direct buffer in place; false, with nothing written, when pure Java would decode it.
   */
  public boolean decodeNative(java.nio.ByteBuffer dst, Blosc.Impl impl) throws IOException {
    return Blosc.decompressNative(header, src, off, dst, impl);
  }

  /**
   * Decodes block {@code b} into {@code dst[dp..]}. A chunk with the DELTA filter needs its decoded block 0 in
   * {@code block0[0..]} for every other block ({@code null} for block 0 itself).
   */
  public void decodeBlock(int b, byte[] dst, int dp, byte[] block0) throws IOException {
    if (b < 0 || b >= Math.max(1, header.nblocks())) {
      throw new IllegalArgumentException("block " + b + " of a chunk of " + header.nblocks() + " blocks");
    }
    JavaBlosc.decodeBlock(header, src, off, b, dst, dp, block0, 0, dict);
  }

  /**
   * Blosc's "getitem": decodes only the blocks covering bytes {@code [start, start+count)} of the decoded chunk (plus
   * block 0 when DELTA needs it) into {@code dst[dp..]}.
   */
  public void decodeRange(int start, int count, byte[] dst, int dp) throws IOException {
    JavaBlosc.decodeRange(header, src, off, start, count, dst, dp, dict);
  }

  /**
   * Whether {@link #decodePieces} serves this chunk with {@code impl}: true when pure Java decodes it (or it is stored
   * raw and native decoding was not asked for), false when native c-blosc would decode it (whole chunks only).
   */
  public boolean decodesInPieces(Blosc.Impl impl) {
    return impl != Blosc.Impl.NATIVE && (header.isMemcpyed() || Blosc.decodesInJava(header, impl));
  }

  /**
   * Hands the whole decoded chunk to {@code sink} without a chunk-sized destination: a chunk stored raw as its stored
   * bytes (no copy), others block by block through a per-thread buffer that stays in the CPU cache, the blocks of a
   * large chunk on {@code ex} (the sink then gets disjoint pieces from several threads). Every piece starts at a
   * multiple of {@code unit} bytes; false (nothing handed over) when the block size does not allow that.
   */
  public boolean decodePieces(int unit, PieceSink sink, BlockExecutor ex) throws IOException {
    return JavaBlosc.decodePieces(header, src, off, dict, unit, sink, ex);
  }
}
