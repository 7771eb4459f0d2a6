package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.chunk.BloscChunkData;
import org.junit.jupiter.api.Test;

/**
 * Decoded data is reused across reads: decode counters of a private cache show a front-to-back scan
 * in small pieces decoding each chunk once, a time-series read decoding one block per chunk without evicting
 * other arrays' chunks, the bound held under a mixed multi-threaded workload, and 8 threads scanning 8 arrays
 * decoding each chunk about once; every result is compared with the values the chunks were built from.
 */
class ChunkReuseTest {
  static final DType F64 = DType.of(DType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN);

  /**
   * A real Blosc 1 chunk of the given doubles, blocks of {@code blocksize} bytes each stored as one
   * uncompressed stream (the layout c-blosc writes for incompressible blocks); decoding goes block by block.
   */
  static byte[] bloscChunk(double[] v, int from, int n, int blocksize) {
    int nbytes = n * 8;
    int nblocks = (nbytes + blocksize - 1) / blocksize;
    ByteBuffer b = ByteBuffer.allocate(16 + 4 * nblocks + 4 * nblocks + nbytes).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 2).put((byte) 1).put((byte) 0x10).put((byte) 8).putInt(nbytes).putInt(blocksize).putInt(b.capacity());
    int pos = 16 + 4 * nblocks;
    for (int k = 0; k < nblocks; k++) {
      b.putInt(16 + 4 * k, pos);
      int len = Math.min(blocksize, nbytes - k * blocksize);
      b.putInt(pos, len);
      for (int i = 0; i < len / 8; i++) {
        b.putDouble(pos + 4 + 8 * i, v[from + k * blocksize / 8 + i]);
      }
      pos += 4 + len;
    }
    return b.array();
  }

  /** An array of Blosc chunks over {@code values}, counting chunk opens. */
  static final class Arr extends BasicChunkedArray {
    final double[] values;
    final byte[][] chunks;
    final Object key;
    final AtomicLong opens = new AtomicLong();

    /** 1-D, chunks of {@code chunkLen} elements. */
    Arr(double[] values, int chunkLen, int blocksize) {
      this(values, ChunkGrid.regular(new long[] {values.length}, new int[] {chunkLen}), chunkLen, blocksize);
    }

    Arr(double[] values, ChunkGrid grid, int chunkElems, int blocksize) {
      this(values, grid, chunkElems, blocksize, new Object());
    }

    private Arr(double[] values, ChunkGrid grid, int chunkElems, int blocksize, Object key) {
      super(F64, grid, null, key);
      this.key = key;
      this.values = values;
      int n = (int) grid.chunkCount();
      chunks = new byte[n][];
      for (int k = 0; k < n; k++) {
        chunks[k] = bloscChunk(values, k * chunkElems, chunkElems, blocksize);
      }
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      opens.incrementAndGet();
      byte[] c = chunks[(int) index];
      return BloscChunkData.of(c, 0, c.length);
    }
  }

  static double[] values(int n, long seed) {
    Random r = new Random(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = i + r.nextDouble();
    }
    return v;
  }

  static double[] read1(ChunkedArray a, ReadSettings rs, long at, int n) throws IOException {
    double[] out = new double[n];
    SectionReader.readInto(a, new long[] {at}, new long[] {n}, null, out, 0, rs);
    return out;
  }

  @Test
  void scanInSmallPiecesDecodesEachChunkOnce() throws Exception {
    int chunkLen = 16384; // 128 KiB chunks of 16 blocks of 8 KiB
    int nchunks = 40;
    Arr a = new Arr(values(chunkLen * nchunks, 1), chunkLen, 8192);
    for (int piece : new int[] {1024, 100, 8192}) {
      ChunkCache cache = new ChunkCache(64L << 20);
      ReadSettings rs = ReadSettings.of(cache, 0); // default decode threads: the read-ahead may use them
      double[] all = new double[a.values.length];
      for (int at = 0; at < all.length; at += piece) {
        int n = Math.min(piece, all.length - at);
        System.arraycopy(read1(a, rs, at, n), 0, all, at, n);
      }
      assertArrayEquals(a.values, all, "piece " + piece);
      assertEquals(nchunks, cache.chunkDecodes(), "piece " + piece + ": each chunk decoded whole once");
      // only the first chunk is read block by block, until a quarter of it was needed
      assertTrue(cache.partDecodes() <= 4, "piece " + piece + ": " + cache.partDecodes() + " blocks decoded alone");
      // how many the read-ahead wins in a tight loop depends on the machine's load (on a busy machine the reader
      // may win every race); that it works at all is shown below without a race
      assertTrue(cache.bytes() <= cache.maxBytes());
    }
  }

  @Test
  void aScanIsRecognisedAndTheNextChunksAreDecodedAhead() throws Exception {
    if (DecodePool.threads() < 2) {
      return; // no decode thread to read ahead on (checked where there is one)
    }
    int chunkLen = 16384;
    Arr a = new Arr(values(chunkLen * 8, 9), chunkLen, 8192);
    ChunkCache cache = new ChunkCache(64L << 20);
    ReadSettings rs = ReadSettings.of(cache, 0);
    // chunks 0 and 1 used whole (read in halves: decoded whole into the cache) one after the other: a scan;
    // chunk 2 (and on) is decoded ahead
    int half = chunkLen / 2;
    for (int at = 0; at < 2 * chunkLen; at += half) {
      assertArrayEquals(java.util.Arrays.copyOfRange(a.values, at, at + half), read1(a, rs, at, half));
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!cache.contains(a.key, 2) && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertTrue(cache.contains(a.key, 2), "chunk 2 decoded ahead");
    assertTrue(cache.prefetched() >= 1, "read-ahead decoded " + cache.prefetched());
    long hits = cache.hits();
    assertArrayEquals(java.util.Arrays.copyOfRange(a.values, 2 * chunkLen, 2 * chunkLen + 100), read1(a, rs, 2 * chunkLen, 100));
    assertTrue(cache.hits() > hits, "the read of chunk 2 found it decoded");
  }

  @Test
  void repeatedPointReadDecodesOneBlock() throws Exception {
    Arr a = new Arr(values(16384 * 4, 2), 16384, 8192);
    ChunkCache cache = new ChunkCache(64L << 20);
    ReadSettings rs = ReadSettings.of(cache, 0);
    for (int i = 0; i < 100; i++) {
      assertEquals(a.values[20000], read1(a, rs, 20000, 1)[0]);
    }
    assertEquals(1, cache.partDecodes());
    assertEquals(0, cache.chunkDecodes());
    assertEquals(1, a.opens.get(), "a cached block needs no chunk open");
  }

  @Test
  void chunksOfOneBlock() throws Exception {
    // one block per chunk (what c-blosc picks for the benchmark carray): a point read decodes the one block as a
    // part; reading the chunk again right away makes it a whole chunk without decoding again, and a scan in
    // pieces still decodes each chunk once
    Arr a = new Arr(values(8192 * 30, 5), 8192, 8192 * 8);
    ChunkCache cache = new ChunkCache(16L << 20);
    ReadSettings rs = ReadSettings.of(cache, 0);
    check(a, rs, 8192 * 3 + 7, 1);
    assertEquals(1, cache.partDecodes());
    assertEquals(0, cache.chunkDecodes());
    assertTrue(!cache.contains(a.key, 3));
    check(a, rs, 8192 * 3 + 9, 1);
    assertTrue(cache.contains(a.key, 3));
    assertEquals(1, cache.partDecodes() + cache.chunkDecodes());
    cache.clear();
    ChunkCache scan = new ChunkCache(16L << 20);
    ReadSettings srs = ReadSettings.of(scan, 0);
    for (int at = 0; at < a.values.length; at += 1000) {
      check(a, srs, at, Math.min(1000, a.values.length - at));
    }
    assertEquals(30, scan.chunkDecodes() + scan.partDecodes(), "each chunk decoded once");
    assertTrue(scan.partDecodes() <= 2, "only the first chunk starts as a part: " + scan.partDecodes());
  }

  @Test
  void timeSeriesDecodesOneBlockPerChunkAndKeepsOthersCached() throws Exception {
    int t = 200;
    int y = 32;
    int x = 128;
    double[] v = values(t * y * x, 3);
    ChunkGrid g = ChunkGrid.regular(new long[] {t, y, x}, new int[] {1, y, x}); // 32 KiB chunks, 4 KiB blocks
    Arr a = new Arr(v, g, y * x, 4096);
    Arr other = new Arr(values(16384 * 8, 4), 16384, 8192);
    ChunkCache cache = new ChunkCache(4L << 20); // room for 32 chunks of the other array; parts get 512 KiB
    ReadSettings rs = ReadSettings.of(cache, 1);
    double[] whole = new double[other.values.length];
    SectionReader.readInto(other, new long[] {0}, new long[] {whole.length}, null, whole, 0, rs);
    for (int k = 0; k < 8; k++) { // whole-chunk reads bypass the cache; small reads of every chunk fill it
      for (int q = 0; q < 4; q++) {
        read1(other, rs, k * 16384L + q * 4096, 4096);
      }
    }
    long cachedBefore = cache.bytes();
    long decodesBefore = cache.chunkDecodes();
    assertEquals(16, decodesBefore, "8 whole chunks decoded straight into the whole read, 8 for the cache");
    for (int rep = 0; rep < 3; rep++) { // the series at (17, 40) as one read, element by element and as a small box
      double[] series = new double[t];
      SectionReader.readInto(a, new long[] {0, 17, 40}, new long[] {t, 1, 1}, null, series, 0, rs);
      for (int i = 0; i < t; i++) {
        assertEquals(v[(i * y + 17) * x + 40], series[i]);
        double[] one = new double[4];
        SectionReader.readInto(a, new long[] {i, 17, 40}, new long[] {1, 2, 2}, null, one, 0, rs);
        assertEquals(v[(i * y + 18) * x + 41], one[3]);
      }
    }
    assertEquals(decodesBefore, cache.chunkDecodes(), "no chunk of the series decoded whole");
    // 200 blocks of 4 KiB do not fit the part share (512 KiB = 128 blocks): repeats decode again, never whole chunks
    assertTrue(cache.partDecodes() >= t && cache.partDecodes() <= 3 * 2 * t, "blocks decoded " + cache.partDecodes());
    for (int k = 0; k < 8; k++) {
      assertTrue(cache.contains(other.key, k), "chunk " + k + " of the other array still cached");
    }
    assertTrue(cache.bytes() <= cache.maxBytes() && cache.partBytes() <= cache.maxBytes() / 8);
    assertTrue(cache.bytes() >= cachedBefore, "whole chunks kept");
  }

  @Test
  void mixedWorkloadStaysWithinBoundAndReadsRight() throws Exception {
    ChunkCache cache = new ChunkCache(1L << 20); // 1 MiB: 8 whole chunks of 128 KiB at most
    ReadSettings rs = ReadSettings.of(cache, 2);
    List<Arr> arrays = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      arrays.add(new Arr(values(16384 * 24, 10 + i), 16384, 8192));
    }
    AtomicLong maxSeen = new AtomicLong();
    Concurrently.run(4, (thread, r) -> {
      for (int i = 0; i < 400; i++) {
        Arr a = arrays.get(r.nextInt(arrays.size()));
        int kind = r.nextInt(4);
        int n = kind == 0 ? 1 : kind == 1 ? 1024 : kind == 2 ? 40000 : 7;
        int at = r.nextInt(a.values.length - n);
        if (kind == 3) { // a short scan
          at = Math.min(at, a.values.length - 1000);
          for (int s = 0; s < 50; s++, at = Math.min(at + 1000, a.values.length - 1000)) {
            check(a, rs, at, 1000);
          }
        } else {
          check(a, rs, at, n);
        }
        maxSeen.accumulateAndGet(cache.bytes(), Math::max);
        assertTrue(cache.partBytes() <= cache.maxBytes() / 8);
      }
    });
    assertTrue(maxSeen.get() <= cache.maxBytes(), "cache held " + maxSeen.get());
    assertTrue(cache.chunkDecodes() > 0 && cache.partDecodes() > 0);
  }

  static void check(Arr a, ReadSettings rs, int at, int n) throws IOException {
    double[] got = read1(a, rs, at, n);
    for (int i = 0; i < n; i++) {
      if (got[i] != a.values[at + i]) {
        throw new AssertionError("element " + (at + i) + ": " + got[i] + " != " + a.values[at + i]);
      }
    }
  }

  @Test
  void eightThreadsScanningEightArraysDecodeEachChunkAboutOnce() throws Exception {
    int chunkLen = 16384;
    int nchunks = 24;
    ChunkCache cache = new ChunkCache(32L << 20); // 256 chunks' room for 192 chunks in all
    ReadSettings rs = ReadSettings.of(cache, 0);
    List<Arr> arrays = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      arrays.add(new Arr(values(chunkLen * nchunks, 20 + i), chunkLen, 8192));
    }
    ExecutorService ex = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (Arr a : arrays) {
        fs.add(ex.submit(() -> {
          for (int at = 0; at < a.values.length; at += 1024) {
            check(a, rs, at, 1024);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      ex.shutdown();
    }
    long chunks = 8L * nchunks;
    assertTrue(cache.chunkDecodes() >= chunks && cache.chunkDecodes() <= chunks * 105 / 100,
        "whole-chunk decodes " + cache.chunkDecodes() + " for " + chunks + " chunks");
    assertTrue(cache.partDecodes() <= 8 * 4, "blocks decoded alone " + cache.partDecodes());
  }
}
