package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Huffman literal decoders ({@link Huffman#decode4}, {@link Huffman#decode1}) on the literals sections of frames
 * from the reference zstd (zstd-jni), decoded directly and compared with a bit-at-a-time reference decoder written
 * here (one bit read per step from the backward stream, no containers, no shifts of 64-bit words): every byte
 * value as a symbol (the rare high symbols get the longest codes, up to the 11-bit limit), literal counts of every
 * residue modulo 4 and 5 (the 4 streams' split and the 5-symbol rounds of one stream), both stream layouts. Also
 * the table layout the fast loops rely on (code length in the low byte, the symbol above it), and damaged streams:
 * an IOException or some output, never another exception, never a byte written outside the literals; damaged inside
 * the streams, exactly the reference's literals when every stream is still used up exactly, else an IOException.
 */
class ZstdHuffmanStreamsTest {

  /**
   * {@code size} bytes over {@code alphabet} symbols starting at {@code first} (wrapping past 0xFF), symbol i drawn
   * with weight 1 / (i + 1)^skew: with skew near 1 most symbols are rare and get long codes; the last symbols of
   * the alphabet are the rarest.
   */
  private static byte[] skewed(Random r, int size, int first, int alphabet, double skew) {
    double[] cum = new double[alphabet];
    double sum = 0;
    for (int i = 0; i < alphabet; i++) {
      sum += 1 / Math.pow(i + 1, skew);
      cum[i] = sum;
    }
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      double u = r.nextDouble() * sum;
      int s = Arrays.binarySearch(cum, u);
      s = s < 0 ? -s - 1 : s;
      b[i] = (byte) (first + Math.min(s, alphabet - 1));
    }
    return b;
  }

  /** The first block's Huffman literals section of a frame: where its streams are and how many literals. */
  private static final class Section {
    byte[] frame;
    int streamsStart; // after the tree description
    int end;
    int regen;
    int streams;
    int[] table = new int[Huffman.TABLE_SIZE];
    int maxBits;
  }

  /** Null when the first block is not compressed or its literals are not Huffman-coded with a new tree. */
  private static Section firstSection(byte[] f) throws IOException {
    int p = ZstdHuffmanLengthsTest.huffmanLiteralsAt(f);
    if (p < 0) {
      return null;
    }
    int b0 = f[p] & 0xFF;
    int sf = (b0 >>> 2) & 3;
    Section s = new Section();
    s.frame = f;
    s.streams = sf == 0 ? 1 : 4;
    int regen;
    int comp;
    int hdr;
    if (sf < 2) {
      int v = b0 | (f[p + 1] & 0xFF) << 8 | (f[p + 2] & 0xFF) << 16;
      regen = (v >>> 4) & 0x3FF;
      comp = (v >>> 14) & 0x3FF;
      hdr = 3;
    } else if (sf == 2) {
      int v = b0 | (f[p + 1] & 0xFF) << 8 | (f[p + 2] & 0xFF) << 16 | (f[p + 3] & 0xFF) << 24;
      regen = (v >>> 4) & 0x3FFF;
      comp = v >>> 18;
      hdr = 4;
    } else {
      long v = (b0 | (f[p + 1] & 0xFF) << 8 | (f[p + 2] & 0xFF) << 16 | (f[p + 3] & 0xFFL) << 24)
          | (f[p + 4] & 0xFFL) << 32;
      regen = (int) (v >>> 4) & 0x3FFFF;
      comp = (int) (v >>> 22) & 0x3FFFF;
      hdr = 5;
    }
    p += hdr;
    s.end = p + comp;
    s.regen = regen;
    Huffman h = new Huffman(new Fse());
    s.streamsStart = p + h.readTable(f, p, s.end, s.table, "test");
    s.maxBits = h.maxBits;
    return s;
  }

  /**
   * Reference: one backward Huffman stream {@code in[s..e)} decoded a bit at a time into {@code n} symbols (bits
   * below the stream read as 0). Returns whether the stream holds an end mark and is used up exactly.
   */
  private static boolean referenceStream(byte[] in, int s, int e, int[] t, int maxBits, byte[] out, int o, int n) {
    int last = in[e - 1] & 0xFF;
    if (last == 0) {
      return false;
    }
    // bit position (counted from bit 0 of in[s]) of the next bit to read: just below the end mark
    long pos = 8L * (e - s) - (Integer.numberOfLeadingZeros(last) - 23) - 1;
    for (int i = 0; i < n; i++) {
      int idx = 0;
      for (int b = 0; b < maxBits; b++) {
        long q = pos - b;
        int bit = q < 0 ? 0 : (in[s + (int) (q >>> 3)] >>> (q & 7)) & 1;
        idx = idx << 1 | bit;
      }
      int v = t[idx];
      out[o + i] = (byte) (v >>> 8);
      pos -= v & 0xFF;
    }
    return pos == -1;
  }

  /** Reference decode of a section's literals (1 or 4 streams) from the frame it was cut from. */
  private static byte[] reference(Section x) {
    byte[] out = reference(x, x.frame);
    assertTrue(out != null, "reference: a stream not used up exactly");
    return out;
  }

  /** Start and end of each stream of a section (the jump table read from {@code f}). */
  private static int[] streamBounds(Section x, byte[] f) {
    int s = x.streamsStart;
    if (x.streams == 1) {
      return new int[] {s, x.end};
    }
    int l1 = (f[s] & 0xFF) | (f[s + 1] & 0xFF) << 8;
    int l2 = (f[s + 2] & 0xFF) | (f[s + 3] & 0xFF) << 8;
    int l3 = (f[s + 4] & 0xFF) | (f[s + 5] & 0xFF) << 8;
    int s1 = s + 6;
    return new int[] {s1, s1 + l1, s1 + l1 + l2, s1 + l1 + l2 + l3, x.end};
  }

  /**
   * Reference decode of a section's literals from {@code f}, a copy of its frame: the literals, or null when a
   * stream has no end mark or is not used up exactly by its symbols.
   */
  private static byte[] reference(Section x, byte[] f) {
    byte[] out = new byte[x.regen];
    int[] b = streamBounds(x, f);
    int streams = b.length - 1;
    int seg = streams == 1 ? x.regen : (x.regen + 3) / 4;
    for (int i = 0; i < streams; i++) {
      int n = i < streams - 1 ? seg : x.regen - i * seg;
      if (!referenceStream(f, b[i], b[i + 1], x.table, x.maxBits, out, i * seg, n)) {
        return null;
      }
    }
    return out;
  }

  /** The decoder under test into a guarded array (0x5A around the literals). */
  private static byte[] decode(Section x, byte[] in) throws IOException {
    byte[] out = new byte[x.regen + 64];
    Arrays.fill(out, (byte) 0x5A);
    if (x.streams == 1) {
      Huffman.decode1(in, x.streamsStart, x.end, x.table, x.maxBits, out, 32, x.regen, "test");
    } else {
      Huffman.decode4(in, x.streamsStart, x.end, x.table, x.maxBits, out, 32, x.regen, "test");
    }
    for (int i = 0; i < 32; i++) {
      assertEquals((byte) 0x5A, out[i], "byte before the literals changed");
      assertEquals((byte) 0x5A, out[32 + x.regen + i], "byte after the literals changed");
    }
    return Arrays.copyOfRange(out, 32, 32 + x.regen);
  }

  @Test
  void everyByteValueAgainstTheBitAtATimeReference() throws IOException {
    Random r = new Random(17);
    int fourStreams = 0;
    int oneStream = 0;
    int elevenBits = 0;
    int highLong = 0;
    boolean[] residue4 = new boolean[4];
    boolean[] residue5 = new boolean[5];
    for (int round = 0; round < 120; round++) {
      int alphabet = new int[] {2, 3, 17, 64, 129, 200, 256}[round % 7];
      int first = round % 3 == 0 ? 0 : round % 3 == 1 ? 0x80 : r.nextInt(256);
      double skew = new double[] {0.6, 1.0, 1.4, 2.2}[(round / 7) % 4];
      int size = round % 5 == 0 ? 40 + r.nextInt(220) : 300 + r.nextInt(131_072 - 300);
      byte[] data = skewed(r, size, first, alphabet, skew);
      byte[] frame = ZstdTestData.compress(data, new int[] {1, 3, 19}[round % 3], false, true, null);
      Section x = firstSection(frame);
      if (x == null) {
        continue;
      }
      if (x.streams == 4) {
        fourStreams++;
        residue4[x.regen & 3] = true;
      } else {
        oneStream++;
        residue5[x.regen % 5] = true;
      }
      if (x.maxBits == Huffman.MAX_BITS) {
        elevenBits++;
      }
      for (int v : x.table) {
        if ((v >>> 8) >= 0x80 && (v & 0xFF) == x.maxBits) {
          highLong++;
          break;
        }
      }
      assertArrayEquals(reference(x), decode(x, frame), "round " + round + ": " + x.regen + " literals in "
          + x.streams + " stream(s), codes up to " + x.maxBits + " bits");
      // and the whole frame, through the sequences
      byte[] out = new byte[data.length];
      new ZstdDecoder().decompress(frame, 0, frame.length, out, 0, data.length);
      assertArrayEquals(data, out, "round " + round);
    }
    // the inputs must really cover what the test is about
    assertTrue(fourStreams >= 60, fourStreams + " sections with 4 streams");
    assertTrue(oneStream >= 10, oneStream + " sections with 1 stream");
    assertTrue(elevenBits >= 5, elevenBits + " sections with 11-bit codes");
    assertTrue(highLong >= 20, highLong + " sections whose longest codes are symbols >= 0x80");
    for (int i = 0; i < 4; i++) {
      assertTrue(residue4[i], "no 4-stream section with a literal count = " + i + " mod 4");
    }
    for (int i = 0; i < 5; i++) {
      assertTrue(residue5[i], "no 1-stream section with a literal count = " + i + " mod 5");
    }
  }

  @Test
  void tableEntriesHoldTheLengthBelowTheSymbol() throws IOException {
    Random r = new Random(5);
    for (int round = 0; round < 20; round++) {
      byte[] data = skewed(r, 20_000 + r.nextInt(50_000), r.nextInt(256), 2 + r.nextInt(255), 0.8 + r.nextDouble());
      Section x = firstSection(ZstdTestData.compress(data, 3, false, true, null));
      if (x == null) {
        continue;
      }
      int[] count = new int[256];
      int[] length = new int[256];
      for (int i = 0; i < 1 << x.maxBits; i++) {
        int v = x.table[i];
        int len = v & 0xFF;
        int sym = v >>> 8;
        assertTrue(len >= 1 && len <= x.maxBits, "entry " + i + ": length " + len);
        assertTrue(sym < 256, "entry " + i + ": symbol " + sym);
        assertTrue(length[sym] == 0 || length[sym] == len, "entry " + i + ": symbol " + sym + " with two lengths");
        length[sym] = len;
        count[sym]++;
      }
      // a code of len bits fills 2^(maxBits - len) entries, one run
      for (int sym = 0; sym < 256; sym++) {
        if (count[sym] > 0) {
          assertEquals(1 << (x.maxBits - length[sym]), count[sym], "round " + round + ", symbol " + sym);
        }
      }
    }
  }

  @Test
  void damagedStreamsEndInAnIOExceptionOrStayInsideTheLiterals() throws IOException {
    Random r = new Random(23);
    int refused = 0;
    int tried = 0;
    for (int round = 0; round < 12; round++) {
      byte[] data = skewed(r, round < 3 ? 100 + r.nextInt(150) : 5_000 + r.nextInt(100_000), 0x30, 180, 1.1);
      byte[] frame = ZstdTestData.compress(data, 3, false, true, null);
      Section x = firstSection(frame);
      if (x == null) {
        continue;
      }
      for (int k = 0; k < 150; k++) {
        byte[] bad = frame.clone();
        int at = x.streamsStart + r.nextInt(x.end - x.streamsStart);
        if (k % 3 == 0) {
          bad[at] = (byte) r.nextInt(256);
        } else {
          bad[at] ^= (byte) (1 << r.nextInt(8));
        }
        tried++;
        try {
          decode(x, bad);
        } catch (IOException e) {
          assertTrue(e.getMessage().startsWith("test"), e.getMessage());
          refused++;
        } catch (RuntimeException e) {
          throw new AssertionError("round " + round + ", byte " + at + " damaged: " + e, e);
        }
      }
    }
    assertTrue(tried >= 1000, tried + " damaged sections");
    assertTrue(refused >= tried / 3, "only " + refused + " of " + tried + " damaged sections refused");
  }

  /**
   * Damage inside the streams (the jump table kept): the decoders give exactly what the bit-at-a-time reference
   * reads when every stream still ends in its mark and is used up exactly by its symbols, and refuse it when one is
   * not (bits left over, bits missing, no end mark). libzstd 1.5.6 decodes some such sections to their full size
   * (bench `ZstdFuzz`, docs/RELIABILITY.md); here they are corrupt data.
   */
  @Test
  void damagedStreamsDecodeAsTheReferenceOrAreRefusedWhenNotUsedUpExactly() throws IOException {
    Random r = new Random(29);
    int decoded = 0;
    int refused = 0;
    int oneStream = 0;
    for (int round = 0; round < 16; round++) {
      byte[] data = skewed(r, round < 4 ? 120 + r.nextInt(150) : 3_000 + r.nextInt(100_000), r.nextInt(256),
          2 + r.nextInt(255), 0.7 + r.nextDouble());
      Section x = firstSection(ZstdTestData.compress(data, 3, false, true, null));
      if (x == null) {
        continue;
      }
      if (x.streams == 1) {
        oneStream++;
      }
      int[] b = streamBounds(x, x.frame);
      for (int k = 0; k < 120; k++) {
        byte[] bad = x.frame.clone();
        int i = r.nextInt(b.length - 1);
        // the last bytes of a stream half of the time: where its end mark and last symbols are
        int len = b[i + 1] - b[i];
        int at = k % 2 == 0 ? b[i + 1] - 1 - r.nextInt(Math.min(3, len)) : b[i] + r.nextInt(len);
        if (k % 3 == 0) {
          bad[at] = (byte) r.nextInt(256);
        } else {
          bad[at] ^= (byte) (1 << r.nextInt(8));
        }
        byte[] expected = reference(x, bad);
        String what = "round " + round + ", stream " + (i + 1) + " of " + x.streams + ", byte " + at;
        if (expected == null) {
          IOException e = assertThrows(IOException.class, () -> decode(x, bad), what);
          assertTrue(e.getMessage().startsWith("test"), e.getMessage());
          refused++;
        } else {
          assertArrayEquals(expected, decode(x, bad), what);
          decoded++;
        }
      }
    }
    assertTrue(oneStream >= 2, oneStream + " sections with 1 stream");
    assertTrue(decoded >= 300, decoded + " damaged sections the reference reads exactly");
    assertTrue(refused >= 300, refused + " damaged sections with a stream not used up exactly");
  }
}
