package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Huffman-coded literals whose tables mix very short and long codes, from the reference zstd (zstd-jni): 4 streams
 * with codes of 1–2 bits beside codes of 10–11 bits (the format's limit), and 1 stream (fewer than 256 literals)
 * with codes of 1–2 bits beside 6–7 bits. The tests read the first block's tree description themselves, to make
 * sure the frames really hold such tables, then hold the decoder to the input (nothing written outside the output).
 * Every truncation of such a frame must end in an IOException (never another exception, never a hang); frames with
 * a flipped bit are refused or decode to what aircompressor's decoder gives. Breaking the symbols of the longest
 * codes in the table build fails all four tests (checked on purpose).
 */
class ZstdHuffmanLengthsTest {
  /**
   * {@code size} bytes, each drawn with probability {@code dominant} as byte 0x41 and otherwise as one of the other
   * 255 values, the rarer the higher (P(v) ~ 1/v^2), so the code lengths spread from 1 bit to the 11-bit limit.
   */
  private static byte[] skewed(long seed, int size, double dominant) {
    Random r = new Random(seed);
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      if (r.nextDouble() < dominant) {
        b[i] = 0x41;
      } else {
        double u = r.nextDouble();
        int v = 1 + (int) (1 / (1 - u * 0.996)); // 2 .. 255, heavy towards the small values
        b[i] = (byte) (0x41 + Math.min(v, 255));
      }
    }
    return b;
  }

  /** What the first block's literals section holds: streams (1 or 4), code lengths present, longest code. */
  private static final class Literals {
    int streams;
    boolean[] lengths = new boolean[Huffman.MAX_BITS + 1];
    int maxBits;

    int shortest() {
      for (int i = 1; i < lengths.length; i++) {
        if (lengths[i]) {
          return i;
        }
      }
      return -1;
    }
  }

  /**
   * Where the first block's literals section header starts in zstd frame {@code f} (single segment or not, any
   * dictionary id / content size field), or -1 when that block is not compressed or its literals are not
   * Huffman-coded with a new tree.
   */
  static int huffmanLiteralsAt(byte[] f) {
    int p = 4;
    int fhd = f[p++] & 0xFF;
    boolean single = (fhd & 0x20) != 0;
    int did = fhd & 3;
    int fcsFlag = fhd >>> 6;
    p += (single ? 0 : 1) + (did == 3 ? 4 : did) + (fcsFlag == 0 ? (single ? 1 : 0) : 1 << fcsFlag);
    int bh = (f[p] & 0xFF) | (f[p + 1] & 0xFF) << 8 | (f[p + 2] & 0xFF) << 16;
    p += 3;
    if (((bh >>> 1) & 3) != 2) {
      return -1;
    }
    return (f[p] & 3) == 2 ? p : -1;
  }

  /** Parses the frame header and the first block's literals header, and reads its Huffman tree (null: not Huffman). */
  private static Literals firstLiterals(byte[] f) throws IOException {
    int p = huffmanLiteralsAt(f);
    if (p < 0) {
      return null;
    }
    int b0 = f[p] & 0xFF;
    int sf = (b0 >>> 2) & 3;
    Literals l = new Literals();
    l.streams = sf == 0 ? 1 : 4;
    p += sf < 2 ? 3 : sf + 2;
    int[] t = new int[Huffman.TABLE_SIZE];
    Huffman h = new Huffman(new Fse());
    h.readTable(f, p, f.length, t, "test");
    l.maxBits = h.maxBits;
    for (int i = 0; i < 1 << h.maxBits; i++) {
      l.lengths[t[i] & 0xFF] = true;
    }
    return l;
  }

  private static void roundTrip(byte[] data, byte[] frame) throws IOException {
    ZstdDecoder d = new ZstdDecoder();
    byte[] out = new byte[data.length + 64];
    Arrays.fill(out, (byte) 0x5A);
    assertEquals(data.length, d.decompress(frame, 0, frame.length, out, 32, data.length));
    assertArrayEquals(data, Arrays.copyOfRange(out, 32, 32 + data.length));
    for (int i = 0; i < 32; i++) {
      assertEquals((byte) 0x5A, out[i], "byte before the output changed");
      assertEquals((byte) 0x5A, out[32 + data.length + i], "byte after the output changed");
    }
  }

  @Test
  void fourStreamsWithOneBitAndElevenBitCodes() throws IOException {
    int found = 0;
    for (int seed = 0; seed < 6; seed++) {
      byte[] data = skewed(seed, 60_000 + 7_919 * seed, 0.55 + 0.05 * (seed % 3));
      for (int level : new int[] {1, 3, 19}) {
        byte[] frame = ZstdTestData.compress(data, level, seed % 2 == 0, true, null);
        Literals l = firstLiterals(frame);
        assertTrue(l != null, "seed " + seed + " level " + level + ": first block has no Huffman literals");
        assertEquals(4, l.streams, "seed " + seed + " level " + level);
        if (l.maxBits >= 10 && l.shortest() <= 2) {
          found++;
        }
        roundTrip(data, frame);
      }
    }
    // the frames must really hold the mix the test is about
    assertTrue(found >= 12, "only " + found + " of 18 frames have codes of 1-2 and of 10-11 bits");
  }

  @Test
  void oneStreamWithShortAndLongCodes() throws IOException {
    int found = 0;
    for (int seed = 0; seed < 40; seed++) {
      // fewer than 256 literals: zstd writes them as one Huffman stream
      byte[] data = skewed(100 + seed, 120 + 3 * seed, 0.5);
      byte[] frame = ZstdTestData.compress(data, 3, false, true, null);
      Literals l = firstLiterals(frame);
      if (l != null) {
        assertEquals(1, l.streams, "seed " + seed);
        if (l.maxBits - l.shortest() >= 4) {
          found++;
        }
      }
      roundTrip(data, frame);
    }
    assertTrue(found >= 30, "only " + found + " of 40 frames have 1-stream Huffman literals with short and long codes");
  }

  @Test
  void everyTruncationIsAnIOException() throws IOException {
    byte[] small = skewed(7, 200, 0.5);
    byte[] large = skewed(8, 70_000, 0.6);
    for (byte[] data : new byte[][] {small, large}) {
      byte[] frame = ZstdTestData.compress(data, 3, true, true, null);
      ZstdDecoder d = new ZstdDecoder();
      byte[] out = new byte[data.length];
      int step = frame.length > 2000 ? 7 : 1;
      for (int n = 0; n < frame.length; n += step) {
        try {
          d.decompress(frame, 0, n, out, 0, data.length);
          fail("a frame cut to " + n + " of " + frame.length + " bytes decoded");
        } catch (IOException e) {
          assertTrue(e.getMessage().startsWith("zstd"), e.getMessage());
        } catch (RuntimeException e) {
          throw new AssertionError("a frame cut to " + n + " of " + frame.length + " bytes: " + e, e);
        }
      }
      // the decoder is still usable afterwards
      roundTrip(data, frame);
    }
  }

  @Test
  void flippedBitsInTheLiteralsAreRefusedOrDecodeLikeAircompressor() throws IOException {
    byte[] data = skewed(9, 30_000, 0.6);
    byte[] frame = ZstdTestData.compress(data, 3, false, true, null);
    io.airlift.compress.zstd.ZstdDecompressor air = new io.airlift.compress.zstd.ZstdDecompressor();
    Random r = new Random(9);
    ZstdDecoder d = new ZstdDecoder();
    int refused = 0;
    for (int i = 0; i < 400; i++) {
      byte[] bad = frame.clone();
      // bits in the literals section and the sequences after the frame and block headers
      int at = 12 + r.nextInt(bad.length - 12);
      bad[at] ^= (byte) (1 << r.nextInt(8));
      byte[] out = new byte[data.length + 32];
      try {
        d.decompress(bad, 0, bad.length, out, 0, data.length);
      } catch (IOException e) {
        refused++;
        continue;
      } catch (RuntimeException e) {
        throw new AssertionError("bit flip at byte " + at + ": " + e, e);
      }
      byte[] want = new byte[data.length];
      try {
        air.decompress(bad, 0, bad.length, want, 0, want.length);
      } catch (RuntimeException e) {
        continue; // aircompressor refuses what we accept: no reference to compare with
      }
      assertArrayEquals(want, Arrays.copyOf(out, data.length), "bit flip at byte " + at);
      for (int j = data.length; j < out.length; j++) {
        assertEquals(0, out[j], "bit flip at byte " + at + ": wrote past the output");
      }
    }
    assertTrue(refused > 100, "only " + refused + " of 400 damaged frames refused");
  }
}
