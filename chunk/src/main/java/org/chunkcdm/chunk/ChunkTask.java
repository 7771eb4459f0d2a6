package org.chunkcdm.chunk;

import java.io.IOException;
import org.chunkcdm.chunk.ChunkRuns.ArraySink;
import org.chunkcdm.chunk.ChunkRuns.PieceSink;
import org.chunkcdm.chunk.ChunkRuns.RunSink;

/**
 * Fetching one chunk of a section read and copying its selected bytes into the output: from the cache (whole chunks,
 * or decoded blocks for small reads: {@link PartRead}), decoded straight into the output when the chunk lands in one
 * piece, scattered from scratch when a large read covers it whole, else decoded whole into the cache or read run by
 * run. A section plan (RegularPlan, FlatPlan) makes one task per chunk and says which runs it copies.
 */
abstract class ChunkTask {
  /** Chunks opened by section reads since start. */
  static final java.util.concurrent.atomic.LongAdder CHUNKS_TOUCHED = new java.util.concurrent.atomic.LongAdder();
  /** Whole chunks of large reads decoded into scratch and scattered into the output. */
  static final java.util.concurrent.atomic.LongAdder SCATTERED = new java.util.concurrent.atomic.LongAdder();

  final long chunk;
  final long chunkBytes; // decoded size the chunk should have (full chunk extent)
  long bytes; // bytes this task copies
  boolean readAhead; // may decode the next chunk ahead on a decode thread
  boolean scatter; // part of a large read: a chunk it covers entirely is decoded and scattered, not cached
  boolean covers; // selects every element of the chunk that lies inside the array
  boolean once; // part of a read of more small pieces of chunks than the cache's parts share holds: none cached

  ChunkTask(long chunk, long chunkBytes) {
    this.chunk = chunk;
    this.chunkBytes = chunkBytes;
  }

  /** The key the array's chunks and parts have in {@code cache}, or null when the cache keeps nothing. */
  static Object cacheKey(ChunkedArray a, ChunkCache cache) {
    return cache.maxBytes() == 0 ? null : a.cacheKey();
  }

  /** Calls {@code sink.copy(offsetInChunk, outOffset, len)} for every run. */
  abstract void runs(RunSink sink) throws IOException;

  abstract Output out();

  void run(ChunkedArray a, ChunkCache cache) throws IOException {
    CHUNKS_TOUCHED.increment();
    Object key = cacheKey(a, cache);
    Output o = out();
    if (key != null) {
      byte[] cached = cache.get(key, chunk);
      if (cached == null) {
        cached = cache.awaitLoading(key, chunk); // another read or the read-ahead is decoding it
      }
      if (cached != null) {
        ReadAhead.wholeUsed(a, key, ReadAhead.state(key), chunk, cache, readAhead);
        runs(new ArraySink(cached, o));
        return;
      }
    }
    boolean small = key != null && bytes * 4 < chunkBytes && !once;
    ReadAhead.State st = small ? ReadAhead.state(key) : null;
    boolean seq = small && st.isNext(chunk);
    ChunkData[] box = new ChunkData[1];
    try {
      readChunk(a, key, cache, st, small, seq, o, box);
    } finally {
      if (box[0] != null) {
        box[0].release(); // done with it: a pooled buffer of stored bytes goes back
      }
    }
  }

  /** The part of {@link #run} that opens the chunk; {@code box[0]} receives it for the release. */
  private void readChunk(ChunkedArray a, Object key, ChunkCache cache, ReadAhead.State st, boolean small,
      boolean seq, Output o, ChunkData[] box) throws IOException {
    boolean promote = false;
    if (small && !seq) {
      int r = new PartRead(chunk, chunkBytes, readAhead, collectRuns(), () -> fill(a, o), a, key, cache, st, o, box)
          .read();
      if (r == PartRead.DONE) {
        return;
      }
      promote = r == PartRead.WHOLE;
    }
    ChunkData data = box[0] != null ? box[0] : a.chunk(chunk);
    box[0] = data;
    if (data == null) {
      fill(a, o);
      return;
    }
    long[] single = singleRun();
    if (single != null && single[0] == 0 && single[2] == data.size()) {
      decodeIntoOutput(a, data, cache, o, (int) single[1], (int) single[2]);
    } else if (scatter && covers && data.size() <= Integer.MAX_VALUE - 16) {
      scatterWhole(data, cache, o);
    } else if (bytes * 4 >= data.size() || seq || promote) {
      copyFromWhole(a, data, key, cache, st, o);
    } else if (single != null) {
      copyRun(data, o, single[0], (int) single[1], (int) single[2], true);
    } else {
      copyRunByRun(data, o);
    }
  }

  /**
   * The chunk lands in one piece of the output: decoded straight into it (or, for a typed read, piece by piece while
   * each piece is in the CPU cache, or into scratch and then converted), bypassing the cache.
   */
  static void decodeIntoOutput(ChunkedArray a, ChunkData data, ChunkCache cache, Output o, int at, int len)
      throws IOException {
    cache.countChunkDecode();
    byte[] direct = o.bytes();
    java.nio.ByteBuffer buffer = o.buffer();
    if (direct != null) {
      data.read(0, direct, o.bytesOffset() + at, len);
    } else if (buffer != null) {
      data.readAll(buffer.duplicate().position(o.bytesOffset() + at));
    } else if (data.readsInPieces()) {
      data.readPieces(a.dtype().itemSize(), new PieceSink(o, at));
    } else {
      byte[] tmp = ChunkRuns.takeScratch(len);
      try {
        data.read(0, tmp, 0, len);
        o.put(tmp, 0, at, len);
      } finally {
        ChunkRuns.giveScratch(tmp);
      }
    }
  }

  /**
   * A chunk that a large read covers entirely but that lands in several pieces (an N-d chunk inside a larger box):
   * decoded into this thread's scratch buffer, its runs scattered straight into the output (byte order converted as
   * they are copied); no cache round trip, no per-chunk array.
   */
  private void scatterWhole(ChunkData data, ChunkCache cache, Output o) throws IOException {
    cache.countChunkDecode();
    SCATTERED.increment();
    int n = (int) data.size();
    byte[] buf = ChunkRuns.takeScratch(n);
    try {
      data.read(0, buf, 0, n);
      runs(new ArraySink(buf, n, o));
    } finally {
      ChunkRuns.giveScratch(buf);
    }
  }

  /** The chunk decoded whole (through the cache when it fits there), then its runs copied. */
  private void copyFromWhole(ChunkedArray a, ChunkData data, Object key, ChunkCache cache, ReadAhead.State st,
      Output o) throws IOException {
    if (key != null && cache.fits(data.size())) {
      byte[] all = cache.load(key, chunk, data::readAll);
      ReadAhead.wholeUsed(a, key, st != null ? st : ReadAhead.state(key), chunk, cache, readAhead);
      runs(new ArraySink(all, o));
    } else {
      cache.countChunkDecode();
      runs(new ArraySink(data.readAll(), o));
    }
  }

  /** Each run read from the chunk by range (a Blosc chunk decodes only the blocks a range covers). */
  private void copyRunByRun(ChunkData data, Output o) throws IOException {
    runs((src, dst, len) -> copyRun(data, o, src, dst, len, false));
  }

  /**
   * Run {@code [src, src+len)} of the chunk to output byte {@code dst}: straight into the output's bytes when it has
   * them, else through scratch; {@code once}: the task's only run ({@link ChunkData#readOnce}).
   */
  private static void copyRun(ChunkData data, Output o, long src, int dst, int len, boolean once) throws IOException {
    byte[] direct = o.bytes();
    byte[] into = direct != null ? direct : ChunkRuns.takeScratch(len);
    int at = direct != null ? o.bytesOffset() + dst : 0;
    try {
      if (once) {
        data.readOnce(src, into, at, len);
      } else {
        data.read(src, into, at, len);
      }
      if (direct == null) {
        o.put(into, 0, dst, len);
      }
    } finally {
      if (direct == null) {
        ChunkRuns.giveScratch(into);
      }
    }
  }

  /** The runs of a chunk that is not stored, as the array's fill value. */
  void fill(ChunkedArray a, Output o) throws IOException {
    byte[] fill = a.fillValue();
    if ((fill == null || allZero(fill)) && !o.zeroed) { // a reused buffer: write the zeros
      runs((src, dst, len) -> o.put(new byte[len], 0, dst, len));
    } else if (fill != null && !allZero(fill)) {
      runs((src, dst, len) -> {
        byte[] pattern = new byte[len];
        for (int i = 0; i < len; i++) {
          pattern[i] = fill[(int) ((src + i) % fill.length)];
        }
        o.put(pattern, 0, dst, len);
      });
    }
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  /** This task's runs as triples {src, dst, len}, the count in the last element. */
  long[] collectRuns() throws IOException {
    long[][] box = {new long[3 * 8 + 1]};
    int[] n = {0};
    runs((src, dst, len) -> {
      long[] r = box[0];
      if (3 * n[0] + 3 >= r.length) {
        r = java.util.Arrays.copyOf(r, r.length * 2 + 1);
        box[0] = r;
      }
      r[3 * n[0]] = src;
      r[3 * n[0] + 1] = dst;
      r[3 * n[0] + 2] = len;
      n[0]++;
    });
    long[] r = box[0];
    r[r.length - 1] = n[0];
    return r;
  }

  /** {source offset, output offset, length} when this task copies exactly one run, else null. */
  long[] singleRun() throws IOException {
    long[] first = new long[4];
    try {
      runs((src, dst, len) -> {
        if (first[3]++ > 0) {
          throw MORE_THAN_ONE;
        }
        first[0] = src;
        first[1] = dst;
        first[2] = len;
      });
    } catch (StopProbe e) {
      return null;
    }
    return first[3] == 1 ? new long[] {first[0], first[1], first[2]} : null;
  }

  /** Ends a probe of a task's runs early (no stack trace: it is control flow, not an error). */
  private static final class StopProbe extends IOException {
    StopProbe() {
      super("probe stopped");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  private static final StopProbe MORE_THAN_ONE = new StopProbe();
}
