package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import org.chunkcdm.io.Bounds;

/**
 * A small process-wide pool of byte arrays for the stored (compressed) bytes of chunks fetched from files: a
 * chunk read takes one ({@link #take}), and the {@link ChunkData} made over it gives it back when its reader
 * {@link ChunkData#release() releases} it. A cold point read of a large chunk then neither allocates (and
 * zeroes) a new array of the chunk's compressed size nor leaves it to the garbage collector.
 *
 * <p>At most {@link #SLOTS} arrays of at most {@link #KEEP_MAX} bytes each, and at most {@link #KEEP_TOTAL}
 * bytes in all, are kept (arrays given back beyond that are dropped to the garbage collector), so the pool
 * usually holds a few chunks' worth. {@code KEEP_MAX} is as large as the decode scratch a thread keeps, so that a
 * whole read of a b2nd array of 8 MiB chunks (python-blosc2's default for a 1 GiB float64 array) reuses its
 * fetch arrays instead of allocating (and zeroing) a humongous array per chunk: with 4 MiB that read allocated
 * 1 GiB of fetch arrays and ran a young GC every ~35 ms. An array is never in the pool and in use at once: {@link #take} removes it,
 * {@link #give} must only be called by the one holder once nothing reads it any more.
 */
public final class FetchBuffers {
  /** Arrays larger than this are not kept. */
  public static final int KEEP_MAX = 16 << 20;
  /** The pool holds at most this many bytes in all. */
  public static final long KEEP_TOTAL = 64L << 20;
  /** How many arrays are kept at most. */
  public static final int SLOTS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  private static final byte[][] POOL = new byte[SLOTS][];
  private static long pooledBytes; // sum of the lengths in POOL, guarded by POOL

  /** Arrays {@link #take} handed out from the pool. */
  static final LongAdder REUSED = new LongAdder();
  /** Arrays {@link #take} had to allocate. */
  static final LongAdder ALLOCATED = new LongAdder();

  private FetchBuffers() {}

  /**
   * An array of at least {@code n} bytes, from the pool when one fits (its content is whatever it held before),
   * else a new one; the caller owns it until it {@link #give}s it back (or drops it).
   */
  public static byte[] take(int n) throws IOException {
    if (n < 0) {
      throw new IOException("a fetch buffer of " + n + " bytes");
    }
    if (n <= KEEP_MAX) {
      synchronized (POOL) {
        int best = -1;
        for (int i = 0; i < SLOTS; i++) {
          byte[] b = POOL[i];
          if (b != null && b.length >= n && (best < 0 || b.length < POOL[best].length)) {
            best = i;
          }
        }
        if (best >= 0) {
          byte[] b = POOL[best];
          POOL[best] = null;
          pooledBytes -= b.length;
          REUSED.increment();
          return b;
        }
      }
    }
    Bounds.checkAllocation(n, "chunk fetch buffer");
    ALLOCATED.increment();
    // rounded up (chunks of one array differ a little in compressed size), so that the array fits the next one too
    long round = n <= 64 << 10 ? 4 << 10 : 64 << 10;
    long size = (n + round - 1) / round * round;
    return new byte[size > Integer.MAX_VALUE - 16 ? n : (int) size];
  }

  /**
   * Gives an array from {@link #take} back to the pool. The caller must not use it afterwards, and nothing else
   * may still read it. Kept unless it is too large or the pool is full of arrays at least as large.
   */
  public static void give(byte[] b) {
    if (b == null || b.length > KEEP_MAX) {
      return;
    }
    synchronized (POOL) {
      int smallest = -1;
      for (int i = 0; i < SLOTS; i++) {
        if (POOL[i] == b) {
          throw new IllegalStateException("fetch buffer given back twice");
        }
      }
      for (int i = 0; i < SLOTS; i++) {
        if (POOL[i] == null) {
          if (pooledBytes + b.length <= KEEP_TOTAL) {
            POOL[i] = b;
            pooledBytes += b.length;
            return;
          }
        } else if (smallest < 0 || POOL[i].length < POOL[smallest].length) {
          smallest = i;
        }
      }
      // full (slots or bytes): the new array replaces the smallest kept one when larger and the total allows it
      if (smallest >= 0 && POOL[smallest].length < b.length && pooledBytes - POOL[smallest].length + b.length <= KEEP_TOTAL) {
        pooledBytes += b.length - POOL[smallest].length;
        POOL[smallest] = b;
      }
    }
  }

  /** Empties the pool (tests). */
  static void clear() {
    synchronized (POOL) {
      java.util.Arrays.fill(POOL, null);
      pooledBytes = 0;
    }
  }
}
