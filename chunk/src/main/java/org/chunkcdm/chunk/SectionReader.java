package org.chunkcdm.chunk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * Reads of at least this many bytes from two or more chunks decode each chunk they cover entirely into scratch and
   * scatter it into the output instead of going through the cache (tests set it to compare both paths).
   */
  static volatile long scatterBytes = PARALLEL_BYTES;

  /** Chunks opened by section reads in this JVM so far (e.g. to show what a read cost). */
  public static long chunksTouched() {
    return ChunkTask.CHUNKS_TOUCHED.sum();
  }

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
    long total = selectedBytes(a, count);
    if (dstOffset < 0 || total > dst.length - (long) dstOffset) {
      throw new IllegalArgumentException("a buffer of " + dst.length + " bytes cannot take " + total + " bytes at " + dstOffset);
    }
    collectInto(a, first, count, stride, new Output.Bytes(dst, dstOffset));
  }

  /**
   * As {@link #readBytes(ChunkedArray, long[], long[], long[], byte[], int)}, into {@code dst} from its position on
   * (which stays where it is). A direct buffer gets the chunks that native c-blosc decodes whole in place, with no
   * copy through the heap: a channel then writes it as it is.
   *
   * @throws IllegalArgumentException when fewer bytes than the selection remain in {@code dst}
   */
  public static void readBytes(ChunkedArray a, long[] first, long[] count, long[] stride, ByteBuffer dst)
      throws IOException {
    long total = selectedBytes(a, count);
    if (total > dst.remaining()) {
      throw new IllegalArgumentException("a buffer with " + dst.remaining() + " bytes left cannot take " + total
          + " bytes");
    }
    collectInto(a, first, count, stride, new Output.Buffer(dst));
  }

  private static long selectedBytes(ChunkedArray a, long[] count) {
    long n = 1;
    for (long c : count) {
      n = Math.multiplyExact(n, c);
    }
    return Math.multiplyExact(n, (long) a.dtype().itemSize());
  }

  /**
   * Every selected element into a caller's buffer (which may hold earlier data: fill values are written too);
   * {@code stride} null = all 1.
   */
  private static void collectInto(ChunkedArray a, long[] first, long[] count, long[] stride, Output out)
      throws IOException {
    if (stride == null) {
      stride = new long[count.length];
      java.util.Arrays.fill(stride, 1);
    }
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
      long[] rshape = FlatPlan.reverse(f.shape());
      ChunkGrid.Flat rg = f.isEqualChunks() ? ChunkGrid.flat(rshape, f.chunkItems(), false) : ChunkGrid.flat(rshape, f.starts(), false);
      byte[] rev = new byte[(int) (n * item)];
      run(a, FlatPlan.tasks(a, rg, FlatPlan.reverse(first), FlatPlan.reverse(count), FlatPlan.reverse(stride),
          new Output.Bytes(rev), item), cache);
      byte[] t = new byte[rev.length];
      FlatPlan.transpose(rev, t, count, item);
      out.put(t, 0, 0, t.length);
    } else if (g instanceof ChunkGrid.Flat) {
      run(a, FlatPlan.tasks(a, (ChunkGrid.Flat) g, first, count, stride, out, item), cache);
    } else {
      run(a, RegularPlan.tasks(a, (ChunkGrid.Regular) g, first, count, stride, out, item), cache);
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
      ChunkTask.CHUNKS_TOUCHED.increment();
      ChunkTask.decodeIntoOutput(a, data, cache, out, 0, (int) bytes);
    } finally {
      data.release();
    }
    return true;
  }

  private static void run(ChunkedArray a, List<ChunkTask> tasks, ChunkCache cache) throws IOException {
    if (tasks.size() < 2) {
      runTasks(a, tasks, cache);
      return;
    }
    Object key = ChunkTask.cacheKey(a, cache);
    long[] chunks = new long[tasks.size()];
    int n = 0;
    for (ChunkTask t : tasks) {
      if (key == null || !cache.contains(key, t.chunk)) {
        chunks[n++] = t.chunk;
      }
    }
    try (org.chunkcdm.io.FileHandles.Prefetch staged = n < 2 ? org.chunkcdm.io.FileHandles.Prefetch.NONE
        : a.prefetch(java.util.Arrays.copyOf(chunks, n))) {
      runTasks(a, tasks, cache);
    }
  }

  /** Chunks a read must touch before {@link #cyclesParts} considers it. */
  private static final int MANY_CHUNKS = 16;

  /**
   * Whether a read of many chunks would need more decoded blocks than the cache's parts share holds, so that caching
   * them would only cycle them through it (a time series through hundreds of chunks, a sparse subsample): its small
   * pieces of chunks are then each their chunk's only range ({@link ChunkData#readOnce}), decoded no further than
   * they need and not kept. The block size is the one the array's earlier small reads met, else the chunks' size.
   */
  private static boolean cyclesParts(ChunkedArray a, int chunks, long chunkBytes, ChunkCache cache) {
    Object key = ChunkTask.cacheKey(a, cache);
    if (key == null || chunks < MANY_CHUNKS) {
      return false;
    }
    int bs = ReadAhead.state(key).blockSize;
    long perChunk = bs > 0 ? Math.min(bs, chunkBytes / chunks) : chunkBytes / chunks;
    return perChunk * chunks > cache.maxPartBytes();
  }

  /** The tasks of one read, in parallel on the decode threads when the read is large. */
  private static void runTasks(ChunkedArray a, List<ChunkTask> tasks, ChunkCache cache) throws IOException {
    long need = 0;
    long chunkBytes = 0; // what decoding every chunk whole would produce: a series through many chunks needs little
    for (ChunkTask t : tasks) { // of each, but may decode each whole (a chunk of one Blosc block)
      need += t.bytes;
      chunkBytes += t.chunkBytes;
    }
    // read-ahead serves small reads (a scan in pieces); a read of many chunks decodes them all itself, and a
    // read capped to its calling thread gets no decode thread's help
    boolean ahead = tasks.size() <= 2 && DecodePool.threadsForCaller() > 1;
    boolean large = tasks.size() >= 2 && (need >= PARALLEL_BYTES || chunkBytes >= 4 * PARALLEL_BYTES);
    boolean scatter = tasks.size() >= 2 && need >= scatterBytes;
    boolean once = cyclesParts(a, tasks.size(), chunkBytes, cache);
    for (ChunkTask t : tasks) {
      t.readAhead = ahead;
      t.scatter = scatter;
      t.once = once;
    }
    if (!large) {
      for (ChunkTask t : tasks) {
        t.run(a, cache);
      }
      return;
    }
    List<DecodePool.Job> jobs = new ArrayList<>(tasks.size());
    for (ChunkTask t : tasks) {
      jobs.add(() -> t.run(a, cache));
    }
    DecodePool.runAll(jobs);
  }
}
