package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscChunk;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;

/**
 * One Blosc chunk as {@link ChunkData}: a byte-range read decodes only the blocks covering it (kept for
 * later reads of the same instance); {@link #readAll()} decodes the whole chunk once (natively when
 * allowed). Thread-safe.
 */
public final class BloscChunkData implements ChunkData {
  private BloscChunk chunk; // null after release() of a pooled chunk until a read fetches the bytes again
  private final BloscChunk first; // as parsed: header and dictionary (its bytes may have gone back to the pool)
  private boolean pooled; // the stored bytes came from FetchBuffers and go back on release()
  private byte[] pooledBytes;
  private final Source again; // fetches the stored bytes again after release(); null = they stay for good
  private final BloscHeader header;
  private final Map<Integer, byte[]> blocks = new HashMap<>();
  private byte[] all;
  private final String where; // "file: chunk k of 'var'" for error messages, or null

  private BloscChunkData(BloscChunk chunk, String where, Source again) {
    this.where = where;
    this.chunk = chunk;
    this.first = chunk;
    this.header = chunk.header();
    this.again = again;
  }

  /** Fetches a chunk's stored bytes again: an array holding them at the same offset as the first fetch. */
  public interface Source {
    byte[] fetch() throws IOException;
  }

  /** Validates the chunk header at {@code src[off..off+len)}; nothing is decoded yet. */
  public static BloscChunkData of(byte[] src, int off, int len) throws IOException {
    return new BloscChunkData(BloscChunk.parse(src, off, len), null, null);
  }

  /**
   * As {@link #of(byte[], int, int)}; every error (header or decoding, also later in a read) starts with
   * {@code where}, which names the file, variable and chunk, e.g. {@code "/d/x.bcolz/data/__3.blp: chunk 3 of 'x'"}.
   */
  public static BloscChunkData of(byte[] src, int off, int len, String where) throws IOException {
    try {
      return new BloscChunkData(BloscChunk.parse(src, off, len), where, null);
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
      BloscChunkData d = new BloscChunkData(BloscChunk.parse(src, off, len), where, again);
      d.pooled = true;
      d.pooledBytes = src;
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
    if (pooled && pooledBytes != null) {
      FetchBuffers.give(pooledBytes);
    }
    pooled = false;
    pooledBytes = null;
    chunk = null;
  }

  /** The chunk over its stored bytes, fetched again after a release (checked to be the same chunk). */
  private BloscChunk chunk() throws IOException {
    BloscChunk c = chunk;
    if (c == null) {
      try {
        c = first.rebind(again.fetch());
      } catch (org.chunkcdm.blosc.CodecException e) {
        throw new FormatException(e.getMessage().replace("since it was first read", "on disk since it was opened"), e);
      }
      chunk = c;
    }
    return c;
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
        chunk().decode(out, 0, DecodePool.BLOCKS, Blosc.configured());
        all = out;
      } catch (IOException e) {
        throw named(e);
      }
      blocks.clear();
    }
    return all;
  }

  /** Native c-blosc decodes the whole chunk straight into {@code dst} where it would decode it; else as the default. */
  @Override
  public void readAll(java.nio.ByteBuffer dst) throws IOException {
    synchronized (this) {
      try {
        if (all == null && blocks.isEmpty() && chunk().decodeNative(dst, Blosc.configured())) {
          return;
        }
      } catch (IOException e) {
        throw named(e);
      }
    }
    ChunkData.super.readAll(dst);
  }

  /**
   * True when the pure-Java decoder serves this chunk, and for a chunk stored raw (its pieces are its stored bytes)
   * unless native decoding was asked for; false when native c-blosc decodes it (whole chunks only).
   */
  @Override
  public boolean readsInPieces() {
    return first.decodesInPieces(Blosc.configured());
  }

  /**
   * The decoded chunk in pieces ({@link BloscChunk#decodePieces}): a chunk stored raw straight from its stored
   * bytes, others block by block through a small per-thread buffer; a chunk decoded whole before comes from
   * that array. Errors name the chunk as those of the other reads.
   */
  @Override
  public synchronized void readPieces(int unit, Pieces sink) throws IOException {
    if (all == null && readsInPieces()) {
      try {
        if (chunk().decodePieces(unit, sink, DecodePool.BLOCKS)) {
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

  /**
   * A range inside one block not decoded before is decoded alone ({@link BloscChunk#decodeRange}: from the start of
   * each stream of a split block) and not kept; other ranges as {@link #read}.
   */
  @Override
  public synchronized void readOnce(long offset, byte[] dst, int dstOff, int len) throws IOException {
    int bs = header.blocksize();
    if (all == null && header.nblocks() > 0 && bs > 0 && !header.hasDelta() && offset >= 0 && len > 0
        && offset + len <= header.nbytes() && offset / bs == (offset + len - 1) / bs
        && !blocks.containsKey((int) (offset / bs))) {
      try {
        chunk().decodeRange((int) offset, len, dst, dstOff);
      } catch (IOException e) {
        throw named(e);
      }
      return;
    }
    read(offset, dst, dstOff, len);
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
    BloscChunk c = chunk();
    if (offset == 0 && len == n && blocks.isEmpty()) { // whole chunk: straight into the caller's buffer
      c.decode(dst, dstOff, DecodePool.BLOCKS, Blosc.configured());
      return;
    }
    int bs = header.blocksize();
    if (header.nblocks() == 0 || bs <= 0) { // special, memcpyed: no decoding work
      c.decodeRange((int) offset, len, dst, dstOff);
      return;
    }
    int start = (int) offset;
    int end = start + len;
    int b0 = start / bs;
    if (start % bs == 0 && len == Math.min(bs, n - start) && !blocks.containsKey(b0) && !header.hasDelta()) {
      // exactly one block not decoded before (a point read caching the block itself): straight into dst (with
      // DELTA, block 0 is kept below as every other block's reference)
      c.decodeBlock(b0, dst, dstOff, null);
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
      chunk().decodeBlock(b, blk, 0, ref);
      blocks.put(b, blk);
    }
    return blk;
  }
}
