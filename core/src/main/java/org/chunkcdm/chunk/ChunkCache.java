package org.chunkcdm.chunk;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A process-wide cache of decoded chunks, bounded by bytes (not entries). Keys are an array's
 * {@link ChunkedArray#cacheKey()} plus the chunk index. The bound comes from the system property
 * {@code chunkcdm.cache.bytes} (default 64 MiB, 0 disables); a chunk larger than a quarter of the bound is
 * not cached.
 */
public final class ChunkCache {
  private static final ChunkCache SHARED =
      new ChunkCache(Long.getLong("chunkcdm.cache.bytes", 64L << 20));

  private final long maxBytes;
  private final LinkedHashMap<Key, byte[]> map = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  public ChunkCache(long maxBytes) {
    this.maxBytes = Math.max(0, maxBytes);
  }

  public static ChunkCache shared() {
    return SHARED;
  }

  /** The cached decoded chunk, or null. */
  public byte[] get(Object arrayKey, long index) {
    if (arrayKey == null || maxBytes == 0) {
      return null;
    }
    byte[] b;
    synchronized (this) {
      b = map.get(new Key(arrayKey, index));
    }
    (b == null ? misses : hits).increment();
    return b;
  }

  /** Remembers a decoded chunk (the array must not be modified afterwards). */
  public void put(Object arrayKey, long index, byte[] data) {
    if (arrayKey == null || data == null || data.length > maxBytes / 4) {
      return;
    }
    synchronized (this) {
      byte[] old = map.put(new Key(arrayKey, index), data);
      bytes += data.length - (old == null ? 0 : old.length);
      Iterator<Map.Entry<Key, byte[]>> it = map.entrySet().iterator();
      while (bytes > maxBytes && it.hasNext()) {
        bytes -= it.next().getValue().length;
        it.remove();
      }
    }
  }

  /** Drops every chunk of one array (e.g. when its dataset changed on disk). */
  public synchronized void invalidate(Object arrayKey) {
    Iterator<Map.Entry<Key, byte[]>> it = map.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Key, byte[]> e = it.next();
      if (e.getKey().array.equals(arrayKey)) {
        bytes -= e.getValue().length;
        it.remove();
      }
    }
  }

  public synchronized void clear() {
    map.clear();
    bytes = 0;
  }

  public synchronized long bytes() {
    return bytes;
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

  private static final class Key {
    final Object array;
    final long index;

    Key(Object array, long index) {
      this.array = array;
      this.index = index;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && ((Key) o).index == index && ((Key) o).array.equals(array);
    }

    @Override
    public int hashCode() {
      return Objects.hash(array, index);
    }
  }
}
