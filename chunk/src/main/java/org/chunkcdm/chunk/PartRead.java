package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.Arrays;

/**
 * A small read of one chunk served by its decoded blocks ("parts"), cached in the cache's low-priority share: a point
 * read decodes one block, a time series one block per chunk. Parts are pinned while the read copies from them (an
 * evicted part's array is reused for another part only once no reader holds it).
 */
final class PartRead {
  /** The read is done. */
  static final int DONE = 0;
  /** The blocks this chunk needed so far reach a quarter of it: decode it whole instead. */
  static final int WHOLE = 1;
  /** The chunk has no blocks to cache: read it the plain way. */
  static final int FALLBACK = 2;
  /** The chunk is not stored: its runs were written as the fill value. */
  private static final int FILLED = 3;

  /** Writes the fill value into the read's runs (the chunk is not stored). */
  interface Filler {
    void fill() throws IOException;
  }

  private final long chunk;
  private final long chunkBytes;
  private final boolean readAhead;
  private final long[] rs; // the read's runs as {src, dst, len} triples, the count last
  private final Filler filler;
  private final ChunkedArray a;
  private final Object key;
  private final ChunkCache cache;
  private final ReadAhead.State st;
  private final Output o;
  private final ChunkData[] box; // receives the chunk when it was opened
  private int bs;
  private long[] blocks; // the blocks the runs need, ascending, distinct
  private byte[][] got;
  private ChunkCache.Pinned[] pins;

  PartRead(long chunk, long chunkBytes, boolean readAhead, long[] runs, Filler filler, ChunkedArray a, Object key,
      ChunkCache cache, ReadAhead.State st, Output o, ChunkData[] box) {
    this.chunk = chunk;
    this.chunkBytes = chunkBytes;
    this.readAhead = readAhead;
    this.rs = runs;
    this.filler = filler;
    this.a = a;
    this.key = key;
    this.cache = cache;
    this.st = st;
    this.o = o;
    this.box = box;
  }

  private ChunkData open() throws IOException {
    if (box[0] == null) {
      box[0] = a.chunk(chunk);
    }
    return box[0];
  }

  /** {@link #DONE}, {@link #WHOLE} or {@link #FALLBACK}. */
  int read() throws IOException {
    bs = st.blockSize;
    if (bs <= 0) {
      ChunkData data = open();
      if (data == null) {
        filler.fill();
        return DONE;
      }
      bs = data.blockSize();
      if (bs <= 0) {
        return FALLBACK;
      }
      st.blockSize = bs;
    }
    if (!cache.partFits(bs)) {
      return FALLBACK;
    }
    blocks = blocksOf(rs, bs);
    got = new byte[blocks.length][];
    pins = new ChunkCache.Pinned[blocks.length];
    try {
      int r = obtainBlocks();
      if (r != DONE) {
        return r == FILLED ? DONE : r;
      }
      copyRuns();
    } finally {
      for (ChunkCache.Pinned h : pins) {
        cache.unpin(h);
      }
    }
    st.lastPart = chunk;
    return DONE;
  }

  /** The distinct blocks of size {@code bs} that the runs ({src, dst, len} triples, count last) touch, ascending. */
  static long[] blocksOf(long[] rs, int bs) {
    int nr = (int) rs[rs.length - 1];
    long[] b = new long[8];
    int nb = 0;
    for (int i = 0; i < nr; i++) {
      long s0 = rs[3 * i];
      long len = rs[3 * i + 2];
      for (long k = s0 / bs; k <= (s0 + len - 1) / bs; k++) {
        if (nb > 0 && b[nb - 1] == k) {
          continue;
        }
        if (nb == b.length) {
          b = Arrays.copyOf(b, nb * 2);
        }
        b[nb++] = k;
      }
    }
    long[] sorted = Arrays.copyOf(b, nb);
    Arrays.sort(sorted);
    int u = 0;
    for (int i = 0; i < nb; i++) {
      if (u == 0 || sorted[u - 1] != sorted[i]) {
        sorted[u++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, u);
  }

  /**
   * Pins the cached blocks and decodes the missing ones: {@link #DONE} when every block is at hand, {@link #WHOLE} or
   * {@link #FALLBACK} as {@link #read}, {@link #FILLED} when the chunk turned out not to be stored.
   */
  private int obtainBlocks() throws IOException {
    long missing = 0;
    for (int i = 0; i < blocks.length; i++) {
      pins[i] = cache.pinPart(key, chunk, blocks[i] * bs);
      got[i] = pins[i] == null ? null : pins[i].data();
      if (got[i] != null && got[i].length != Math.min(bs, chunkBytes - blocks[i] * bs)) {
        got[i] = null; // cached with another block size (chunks of this array differ): not this block
      }
      if (got[i] == null) {
        missing += bs;
      }
    }
    if (missing == 0) {
      holdSingleBlockChunk();
      return DONE;
    }
    if (readsOnInOrder(missing)) {
      return WHOLE;
    }
    ChunkData data = open();
    if (data == null) {
      filler.fill();
      return FILLED;
    }
    if (data.blockSize() != bs) { // chunks of this array differ in block size: learn, serve this one plainly
      st.blockSize = data.blockSize();
      return FALLBACK;
    }
    decodeMissing(data);
    return DONE;
  }

  /**
   * True when the read goes on in order (the block before the first one missing is cached) and the blocks the chunk
   * needed reach a quarter of it: then decode it whole. A first read never does, so a point read decodes one block,
   * and reads hopping about a chunk stay with its blocks.
   */
  private boolean readsOnInOrder(long missing) {
    long have = cache.partBytesOf(key, chunk);
    if (have <= 0 || (missing + have) * 4 < chunkBytes) {
      return false;
    }
    for (int i = 0; i < blocks.length; i++) {
      if (got[i] == null) {
        return blocks[i] > 0 && cache.hasPart(key, chunk, (blocks[i] - 1) * bs);
      }
    }
    return false;
  }

  private void decodeMissing(ChunkData data) throws IOException {
    long size = data.size();
    for (int i = 0; i < blocks.length; i++) {
      if (got[i] == null) {
        long off = blocks[i] * bs;
        if (off >= size) {
          throw new IOException("chunk " + chunk + " holds " + size + " bytes, but bytes from " + off + " are needed");
        }
        // decoded into the array of an evicted part when one of this size is free (no new array to zero)
        byte[] p = cache.partBuffer((int) Math.min(bs, size - off));
        data.read(off, p, 0, p.length);
        if (pins[i] != null) {
          cache.unpin(pins[i]);
        }
        pins[i] = cache.putPinned(key, chunk, off, p);
        got[i] = p;
      }
    }
  }

  /**
   * A chunk of one block read twice in a row (a scan in pieces, a repeated point): its block is held as the whole
   * chunk (no decode), so that a scan is recognised and read ahead. A series visiting each chunk once keeps it a
   * low-priority part. (Its array is then never reused for another part.)
   */
  private void holdSingleBlockChunk() throws IOException {
    if (blocks.length == 1 && blocks[0] == 0 && got[0].length == chunkBytes && st.lastPart == chunk) {
      cache.put(key, chunk, got[0]);
      ReadAhead.wholeUsed(a, key, st, chunk, cache, readAhead);
    }
  }

  private void copyRuns() throws IOException {
    int nr = (int) rs[rs.length - 1];
    for (int i = 0; i < nr; i++) {
      long src = rs[3 * i];
      int dst = (int) rs[3 * i + 1];
      int len = (int) rs[3 * i + 2];
      while (len > 0) {
        long b = src / bs;
        byte[] p = got[Arrays.binarySearch(blocks, b)];
        int in = (int) (src - b * bs);
        int n = Math.min(len, p.length - in);
        if (n <= 0) {
          throw new IOException("chunk " + chunk + ": block " + b + " holds " + p.length + " bytes, but byte " + in
              + " is needed");
        }
        o.put(p, in, dst, n);
        src += n;
        dst += n;
        len -= n;
      }
    }
  }
}
