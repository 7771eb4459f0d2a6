package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.chunk.BloscChunkData;
import org.junit.jupiter.api.Test;

/**
 * The buffers a cold point read reuses instead of allocating: stored chunk bytes fetched into pooled
 * arrays ({@link FetchBuffers}) given back by {@link ChunkData#release()}, and decoded parts whose arrays are
 * reused once evicted and no reader holds them ({@link ChunkCache#partBuffer}). Shows that a released chunk read
 * again fetches its bytes again, that a pinned part's array is never handed out, and that 8 threads reading
 * one array through small caches (parts evicted and reused all the time, every fetch buffer shared) read exactly
 * the values the chunks were built from while buffers are reused.
 */
class ColdReadBuffersTest {

  /** An array of Blosc chunks whose chunk() copies the stored bytes into pooled buffers, as the formats do. */
  static final class PooledArr extends BasicChunkedArray {
    final ChunkReuseTest.Arr base;
    final AtomicLong refetches = new AtomicLong();

    PooledArr(ChunkReuseTest.Arr base) {
      super(base.dtype(), base.grid(), null, base.key);
      this.base = base;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      byte[] c = base.chunks[(int) index];
      byte[] b = FetchBuffers.take(c.length);
      System.arraycopy(c, 0, b, 0, c.length);
      return BloscChunkData.pooled(b, 0, c.length, "chunk " + index, () -> {
        refetches.incrementAndGet();
        return c.clone();
      });
    }

  }

  @Test
  void aReleasedChunkReadAgainFetchesItsBytesAgain() throws Exception {
    FetchBuffers.clear();
    double[] v = ChunkReuseTest.values(4096, 3);
    byte[] stored = ChunkReuseTest.bloscChunk(v, 0, 4096, 8192);
    AtomicLong fetches = new AtomicLong();
    byte[] b = FetchBuffers.take(stored.length);
    System.arraycopy(stored, 0, b, 0, stored.length);
    BloscChunkData d = BloscChunkData.pooled(b, 0, stored.length, "test chunk", () -> {
      fetches.incrementAndGet();
      return stored.clone();
    });
    byte[] first = new byte[8192];
    d.read(8192, first, 0, first.length); // block 1
    d.release();
    d.release(); // a second release gives nothing back twice
    // the buffer went back to the pool: the next fetch of that size gets it, and overwrites it
    byte[] again = FetchBuffers.take(stored.length);
    assertSame(b, again, "the released buffer is reused");
    Arrays.fill(again, (byte) 0x55);
    byte[] second = new byte[8192];
    d.read(8192, second, 0, second.length);
    assertEquals(1, fetches.get(), "read after the release fetched the stored bytes again");
    assertArrayEquals(first, second);
    byte[] all = d.readAll();
    for (int i = 0; i < v.length; i++) {
      assertEquals(v[i], java.nio.ByteBuffer.wrap(all).order(java.nio.ByteOrder.LITTLE_ENDIAN).getDouble(8 * i));
    }
    d.release(); // the refetched array is not pooled: nothing changes
    FetchBuffers.give(again);
  }

  @Test
  void aChunkChangedOnDiskAfterTheReleaseIsAnError() throws Exception {
    double[] v = ChunkReuseTest.values(4096, 4);
    byte[] stored = ChunkReuseTest.bloscChunk(v, 0, 4096, 8192);
    byte[] other = ChunkReuseTest.bloscChunk(v, 0, 2048, 8192);
    byte[] b = FetchBuffers.take(stored.length);
    System.arraycopy(stored, 0, b, 0, stored.length);
    BloscChunkData d = BloscChunkData.pooled(b, 0, stored.length, "f.b2nd: chunk 7", () -> other);
    d.release();
    IOException e = assertThrows(IOException.class, () -> d.read(0, new byte[8], 0, 8));
    assertTrue(e.getMessage().startsWith("f.b2nd: chunk 7") && e.getMessage().contains("changed on disk"), e.getMessage());
  }

  @Test
  void aBadChunkGivesItsBufferBackAndNamesTheChunk() throws Exception {
    FetchBuffers.clear();
    byte[] b = FetchBuffers.take(64);
    Arrays.fill(b, (byte) 0x7f);
    IOException e = assertThrows(IOException.class,
        () -> BloscChunkData.pooled(b, 0, 64, "x.bcolz/data/__3.blp: chunk 3 of 'x'", () -> b));
    assertTrue(e.getMessage().startsWith("x.bcolz/data/__3.blp: chunk 3 of 'x'"), e.getMessage());
    assertSame(b, FetchBuffers.take(64), "the buffer went back to the pool");
  }

  @Test
  void aPinnedPartsArrayIsNotReusedUntilUnpinned() throws Exception {
    ChunkCache c = new ChunkCache(8L << 20); // parts: 1 MiB, a part at most 256 KiB, spares at most 512 KiB
    Object key = new Object();
    int n = 200 << 10;
    byte[] a = c.partBuffer(n);
    ChunkCache.Pinned pa = c.putPinned(key, 0, 0, a);
    for (int k = 1; k <= 3; k++) {
      c.unpin(c.putPinned(key, k, 0, c.partBuffer(n)));
    }
    c.invalidate(key); // every part leaves the cache while a reader still holds part 0
    assertEquals(null, c.pinPart(key, 0, 0));
    long reused = c.partBuffersReused();
    for (int k = 0; k < 4; k++) {
      assertNotSame(a, c.partBuffer(n), "an array a reader holds is never handed out");
    }
    assertTrue(c.partBuffersReused() > reused, "the unpinned parts' arrays were reused");
    c.unpin(pa);
    assertSame(a, c.partBuffer(n), "the array is reused once its reader unpinned it");
    // a part handed out unpinned (getPart) or held as a whole chunk is never reused
    byte[] kept = c.partBuffer(n);
    c.unpin(c.putPinned(key, 50, 0, kept));
    assertSame(kept, c.getPart(key, 50, 0));
    byte[] whole = c.partBuffer(n);
    ChunkCache.Pinned pw = c.putPinned(key, 51, 0, whole);
    c.put(key, 51, whole);
    c.unpin(pw);
    c.invalidate(key);
    for (int k = 0; k < 5; k++) {
      byte[] p = c.partBuffer(n);
      assertTrue(p != kept && p != whole, "a part array still referred to was reused");
    }
    assertTrue(c.bytes() <= c.maxBytes() && c.partBytes() <= c.maxBytes() / 8);
    c.unpin(c.putPinned(key, 60, 0, c.partBuffer(n)));
    c.invalidate(key);
    assertTrue(c.spareBytes() > 0 && c.bytes() == c.spareBytes(), "spare arrays are counted in bytes()");
    c.clear();
    assertEquals(0, c.bytes(), "clear drops the spare arrays too");
  }

  @Test
  void eightThreadsReadRightWhileBuffersAreReused() throws Exception {
    int chunkLen = 16384; // 128 KiB chunks
    List<PooledArr> arrays = new ArrayList<>();
    arrays.add(new PooledArr(new ChunkReuseTest.Arr(ChunkReuseTest.values(chunkLen * 24, 21), chunkLen, 131072)));
    arrays.add(new PooledArr(new ChunkReuseTest.Arr(ChunkReuseTest.values(chunkLen * 24, 22), chunkLen, 16384)));
    ChunkCache cache = new ChunkCache(4L << 20); // parts: 512 KiB = four 128 KiB blocks: evicted all the time
    long fetchReused = ChunkProbes.fetchBuffersReused();
    Concurrently.run(8, (thread, r) -> {
      ReadSettings rs = ReadSettings.of(cache, thread % 2 == 0 ? 0 : 1);
      for (int i = 0; i < 300; i++) {
        PooledArr a = arrays.get(r.nextInt(arrays.size()));
        int kind = r.nextInt(5);
        int n = kind <= 1 ? 1 : kind == 2 ? 700 : kind == 3 ? 3 * chunkLen : 9000;
        int at = r.nextInt(a.base.values.length - n);
        double[] got = ChunkReuseTest.read1(a, rs, at, n);
        for (int j = 0; j < n; j++) {
          if (got[j] != a.base.values[at + j]) {
            throw new AssertionError("element " + (at + j) + ": " + got[j] + " != " + a.base.values[at + j]);
          }
        }
        if (cache.bytes() > cache.maxBytes()) {
          throw new AssertionError("cache holds " + cache.bytes() + " bytes, over its bound");
        }
      }
    });
    assertTrue(ChunkProbes.fetchBuffersReused() > fetchReused, "fetch buffers were reused");
    assertTrue(cache.partBuffersReused() > 0, "part arrays were reused");
    assertTrue(cache.partDecodes() > 0);
    assertEquals(0, arrays.get(0).refetches.get() + arrays.get(1).refetches.get(),
        "section reads release a chunk only when done with it");
  }
}
