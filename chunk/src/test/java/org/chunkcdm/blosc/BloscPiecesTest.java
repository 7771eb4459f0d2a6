package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.RawBloscChunk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ChunkData#readPieces} of Blosc chunks ({@link JavaBlosc#decodePieces}), the path of typed reads: a chunk
 * stored raw handed over in place, other chunks block by block through a per-thread buffer (in parallel for large
 * chunks), special chunks piece by piece, DELTA against a kept block 0. Every piece must start at a multiple of the
 * unit asked for, the pieces must cover the chunk exactly once, and together equal the whole decode.
 */
public class BloscPiecesTest {
  /** The pieces of one readPieces call, assembled and checked (also used by other modules' piece tests). */
  public static byte[] assemble(ChunkData d, int unit) throws IOException {
    int n = (int) d.size();
    byte[] out = new byte[n];
    int[] covered = new int[n];
    List<String> bad = new ArrayList<>();
    d.readPieces(unit, (a, off, at, len) -> {
      synchronized (out) {
        if (at % unit != 0 || at < 0 || len < 0 || at + len > n || off < 0 || off + len > a.length) {
          bad.add("piece of " + len + " at " + at + " (array offset " + off + ")");
          return;
        }
        System.arraycopy(a, off, out, (int) at, len);
        for (int i = 0; i < len; i++) {
          covered[(int) at + i]++;
        }
      }
    });
    assertTrue(bad.isEmpty(), bad.toString());
    for (int i = 0; i < n; i++) {
      if (covered[i] != 1) {
        throw new AssertionError("byte " + i + " handed over " + covered[i] + " times");
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("org.chunkcdm.blosc.BloscFixtureTest#standaloneChunks")
  void fixtureChunksInPiecesEqualTheWholeDecode(Fixtures.Dataset d) throws Exception {
    byte[] chunk = Files.readAllBytes(d.file());
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    byte[] expected = BloscFixtureTest.maskUndefined(d.json(), d.variables().get(0).expected());
    for (int unit : new int[] {1, Math.max(1, h.typesize()), 8, 24}) { // 24: not a power of two
      byte[] got = assemble(BloscChunkData.of(chunk, 0, chunk.length), unit);
      assertArrayEquals(expected, BloscFixtureTest.maskUndefined(d.json(), got), d.path() + " unit " + unit);
    }
  }

  @Test
  void builtChunksOfOddAndSmallBlocks() throws IOException {
    Random r = new Random(41);
    for (int ts = 1; ts <= 16; ts++) {
      for (int items : new int[] {1000, 20_011, 70_003}) { // 70_003 * ts >= 256 KiB: blocks decode in parallel
        byte[] d = RawStreamTest.data(r, ts, items);
        // odd block sizes (rarely a multiple of 8 * ts) and small ones (several blocks to a piece)
        for (int bs : new int[] {ts * (131 + r.nextInt(700)) + (ts > 1 ? 0 : 3), 8 * ts * 64, 4096 * ts}) {
          for (boolean bit : new boolean[] {false, true}) {
            int blockBytes = bit ? 8 * ts * Math.max(1, bs / (8 * ts)) : bs; // version 2 bit shuffle: groups of 8
            if (blockBytes > d.length) {
              continue;
            }
            byte[] c = RawStreamTest.chunk(d, ts, blockBytes, bit, s -> s % 3 == 1);
            for (int unit : new int[] {1, ts, 8, 3 * ts}) {
              assertArrayEquals(d, assemble(BloscChunkData.of(c, 0, c.length), unit),
                  "ts " + ts + " items " + items + " bs " + blockBytes + " bit " + bit + " unit " + unit);
            }
          }
        }
      }
    }
  }

  @Test
  void chunkStoredRawIsHandedOverInPlace() throws IOException {
    byte[] data = new byte[300_007];
    new Random(42).nextBytes(data);
    byte[] c = RawBloscChunk.of(data, 8);
    BloscChunkData d = BloscChunkData.of(c, 0, c.length);
    assertTrue(d.readsInPieces());
    List<Object[]> pieces = new ArrayList<>();
    d.readPieces(8, (a, off, at, len) -> pieces.add(new Object[] {a, off, at, len}));
    assertEquals(1, pieces.size());
    assertSame(c, pieces.get(0)[0], "the stored bytes themselves, no copy");
    assertEquals(16, pieces.get(0)[1]);
    assertEquals(0L, pieces.get(0)[2]);
    assertEquals(data.length, pieces.get(0)[3]);
    assertArrayEquals(data, assemble(d, 3));
  }

  @Test
  void badBlockInAPieceNamesTheChunk() throws IOException {
    Random r = new Random(43);
    byte[] d = RawStreamTest.data(r, 4, 50_000);
    byte[] c = RawStreamTest.chunk(d, 4, 4096, false, s -> false);
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    // block 3's offset points past the chunk
    ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putInt(16 + 4 * 3, c.length + 100);
    IOException e = assertThrows(IOException.class,
        () -> assemble(BloscChunkData.of(c, 0, c.length, "/x/y.b2frame: chunk 7 of 'v'"), 4));
    assertTrue(e.getMessage().contains("chunk 7 of 'v'") && e.getMessage().contains("block 3"), e.getMessage());
    assertTrue(h.nblocks() > 3);
  }

  /** Blosc chunks of a 1-D float64 array. */
  static final class Chunks extends BasicChunkedArray {
    final List<byte[]> chunks;

    Chunks(List<byte[]> chunks, long items, int chunkItems) {
      this(chunks, items, chunkItems, DType.of(DType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN));
    }

    /** A 1-D array of {@code items} elements of {@code dt} in Blosc chunks of {@code chunkItems} (also TypedPiecesTest). */
    Chunks(List<byte[]> chunks, long items, int chunkItems, DType dt) {
      super(dt, ChunkGrid.regular(new long[] {items}, new int[] {chunkItems}), null, null);
      this.chunks = chunks;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      byte[] c = chunks.get((int) index);
      return BloscChunkData.of(c, 0, c.length, "chunk " + index);
    }
  }

  @Test
  void typedReadsOfCompressedAndRawChunksEqualTheBytes() throws IOException {
    Random r = new Random(44);
    int chunkItems = 40_000; // 320,000 bytes: two or more chunks make a parallel read
    int nchunks = 5;
    long items = (long) chunkItems * (nchunks - 1) + 12_345;
    byte[] all = new byte[(int) items * 8];
    for (int i = 0; i < items; i++) {
      ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).putDouble(8 * i, 20 + Math.sin(i / 300.0) + r.nextInt(1000) / 1e3);
    }
    List<byte[]> chunks = new ArrayList<>();
    for (int k = 0; k < nchunks; k++) {
      byte[] part = Arrays.copyOfRange(all, k * chunkItems * 8, (int) Math.min(all.length, (long) (k + 1) * chunkItems * 8));
      if (part.length < chunkItems * 8) {
        part = Arrays.copyOf(part, chunkItems * 8); // the last chunk stored whole, its tail past the array
      }
      int bs = k == 2 ? 8 * 1000 + 8 : 8 * 4096;
      chunks.add(k == 1 ? RawBloscChunk.of(part, 8) : RawStreamTest.chunk(part, 8, bs, k == 3, s -> s % 4 == 0));
    }
    Chunks a = new Chunks(chunks, items, chunkItems);
    double[] want = new double[(int) items];
    ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(want);
    double[] got = (double[]) SectionReader.readTyped(a, new long[] {0}, new long[] {items}, null);
    assertArrayEquals(want, got, "whole array");
    // one chunk and a box across chunk boundaries at an offset in the destination
    double[] one = new double[chunkItems + 3];
    SectionReader.read(a, new long[] {chunkItems}, new long[] {chunkItems}, null, one, 3);
    assertArrayEquals(Arrays.copyOfRange(want, chunkItems, 2 * chunkItems), Arrays.copyOfRange(one, 3, one.length));
    double[] box = (double[]) SectionReader.readTyped(a, new long[] {chunkItems - 7}, new long[] {2 * chunkItems + 9}, null);
    assertArrayEquals(Arrays.copyOfRange(want, chunkItems - 7, 3 * chunkItems + 2), box);
    // many readers at once
    List<Thread> ts = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 4; t++) {
      Thread th = new Thread(() -> {
        try {
          for (int i = 0; i < 5; i++) {
            double[] g = (double[]) SectionReader.readTyped(a, new long[] {0}, new long[] {items}, null);
            if (!Arrays.equals(want, g)) {
              throw new AssertionError("a concurrent typed read differed");
            }
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      ts.add(th);
      th.start();
    }
    for (Thread th : ts) {
      try {
        th.join();
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    assertTrue(failures.isEmpty(), failures.toString());
  }
}
