package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.testkit.BloscChunks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Time series and strided sections through chunks of split LZ4 blocks (numcodecs' default layout): a chunk that gives
 * one run of a read decodes only the start of each stream ({@link ChunkData#readOnce}) when there is no cache, or when
 * the cache's parts share cannot hold the blocks the read would decode; with several runs, or with a cache that holds
 * them, the blocks are decoded whole and kept. Every value read must equal the one the chunks were built from, with and
 * without a cache, with one and with several blocks a chunk.
 */
class PointReadTest {
  static final DType F32 = DType.of(DType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
  static final int T = 40;
  static final int Y = 64;
  static final int X = 64;

  /** float32 [T, Y, X] in chunks [1, Y, X] of blocks of {@code blockBytes}. */
  static final class Series extends BasicChunkedArray {
    final float[] values = new float[T * Y * X];
    final byte[][] chunks = new byte[T][];
    final AtomicLong opens = new AtomicLong();

    Series(int blockBytes, Object cacheKey) {
      super(F32, ChunkGrid.regular(new long[] {T, Y, X}, new int[] {1, Y, X}), null, cacheKey);
      Random r = new Random(blockBytes);
      for (int i = 0; i < values.length; i++) {
        values[i] = (i / X % 7) * 100 + r.nextInt(1000) / 8f; // repeating high bytes, varying low bytes
      }
      for (int t = 0; t < T; t++) {
        ByteBuffer b = ByteBuffer.allocate(Y * X * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < Y * X; i++) {
          b.putFloat(values[t * Y * X + i]);
        }
        chunks[t] = BloscChunks.split(b.array(), 4, blockBytes);
      }
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      opens.incrementAndGet();
      byte[] c = chunks[(int) index];
      return ChunkData.withContext(BloscChunkData.of(c, 0, c.length), e -> new IOException("chunk " + index, e));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {Y * X * 4, 4096})
  void seriesAndStridedSectionsReadTheValuesWritten(int blockBytes) throws IOException {
    ChunkCache roomy = new ChunkCache(64 << 20); // its parts share holds every block a series needs
    ChunkCache small = new ChunkCache(1 << 20); // its parts share (128 KiB) holds fewer than the 40 blocks of a series
    for (ReadSettings rs : new ReadSettings[] {ReadSettings.of(new ChunkCache(0), 2), ReadSettings.of(null, 1),
        ReadSettings.of(roomy, 2), ReadSettings.of(small, 2)}) {
      Series a = new Series(blockBytes, new Object());
      Random r = new Random(7);
      for (int k = 0; k < 12; k++) {
        int y = k == 0 ? 0 : k == 1 ? Y - 1 : r.nextInt(Y);
        int x = k == 0 ? 0 : k == 1 ? X - 1 : r.nextInt(X);
        float[] got = new float[T];
        SectionReader.readInto(a, new long[] {0, y, x}, new long[] {T, 1, 1}, null, got, 0, rs);
        for (int t = 0; t < T; t++) {
          assertEquals(a.values[(t * Y + y) * X + x], got[t], "series at " + y + "," + x + " time " + t);
        }
      }
      assertEquals(0, small.partDecodes(), "a series cycled decoded blocks through a parts share too small for them");
      long[] origin = {1, 3, 2};
      long[] shape = {6, 9, 7};
      long[] stride = {6, 5, 9};
      float[] got = new float[6 * 9 * 7];
      SectionReader.readInto(a, origin, shape, stride, got, 0, rs);
      int i = 0;
      for (int t = 0; t < 6; t++) {
        for (int y = 0; y < 9; y++) {
          for (int x = 0; x < 7; x++) {
            int at = ((1 + 6 * t) * Y + 3 + 5 * y) * X + 2 + 9 * x;
            assertEquals(a.values[at], got[i++], "strided element " + t + "," + y + "," + x);
          }
        }
      }
    }
    assertTrue(roomy.partDecodes() > 0, "a series kept its decoded blocks where they fit");
  }
}
