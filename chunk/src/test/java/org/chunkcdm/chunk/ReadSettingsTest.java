package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Read settings carried by an array: its own cache and decode-thread budget instead of the process-wide ones. */
class ReadSettingsTest {
  /** int32 values = C index, regular chunks, recording which threads asked for chunks. */
  static final class Counting extends BasicChunkedArray {
    final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    Counting(long[] shape, int[] chunk) {
      super(DType.of(DType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN), ChunkGrid.regular(shape, chunk), null, new Object());
    }

    @Override
    public ChunkData chunk(long index) {
      threads.add(Thread.currentThread());
      ChunkGrid.Regular g = (ChunkGrid.Regular) grid();
      int[] c = g.chunkShape();
      long[] shape = g.shape();
      long ky = index / g.gridShape()[1];
      long kx = index % g.gridShape()[1];
      ByteBuffer b = ByteBuffer.allocate(c[0] * c[1] * 4).order(ByteOrder.LITTLE_ENDIAN);
      for (int y = 0; y < c[0]; y++) {
        for (int x = 0; x < c[1]; x++) {
          long gy = ky * c[0] + y;
          long gx = kx * c[1] + x;
          b.putInt(gy < shape[0] && gx < shape[1] ? (int) (gy * shape[1] + gx) : -1);
        }
      }
      return ChunkData.of(b.array());
    }
  }

  @Test
  void privateCacheStaysBoundedAndSharedCacheIsUntouched() throws Exception {
    ChunkCache shared = ChunkCache.shared();
    long sharedBytes = shared.bytes();
    long sharedHits = shared.hits();
    long sharedMisses = shared.misses();
    ChunkCache mine = new ChunkCache(40_000); // chunks of 4,096 bytes: at most 9 fit
    Counting base = new Counting(new long[] {300, 300}, new int[] {32, 32});
    ChunkedArray a = base.withSettings(ReadSettings.of(mine, 0));
    assertSame(a, a.withSettings(a.settings()));
    assertSame(base.cacheKey(), a.cacheKey());
    Random r = new Random(3);
    for (int i = 0; i < 300; i++) {
      long y = r.nextInt(270);
      long x = r.nextInt(270);
      int[] v = new int[24 * 24]; // a box covering most of a chunk: whole chunks are decoded and cached
      SectionReader.read(a, new long[] {y, x}, new long[] {24, 24}, null, v, 0);
      assertEquals((int) (y * 300 + x), v[0]);
      assertEquals((int) ((y + 23) * 300 + x + 23), v[v.length - 1]);
      assertTrue(mine.bytes() <= mine.maxBytes(), "private cache over its bound: " + mine.bytes());
    }
    assertTrue(mine.bytes() > 0 && mine.misses() > 0, "the private cache was used");
    long hits = mine.hits();
    int[] v = new int[24 * 24];
    SectionReader.read(a, new long[] {4, 4}, new long[] {24, 24}, null, v, 0);
    SectionReader.read(a, new long[] {5, 5}, new long[] {1, 1}, null, v, 0);
    assertTrue(mine.hits() > hits, "a repeated chunk comes from the private cache");
    assertEquals(sharedBytes, shared.bytes());
    assertEquals(sharedHits, shared.hits());
    assertEquals(sharedMisses, shared.misses());
    // the same array with default settings uses the shared cache
    SectionReader.read(base, new long[] {5, 5}, new long[] {1, 1}, null, v, 0);
    assertEquals(sharedHits + sharedMisses + 1, shared.hits() + shared.misses());
  }

  @Test
  void oneDecodeThreadDecodesOnTheCallingThreadOnly() throws Exception {
    // 4 MB over 64 chunks: big enough for the parallel path
    Counting base = new Counting(new long[] {1024, 1024}, new int[] {128, 128});
    ChunkedArray a = base.withSettings(ReadSettings.of(new ChunkCache(0), 1));
    long helped = ChunkProbes.helpedJobs();
    int[] all = new int[1024 * 1024];
    for (int rep = 0; rep < 3; rep++) {
      SectionReader.read(a, new long[] {0, 0}, new long[] {1024, 1024}, null, all, 0);
    }
    assertEquals(Set.of(Thread.currentThread()), base.threads);
    assertEquals(helped, ChunkProbes.helpedJobs());
    for (int i = 0; i < all.length; i += 997) {
      assertEquals(i, all[i]);
    }
    // explicit settings on the call win over the array's
    base.threads.clear();
    byte[] raw = SectionReader.readBytes(base, new long[] {0, 0}, new long[] {1024, 1024}, new long[] {1, 1},
        ReadSettings.of(null, 1));
    assertEquals(Set.of(Thread.currentThread()), base.threads);
    assertEquals(4 * 1024 * 1024, raw.length);
  }

  /**
   * The cap a read sets also holds for decode work started inside it (the codec's block-parallel decode of a
   * large chunk asks {@link DecodePool#threadsForCaller()}): with 1, every job runs on the caller.
   */
  @Test
  void capOfOneHoldsForNestedDecodeWork() throws Exception {
    Set<Thread> seen = ConcurrentHashMap.newKeySet();
    java.util.List<DecodePool.Job> jobs = new java.util.ArrayList<>();
    for (int i = 0; i < 64; i++) {
      jobs.add(() -> {
        seen.add(Thread.currentThread());
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    long helped = ChunkProbes.helpedJobs();
    DecodePool.withLimit(1, () -> {
      assertEquals(1, DecodePool.threadsForCaller());
      DecodePool.runAll(jobs);
    });
    assertEquals(Set.of(Thread.currentThread()), seen);
    assertEquals(helped, ChunkProbes.helpedJobs());
    assertEquals(DecodePool.threads(), DecodePool.threadsForCaller(), "the cap ends with the read");
    assertEquals(1, ReadSettings.of(null, 1).effectiveThreads());
    assertEquals(DecodePool.threads(), ReadSettings.defaults().effectiveThreads());
    assertSame(ReadSettings.defaults(), ReadSettings.of(null, 0));
  }
}
