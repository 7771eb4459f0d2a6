package org.chunkcdm.chunk;

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
      new ChunkCache(Long.getLong("chunkcdm.cache.bytes", 64L << 20));

  private final long maxBytes;
  private final long maxPartBytes;
  private final LinkedHashMap<Key, byte[]> map = new LinkedHashMap<>(64, 0.75f, true);
  private final LinkedHashMap<Key, byte[]> parts = new LinkedHashMap<>(64, 0.75f, true);
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
      byte[] old = map.put(new Key(arrayKey, index, -1), data);
      bytes += footprint(data.length) - (old == null ? 0 : footprint(old.length));
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

  /** The cached part (decoded block) of the chunk starting at decoded byte {@code offset}, or null. */
  public byte[] getPart(Object arrayKey, long index, long offset) {
    if (arrayKey == null || maxPartBytes == 0) {
      return null;
    }
    Key k = new Key(arrayKey, index, offset);
    synchronized (this) {
      return parts.get(k);
    }
  }

  /** Bytes of the chunk held as parts. */
  public synchronized long partBytesOf(Object arrayKey, long index) {
    long[] n = arrayKey == null ? null : partsOf.get(new Key(arrayKey, index, -1));
    return n == null ? 0 : n[0];
  }

  /** Whether a part of {@code n} bytes may be cached. */
  public boolean partFits(long n) {
    return n <= maxPartBytes / 4;
  }

  /**
   * Remembers a decoded part of a chunk, in the lower-priority share (evicting only other parts). Counts one
   * part decode.
   */
  public void putPart(Object arrayKey, long index, long offset, byte[] data) {
    partDecodes.increment();
    if (arrayKey == null || data == null || !partFits(data.length)) {
      return;
    }
    Key k = new Key(arrayKey, index, offset);
    synchronized (this) {
      byte[] old = parts.put(k, data);
      long delta = data.length - (old == null ? 0 : old.length);
      partBytes += delta;
      partsOf.computeIfAbsent(new Key(arrayKey, index, -1), x -> new long[1])[0] += delta;
      evictParts(Math.min(maxPartBytes, maxBytes - bytes));
    }
  }

  /** Evicts least recently used parts until they hold at most {@code limit} bytes. */
  private void evictParts(long limit) {
    Iterator<Map.Entry<Key, byte[]>> it = parts.entrySet().iterator();
    while (partBytes > Math.max(0, limit) && it.hasNext()) {
      Map.Entry<Key, byte[]> e = it.next();
      int len = e.getValue().length;
      partBytes -= len;
      Key ck = new Key(e.getKey().array, e.getKey().index, -1);
      long[] n = partsOf.get(ck);
      if (n != null && (n[0] -= len) <= 0) {
        partsOf.remove(ck);
      }
      it.remove();
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
    it = parts.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, byte[]> e = it.next();
      if (e.getKey().array.equals(arrayKey)) {
        partBytes -= e.getValue().length;
        it.remove();
      }
    }
    partsOf.keySet().removeIf(k -> k.array.equals(arrayKey));
  }

  public synchronized void clear() {
    map.clear();
    parts.clear();
    partsOf.clear();
    bytes = 0;
    partBytes = 0;
  }

  /** Bytes held, whole chunks and parts (never more than {@link #maxBytes()}). */
  public synchronized long bytes() {
    return bytes + partBytes;
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
