package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import org.chunkcdm.blosc.zstd.ZstdDecoder;
import org.chunkcdm.testkit.NativeAccess;
import org.chunkcdm.testkit.RawBloscChunk;
import org.chunkcdm.testkit.ZlibReference;
import org.junit.jupiter.api.Test;

/**
 * Raw copies through {@code memmove} ({@link RawCopy}; Java 22+ with native access, which the surefire argLine
 * grants: CI's second run on Java 25 takes them, on Java 17 the reason is asserted and the same copies are
 * {@code System.arraycopy}): every size around the limits against {@code System.arraycopy}, bounds refused before
 * any byte moves, and chunks stored raw, blocks stored raw and split streams stored raw decoded through it, as are
 * deflate's stored blocks and zstd's raw blocks of at least {@link RawCopy#MIN} bytes.
 */
class RawCopyTest {
  static boolean expectedOn() {
    return NativeAccess.ffmExpected() && !"false".equals(System.getProperty("chunkcdm.ffm"));
  }

  @Test
  void onWhereItCanRunAndOtherwiseSaysWhy() {
    if (expectedOn()) {
      assertNull(RawCopy.OFF, "Java " + Runtime.version().feature() + " with native access granted (the surefire argLine)");
    } else {
      assertTrue(RawCopy.OFF != null && (RawCopy.OFF.contains("Java 22") || RawCopy.OFF.contains("off by")), RawCopy.OFF);
    }
  }

  @Test
  void everySizeAroundTheLimitsAgainstArraycopy() {
    Random r = new Random(1);
    byte[] src = new byte[3 << 20];
    r.nextBytes(src);
    int[] sizes = {0, 1, 4095, RawCopy.MIN - 1, RawCopy.MIN, RawCopy.MIN + 1, RawCopy.PIECE - 1, RawCopy.PIECE,
        RawCopy.PIECE + 1, 3 * RawCopy.PIECE + 77, (1 << 20) + 5, 2 << 20};
    for (int n : sizes) {
      for (int k = 0; k < 4; k++) {
        int so = r.nextInt(src.length - n + 1);
        int dp = r.nextInt(100);
        byte[] want = new byte[n + dp + 50];
        byte[] got = new byte[want.length];
        r.nextBytes(want);
        System.arraycopy(want, 0, got, 0, want.length);
        System.arraycopy(src, so, want, dp, n);
        long before = RawCopy.BYTES.sum();
        RawCopy.copy(src, so, got, dp, n);
        assertArrayEquals(want, got, n + " bytes from " + so + " to " + dp);
        assertEquals(expectedOn() && n >= RawCopy.MIN ? n : 0, RawCopy.BYTES.sum() - before, n + " bytes through memmove");
      }
    }
  }

  @Test
  void boundsAreCheckedBeforeAnyByteMoves() {
    byte[] src = new byte[1 << 20];
    Arrays.fill(src, (byte) 7);
    byte[] dst = new byte[1 << 20];
    int n = RawCopy.MIN * 2;
    assertThrows(IndexOutOfBoundsException.class, () -> RawCopy.copy(src, src.length - n + 1, dst, 0, n));
    assertThrows(IndexOutOfBoundsException.class, () -> RawCopy.copy(src, 0, dst, dst.length - n + 1, n));
    assertThrows(IndexOutOfBoundsException.class, () -> RawCopy.copy(src, -1, dst, 0, n));
    assertThrows(IndexOutOfBoundsException.class, () -> RawCopy.copy(src, 0, dst, 0, -n));
    assertArrayEquals(new byte[dst.length], dst, "nothing written");
  }

  @Test
  void oneArrayOntoItselfOverlapping() {
    byte[] a = new byte[1 << 20];
    new Random(2).nextBytes(a);
    byte[] want = a.clone();
    System.arraycopy(want, 1000, want, 1007, 500_000);
    RawCopy.copy(a, 1000, a, 1007, 500_000);
    assertArrayEquals(want, a);
  }

  @Test
  void chunksBlocksAndStreamsStoredRawDecodeThroughIt() throws IOException {
    Random r = new Random(3);
    byte[] data = new byte[(1 << 20) + 24];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i % 251 < 200 ? r.nextInt() : i >> 9); // mostly noise: streams stay raw
    }
    long before = RawCopy.BYTES.sum();
    byte[] c = RawBloscChunk.of(data, 8);
    assertArrayEquals(data, Blosc.decompress(c, 0, c.length), "chunk stored raw");
    byte[] part = new byte[300_001];
    Blosc.decompressRange(c, 0, c.length, 12_345, part.length, part, 0);
    assertArrayEquals(Arrays.copyOfRange(data, 12_345, 12_345 + part.length), part, "a range of it");
    long chunkBytes = RawCopy.BYTES.sum() - before;
    assertEquals(expectedOn() ? data.length + part.length : 0, chunkBytes);
    for (boolean bit : new boolean[] {false, true}) {
      for (int ts : new int[] {1, 8}) {
        byte[] k = RawStreamTest.chunk(data, ts, 256 << 10, bit, s -> s % 3 != 1);
        assertArrayEquals(data, Blosc.decompress(k, 0, k.length), "blocks of 256 KiB, streams raw, ts " + ts + " bit " + bit);
      }
    }
    assertTrue(!expectedOn() || RawCopy.BYTES.sum() - before > chunkBytes, "raw blocks or streams went through memmove");
  }

  @Test
  void deflateStoredBlocksDecodeThroughIt() throws IOException {
    byte[] data = new byte[(1 << 20) + 333];
    new Random(4).nextBytes(data);
    byte[] z = ZlibReference.deflate(data, 0, Deflater.DEFAULT_STRATEGY); // level 0: stored blocks of up to 64 KiB
    byte[] got = new byte[data.length + 16];
    Arrays.fill(got, (byte) 0x5a);
    long before = RawCopy.BYTES.sum();
    new Inflate().decode(z, 0, z.length, got, 8, data.length);
    assertArrayEquals(data, Arrays.copyOfRange(got, 8, 8 + data.length));
    for (int i : new int[] {0, 7, got.length - 8, got.length - 1}) {
      assertEquals((byte) 0x5a, got[i], "nothing written outside the output at " + i);
    }
    long moved = RawCopy.BYTES.sum() - before;
    if (expectedOn()) {
      assertTrue(moved >= data.length - RawCopy.MIN, moved + " of " + data.length + " bytes through memmove");
    } else {
      assertEquals(0, moved);
    }
  }

  @Test
  void zstdRawBlocksDecodeThroughItAndSmallOnesDoNot() throws IOException {
    Random r = new Random(5);
    int[] blocks = {100_000, RawCopy.MIN - 1, RawCopy.MIN, 3, 128 << 10};
    int total = Arrays.stream(blocks).sum();
    byte[] data = new byte[total];
    r.nextBytes(data);
    // a frame by hand: magic, descriptor 0xA0 (single segment, 4-byte content size), raw blocks (type 0)
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    org.chunkcdm.testkit.BloscChunks.le32(f, ZstdDecoder.MAGIC);
    f.write(0xA0); // frame header descriptor: FCS field 4 bytes (flag 2), single segment
    org.chunkcdm.testkit.BloscChunks.le32(f, total);
    int p = 0;
    for (int b = 0; b < blocks.length; b++) {
      int header = blocks[b] << 3 | (b == blocks.length - 1 ? 1 : 0); // size, type 0 (raw), last block
      f.write(header);
      f.write(header >>> 8);
      f.write(header >>> 16);
      f.write(data, p, blocks[b]);
      p += blocks[b];
    }
    byte[] z = f.toByteArray();
    byte[] got = new byte[total];
    long before = RawCopy.BYTES.sum();
    new ZstdDecoder().decompress(z, 0, z.length, got, 0, total);
    assertArrayEquals(data, got);
    long big = 100_000 + RawCopy.MIN + (128 << 10);
    assertEquals(expectedOn() ? big : 0, RawCopy.BYTES.sum() - before, "raw blocks of at least MIN bytes through memmove");
  }

  @Test
  void zstdLongRunsOfRawLiteralsDecodeThroughIt() throws IOException {
    // random bytes compress to raw (not Huffman-coded) literals: a run of them, then a match (a copy of its first 4
    // KiB) and a few more literals. The run is the first sequence's literals, copied through memmove; the last
    // literals are too few for it
    Random r = new Random(6);
    for (int run : new int[] {RawCopy.MIN - 1, RawCopy.MIN + 1, 60_000, 120_000}) {
      byte[] data = new byte[run + 4096 + 100];
      r.nextBytes(data);
      System.arraycopy(data, 0, data, run, 4096);
      byte[] z = com.github.luben.zstd.Zstd.compress(data, 3);
      byte[] got = new byte[data.length];
      long before = RawCopy.BYTES.sum();
      new ZstdDecoder().decompress(z, 0, z.length, got, 0, data.length);
      assertArrayEquals(data, got, run + "-byte run");
      assertEquals(expectedOn() && run >= RawCopy.MIN ? run : 0, RawCopy.BYTES.sum() - before, run + "-byte run");
    }
  }
}
