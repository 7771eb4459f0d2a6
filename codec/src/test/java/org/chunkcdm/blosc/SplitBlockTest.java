package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.chunkcdm.testkit.BloscChunks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Chunks of one large block split into one LZ4 stream per item byte with a byte shuffle, as numcodecs writes them
 * ({@link BloscChunks#split}; some streams stored raw): their streams decode in parallel into
 * bytes and into typed arrays, and a few items are read from the start of each stream; every result must equal the
 * original bytes. Also the LZ4 decoder's stop after the first bytes of a stream.
 */
class SplitBlockTest {
  private static ExecutorService pool;
  private static BlockExecutor two;

  @BeforeAll
  static void start() {
    pool = Executors.newFixedThreadPool(2);
    two = BlockExecutor.of(pool, 3);
  }

  @AfterAll
  static void stop() {
    pool.shutdownNow();
  }

  /** Items whose high bytes change slowly (long matches) and whose low bytes are random (literals, raw streams). */
  static byte[] data(Random r, int ts, int items) {
    byte[] d = new byte[items * ts];
    for (int i = 0; i < items; i++) {
      for (int j = 0; j < ts; j++) {
        d[i * ts + j] = (byte) (j < ts / 2 ? r.nextInt(256) : (i / 777) * 3 + j);
      }
    }
    return d;
  }

  @Test
  void lz4StopsAfterTheBytesAskedFor() throws IOException {
    Random r = new Random(31);
    for (int ts : new int[] {2, 4, 8}) {
      byte[] d = data(r, ts, 40_000);
      byte[] c = BloscChunks.lz4(d, 0, d.length);
      for (int need : new int[] {0, 1, 7, 95, 96, 97, 1000, d.length / 2, d.length - 100, d.length - 1}) {
        byte[] out = new byte[d.length];
        Lz4.decode(c, 0, c.length, out, 0, out.length, need, null);
        assertArrayEquals(Arrays.copyOf(d, need), Arrays.copyOf(out, need), "ts " + ts + " need " + need);
      }
      byte[] cut = Arrays.copyOf(c, c.length - 3); // a whole decode still checks the stream to its end
      assertThrows(IOException.class, () -> Lz4.decode(cut, 0, cut.length, new byte[d.length], 0, d.length, d.length, null));
    }
  }

  @Test
  void streamsOfOneLargeBlockDecodeInParallel() throws IOException {
    Random r = new Random(32);
    for (int ts : new int[] {2, 4, 8, 16}) {
      int items = (JavaBlosc.PARALLEL_BYTES + 40_000) / ts;
      byte[] d = data(r, ts, items);
      for (int mode = 0; mode < 2; mode++) {
        int m = mode;
        byte[] c = BloscChunks.split(d, ts, d.length, s -> m == 1 && s % 3 == 0);
        BloscChunk chunk = BloscChunk.parse(c);
        assertTrue(SplitBlock.of(chunk.header(), c, 0, 0) != null, "split block ts " + ts);
        byte[] out = new byte[d.length + 5];
        chunk.decode(out, 5, two, Blosc.Impl.JAVA);
        assertArrayEquals(d, Arrays.copyOfRange(out, 5, out.length), "bytes ts " + ts + " mode " + mode);
        if (ts == 2 || ts == 4 || ts == 8) {
          assertTyped(chunk, d, ts);
        }
      }
    }
  }

  private static void assertTyped(BloscChunk chunk, byte[] d, int ts) throws IOException {
    int items = d.length / ts;
    Object array = ts == 2 ? new short[items + 3] : ts == 4 ? new float[items + 3] : new double[items + 3];
    TypedDestination td = new TypedDestination(array, 3, ts, ByteOrder.LITTLE_ENDIAN);
    chunk.decodePieces(ts, new PieceSink() {
      @Override
      public void accept(byte[] a, int off, long at, int len) {
        ByteBuffer bb = ByteBuffer.wrap(a, off, len).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < len / ts; i++) {
          int e = 3 + (int) (at / ts) + i;
          if (ts == 2) {
            ((short[]) array)[e] = bb.getShort();
          } else if (ts == 4) {
            ((float[]) array)[e] = bb.getFloat();
          } else {
            ((double[]) array)[e] = bb.getDouble();
          }
        }
      }

      @Override
      public TypedDestination typed() {
        return td;
      }
    }, two);
    ByteBuffer want = ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < items; i++) {
      long got = ts == 2 ? ((short[]) array)[3 + i] & 0xffff
          : ts == 4 ? Float.floatToRawIntBits(((float[]) array)[3 + i]) & 0xffffffffL
          : Double.doubleToRawLongBits(((double[]) array)[3 + i]);
      long exp = ts == 2 ? want.getShort(i * 2) & 0xffff : ts == 4 ? want.getInt(i * 4) & 0xffffffffL : want.getLong(i * 8);
      if (got != exp) {
        assertEquals(exp, got, "typed ts " + ts + " item " + i);
      }
    }
  }

  @Test
  void aFewItemsComeFromTheStartOfEachStream() throws IOException {
    Random r = new Random(33);
    for (int ts : new int[] {2, 3, 4, 8, 16}) {
      byte[] d = data(r, ts, 30_000);
      int bs = ts * 8192; // three whole blocks and a short last one (one stream)
      for (int mode = 0; mode < 2; mode++) {
        int m = mode;
        byte[] c = BloscChunks.split(d, ts, bs, s -> m == 1 && s % 2 == 0);
        BloscChunk chunk = BloscChunk.parse(c);
        for (int i = 0; i < 200; i++) {
          int from = i < 4 ? new int[] {0, bs - 1, bs - ts, d.length - 1}[i] : r.nextInt(d.length);
          int len = 1 + r.nextInt(Math.min(3 * ts, d.length - from));
          if (i % 50 == 0) {
            len = Math.min(bs - from % bs, d.length - from); // to the end of the block
          }
          byte[] got = new byte[len + 2];
          chunk.decodeRange(from, len, got, 1);
          assertArrayEquals(Arrays.copyOfRange(d, from, from + len), Arrays.copyOfRange(got, 1, 1 + len),
              "ts " + ts + " mode " + mode + " range " + from + "+" + len);
        }
      }
    }
  }

  @Test
  void aCorruptStreamIsNamedInAPointRead() throws IOException {
    byte[] d = data(new Random(34), 4, 20_000);
    byte[] c = BloscChunks.split(d, 4, d.length, s -> false);
    int stream2 = 16 + 4; // block 0's data: stream sizes and streams
    for (int s = 0; s < 2; s++) {
      stream2 += 4 + BloscHeader.le32(c, stream2);
    }
    for (int i = stream2 + 4; i < stream2 + 40; i++) {
      c[i] = (byte) 0xff; // a literal run longer than the stream
    }
    BloscChunk chunk = BloscChunk.parse(c);
    IOException e = assertThrows(IOException.class, () -> chunk.decodeRange(4 * 10_000, 4, new byte[4], 0));
    assertTrue(e.getMessage().contains("block 0 stream 2"), e.getMessage());
  }
}
