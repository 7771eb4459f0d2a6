package org.chunkcdm.chunk;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recognises sequential access to an array and decodes the next chunks ahead, on a decode thread, into the
 * read's cache. Sequential = two consecutive chunks (k-1, then k) were used whole from the cache by reads of
 * the same array; the read-ahead then decodes chunks k+1 .. k+depth (depth = decode threads, at most 4) unless it is cached or being decoded. At most
 * {@link DecodePool#threads()} chunks are decoded ahead at once (further requests are dropped, never queued);
 * what it decodes goes into the byte-bounded cache like any other decoded chunk, so memory stays within the
 * bound (plus the chunks being decoded). Also remembers the block size of each array's chunks, so that a
 * small read can look for cached blocks without opening the chunk.
 */
final class ReadAhead {
  private static final int MAX_STATES = 4096;
  private static final ConcurrentHashMap<Object, State> STATES = new ConcurrentHashMap<>();
  private static final AtomicInteger IN_FLIGHT = new AtomicInteger();
  /** Chunks decoded ahead of a scan: as many as there are decode threads, at most 4. */
  private static final int DEPTH = Math.max(1, Math.min(4, DecodePool.threads()));

  private ReadAhead() {}

  /** What reads of one array (one cache key) did last. */
  static final class State {
    volatile long lastWhole = Long.MIN_VALUE;
    volatile int blockSize;
    volatile long lastPart = Long.MIN_VALUE; // the chunk the last small read served from parts

    /** Whether chunk k follows the last chunk used whole: a scan, so decode it whole. */
    boolean isNext(long k) {
      return k > 0 && lastWhole == k - 1;
    }
  }

  static State state(Object key) {
    State s = STATES.get(key);
    if (s == null) {
      if (STATES.size() >= MAX_STATES) {
        STATES.clear();
      }
      s = STATES.computeIfAbsent(key, k -> new State());
    }
    return s;
  }

  /** Chunk k of the array was used whole from the cache: when k-1 was the one before, decode k+1 ahead. */
  static void wholeUsed(ChunkedArray a, Object key, State st, long k, ChunkCache cache, boolean ahead) {
    long prev = st.lastWhole;
    if (prev == k) {
      return;
    }
    st.lastWhole = k;
    if (!ahead || prev != k - 1) {
      return;
    }
    for (long next = k + 1; next <= k + DEPTH; next++) {
      ahead(a, key, next, cache);
    }
  }

  /** Decodes chunk {@code next} on a decode thread unless it is cached, being decoded, or too many are. */
  private static void ahead(ChunkedArray a, Object key, long next, ChunkCache cache) {
    if (next >= a.grid().chunkCount() || cache.isLoading(key, next) || cache.contains(key, next)) {
      return;
    }
    if (IN_FLIGHT.incrementAndGet() > DecodePool.threads()) {
      IN_FLIGHT.decrementAndGet();
      return;
    }
    try {
      DecodePool.pool().execute(() -> {
        try {
          if (cache.isLoading(key, next) || cache.contains(key, next)) {
            return;
          }
          ChunkData d = a.chunk(next);
          if (d == null) {
            return;
          }
          try {
            if (cache.fits(d.size())) {
              cache.load(key, next, d::readAll);
              cache.countPrefetch();
            }
          } finally {
            d.release();
          }
        } catch (Exception e) {
          // a read-ahead failure is not reported: the read that needs the chunk decodes it and reports then
        } finally {
          IN_FLIGHT.decrementAndGet();
        }
      });
    } catch (RuntimeException e) { // rejected
      IN_FLIGHT.decrementAndGet();
    }
  }
}
