package org.chunkcdm.blosc;

import java.io.IOException;
import java.util.HashMap;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;
import java.util.Map;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.FetchBuffers;

/**
 * One Blosc chunk as {@link ChunkData}: a byte-range read decodes only the blocks covering it (kept for
 * later reads of the same instance); {@link #readAll()} decodes the whole chunk once (natively when
 * allowed). Thread-safe.
 */
public final class BloscChunkData implements ChunkData {
  private byte[] src; // null after release() of a pooled chunk until a read fetches the bytes again
  private final int off;
  private final int len;
  private boolean pooled; // src came from FetchBuffers and goes back on release()
  private final Source again; // fetches the stored bytes again after release(); null = src stays for good
  private final BloscHeader header;
  private final ChunkDictionary dict; // parsed once for every block read
  private final Map<Integer, byte[]> blocks = new HashMap<>();
  private byte[] all;
  private final String where; // "file: chunk k of 'var'" for error messages, or null

  private BloscChunkData(byte[] src, int off, int len, BloscHeader header, String where, Source again)
      throws IOException {
    this.where = where;
    this.src = src;
    this.off = off;
    this.len = len;
    this.header = header;
    this.again = again;
    this.dict = JavaBlosc.dictionary(header, src, off); // a copy: never refers to src
  }

  /** Fetches a chunk's stored bytes again: an array holding them at the same offset as the first fetch. */
  public interface Source {
    byte[] fetch() throws IOException;
  }

  /** Validates the chunk header at {@code src[off..off+len)}; nothing is decoded yet. */
  public static BloscChunkData of(byte[] src, int off, int len) throws IOException {
    return new BloscChunkData(src, off, len, BloscHeader.parse(src, off, len), null, null);
  }

  /**
   * As {@link #of(byte[], int, int)}; every error (header or decoding, also later in a read) starts with
   * {@code where}, which names the file, variable and chunk, e.g. {@code "/d/x.bcolz/data/__3.blp: chunk 3 of 'x'"}.
   */
  public static BloscChunkData of(byte[] src, int off, int len, String where) throws IOException {
    try {
      return new BloscChunkData(src, off, len, BloscHeader.parse(src, off, len), where, null);
    } catch (IOException e) {
      throw FormatException.in(where, e);
    }
  }

  /**
   * As {@link #of(byte[], int, int, String)} over {@code src} taken from {@link FetchBuffers#take}: this object
   * owns it from now on and gives it back on {@link #release()} (also when this call throws). A read after the
   * release fetches the stored bytes again through {@code again} (a new array, not pooled), so an instance kept
   * for later reads never reads a buffer given back.
   */
  public static BloscChunkData pooled(byte[] src, int off, int len, String where, Source again) throws IOException {
    try {
      BloscChunkData d = new BloscChunkData(src, off, len, BloscHeader.parse(src, off, len), where, again);
      d.pooled = true;
      return d;
    } catch (IOException | RuntimeException e) {
      FetchBuffers.give(src);
      if (e instanceof IOException) {
        throw where == null ? (IOException) e : FormatException.in(where, (IOException) e);
      }
      throw (RuntimeException) e;
    }
  }

  /** Gives a pooled buffer of stored bytes back; later reads fetch them again. No effect on other instances. */
  @Override
  public synchronized void release() {
    if (again == null) {
      return; // not pooled: the bytes stay
    }
    if (pooled && src != null) {
      FetchBuffers.give(src);
    }
    pooled = false;
    src = null;
  }

  /** The stored bytes, fetched again after a release (checked to be the same chunk). */
  private byte[] src() throws IOException {
    byte[] s = src;
    if (s == null) {
      s = again.fetch();
      BloscHeader h;
      try {
        h = BloscHeader.parse(s, off, len);
      } catch (IOException e) {
        throw new FormatException("Blosc chunk changed on disk since it was opened: " + e.getMessage(), e);
      }
      if (h.nbytes() != header.nbytes() || h.cbytes() != header.cbytes() || h.blocksize() != header.blocksize()) {
        throw new FormatException("Blosc chunk changed on disk since it was opened (" + header.cbytes() + " stored bytes then, "
            + h.cbytes() + " now)");
      }
      src = s;
    }
    return s;
  }
  private IOException named(IOException e) {
    return where == null ? e : FormatException.in(where, e);
  }

  public BloscHeader header() {
    return header;
  }

  @Override
  public long size() {
    return header.nbytes();
  }

  /** The Blosc block size, 0 for a chunk without blocks (memcpyed or special). */
  @Override
  public int blockSize() {
    return header.nblocks() == 0 || header.blocksize() <= 0 ? 0 : header.blocksize();
  }

  @Override
  public synchronized byte[] readAll() throws IOException {
    if (all == null) {
      try {
        Bounds.checkAllocation(header.nbytes(), "Blosc chunk");
        byte[] out = new byte[header.nbytes()];
        Blosc.decompress(header, src(), off, out, 0, Blosc.configured());
        all = out;
      } catch (IOException e) {
        throw named(e);
      }
      blocks.clear();
    }
    return all;
  }

  /**
   * True when the pure-Java decoder serves this chunk, and for a chunk stored raw (its pieces are its stored bytes)
   * unless native decoding was asked for; false when native c-blosc decodes it (whole chunks only).
   */
  @Override
  public boolean readsInPieces() {
    Blosc.Impl impl = Blosc.configured();
    return impl != Blosc.Impl.NATIVE && (header.isMemcpyed() || Blosc.decodesInJava(header, impl));
  }

  /**
   * The decoded chunk in pieces ({@link JavaBlosc#decodePieces}): a chunk stored raw straight from its stored
   * bytes, others block by block through a small per-thread buffer; a chunk decoded whole before comes from
   * that array. Errors name the chunk as those of the other reads.
   */
  @Override
  public synchronized void readPieces(int unit, Pieces sink) throws IOException {
    if (all == null && readsInPieces()) {
      try {
        if (JavaBlosc.decodePieces(header, src(), off, dict, unit, sink)) {
          return;
        }
      } catch (IOException e) {
        throw named(e);
      }
    }
    byte[] out = readAll(); // as one piece; names its errors
    sink.accept(out, 0, 0, out.length);
  }

  @Override
  public synchronized void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
    try {
      readRange(offset, dst, dstOff, len);
    } catch (IOException e) {
      throw named(e);
    }
  }

  private void readRange(long offset, byte[] dst, int dstOff, int len) throws IOException {
    int n = header.nbytes();
    if (offset < 0 || len < 0 || offset > n - len) {
      throw new IOException("Blosc chunk: read of " + len + " bytes at " + offset + " outside its " + n + " bytes");
    }
    if (len == 0) {
      return;
    }
    if (all != null) {
      System.arraycopy(all, (int) offset, dst, dstOff, len);
      return;
    }
    byte[] src = src();
    if (offset == 0 && len == n && blocks.isEmpty()) { // whole chunk: straight into the caller's buffer
      Blosc.decompress(header, src, off, dst, dstOff, Blosc.configured());
      return;
    }
    int bs = header.blocksize();
    if (header.nblocks() == 0 || bs <= 0) { // special, memcpyed: no decoding work
      JavaBlosc.decodeRange(header, src, off, (int) offset, len, dst, dstOff, dict);
      return;
    }
    int start = (int) offset;
    int end = start + len;
    int b0 = start / bs;
    if (start % bs == 0 && len == Math.min(bs, n - start) && !blocks.containsKey(b0) && !header.hasDelta()) {
      // exactly one block not decoded before (a point read caching the block itself): straight into dst (with
      // DELTA, block 0 is kept below as every other block's reference)
      JavaBlosc.decodeBlock(header, src, off, b0, dst, dstOff, null, 0, dict);
      return;
    }
    for (int b = start / bs; b <= (end - 1) / bs; b++) {
      int bStart = b * bs;
      byte[] block = block(b);
      int from = Math.max(start, bStart);
      int to = Math.min(end, bStart + block.length);
      System.arraycopy(block, from - bStart, dst, dstOff + from - start, to - from);
    }
  }

  private byte[] block(int b) throws IOException {
    byte[] blk = blocks.get(b);
    if (blk == null) {
      int bs = header.blocksize();
      int bLen = Math.min(bs, header.nbytes() - b * bs);
      byte[] ref = null;
      if (header.hasDelta() && b > 0) {
        ref = block(0);
      }
      Bounds.checkAllocation(bLen, "Blosc chunk block " + b); // a header may claim one 2 GiB block
      blk = new byte[bLen];
      JavaBlosc.decodeBlock(header, src(), off, b, blk, 0, ref, 0, dict);
      blocks.put(b, blk);
    }
    return blk;
  }
}
