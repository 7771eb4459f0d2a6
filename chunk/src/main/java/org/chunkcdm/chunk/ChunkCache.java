package org.chunkcdm.chunk;

import org.chunkcdm.blosc.internal.Settings;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A process-wide cache of decoded chunk data, bounded by bytes (not entries). Keys are an array's
 * {@link ChunkedArray#cacheKey()} plus the chunk index. The bound comes from the system property
 * {@code chunkcdm.cache.bytes} (default 64 MiB, 0 disables); a chunk larger than a quarter of the bound is
 * not cached.
 *
 * <p>Two kinds of entries share the one bound:
 * <ul>
 *   <li><b>whole chunks</b>, least recently used evicted first;
 *   <li><b>parts</b> (decoded blocks of a chunk, kept by small reads that need only a few blocks of a chunk,
 *       e.g. a point or time-series read): a lower priority share of at most an eighth of the bound, with its
 *       own least-recently-used order. Putting a part only ever evicts other parts, so a pattern that touches
 *       one block in each of many chunks cannot evict the whole chunks other readers use.
 * </ul>
 * Whole chunks are decoded at most once at a time per key ({@link #load}): a thread that needs a chunk
 * another thread (or the read-ahead) is decoding waits for that decode instead of repeating it.
 *
 * <p>Counters ({@link #chunkDecodes()}, {@link #partDecodes()}) count the decodes done for reads through
 * this cache, for tests and benchmarks.
 *
 * <p>The bound is on heap, not only on array lengths: under the G1 collector an array of at least half a heap
 * region is a "humongous" object that occupies whole regions (a 1 MiB chunk in a JVM with 1 MiB regions takes
 * two), so a whole chunk is charged {@link #footprint(long) the regions it occupies}.
 */
public final class ChunkCache {
  private static final ChunkCache SHARED =
      new ChunkCache(Settings.CACHE_BYTES.number());

  private final long maxBytes;
  private final long maxPartBytes;
  private final LinkedHashMap<Key, byte[]> map = new LinkedHashMap<>(64, 0.75f, true);
  private final LinkedHashMap<Key, Part> parts = new LinkedHashMap<>(64, 0.75f, true);
  /** Arrays of evicted parts no reader holds, for the next part of the same size ({@link #partBuffer}). */
  private final java.util.ArrayDeque<byte[]> spare = new java.util.ArrayDeque<>();
  private long spareBytes;
  private final LongAdder partBuffersReused = new LongAdder();
  /** Per chunk (part key with offset -1): bytes of its parts held. */
  private final HashMap<Key, long[]> partsOf = new HashMap<>();
  private final ConcurrentHashMap<Key, CompletableFuture<byte[]>> loading = new ConcurrentHashMap<>();
  private long bytes; // whole chunks
  private long partBytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder chunkDecodes = new LongAdder();
  private final LongAdder partDecodes = new LongAdder();
  private final LongAdder prefetched = new LongAdder();

  /** G1's heap region size in bytes, or 0 when the JVM does not use G1 (or does not say). */
  private static final long REGION = g1RegionBytes();

  private static long g1RegionBytes() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean hs =
          java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      if (hs == null || !"true".equals(hs.getVMOption("UseG1GC").getValue())) {
        return 0;
      }
      return Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue());
    } catch (RuntimeException | LinkageError e) {
      return 0; // not HotSpot, or no jdk.management module: charge array lengths
    }
  }

  /**
   * Heap bytes a {@code byte[n]} occupies as the cache charges it: {@code n}, or, under G1 for an array of at least
   * half a region, the whole regions it takes.
   */
  public static long footprint(long n) {
    long size = n + 16; // array header
    if (REGION > 0 && size >= REGION / 2) {
      return (size + REGION - 1) / REGION * REGION;
    }
    return n;
  }

  public ChunkCache(long maxBytes) {
    this.maxBytes = Math.max(0, maxBytes);
    this.maxPartBytes = this.maxBytes / 8;
  }

  public static ChunkCache shared() {
    return SHARED;
  }

  /** Whether a chunk of {@code n} decoded bytes may be cached whole. */
  public boolean fits(long n) {
    return n <= maxBytes / 4 && footprint(n) <= maxBytes / 2;
  }

  /** The cached decoded chunk, or null. */
  public byte[] get(Object arrayKey, long index) {
    if (arrayKey == null || maxBytes == 0) {
      return null;
    }
    byte[] b;
    Key k = new Key(arrayKey, index, -1);
    synchronized (this) {
      b = map.get(k);
    }
    (b == null ? misses : hits).increment();
    return b;
  }

  /** Whether the chunk is cached whole (no effect on its recency). */
  public synchronized boolean contains(Object arrayKey, long index) {
    return arrayKey != null && map.containsKey(new Key(arrayKey, index, -1));
  }

  /** Remembers a decoded chunk (the array must not be modified afterwards). */
  public void put(Object arrayKey, long index, byte[] data) {
    if (arrayKey == null || data == null || !fits(data.length)) {
      return;
    }
    synchronized (this) {
      if (!parts.isEmpty()) { // a part's array held as the whole chunk (a one-block chunk): never recycled
        Part pt = parts.get(new Key(arrayKey, index, 0));
        if (pt != null && pt.data == data) {
          pt.recyclable = false;
        }
      }
      byte[] old = map.put(new Key(arrayKey, index, -1), data);
      bytes += footprint(data.length) - (old == null ? 0 : footprint(old.length));
      trimSpare(maxBytes - bytes - partBytes);
      Iterator<Map.Entry<Key, byte[]>> it = map.entrySet().iterator();
      while (bytes + partBytes > maxBytes && it.hasNext()) {
        Map.Entry<Key, byte[]> e = it.next();
        if (e.getValue() == data) {
          continue;
        }
        bytes -= footprint(e.getValue().length);
        it.remove();
      }
      evictParts(maxBytes - bytes);
    }
  }

  /**
   * The decoded chunk: from the cache, else from a decode already running for the same key (waiting for
   * it), else decoded here by {@code decoder} and cached. Counts one chunk decode when this call decodes.
   */
  public byte[] load(Object arrayKey, long index, Decoder decoder) throws IOException {
    byte[] b = get(arrayKey, index);
    if (b != null) {
      return b;
    }
    if (arrayKey == null || maxBytes == 0) {
      chunkDecodes.increment();
      return decoder.decode();
    }
    Key k = new Key(arrayKey, index, -1);
    for (int attempt = 0; ; attempt++) {
      CompletableFuture<byte[]> mine = new CompletableFuture<>();
      CompletableFuture<byte[]> other = loading.putIfAbsent(k, mine);
      if (other != null) {
        byte[] r = await(other);
        if (r != null) {
          return r;
        }
        if (attempt < 2) {
          continue; // the other decode failed or was a read-ahead that gave up: decode here
        }
      }
      b = get(arrayKey, index); // decoded and cached between our miss and now
      if (b != null) {
        if (other == null) {
          loading.remove(k, mine);
          mine.complete(b);
        }
        return b;
      }
      byte[] result = null;
      try {
        chunkDecodes.increment();
        result = decoder.decode();
        if (result != null) {
          put(arrayKey, index, result);
        }
        return result;
      } finally {
        if (other == null) { // waiters see the decode's result, or null after a failure (they decode themselves)
          loading.remove(k, mine);
          mine.complete(result);
        }
      }
    }
  }

  /** The chunk being decoded by another thread right now, waited for; null when none is. */
  public byte[] awaitLoading(Object arrayKey, long index) throws IOException {
    if (arrayKey == null || loading.isEmpty()) {
      return null;
    }
    CompletableFuture<byte[]> f = loading.get(new Key(arrayKey, index, -1));
    return f == null ? null : await(f);
  }

  /** Whether a decode of the chunk is running (for the read-ahead: nothing to do then). */
  public boolean isLoading(Object arrayKey, long index) {
    return arrayKey != null && loading.containsKey(new Key(arrayKey, index, -1));
  }

  private static byte[] await(CompletableFuture<byte[]> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a chunk decode");
    } catch (ExecutionException e) {
      return null;
    }
  }

  /** Decodes one whole chunk. */
  public interface Decoder {
    byte[] decode() throws IOException;
  }

  // ------------------------------------------------------------------------- parts

  /**
   * A decoded part held for a reader: its bytes stay as they are until {@link #unpin}, even when the part is
   * evicted meanwhile (its array is reused for another part only after the last reader unpinned it).
   */
  public static final class Pinned {
    private final Part part;

    private Pinned(Part part) {
      this.part = part;
    }

    /** The decoded bytes of the part (do not modify). */
    public byte[] data() {
      return part.data;
    }
  }

  /** A part entry: its array, the readers holding it, and whether its array may be reused once evicted. */
  private static final class Part {
    final byte[] data;
    int pins;
    boolean evicted;
    boolean recyclable; // only SectionReader's own arrays, never one handed out unpinned or held as a whole chunk

    Part(byte[] data, boolean recyclable) {
      this.data = data;
      this.recyclable = recyclable;
    }
  }

  /**
   * The cached part (decoded block) of the chunk starting at decoded byte {@code offset}, or null. The array
   * stays valid for good (it is never reused for another part).
   */
  public byte[] getPart(Object arrayKey, long index, long offset) {
    Part p = part(arrayKey, index, offset, false);
    return p == null ? null : p.data;
  }

  /** Whether the part is cached (no effect on its recency). */
  public synchronized boolean hasPart(Object arrayKey, long index, long offset) {
    return arrayKey != null && parts.containsKey(new Key(arrayKey, index, offset));
  }

  /** The cached part, pinned until {@link #unpin}; null when not cached. */
  public Pinned pinPart(Object arrayKey, long index, long offset) {
    Part p = part(arrayKey, index, offset, true);
    return p == null ? null : new Pinned(p);
  }

  /**
   * The cached part, or null (also where parts are not cached); under the lock it is pinned ({@code pin}) or kept
   * from being reused for another part (its array is handed out for good).
   */
  private Part part(Object arrayKey, long index, long offset, boolean pin) {
    if (arrayKey == null || maxPartBytes == 0) {
      return null;
    }
    Key k = new Key(arrayKey, index, offset);
    synchronized (this) {
      Part p = parts.get(k);
      if (p != null && pin) {
        p.pins++;
      } else if (p != null) {
        p.recyclable = false;
      }
      return p;
    }
  }

  /** Ends a {@link #pinPart}/{@link #putPinned} hold; the array of an evicted part is reused after the last one. */
  public void unpin(Pinned h) {
    if (h == null) {
      return;
    }
    synchronized (this) {
      Part p = h.part;
      if (--p.pins == 0 && p.evicted) {
        recycle(p);
      }
    }
  }

  /**
   * An array of exactly {@code n} bytes for decoding a part into: one of an evicted part that no reader holds
   * any more when there is one of that size (its old content is overwritten by the decode), else a new one. Hand
   * it to {@link #putPinned} (or drop it).
   */
  public byte[] partBuffer(int n) throws IOException {
    synchronized (this) {
      if (partFits(n)) {
        // make room for the part first: a part evicted now that no reader holds becomes the spare used below
        evictParts(Math.min(maxPartBytes, maxBytes - bytes) - n);
      }
      if (!spare.isEmpty()) {
        Iterator<byte[]> it = spare.iterator();
        while (it.hasNext()) {
          byte[] b = it.next();
          if (b.length == n) {
            it.remove();
            spareBytes -= n;
            partBuffersReused.increment();
            return b;
          }
        }
      }
    }
    org.chunkcdm.io.Bounds.checkAllocation(n, "decoded block");
    return new byte[n];
  }

  private void recycle(Part p) {
    if (!p.recyclable) {
      return;
    }
    p.recyclable = false; // once
    // kept within the parts' share of the bound, counted with the parts (dropped first when room is needed)
    long keep = Math.min(Math.min(maxPartBytes / 2, 8L << 20), Math.min(maxPartBytes, maxBytes - bytes) - partBytes);
    trimSpare(keep - p.data.length);
    if (spareBytes + p.data.length <= keep) {
      spare.addLast(p.data);
      spareBytes += p.data.length;
    }
  }

  /** Drops the oldest spare arrays until they hold at most {@code limit} bytes. */
  private void trimSpare(long limit) {
    while (spareBytes > Math.max(0, limit) && !spare.isEmpty()) {
      spareBytes -= spare.pollFirst().length;
    }
  }

  /** Bytes held as spare part arrays (arrays of evicted parts kept for reuse; for tests). */
  public synchronized long spareBytes() {
    return spareBytes;
  }

  /** Part arrays reused by {@link #partBuffer} (for tests and benchmarks). */
  public long partBuffersReused() {
    return partBuffersReused.sum();
  }

  /** Bytes of the chunk held as parts. */
  public synchronized long partBytesOf(Object arrayKey, long index) {
    long[] n = arrayKey == null ? null : partsOf.get(new Key(arrayKey, index, -1));
    return n == null ? 0 : n[0];
  }

  /** Bytes the parts (decoded blocks) may hold at most. */
  long maxPartBytes() {
    return maxPartBytes;
  }

  /** Whether a part of {@code n} bytes may be cached. */
  public boolean partFits(long n) {
    return n <= maxPartBytes / 4;
  }

  /**
   * Remembers a decoded part of a chunk, in the lower-priority share (evicting only other parts). Counts one
   * part decode. The array is never reused for another part.
   */
  public void putPart(Object arrayKey, long index, long offset, byte[] data) {
    partDecodes.increment();
    if (arrayKey == null || data == null || !partFits(data.length)) {
      return;
    }
    synchronized (this) {
      add(new Key(arrayKey, index, offset), new Part(data, false));
    }
  }

  /**
   * As {@link #putPart} for an array of {@link #partBuffer} that nothing else refers to, pinned for the caller
   * until {@link #unpin} (also when the part was not cached: then nothing else ever sees it). Once evicted and
   * unpinned, its array may be reused for another part.
   */
  public Pinned putPinned(Object arrayKey, long index, long offset, byte[] data) {
    partDecodes.increment();
    Part p = new Part(data, true);
    p.pins = 1;
    if (arrayKey == null || !partFits(data.length)) {
      p.evicted = true; // not cached: reusable after the caller's unpin
      return new Pinned(p);
    }
    synchronized (this) {
      add(new Key(arrayKey, index, offset), p);
    }
    return new Pinned(p);
  }

  private void add(Key k, Part p) {
    Part old = parts.put(k, p);
    long delta = p.data.length - (old == null ? 0 : old.data.length);
    if (old != null) {
      dropped(old);
    }
    partBytes += delta;
    partsOf.computeIfAbsent(new Key(k.array, k.index, -1), x -> new long[1])[0] += delta;
    evictParts(Math.min(maxPartBytes, maxBytes - bytes));
    trimSpare(Math.min(maxPartBytes, maxBytes - bytes) - partBytes);
  }

  /** A part left the cache: its array is reused once no reader holds it. */
  private void dropped(Part p) {
    p.evicted = true;
    if (p.pins == 0) {
      recycle(p);
    }
  }

  /** Evicts least recently used parts until they hold at most {@code limit} bytes. */
  private void evictParts(long limit) {
    Iterator<Map.Entry<Key, Part>> it = parts.entrySet().iterator();
    while (partBytes > Math.max(0, limit) && it.hasNext()) {
      Map.Entry<Key, Part> e = it.next();
      int len = e.getValue().data.length;
      partBytes -= len;
      Key ck = new Key(e.getKey().array, e.getKey().index, -1);
      long[] n = partsOf.get(ck);
      if (n != null && (n[0] -= len) <= 0) {
        partsOf.remove(ck);
      }
      it.remove();
      dropped(e.getValue());
    }
  }

  /** Counts a whole-chunk decode done outside {@link #load} (a chunk decoded straight into a read's output). */
  public void countChunkDecode() {
    chunkDecodes.increment();
  }

  /** Counts a whole chunk decoded ahead of need by the read-ahead. */
  void countPrefetch() {
    prefetched.increment();
  }

  /** Drops every chunk and part of one array (e.g. when its dataset changed on disk). */
  public synchronized void invalidate(Object arrayKey) {
    Iterator<Map.Entry<Key, byte[]>> it = map.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, byte[]> e = it.next();
      if (e.getKey().array.equals(arrayKey)) {
        bytes -= footprint(e.getValue().length);
        it.remove();
      }
    }
    Iterator<Map.Entry<Key, Part>> pit = parts.entrySet().iterator();
    while (pit.hasNext()) {
      Map.Entry<Key, Part> e = pit.next();
      if (e.getKey().array.equals(arrayKey)) {
        partBytes -= e.getValue().data.length;
        pit.remove();
        dropped(e.getValue());
      }
    }
    partsOf.keySet().removeIf(k -> k.array.equals(arrayKey));
  }

  /** Drops every chunk, part and spare part array. */
  public synchronized void clear() {
    map.clear();
    for (Part p : parts.values()) {
      p.evicted = true;
      p.recyclable = false; // a reader still holding one keeps it; nothing is kept for reuse
    }
    parts.clear();
    partsOf.clear();
    spare.clear();
    bytes = 0;
    partBytes = 0;
    spareBytes = 0;
  }

  /**
   * Bytes held, whole chunks, parts and spare part arrays kept for reuse (never more than {@link #maxBytes()}).
   */
  public synchronized long bytes() {
    return bytes + partBytes + spareBytes;
  }

  /** Bytes held as parts (never more than an eighth of {@link #maxBytes()}). */
  public synchronized long partBytes() {
    return partBytes;
  }

  public long maxBytes() {
    return maxBytes;
  }

  public long hits() {
    return hits.sum();
  }

  public long misses() {
    return misses.sum();
  }

  /** Whole chunks decoded for reads through this cache (including the read-ahead's). */
  public long chunkDecodes() {
    return chunkDecodes.sum();
  }

  /** Parts (blocks) decoded for small reads through this cache. */
  public long partDecodes() {
    return partDecodes.sum();
  }

  /** Whole chunks the read-ahead decoded. */
  public long prefetched() {
    return prefetched.sum();
  }

  private static final class Key {
    final Object array;
    final long index;
    final long offset; // -1 = the whole chunk

    Key(Object array, long index, long offset) {
      this.array = array;
      this.index = index;
      this.offset = offset;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      return k.index == index && k.offset == offset && k.array.equals(array);
    }

    @Override
    public int hashCode() {
      return (array.hashCode() * 31 + Long.hashCode(index)) * 31 + Long.hashCode(offset);
    }
  }
}
