package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.chunk.SectionReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A large typed read ({@link SectionReader#readTyped}) allocates its array on a decode thread while the calling
 * thread opens the first chunks (their stored bytes fetched); the read's tasks take those chunks instead of opening
 * them again. The values must equal the read without it, every chunk opened must be released exactly once (the
 * unused ones too), and a chunk that fails while opened early fails the read with its own IOException.
 */
class OverlapAllocTest {
  private long oldBytes;

  @BeforeEach
  void smallReadsOverlap() {
    oldBytes = SectionReader.setOverlapBytes(0);
  }

  @AfterEach
  void restore() {
    SectionReader.setOverlapBytes(oldBytes);
  }

  /** Blosc chunks of a 1-D int64 array, counting opens and releases; chunk {@code failing} fails to open. */
  static final class Counted implements ChunkedArray {
    final List<byte[]> chunks;
    final long items;
    final int chunkItems;
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger released = new AtomicInteger();
    volatile long failing = -1;
    ReadSettings rs = ReadSettings.of(null, 2);

    Counted(List<byte[]> chunks, long items, int chunkItems) {
      this.chunks = chunks;
      this.items = items;
      this.chunkItems = chunkItems;
    }

    @Override
    public DType dtype() {
      return DType.of(DType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public ChunkGrid grid() {
      return ChunkGrid.regular(new long[] {items}, new int[] {chunkItems});
    }

    @Override
    public ReadSettings settings() {
      return rs;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      if (index == failing) {
        throw new IOException("/d/x.b2frame: chunk " + index + " of 'x' is broken");
      }
      byte[] c = chunks.get((int) index);
      BloscChunkData d = BloscChunkData.of(c, 0, c.length, "chunk " + index);
      opened.incrementAndGet();
      return new ChunkData() { // forwards everything, counts the release
        @Override
        public long size() {
          return d.size();
        }

        @Override
        public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
          d.read(offset, dst, dstOff, len);
        }

        @Override
        public boolean readsInPieces() {
          return d.readsInPieces();
        }

        @Override
        public void readPieces(int unit, Pieces sink) throws IOException {
          d.readPieces(unit, sink);
        }

        @Override
        public byte[] readAll() throws IOException {
          return d.readAll();
        }

        @Override
        public void release() {
          released.incrementAndGet();
          d.release();
        }
      };
    }
  }

  static Counted array(Random r, int nchunks) {
    int chunkItems = 20_000;
    long items = (long) chunkItems * (nchunks - 1) + 4_321;
    List<byte[]> chunks = new ArrayList<>();
    for (int k = 0; k < nchunks; k++) {
      byte[] part = Arrays.copyOf(RawStreamTest.data(r, 8, chunkItems), chunkItems * 8);
      chunks.add(RawStreamTest.chunk(part, 8, 8 * 2048, k % 2 == 1, s -> s % 4 == 3));
    }
    return new Counted(chunks, items, chunkItems);
  }

  static long[] expected(Counted a) throws IOException {
    long[] want = new long[(int) a.items];
    for (int k = 0; k < a.chunks.size(); k++) {
      byte[] all = RawStreamTest.decode(a.chunks.get(k));
      int n = (int) Math.min(a.chunkItems, a.items - (long) k * a.chunkItems);
      ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(want, k * a.chunkItems, n);
    }
    return want;
  }

  @Test
  void overlappedReadsEqualAndReleaseEveryChunkOnce() throws IOException {
    Counted a = array(new Random(81), 40);
    long[] want = expected(a);
    long before = SectionReader.PREFETCHED.sum();
    for (int round = 0; round < 5; round++) {
      long[] got = (long[]) SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null);
      assertArrayEquals(want, got);
      long[] box = (long[]) SectionReader.readTyped(a, new long[] {a.chunkItems - 3}, new long[] {7 * a.chunkItems + 5}, null);
      assertArrayEquals(Arrays.copyOfRange(want, a.chunkItems - 3, 8 * a.chunkItems + 2), box);
    }
    if (a.rs.effectiveThreads() >= 2) { // a one-core machine has no decode thread to allocate on
      assertTrue(SectionReader.PREFETCHED.sum() > before, "no chunk was taken from the early fetch");
    }
    assertEquals(a.opened.get(), a.released.get(), "chunks opened and released");
    // with the overlap off: the same values, no early fetch
    SectionReader.setOverlapBytes(Long.MAX_VALUE);
    long mid = SectionReader.PREFETCHED.sum();
    assertArrayEquals(want, (long[]) SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null));
    assertEquals(mid, SectionReader.PREFETCHED.sum());
  }

  @Test
  void chunksCachedMeanwhileAreReleasedUnused() throws IOException {
    Counted a = array(new Random(82), 12);
    a.rs = ReadSettings.of(new ChunkCache(64L << 20), 2);
    long[] want = expected(a);
    // small reads fill the cache with a few whole chunks; the large read then finds them cached
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < 3; i++) {
        SectionReader.readTyped(a, new long[] {(long) k * a.chunkItems + i * 6000}, new long[] {6000}, null);
      }
    }
    for (int round = 0; round < 3; round++) {
      assertArrayEquals(want, (long[]) SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null));
    }
    assertEquals(a.opened.get(), a.released.get(), "chunks opened and released");
  }

  @Test
  void aChunkFailingWhenFetchedEarlyFailsTheReadWithItsError() throws IOException {
    Counted a = array(new Random(83), 10);
    for (long bad : new long[] {0, 1, 9}) {
      a.failing = bad;
      IOException e = assertThrows(IOException.class,
          () -> SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null));
      assertTrue(e.getMessage().contains("chunk " + bad + " of 'x' is broken"), e.getMessage());
    }
    assertEquals(a.opened.get(), a.released.get(), "chunks opened and released after failures");
  }

  @Test
  void chunksFetchedEarlyAreReleasedWhenAnotherChunkFailsToDecode() throws IOException {
    Counted a = array(new Random(85), 30);
    byte[] bad = a.chunks.get(1).clone();
    ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(16 + 4, bad.length + 9); // block 1 past the end
    a.chunks.set(1, bad);
    for (int round = 0; round < 3; round++) {
      IOException e = assertThrows(IOException.class,
          () -> SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null));
      assertTrue(e.getMessage().contains("chunk 1") && e.getMessage().contains("block 1"), e.getMessage());
    }
    assertEquals(a.opened.get(), a.released.get(), "chunks opened and released after a failed read");
  }

  @Test
  void manyThreadsReadingOneArray() throws Exception {
    Counted a = array(new Random(84), 24);
    long[] want = expected(a);
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      Thread th = new Thread(() -> {
        try {
          for (int i = 0; i < 4; i++) {
            if (!Arrays.equals(want, (long[]) SectionReader.readTyped(a, new long[] {0}, new long[] {a.items}, null))) {
              throw new AssertionError("a concurrent read differed");
            }
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertTrue(failures.isEmpty(), failures.toString());
    assertEquals(a.opened.get(), a.released.get(), "chunks opened and released");
  }
}
