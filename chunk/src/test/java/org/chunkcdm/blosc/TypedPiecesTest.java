package org.chunkcdm.blosc;

import org.chunkcdm.chunk.ChunkProbes;
import org.chunkcdm.blosc.TypedDestination;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.RawBloscChunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Typed pieces ({@link ChunkData.Pieces#typed()}): a Blosc block's last unshuffle stores the items straight into
 * the typed array of a read ({@link TypedUnshuffle}, {@link VectorTyped}). Every chunk must give, in every array
 * type and byte order of its item size and at an element offset, exactly the values of its whole decode read in
 * that order, whether the blocks went the typed way or came as bytes; and the typed way must actually be taken
 * where it serves (so that a broken kernel cannot hide behind the byte path). Runs with the Vector API and again
 * without it (core's pom).
 */
public class TypedPiecesTest {
  /** Element types for an item size: {@code short[]}, {@code int[]}/{@code float[]}, {@code long[]}/{@code double[]}. */
  static Class<?>[] types(int ts) {
    switch (ts) {
      case 2:
        return new Class<?>[] {short.class};
      case 4:
        return new Class<?>[] {int.class, float.class};
      case 8:
        return new Class<?>[] {long.class, double.class};
      default:
        return new Class<?>[0];
    }
  }

  /** {@code bytes} read as items of {@code type} in {@code order}, into a new array at element {@code base}. */
  static Object convert(byte[] bytes, Class<?> type, ByteOrder order, int base, int extra) {
    ByteBuffer bb = ByteBuffer.wrap(bytes).order(order);
    int ts = type == short.class ? 2 : type == int.class || type == float.class ? 4 : 8;
    int n = bytes.length / ts;
    Object a = java.lang.reflect.Array.newInstance(type, base + n + extra);
    fillSentinel(a);
    if (type == short.class) {
      bb.asShortBuffer().get((short[]) a, base, n);
    } else if (type == int.class) {
      bb.asIntBuffer().get((int[]) a, base, n);
    } else if (type == float.class) {
      bb.asFloatBuffer().get((float[]) a, base, n);
    } else if (type == long.class) {
      bb.asLongBuffer().get((long[]) a, base, n);
    } else {
      bb.asDoubleBuffer().get((double[]) a, base, n);
    }
    return a;
  }

  static void fillSentinel(Object a) {
    for (int i = 0, n = java.lang.reflect.Array.getLength(a); i < n; i++) {
      if (a instanceof short[]) {
        ((short[]) a)[i] = (short) 0x5a5a;
      } else if (a instanceof int[]) {
        ((int[]) a)[i] = 0x5a5a5a5a;
      } else if (a instanceof float[]) {
        ((float[]) a)[i] = Float.intBitsToFloat(0x5a5a5a5a);
      } else if (a instanceof long[]) {
        ((long[]) a)[i] = 0x5a5a5a5a5a5a5a5aL;
      } else {
        ((double[]) a)[i] = Double.longBitsToDouble(0x5a5a5a5a5a5a5a5aL);
      }
    }
  }

  /** Compares element bits (NaN payloads included). */
  static void assertSameBits(Object want, Object got, String msg) {
    if (want instanceof float[]) {
      float[] w = (float[]) want;
      float[] g = (float[]) got;
      for (int i = 0; i < w.length; i++) {
        assertEquals(Float.floatToRawIntBits(w[i]), Float.floatToRawIntBits(g[i]), msg + " element " + i);
      }
    } else if (want instanceof double[]) {
      double[] w = (double[]) want;
      double[] g = (double[]) got;
      for (int i = 0; i < w.length; i++) {
        assertEquals(Double.doubleToRawLongBits(w[i]), Double.doubleToRawLongBits(g[i]), msg + " element " + i);
      }
    } else if (want instanceof short[]) {
      assertArrayEquals((short[]) want, (short[]) got, msg);
    } else if (want instanceof int[]) {
      assertArrayEquals((int[]) want, (int[]) got, msg);
    } else {
      assertArrayEquals((long[]) want, (long[]) got, msg);
    }
  }

  /**
   * Reads {@code d} in typed pieces into a new array of {@code type} at element {@code base} (byte pieces
   * converted as a typed read converts them); returns the array. {@code byteItems} counts the items that came as
   * bytes.
   */
  static Object typedPieces(ChunkData d, Class<?> type, ByteOrder order, int base, int extra, AtomicLong byteItems)
      throws IOException {
    int ts = type == short.class ? 2 : type == int.class || type == float.class ? 4 : 8;
    int n = (int) (d.size() / ts);
    Object a = java.lang.reflect.Array.newInstance(type, base + n + extra);
    fillSentinel(a);
    TypedDestination td = new TypedDestination(a, base, ts, order);
    List<String> bad = new ArrayList<>();
    d.readPieces(ts, new ChunkData.Pieces() {
      @Override
      public void accept(byte[] b, int off, long at, int len) throws IOException {
        if (at % ts != 0 || len % ts != 0 || at < 0 || at + len > d.size()) {
          synchronized (bad) {
            bad.add("piece of " + len + " at " + at);
          }
          return;
        }
        byteItems.addAndGet(len / ts);
        TypedUnshuffle.put(b, off, td, td.index(at), len / ts);
      }

      @Override
      public TypedDestination typed() {
        return td;
      }
    });
    assertTrue(bad.isEmpty(), bad.toString());
    return a;
  }

  /** Whether the typed kernels serve item size {@code ts} in this JVM (with or without the Vector API). */
  static boolean served(int ts, boolean bitshuffle) {
    TypedDestination probe = new TypedDestination(ts == 2 ? new short[1] : ts == 4 ? new int[1] : new long[1], 0, ts,
        ByteOrder.LITTLE_ENDIAN);
    if (!TypedUnshuffle.serves(ts, probe)) {
      return false;
    }
    return !bitshuffle || Filters.VECTOR_BITS && (ts != 8 || VectorUnshuffle.BYTE_PERMUTE);
  }

  /** Every array type, both byte orders, element offsets 0 and 5: typed pieces equal the whole decode. */
  static long checkAllWays(byte[] chunk, String what) throws IOException {
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    byte[] all = new byte[h.nbytes()];
    Blosc.decompress(h, chunk, 0, all, 0, Blosc.Impl.JAVA);
    long typedItems = 0;
    for (Class<?> type : types(h.typesize())) {
      for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
        for (int base : new int[] {0, 5}) {
          AtomicLong asBytes = new AtomicLong();
          Object got = typedPieces(BloscChunkData.of(chunk, 0, chunk.length), type, order, base, 3, asBytes);
          Object want = convert(all, type, order, base, 3);
          assertSameBits(want, got, what + " as " + type + "[] " + order + " at " + base);
          typedItems += all.length / h.typesize() - asBytes.get();
        }
      }
    }
    return typedItems;
  }

  @Test
  void randomChunksOfEveryTypedItemSizeBlockSizeAndFilter() throws IOException {
    Random r = new Random(71);
    for (int ts : new int[] {2, 4, 8}) {
      for (int items : new int[] {1000, 20_011, 70_003}) { // 70_003 * ts >= 256 KiB: blocks decode in parallel
        byte[] d = RawStreamTest.data(r, ts, items);
        d = Arrays.copyOf(d, d.length - d.length % ts); // a typed read has whole items
        for (int bs : new int[] {ts * (131 + r.nextInt(700)), 8 * ts * 64, 4096 * ts, ts * 129}) {
          for (boolean bit : new boolean[] {false, true}) {
            int blockBytes = bit ? 8 * ts * Math.max(1, bs / (8 * ts)) : bs; // version 2 bit shuffle: groups of 8
            if (blockBytes > d.length) {
              continue;
            }
            for (int rawEvery : new int[] {0, 3}) { // streams all compressed, or every third stored raw
              byte[] c = RawStreamTest.chunk(d, ts, blockBytes, bit, s -> rawEvery > 0 && s % rawEvery == 1);
              String what = "ts " + ts + " items " + items + " bs " + blockBytes + " bit " + bit + " raw " + rawEvery;
              long typed = checkAllWays(c, what);
              if (served(ts, bit)) {
                assertTrue(typed > 0, what + ": no block took the typed path");
              } else {
                assertEquals(0, typed, what + ": typed path taken where it does not serve");
              }
            }
          }
        }
      }
    }
  }

  @Test
  void chunkStoredRawAndItemSizesWithoutKernelComeAsBytes() throws IOException {
    Random r = new Random(72);
    byte[] data = new byte[8 * 10_001];
    r.nextBytes(data);
    assertEquals(0, checkAllWays(RawBloscChunk.of(data, 8), "stored raw"));
    // typesize 4 data read by an 8-byte destination: the chunk's blocks are not of its items: bytes only
    byte[] c = RawStreamTest.chunk(data, 4, 4096, false, s -> false);
    AtomicLong asBytes = new AtomicLong();
    Object got = typedPieces(BloscChunkData.of(c, 0, c.length), long.class, ByteOrder.LITTLE_ENDIAN, 2, 0, asBytes);
    assertSameBits(convert(data, long.class, ByteOrder.LITTLE_ENDIAN, 2, 0), got, "ts 4 chunk into long[]");
    assertEquals(data.length / 8, asBytes.get());
  }

  @ParameterizedTest
  @MethodSource("org.chunkcdm.blosc.BloscFixtureTest#standaloneChunks")
  void fixtureChunksInTypedPiecesEqualTheManifest(Fixtures.Dataset d) throws Exception {
    byte[] chunk = Files.readAllBytes(d.file());
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    if (types(h.typesize()).length == 0 || h.nbytes() % h.typesize() != 0) {
      return; // no typed destination of this item size
    }
    byte[] expected = BloscFixtureTest.maskUndefined(d.json(), d.variables().get(0).expected());
    byte[] all = new byte[h.nbytes()];
    Blosc.decompress(h, chunk, 0, all, 0, Blosc.Impl.JAVA);
    assertArrayEquals(expected, BloscFixtureTest.maskUndefined(d.json(), all), d.path());
    if (!d.json().path("undefined_byte_ranges").isEmpty()) {
      return; // uninitialized content: compared above only where defined
    }
    checkAllWays(chunk, d.path());
  }

  @Test
  void corruptStreamsFailWithAnIOExceptionInTypedPieces() throws IOException {
    Random r = new Random(73);
    for (int ts : new int[] {2, 4, 8}) {
      byte[] d = RawStreamTest.data(r, ts, 40_000);
      d = Arrays.copyOf(d, d.length - d.length % ts);
      for (boolean bit : new boolean[] {false, true}) {
        byte[] c = RawStreamTest.chunk(d, ts, 8 * ts * 512, bit, s -> false);
        BloscHeader h = BloscHeader.parse(c, 0, c.length);
        for (int trial = 0; trial < 30; trial++) {
          byte[] bad = c.clone();
          int from = h.dataStart() + 4 * h.nblocks();
          for (int k = 0; k < 8; k++) { // overwrite bytes of the streams (their sizes included)
            bad[from + r.nextInt(bad.length - from)] = (byte) r.nextInt(256);
          }
          Class<?> type = types(ts)[trial % types(ts).length];
          try {
            typedPieces(BloscChunkData.of(bad, 0, bad.length, "/x.b2frame: chunk 2 of 'v'"), type,
                ByteOrder.LITTLE_ENDIAN, 1, 0, new AtomicLong());
          } catch (IOException e) {
            assertTrue(e.getMessage().contains("chunk 2 of 'v'"), e.getMessage());
          }
        }
        // a block offset past the chunk always fails
        byte[] bad = c.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(16 + 4, bad.length + 9);
        IOException e = assertThrows(IOException.class, () -> typedPieces(BloscChunkData.of(bad, 0, bad.length,
            "/x.b2frame: chunk 2 of 'v'"), types(ts)[0], ByteOrder.LITTLE_ENDIAN, 0, 0, new AtomicLong()));
        assertTrue(e.getMessage().contains("block 1"), e.getMessage());
      }
    }
  }

  @Test
  void aDestinationTooSmallIsAnIOExceptionNotAnArrayIndexError() throws IOException {
    byte[] d = RawStreamTest.data(new Random(74), 8, 10_000);
    d = Arrays.copyOf(d, 80_000);
    byte[] c = RawStreamTest.chunk(d, 8, 8192, false, s -> false);
    long[] small = new long[5_000];
    TypedDestination td = new TypedDestination(small, 0, 8, ByteOrder.LITTLE_ENDIAN);
    if (!served(8, false)) {
      return;
    }
    assertThrows(IOException.class, () -> BloscChunkData.of(c, 0, c.length).readPieces(8, new ChunkData.Pieces() {
      @Override
      public void accept(byte[] a, int off, long at, int len) throws IOException {
        TypedUnshuffle.put(a, off, td, td.index(at), len / 8);
      }

      @Override
      public TypedDestination typed() {
        return td;
      }
    }));
  }

  @Test
  void sectionReadsWithAndWithoutTypedPiecesAreEqual() throws Exception {
    Random r = new Random(75);
    for (int ts : new int[] {2, 4, 8}) {
      for (DType.Kind kind : new DType.Kind[] {DType.Kind.INT, DType.Kind.UINT, DType.Kind.FLOAT}) {
        if (kind == DType.Kind.FLOAT && ts == 2) {
          continue; // float16 converts values: no typed destination
        }
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
          DType dt = DType.of(kind, ts, order);
          int chunkItems = 40_000 + r.nextInt(50);
          int nchunks = 4;
          long items = (long) chunkItems * (nchunks - 1) + 7_777;
          List<byte[]> chunks = new ArrayList<>();
          for (int k = 0; k < nchunks; k++) {
            byte[] part = RawStreamTest.data(r, ts, chunkItems);
            part = Arrays.copyOf(part, chunkItems * ts);
            int bs = k == 2 ? ts * 1001 : ts * 4096;
            chunks.add(k == 1 ? RawBloscChunk.of(part, ts) : RawStreamTest.chunk(part, ts, bs, k == 3, s -> s % 5 == 2));
          }
          BloscPiecesTest.Chunks a = new BloscPiecesTest.Chunks(chunks, items, chunkItems, dt);
          long[][] boxes = {{0, items}, {chunkItems, chunkItems}, {chunkItems - 7, 2L * chunkItems + 9}, {3, 17},
              {2L * chunkItems, items - 2L * chunkItems}};
          for (long[] box : boxes) {
            boolean old = ChunkProbes.setTypedPieces(false);
            Object want;
            Object got;
            try {
              want = SectionReader.readTyped(a, new long[] {box[0]}, new long[] {box[1]}, null);
              ChunkProbes.setTypedPieces(true);
              got = SectionReader.readTyped(a, new long[] {box[0]}, new long[] {box[1]}, null);
            } finally {
              ChunkProbes.setTypedPieces(old);
            }
            assertSameBits(want, got, dt + " box " + Arrays.toString(box));
          }
          // into a caller's array at an offset, and many threads at once
          Object whole = SectionReader.readTyped(a, new long[] {0}, new long[] {items}, null);
          List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
          List<Thread> threads = new ArrayList<>();
          for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
              try {
                for (int i = 0; i < 3; i++) {
                  Object dst = java.lang.reflect.Array.newInstance(whole.getClass().getComponentType(), (int) items + 9);
                  SectionReader.readInto(a, new long[] {0}, new long[] {items}, null, dst, 9);
                  Object part = java.lang.reflect.Array.newInstance(whole.getClass().getComponentType(), (int) items);
                  System.arraycopy(dst, 9, part, 0, (int) items);
                  assertSameBits(whole, part, "concurrent read");
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
        }
      }
    }
  }
}
