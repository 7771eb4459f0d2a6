package org.chunkcdm.chunk;

import org.chunkcdm.blosc.TypedDestination;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.chunkcdm.io.Bounds;

/**
 * The one section-assembly implementation shared by every format, the CDM view, the ncstream bridge and the
 * viewer: serves a box (origin, shape, stride) of a {@link ChunkedArray} by touching only the chunks holding
 * selected elements, reading from each chunk only what it needs (a small read of a Blosc chunk decodes only
 * the blocks covering it), writing fill values for chunks that are not stored, decoding several chunks in
 * parallel for large boxes, and putting the elements either as raw bytes ({@link #readBytes}) or straight into
 * a primitive array with the byte order converted chunk by chunk ({@link #readInto}, the typed read). The CDM
 * adapter ({@code org.chunkcdm.cdm.CdmReader}) turns CDM sections into these calls; this package uses no
 * netcdf-java type.
 */
public final class SectionReader {
  /** Sections needing at least this many bytes from at least two chunks are decoded in parallel. */
  static final long PARALLEL_BYTES = 1 << 20;

  /** Chunks opened by section reads since start (for tests and benchmarks). */
  public static final LongAdder CHUNKS_TOUCHED = new LongAdder();

  private SectionReader() {}

  /**
   * Refuses a section whose result cannot fit in this JVM's heap with an IOException (never an
   * OutOfMemoryError): shapes come from file headers, which may claim far more than the files hold. The limit
   * is the one for every allocation sized from a file ({@link org.chunkcdm.io.Bounds#checkAllocation}).
   */
  public static void checkHeap(long elements, int itemSize) throws IOException {
    long bytes = elements * Math.max(1, itemSize);
    if (elements < 0 || bytes < 0 || bytes / Math.max(1, itemSize) != elements) {
      throw new org.chunkcdm.blosc.LimitException("a section of " + elements + " elements of " + itemSize
          + " bytes does not fit in memory: read it in pieces");
    }
    org.chunkcdm.io.Bounds.checkAllocation(bytes, "a section of " + elements + " elements (read it in pieces)");
  }

  /** The CDM shape of an array of logical {@code shape} whose type adds {@code extra} (0 = none). */
  public static int[] cdmShape(long[] shape, int extra) {
    int[] out = new int[shape.length + (extra > 0 ? 1 : 0)];
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("dimension " + d + " of " + shape[d] + " exceeds CDM's int range");
      }
      out[d] = (int) shape[d];
    }
    if (extra > 0) {
      out[shape.length] = extra;
    }
    return out;
  }

  // ---------------------------------------------------------------- typed reads

  /**
   * The Java element type a typed read of {@code dt} fills: {@code byte.class} for int8/uint8 and bool (0/1),
   * {@code short.class} for (u)int16, {@code int.class} for (u)int32, {@code long.class} for (u)int64 (unsigned
   * values as their bit pattern, as {@code Short.toUnsignedInt} etc. read them), {@code float.class} for
   * float16 (converted exactly) and float32, {@code double.class} for float64; null for types a typed read
   * refuses (complex, fixed-size byte and unicode strings, opaque records: use {@link #readBytes}).
   */
  public static Class<?> typedClass(DType dt) {
    return Output.javaType(dt);
  }

  /** A new array of {@code n} elements of {@link #typedClass(DType)} (e.g. {@code short[]}). */
  public static Object newTypedArray(DType dt, int n) {
    Class<?> c = checkTyped(dt, "array");
    return java.lang.reflect.Array.newInstance(c, n);
  }

  /**
   * Reads a box of {@code a} into {@code dst} from element {@code dstOffset} on, in C order over the box:
   * {@code origin[d] + i*stride[d]} for {@code i < shape[d]} in every logical dimension d ({@code stride} null
   * = all 1). {@code dst} must be the array type {@link #typedClass(DType)} names ({@code short[]} for int16,
   * ...). Byte order is converted chunk by chunk as chunks are decoded (no whole-box byte[]); chunks decode in
   * parallel and go through the cache per {@code a}'s {@link ChunkedArray#settings()}. Chunks that are not
   * stored read as the array's fill value.
   *
   * @throws IllegalArgumentException for a type without typed read, a wrong destination type, a box outside
   *     the array or a destination too small
   * @throws IOException for a read failure (naming the file and chunk) or a box of more than 2 GiB of stored bytes
   */
  public static void readInto(ChunkedArray a, long[] origin, long[] shape, long[] stride, Object dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset, a.settings());
  }

  /** As {@link #readInto(ChunkedArray, long[], long[], long[], Object, int)} with explicit read settings. */
  public static void readInto(ChunkedArray a, long[] origin, long[] shape, long[] stride, Object dst, int dstOffset,
      ReadSettings settings) throws IOException {
    DType dt = a.dtype();
    Class<?> c = checkTyped(dt, "read");
    if (dst == null || dst.getClass().getComponentType() != c) {
      throw new IllegalArgumentException("a typed read of " + dt + " fills a " + c.getName() + "[], not "
          + (dst == null ? "null" : dst.getClass().getSimpleName()));
    }
    long[] st = checkBox(a.grid().shape(), origin, shape, stride);
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    int len = java.lang.reflect.Array.getLength(dst);
    if (dstOffset < 0 || n > len - (long) dstOffset) {
      throw new IllegalArgumentException("destination of " + len + " elements cannot take " + n + " elements at "
          + dstOffset);
    }
    try {
      Output out = Output.into(dt, dst, dstOffset);
      out.zeroed = false; // the caller's array may hold earlier values: missing chunks are written as fill too
      collect(a, origin.clone(), shape.clone(), st, out, settings);
    } catch (java.io.UncheckedIOException e) { // a lazy grid failed to learn its chunk boundaries
      throw e.getCause();
    }
  }

  /** Typed read into a {@code byte[]} (int8, uint8, bool as 0/1). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, byte[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /** Typed read into a {@code short[]} (int16, uint16). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, short[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /** Typed read into an {@code int[]} (int32, uint32). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, int[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /** Typed read into a {@code long[]} (int64, uint64). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, long[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /** Typed read into a {@code float[]} (float16, float32). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, float[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /** Typed read into a {@code double[]} (float64). */
  public static void read(ChunkedArray a, long[] origin, long[] shape, long[] stride, double[] dst, int dstOffset)
      throws IOException {
    readInto(a, origin, shape, stride, dst, dstOffset);
  }

  /**
   * A new primitive array ({@link #typedClass(DType)}) holding the box, e.g. {@code (short[]) readTyped(a, o, s,
   * null)}.
   */
  public static Object readTyped(ChunkedArray a, long[] origin, long[] shape, long[] stride) throws IOException {
    checkTyped(a.dtype(), "read");
    checkBox(a.grid().shape(), origin, shape, stride);
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    if (n > Integer.MAX_VALUE - 16) {
      throw new IOException("a box of " + n + " elements does not fit one Java array; read it in pieces");
    }
    checkHeap(n, a.dtype().itemSize());
    Object dst = newTypedArray(a.dtype(), (int) n);
    readInto(a, origin, shape, stride, dst, 0);
    return dst;
  }

  private static Class<?> checkTyped(DType dt, String what) {
    Class<?> c = Output.javaType(dt);
    if (c == null) {
      throw new IllegalArgumentException("no typed " + what + " for dtype " + dt + " (" + dt.kind()
          + "): typed reads serve integers, floats (float16 as float) and bool; read other types as bytes");
    }
    return c;
  }

  /** Validates a box against the array shape; returns the stride (all 1 when null). */
  private static long[] checkBox(long[] arrayShape, long[] origin, long[] shape, long[] stride) {
    int rank = arrayShape.length;
    if (origin == null || shape == null || origin.length != rank || shape.length != rank
        || stride != null && stride.length != rank) {
      throw new IllegalArgumentException("a box of an array of rank " + rank + " needs " + rank
          + " origin, shape (and stride) entries");
    }
    long[] st = new long[rank];
    for (int d = 0; d < rank; d++) {
      st[d] = stride == null ? 1 : stride[d];
      if (st[d] < 1 || shape[d] < 0 || origin[d] < 0) {
        throw new IllegalArgumentException("bad box in dimension " + d + ": origin " + origin[d] + ", shape "
            + shape[d] + ", stride " + st[d]);
      }
      if (shape[d] > 0 && (origin[d] >= arrayShape[d] || (shape[d] - 1) > (arrayShape[d] - 1 - origin[d]) / st[d])) {
        throw new IllegalArgumentException("box of origin " + java.util.Arrays.toString(origin) + ", shape "
            + java.util.Arrays.toString(shape) + ", stride " + java.util.Arrays.toString(st) + " reaches outside "
            + "dimension " + d + " of length " + arrayShape[d]);
      }
    }
    return st;
  }

  /**
   * Reads the selected elements (C order over the selection) as raw bytes in the dtype's byte order.
   * {@code first/count/stride} are per logical dimension ({@code stride} null = all 1); counts may be 0.
   */
  public static byte[] readBytes(ChunkedArray a, long[] first, long[] count, long[] stride) throws IOException {
    return readBytes(a, first, count, stride, a.settings());
  }

  /** As {@link #readBytes(ChunkedArray, long[], long[], long[])} with explicit read settings. */
  public static byte[] readBytes(ChunkedArray a, long[] first, long[] count, long[] stride, ReadSettings settings)
      throws IOException {
    if (stride == null) {
      stride = new long[count.length];
      java.util.Arrays.fill(stride, 1);
    }
    long n = 1;
    for (long c : count) {
      n = Math.multiplyExact(n, c);
    }
    long total = Math.multiplyExact(n, (long) a.dtype().itemSize());
    if (total > Integer.MAX_VALUE - 16) {
      throw new IOException("section of " + total + " bytes is too large for one read; read it in pieces");
    }
    checkHeap(n, a.dtype().itemSize());
    byte[] out = new byte[(int) total];
    try {
      collect(a, first, count, stride, new Output.Bytes(out), settings);
    } catch (java.io.UncheckedIOException e) { // a lazy grid failed to learn its chunk boundaries
      throw e.getCause();
    }
    return out;
  }

  /**
   * As {@link #readBytes(ChunkedArray, long[], long[], long[])}, into {@code dst} from byte {@code dstOffset} on
   * (e.g. one buffer reused for every piece of a scan, so nothing is allocated per piece); every selected
   * element is written, those of chunks that are not stored as the fill value (zeros included).
   *
   * @throws IllegalArgumentException when {@code dst} cannot take the selection at {@code dstOffset}
   */
  public static void readBytes(ChunkedArray a, long[] first, long[] count, long[] stride, byte[] dst, int dstOffset)
      throws IOException {
    long n = 1;
    for (long c : count) {
      n = Math.multiplyExact(n, c);
    }
    long total = Math.multiplyExact(n, (long) a.dtype().itemSize());
    if (dstOffset < 0 || total > dst.length - (long) dstOffset) {
      throw new IllegalArgumentException("a buffer of " + dst.length + " bytes cannot take " + total + " bytes at " + dstOffset);
    }
    Output out = new Output.Bytes(dst, dstOffset);
    out.zeroed = false;
    try {
      collect(a, first, count, stride, out, a.settings());
    } catch (java.io.UncheckedIOException e) { // a lazy grid failed to learn its chunk boundaries
      throw e.getCause();
    }
  }

  /** Reads the selected elements (C order over the selection) into {@code out}. */
  private static void collect(ChunkedArray a, long[] first, long[] count, long[] stride, Output out,
      ReadSettings settings) throws IOException {
    ReadSettings rs = settings == null ? ReadSettings.defaults() : settings;
    if (rs.decodeThreads() == 0) {
      collect(a, first, count, stride, out, rs.cache());
      return;
    }
    long[] f = first;
    long[] c = count;
    long[] st = stride;
    DecodePool.withLimit(rs.effectiveThreads(), () -> collect(a, f, c, st, out, rs.cache()));
  }

  private static void collect(ChunkedArray a, long[] first, long[] count, long[] stride, Output out,
      ChunkCache cache) throws IOException {
    ChunkGrid g = a.grid();
    int item = a.dtype().itemSize();
    long n = 1;
    for (long c : count) {
      n = Math.multiplyExact(n, c);
    }
    if (Math.multiplyExact(n, (long) item) > Integer.MAX_VALUE - 16) {
      throw new IOException("section of " + n + " elements of " + item + " bytes is too large for one read; read it in pieces");
    }
    if (n == 0) {
      return;
    }
    if (g.rank() == 0) { // a scalar: one element of chunk 0
      first = new long[] {0};
      count = new long[] {1};
      stride = new long[] {1};
      g = g instanceof ChunkGrid.Flat ? ChunkGrid.flat(new long[] {1}, 1, false) : ChunkGrid.regular(new long[] {1}, new int[] {1});
    }
    if (wholeSingleChunk(a, g, first, count, stride, out, item, n, cache)) {
      return;
    }
    if (g instanceof ChunkGrid.Flat && ((ChunkGrid.Flat) g).fortranOrder()) {
      // Fortran order = C order of the reversed shape: read the reversed selection, then transpose.
      ChunkGrid.Flat f = (ChunkGrid.Flat) g;
      long[] rshape = reverse(f.shape());
      ChunkGrid.Flat rg = f.isEqualChunks() ? ChunkGrid.flat(rshape, f.chunkItems(), false) : ChunkGrid.flat(rshape, f.starts(), false);
      byte[] rev = new byte[(int) (n * item)];
      run(a, flatTasks(a, rg, reverse(first), reverse(count), reverse(stride), new Output.Bytes(rev), item), cache);
      byte[] t = new byte[rev.length];
      transpose(rev, t, count, item);
      out.put(t, 0, 0, t.length);
    } else if (g instanceof ChunkGrid.Flat) {
      run(a, flatTasks(a, (ChunkGrid.Flat) g, first, count, stride, out, item), cache);
    } else {
      run(a, regularTasks(a, (ChunkGrid.Regular) g, first, count, stride, out, item), cache);
    }
  }

  /**
   * The common read of a small file's variable: the whole array, stride 1, stored as one chunk of exactly its
   * size. Read straight into the output without building tasks (what the general path would do too: a whole
   * chunk landing in one piece bypasses the cache). False when the read is anything else.
   */
  private static boolean wholeSingleChunk(ChunkedArray a, ChunkGrid g, long[] first, long[] count, long[] stride,
      Output out, int item, long n, ChunkCache cache) throws IOException {
    if (g.chunkCount() != 1 || g.rank() > 1 && g instanceof ChunkGrid.Flat && ((ChunkGrid.Flat) g).fortranOrder()) {
      return false;
    }
    long[] shape = g.shape();
    for (int d = 0; d < shape.length; d++) {
      if (first[d] != 0 || count[d] != shape[d] || stride[d] != 1) {
        return false;
      }
    }
    if (g instanceof ChunkGrid.Regular) {
      int[] cs = ((ChunkGrid.Regular) g).chunkShape();
      for (int d = 0; d < cs.length; d++) {
        if (cs[d] != shape[d]) {
          return false;
        }
      }
    }
    if (a.cacheKey() != null && cache.contains(a.cacheKey(), 0)) {
      return false; // served from the cache by the general path
    }
    ChunkData data = a.chunk(0);
    long bytes = n * item;
    if (data == null || data.size() != bytes) {
      if (data != null) {
        data.release();
      }
      return false; // fill values or a size mismatch: the general path handles and reports them
    }
    try {
      CHUNKS_TOUCHED.increment();
      cache.countChunkDecode();
      byte[] direct = out.bytes();
      if (direct != null) {
        data.read(0, direct, out.bytesOffset(), (int) bytes);
      } else if (data.readsInPieces()) { // converted piece by piece while each is in the CPU cache
        data.readPieces(item, new PieceSink(out, 0));
      } else {
        byte[] tmp = takeScratch((int) bytes);
        try {
          data.read(0, tmp, 0, (int) bytes);
          out.put(tmp, 0, 0, (int) bytes);
        } finally {
          giveScratch(tmp);
        }
      }
    } finally {
      data.release();
    }
    return true;
  }

  private static void run(ChunkedArray a, List<Task> tasks, ChunkCache cache) throws IOException {
    if (tasks.size() < 2) {
      runTasks(a, tasks, cache);
      return;
    }
    Object key = cache.maxBytes() == 0 ? null : a.cacheKey();
    long[] chunks = new long[tasks.size()];
    int n = 0;
    for (Task t : tasks) {
      if (key == null || !cache.contains(key, t.chunk)) {
        chunks[n++] = t.chunk;
      }
    }
    try (org.chunkcdm.io.FileHandles.Prefetch staged = n < 2 ? org.chunkcdm.io.FileHandles.Prefetch.NONE
        : a.prefetch(java.util.Arrays.copyOf(chunks, n))) {
      runTasks(a, tasks, cache);
    }
  }

  /** The tasks of one read, in parallel on the decode threads when the read is large. */
  private static void runTasks(ChunkedArray a, List<Task> tasks, ChunkCache cache) throws IOException {
    long need = 0;
    for (Task t : tasks) {
      need += t.bytes;
    }
    // read-ahead serves small reads (a scan in pieces); a read of many chunks decodes them all itself, and a
    // read capped to its calling thread gets no decode thread's help
    boolean ahead = tasks.size() <= 2 && DecodePool.threadsForCaller() > 1;
    boolean large = tasks.size() >= 2 && need >= PARALLEL_BYTES;
    boolean scatter = tasks.size() >= 2 && need >= scatterBytes;
    for (Task t : tasks) {
      t.readAhead = ahead;
      t.scatter = scatter;
    }
    if (!large) {
      for (Task t : tasks) {
        t.run(a, cache);
      }
      return;
    }
    List<DecodePool.Job> jobs = new ArrayList<>(tasks.size());
    for (Task t : tasks) {
      jobs.add(() -> t.run(a, cache));
    }
    DecodePool.runAll(jobs);
  }

  // ---------------------------------------------------------------- tasks

  private static final int DONE = 0;
  private static final int WHOLE = 1;
  private static final int FALLBACK = 2;

  /** Copies of one chunk's selected bytes into the output. */
  private abstract static class Task {
    final long chunk;
    final long chunkBytes; // decoded size the chunk should have (full chunk extent)
    long bytes; // bytes this task copies
    boolean readAhead; // may decode the next chunk ahead on a decode thread
    boolean scatter; // part of a large read: a chunk it covers entirely is decoded and scattered, not cached
    boolean covers; // selects every element of the chunk that lies inside the array

    Task(long chunk, long chunkBytes) {
      this.chunk = chunk;
      this.chunkBytes = chunkBytes;
    }

    /** Calls {@code sink.copy(offsetInChunk, outOffset, len)} for every run. */
    abstract void runs(RunSink sink) throws IOException;

    void run(ChunkedArray a, ChunkCache cache) throws IOException {
      CHUNKS_TOUCHED.increment();
      Object key = cache.maxBytes() == 0 ? null : a.cacheKey();
      Output o = out();
      ReadAhead.State st = null;
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
      boolean small = key != null && bytes * 4 < chunkBytes;
      if (small) {
        st = ReadAhead.state(key);
      }
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
        int r = partRead(a, key, cache, st, o, box);
        if (r == DONE) {
          return;
        }
        promote = r == WHOLE;
      }
      ChunkData data = box[0] != null ? box[0] : a.chunk(chunk);
      box[0] = data;
      if (data == null) {
        fill(a, o);
        return;
      }
      long[] single = singleRun();
      if (single != null && single[0] == 0 && single[2] == data.size()) {
        // the chunk lands in one piece of the output: decode straight into it (or into scratch, then
        // convert), bypassing the cache
        cache.countChunkDecode();
        byte[] direct = o.bytes();
        if (direct != null) {
          data.read(0, direct, o.bytesOffset() + (int) single[1], (int) single[2]);
        } else if (data.readsInPieces()) {
          // a typed read: each piece (a few decoded blocks in a per-thread buffer, or a chunk stored raw in place)
          // is converted into the output while it is in the CPU cache; no chunk-sized scratch pass
          data.readPieces(a.dtype().itemSize(), new PieceSink(o, (int) single[1]));
        } else {
          byte[] tmp = takeScratch((int) single[2]);
          try {
            data.read(0, tmp, 0, (int) single[2]);
            o.put(tmp, 0, (int) single[1], (int) single[2]);
          } finally {
            giveScratch(tmp);
          }
        }
        return;
      }
      if (scatter && covers && data.size() <= Integer.MAX_VALUE - 16) {
        // a chunk that a large read covers entirely but that lands in several pieces (an N-d chunk inside a
        // larger box): decode it into this thread's scratch buffer and scatter its runs straight into the output
        // (byte order converted as they are copied); no cache round trip, no per-chunk array
        cache.countChunkDecode();
        SCATTERED.increment();
        int n = (int) data.size();
        byte[] buf = takeScratch(n);
        try {
          data.read(0, buf, 0, n);
          runs(new ArraySink(buf, n, o));
        } finally {
          giveScratch(buf);
        }
        return;
      }
      boolean whole = bytes * 4 >= data.size() || seq || promote;
      if (whole && key != null && cache.fits(data.size())) {
        byte[] all = cache.load(key, chunk, data::readAll);
        ReadAhead.wholeUsed(a, key, st != null ? st : ReadAhead.state(key), chunk, cache, readAhead);
        runs(new ArraySink(all, o));
      } else if (whole) {
        cache.countChunkDecode();
        runs(new ArraySink(data.readAll(), o));
      } else {
        byte[] direct = o.bytes();
        int directOff = o.bytesOffset();
        runs((src, dst, len) -> {
          if (direct != null) {
            data.read(src, direct, directOff + dst, len);
          } else {
            byte[] tmp = takeScratch(len);
            try {
              data.read(src, tmp, 0, len);
              o.put(tmp, 0, dst, len);
            } finally {
              giveScratch(tmp);
            }
          }
        });
      }
    }

    private void fill(ChunkedArray a, Output o) throws IOException {
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

    /**
     * A small read served by decoded blocks (parts) of the chunk, cached in the cache's low-priority share:
     * {@link #DONE}; {@link #WHOLE} when the blocks this chunk needed so far reach a quarter of it (decode it
     * whole instead); {@link #FALLBACK} when the chunk has no blocks to cache. {@code box[0]} receives the
     * chunk when it was opened.
     */
    private int partRead(ChunkedArray a, Object key, ChunkCache cache, ReadAhead.State st, Output o,
        ChunkData[] box) throws IOException {
      int bs = st.blockSize;
      if (bs <= 0) {
        ChunkData data = a.chunk(chunk);
        box[0] = data;
        if (data == null) {
          fill(a, o);
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
      long[] rs = collectRuns();
      int nr = (int) rs[rs.length - 1];
      // the blocks the runs cover, ascending
      long[] blocks = new long[8];
      int nb = 0;
      for (int i = 0; i < nr; i++) {
        long s0 = rs[3 * i];
        long len = rs[3 * i + 2];
        for (long b = s0 / bs; b <= (s0 + len - 1) / bs; b++) {
          if (nb > 0 && blocks[nb - 1] == b) {
            continue;
          }
          if (nb == blocks.length) {
            blocks = java.util.Arrays.copyOf(blocks, nb * 2);
          }
          blocks[nb++] = b;
        }
      }
      long[] sorted = java.util.Arrays.copyOf(blocks, nb);
      java.util.Arrays.sort(sorted);
      int u = 0;
      for (int i = 0; i < nb; i++) {
        if (u == 0 || sorted[u - 1] != sorted[i]) {
          sorted[u++] = sorted[i];
        }
      }
      byte[][] got = new byte[u][];
      // parts are pinned while this read copies from them: an evicted part's array is reused for another part
      // only once no reader holds it
      ChunkCache.Pinned[] pins = new ChunkCache.Pinned[u];
      try {
        long missing = 0;
        for (int i = 0; i < u; i++) {
          pins[i] = cache.pinPart(key, chunk, sorted[i] * bs);
          got[i] = pins[i] == null ? null : pins[i].data();
          if (got[i] != null && got[i].length != Math.min(bs, chunkBytes - sorted[i] * bs)) {
            got[i] = null; // cached with another block size (chunks of this array differ): not this block
          }
          if (got[i] == null) {
            missing += bs;
          }
        }
        if (missing > 0) {
          // read on in order (the block before the first one missing is cached) and the blocks it needed reach a
          // quarter: decode it whole. A first read never does, so a point read decodes one block, and reads
          // hopping about a chunk stay with its blocks.
          long have = cache.partBytesOf(key, chunk);
          if (have > 0 && (missing + have) * 4 >= chunkBytes) {
            long firstMissing = -1;
            for (int i = 0; i < u && firstMissing < 0; i++) {
              if (got[i] == null) {
                firstMissing = sorted[i];
              }
            }
            if (firstMissing > 0 && cache.hasPart(key, chunk, (firstMissing - 1) * bs)) {
              return WHOLE;
            }
          }
          ChunkData data = box[0] != null ? box[0] : a.chunk(chunk);
          box[0] = data;
          if (data == null) {
            fill(a, o);
            return DONE;
          }
          if (data.blockSize() != bs) { // chunks of this array differ in block size: learn, serve this one plainly
            st.blockSize = data.blockSize();
            return FALLBACK;
          }
          long size = data.size();
          for (int i = 0; i < u; i++) {
            if (got[i] == null) {
              long off = sorted[i] * bs;
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
        } else if (u == 1 && sorted[0] == 0 && got[0].length == chunkBytes && st.lastPart == chunk) {
          // a chunk of one block read twice in a row (a scan in pieces, a repeated point): hold its block as the
          // whole chunk (no decode), so that a scan is recognised and read ahead. A series visiting each chunk
          // once keeps it a low-priority part. (Its array is then never reused for another part.)
          cache.put(key, chunk, got[0]);
          ReadAhead.wholeUsed(a, key, st, chunk, cache, readAhead);
        }
        for (int i = 0; i < nr; i++) {
          long src = rs[3 * i];
          int dst = (int) rs[3 * i + 1];
          int len = (int) rs[3 * i + 2];
          while (len > 0) {
            long b = src / bs;
            byte[] p = got[java.util.Arrays.binarySearch(sorted, 0, u, b)];
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
      } finally {
        for (ChunkCache.Pinned h : pins) {
          cache.unpin(h);
        }
      }
      st.lastPart = chunk;
      return DONE;
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

    abstract Output out();

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

  /**
   * Whether typed reads offer decoders their destination array ({@link ChunkData.Pieces#typed()}), so that a
   * Blosc block's last unshuffle stores the elements straight into it instead of into a piece buffer that is then
   * copied; {@code -Dchunkcdm.typedPieces=false} turns that off (every piece copied, the way before; for
   * comparisons in benchmarks and tests).
   */
  private static volatile boolean typedPieces = !"false".equals(System.getProperty("chunkcdm.typedPieces"));

  /** Sets whether typed reads offer decoders their destination array; returns the previous setting (tests). */
  public static boolean setTypedPieces(boolean on) {
    boolean old = typedPieces;
    typedPieces = on;
    return old;
  }

  /** The pieces of a chunk whose decoded bytes land in one run of the output from section byte {@code base}. */
  private static final class PieceSink implements ChunkData.Pieces {
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

  private interface RunSink {
    void copy(long src, int dst, int len) throws IOException;
  }

  private static final class ArraySink implements RunSink {
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
   * Reads of at least this many bytes from two or more chunks decode each chunk they cover entirely into scratch
   * and scatter it into the output instead of going through the cache; {@code -Dchunkcdm.scatter=false} turns
   * that off (such chunks go through the cache, the way before; for comparisons in benchmarks).
   */
  private static volatile long scatterBytes =
      "false".equals(System.getProperty("chunkcdm.scatter")) ? Long.MAX_VALUE : PARALLEL_BYTES;

  /**
   * Sets the read size from which whole chunks are scattered (0 = every read of two or more chunks,
   * {@code Long.MAX_VALUE} = never) and returns the previous one: for tests that compare both paths on small
   * arrays and for benchmarks. Process-wide.
   */
  public static long setScatterBytes(long bytes) {
    long old = scatterBytes;
    scatterBytes = bytes;
    return old;
  }

  /** Whole chunks of large reads decoded into scratch and scattered into the output (tests, benchmarks). */
  public static final LongAdder SCATTERED = new LongAdder();

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

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- regular N-d grid

  private static List<Task> regularTasks(ChunkedArray a, ChunkGrid.Regular g, long[] first, long[] count,
      long[] stride, Output out, int item) {
    int rank = g.rank();
    int[] c = g.chunkShape;
    long[] shape = g.shape;
    // per dimension: the chunks holding selected elements and the selection index range inside each
    List<long[]> perDim = new ArrayList<>(); // each long[] = triples (k, jStart, jEnd)
    for (int d = 0; d < rank; d++) {
      long last = first[d] + (count[d] - 1) * stride[d];
      long[] buf = new long[(int) Math.min(3 * (last / c[d] - first[d] / c[d] + 1), 3 * count[d])];
      int m = 0;
      long k = first[d] / c[d];
      while (true) { // k is always the chunk of a selected element
        long lo = k * c[d];
        long hi = Math.min(lo + c[d], shape[d]);
        long js = first[d] >= lo ? 0 : ceilDiv(lo - first[d], stride[d]);
        long je = Math.min(count[d] - 1, Math.floorDiv(hi - 1 - first[d], stride[d]));
        buf[m++] = k;
        buf[m++] = js;
        buf[m++] = je;
        if (je + 1 >= count[d]) {
          break;
        }
        k = (first[d] + (je + 1) * stride[d]) / c[d];
      }
      perDim.add(java.util.Arrays.copyOf(buf, m));
    }
    long[] chunkStride = new long[rank];
    long[] outStride = new long[rank];
    long cs = 1;
    long os = 1;
    for (int d = rank - 1; d >= 0; d--) {
      chunkStride[d] = cs;
      outStride[d] = os;
      cs *= c[d];
      os *= count[d];
    }
    long chunkBytes = cs * item;
    List<Task> tasks = new ArrayList<>();
    int[] pos = new int[rank];
    for (int d = 0; d < rank; d++) {
      if (perDim.get(d).length == 0) {
        return tasks;
      }
    }
    long[] gridShape = g.gridShape;
    while (true) {
      long[] k = new long[rank];
      long[] js = new long[rank];
      long[] je = new long[rank];
      long idx = 0;
      long nsel = 1;
      long inArray = 1; // elements of the chunk inside the array
      for (int d = 0; d < rank; d++) {
        long[] t = perDim.get(d);
        k[d] = t[3 * pos[d]];
        js[d] = t[3 * pos[d] + 1];
        je[d] = t[3 * pos[d] + 2];
        idx = idx * gridShape[d] + k[d];
        nsel *= je[d] - js[d] + 1;
        inArray *= Math.min(c[d], shape[d] - k[d] * c[d]);
      }
      Task task = new Task(idx, chunkBytes) {
        @Override
        void runs(RunSink sink) throws IOException {
          regularRuns(sink, k, js, je, first, stride, c, count, chunkStride, outStride, item);
        }

        @Override
        Output out() {
          return out;
        }
      };
      task.bytes = nsel * item;
      task.covers = nsel == inArray;
      tasks.add(task);
      int d = rank - 1;
      while (d >= 0) {
        if (++pos[d] < perDim.get(d).length / 3) {
          break;
        }
        pos[d] = 0;
        d--;
      }
      if (d < 0) {
        return tasks;
      }
    }
  }

  private static void regularRuns(RunSink sink, long[] k, long[] js, long[] je, long[] first, long[] stride, int[] c,
      long[] count, long[] chunkStride, long[] outStride, int item) throws IOException {
    int rank = k.length;
    // merge trailing dimensions fully covered (whole chunk extent, stride 1, output of the same extent)
    int t = rank - 1;
    while (t > 0 && stride[t] == 1 && je[t] - js[t] + 1 == c[t] && count[t] == c[t] && stride[t - 1] == 1) {
      t--;
    }
    long runElems; // elements per run
    boolean contiguous = stride[t] == 1;
    long inner = 1; // elements of the merged dims after t
    for (int d = t + 1; d < rank; d++) {
      inner *= c[d];
    }
    runElems = contiguous ? (je[t] - js[t] + 1) * inner : inner;
    long[] j = new long[t + 1];
    for (int d = 0; d <= t; d++) {
      j[d] = js[d];
    }
    while (true) {
      long src = 0;
      long dst = 0;
      for (int d = 0; d <= t; d++) {
        src += (first[d] + j[d] * stride[d] - k[d] * c[d]) * chunkStride[d];
        dst += j[d] * outStride[d];
      }
      if (contiguous) {
        sink.copy(src * item, (int) (dst * item), (int) (runElems * item));
      } else {
        long srcStep = stride[t] * chunkStride[t];
        for (long q = js[t]; q <= je[t]; q++) {
          sink.copy(src * item, (int) (dst * item), (int) (runElems * item));
          src += srcStep;
          dst += outStride[t];
        }
      }
      int d = t - 1;
      while (d >= 0) {
        if (++j[d] <= je[d]) {
          break;
        }
        j[d] = js[d];
        d--;
      }
      if (d < 0) {
        return;
      }
    }
  }

  // ---------------------------------------------------------------- flat (C order) layout

  private static List<Task> flatTasks(ChunkedArray a, ChunkGrid.Flat g, long[] first, long[] count, long[] stride,
      Output out, int item) {
    int rank = g.rank();
    long[] shape = g.shape;
    long[] aStride = new long[rank];
    long s = 1;
    for (int d = rank - 1; d >= 0; d--) {
      aStride[d] = s;
      s *= shape[d];
    }
    // merge trailing dimensions that are selected whole
    int t = rank - 1;
    while (t > 0 && first[t] == 0 && stride[t] == 1 && count[t] == shape[t]) {
      t--;
    }
    final int tt = t;
    final long pieceLen = stride[t] == 1 ? count[t] * aStride[t] : aStride[t]; // elements
    final long npieces = stride[t] == 1 ? 1 : count[t];
    final long step = stride[t] * aStride[t];
    long rows = 1;
    for (int d = 0; d < t; d++) {
      rows *= count[d];
    }
    final long nrows = rows;
    // storage start of row r
    java.util.function.LongUnaryOperator rowStart = r -> {
      long f = first[tt] * aStride[tt];
      for (int d = tt - 1; d >= 0; d--) {
        long j = r % count[d];
        r /= count[d];
        f += (first[d] + j * stride[d]) * aStride[d];
      }
      return f;
    };
    long rowSpan = (npieces - 1) * step + pieceLen;
    long firstElem = rowStart.applyAsLong(0);
    long lastElem = rowStart.applyAsLong(nrows - 1) + rowSpan - 1;
    long kLo = g.chunkOf(firstElem);
    long kHi = g.chunkOf(lastElem);
    List<Task> tasks = new ArrayList<>();
    for (long k = kLo; k <= kHi; k++) {
      long cs = g.start(k);
      long ce = g.start(k + 1);
      if (ce <= cs) {
        continue;
      }
      // rows overlapping [cs, ce): rowStart is increasing in r
      long rlo = lowerRow(rowStart, nrows, cs - rowSpan + 1);
      long rhi = lowerRow(rowStart, nrows, ce) - 1;
      if (rlo > rhi) {
        continue;
      }
      boolean any = false;
      for (long r = rlo; r <= rhi && !any; r++) {
        any = rowTouches(rowStart.applyAsLong(r), npieces, pieceLen, step, cs, ce);
      }
      if (!any) {
        continue;
      }
      long chunkStart = cs;
      long chunkEnd = ce;
      long lo = rlo;
      long hi = rhi;
      Task task = new Task(k, (ce - cs) * item) {
        @Override
        void runs(RunSink sink) throws IOException {
          for (long r = lo; r <= hi; r++) {
            long outBase = r * npieces * pieceLen;
            piecesIn(rowStart.applyAsLong(r), npieces, pieceLen, step, chunkStart, chunkEnd, sink, outBase, item);
          }
        }

        @Override
        Output out() {
          return out;
        }
      };
      // estimate of the bytes needed from this chunk (exact for contiguous selections)
      long sel = Math.min(ce - cs, (rhi - rlo + 1) * npieces * pieceLen);
      task.bytes = sel * item;
      task.covers = sel == ce - cs; // may be true for a strided selection too: then it decodes more than needed

      tasks.add(task);
    }
    return tasks;
  }

  /** First row r in [0, nrows] with rowStart(r) >= target. */
  private static long lowerRow(java.util.function.LongUnaryOperator rowStart, long nrows, long target) {
    long lo = 0;
    long hi = nrows;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (rowStart.applyAsLong(mid) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** First and last piece index of a row that may overlap chunk [cs, ce) (empty when first &gt; last). */
  private static long[] pieceRange(long f0, long npieces, long pieceLen, long step, long cs, long ce) {
    long jlo = f0 + pieceLen > cs ? 0 : ceilDiv(cs - f0 - pieceLen + 1, step);
    long jhi = ce - 1 < f0 ? -1 : Math.min(npieces - 1, Math.floorDiv(ce - 1 - f0, step));
    return new long[] {jlo, jhi};
  }

  private static boolean rowTouches(long f0, long npieces, long pieceLen, long step, long cs, long ce) {
    long[] j = pieceRange(f0, npieces, pieceLen, step, cs, ce);
    for (long q = j[0]; q <= j[1]; q++) {
      long ps = f0 + q * step;
      if (Math.max(ps, cs) < Math.min(ps + pieceLen, ce)) {
        return true;
      }
    }
    return false;
  }

  /** Copies the parts of a row's pieces inside chunk [cs, ce). */
  private static void piecesIn(long f0, long npieces, long pieceLen, long step, long cs, long ce, RunSink sink,
      long outBase, int item) throws IOException {
    long[] j = pieceRange(f0, npieces, pieceLen, step, cs, ce);
    for (long q = j[0]; q <= j[1]; q++) {
      long ps = f0 + q * step;
      long a = Math.max(ps, cs);
      long b = Math.min(ps + pieceLen, ce);
      if (a < b) {
        long dst = outBase + q * pieceLen + (a - ps);
        sink.copy((a - cs) * item, (int) (dst * item), (int) ((b - a) * item));
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  private static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }

  private static long[] reverse(long[] a) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[a.length - 1 - i];
    }
    return r;
  }

  /** {@code src} holds the selection in C order of the reversed dims; writes it in C order of {@code count}. */
  private static void transpose(byte[] src, byte[] dst, long[] count, int item) {
    int rank = count.length;
    long n = 1;
    for (long c : count) {
      n *= c;
    }
    // stride in src (reversed C order) of each original dimension
    long[] srcStride = new long[rank];
    long s = 1;
    for (int d = 0; d < rank; d++) {
      srcStride[d] = s;
      s *= count[d];
    }
    long[] idx = new long[rank];
    long srcPos = 0;
    for (long e = 0; e < n; e++) {
      System.arraycopy(src, (int) (srcPos * item), dst, (int) (e * item), item);
      int d = rank - 1;
      while (d >= 0) {
        idx[d]++;
        srcPos += srcStride[d];
        if (idx[d] < count[d]) {
          break;
        }
        srcPos -= srcStride[d] * count[d];
        idx[d] = 0;
        d--;
      }
    }
  }
}
