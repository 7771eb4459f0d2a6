package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Adler32;
import java.util.zip.Deflater;
import org.chunkcdm.testkit.ZlibReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Inflate}'s fast and careful loops at their edges, against java.util.zip and against the data itself:
 * streams written by a small fixed-Huffman/stored encoder of this test (so that every match is chosen: distances
 * 1..8, the whole 32 KiB window, exactly back to the first byte; lengths 3 and 258; outputs ending right after a
 * match or a literal, at every size around the fast loop's margins), every Deflater level and strategy, codes
 * longer than the main tables, and truncated streams (refused, nothing written outside the output).
 */
class InflateEdgeTest {
  private static final int[] LEN_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
      67, 83, 99, 115, 131, 163, 195, 227, 258};
  private static final int[] LEN_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
      5, 5, 5, 5, 0};
  private static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
      769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  private static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
      11, 11, 12, 12, 13, 13};

  /** LSB-first bit writer (RFC 1951 3.1.1); Huffman codes go in from their most significant bit. */
  static final class Bits {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    long acc;
    int n;

    void put(int v, int k) {
      acc |= (v & ((1L << k) - 1)) << n;
      n += k;
      while (n >= 8) {
        out.write((int) acc);
        acc >>>= 8;
        n -= 8;
      }
    }

    void code(int code, int len) {
      put(Integer.reverse(code) >>> (32 - len), len);
    }

    void align() {
      if (n > 0) {
        put(0, 8 - n);
      }
    }

    /** The zlib trailer: the Adler-32 of {@code d}, most significant byte first (at a byte boundary). */
    void adler32(byte[] d) {
      Adler32 a = new Adler32();
      a.update(d);
      int v = (int) a.getValue();
      put(v >>> 24, 8);
      put(v >>> 16, 8);
      put(v >>> 8, 8);
      put(v, 8);
    }
  }

  static void fixedSymbol(Bits b, int s) {
    if (s < 144) {
      b.code(0x30 + s, 8);
    } else if (s < 256) {
      b.code(0x190 + s - 144, 9);
    } else if (s < 280) {
      b.code(s - 256, 7);
    } else {
      b.code(0xc0 + s - 280, 8);
    }
  }

  /** The index of match length {@code len}'s code (symbol 257 + index; 258 has its own code 285). */
  static int lengthIndex(int len) {
    int i = LEN_BASE.length - 1;
    while (LEN_BASE[i] > len) {
      i--;
    }
    if (len == 258) {
      i = 28;
    } else if (i == 28) {
      i = 27;
    }
    return i;
  }

  static void fixedMatch(Bits b, int len, int dist) {
    int i = lengthIndex(len);
    fixedSymbol(b, 257 + i);
    b.put(len - LEN_BASE[i], LEN_EXTRA[i]);
    int j = DIST_BASE.length - 1;
    while (DIST_BASE[j] > dist) {
      j--;
    }
    b.code(j, 5);
    b.put(dist - DIST_BASE[j], DIST_EXTRA[j]);
  }

  /**
   * The code set of a dynamic block: code lengths and canonical codes of the 286 literal/length and 30 distance
   * symbols. {@code null} stands for the fixed code in {@link #symbol} and {@link #match}.
   */
  static final class Code {
    final int[] litLen = new int[286];
    final int[] distLen = new int[30];
    int[] litCode;
    int[] distCode;
  }

  /**
   * A match-heavy code: every literal {@code litBits} (10 or 12, the latter longer than the main table) bits long,
   * so that literals take at most a quarter of the code space and Inflate decodes the block in its match loop;
   * lengths and distances 4 to 6 bits.
   */
  static Code matchHeavyCode(int litBits) {
    Code c = new Code();
    Arrays.fill(c.litLen, 0, 256, litBits);
    if (litBits == 10) { // 256/1024 + 18/32 + 12/64 = 1
      Arrays.fill(c.litLen, 256, 274, 5);
      Arrays.fill(c.litLen, 274, 286, 6);
    } else if (litBits == 12) { // 256/4096 + 30/32 = 1
      Arrays.fill(c.litLen, 256, 286, 5);
    } else {
      throw new IllegalArgumentException("litBits " + litBits);
    }
    Arrays.fill(c.distLen, 0, 2, 4); // 2/16 + 28/32 = 1
    Arrays.fill(c.distLen, 2, 30, 5);
    c.litCode = canonical(c.litLen);
    c.distCode = canonical(c.distLen);
    return c;
  }

  /** Canonical Huffman codes for code lengths (RFC 1951 3.2.2). */
  static int[] canonical(int[] lens) {
    int[] count = new int[16];
    for (int l : lens) {
      if (l > 0) {
        count[l]++;
      }
    }
    int[] next = new int[16];
    int code = 0;
    for (int bits = 1; bits < 16; bits++) {
      code = (code + count[bits - 1]) << 1;
      next[bits] = code;
    }
    int[] codes = new int[lens.length];
    for (int s = 0; s < lens.length; s++) {
      if (lens[s] > 0) {
        codes[s] = next[lens[s]]++;
      }
    }
    return codes;
  }

  private static final int[] CL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

  /** A block header: last flag, type (1 fixed for {@code c == null}, else 2 and the code lengths of {@code c}). */
  static void blockHeader(Bits b, boolean last, Code c) {
    b.put(last ? 1 : 0, 1);
    b.put(c == null ? 1 : 2, 2);
    if (c == null) {
      return;
    }
    b.put(286 - 257, 5);
    b.put(30 - 1, 5);
    b.put(19 - 4, 4);
    int[] clLen = new int[19]; // 13/16 + 6/32 = 1; every length written as itself (no repeat codes)
    Arrays.fill(clLen, 0, 13, 4);
    Arrays.fill(clLen, 13, 19, 5);
    int[] clCode = canonical(clLen);
    for (int i = 0; i < 19; i++) {
      b.put(clLen[CL_ORDER[i]], 3);
    }
    for (int l : c.litLen) {
      b.code(clCode[l], clLen[l]);
    }
    for (int l : c.distLen) {
      b.code(clCode[l], clLen[l]);
    }
  }

  static void symbol(Bits b, Code c, int s) {
    if (c == null) {
      fixedSymbol(b, s);
    } else {
      b.code(c.litCode[s], c.litLen[s]);
    }
  }

  static void match(Bits b, Code c, int len, int dist) {
    if (c == null) {
      fixedMatch(b, len, dist);
      return;
    }
    int i = lengthIndex(len);
    symbol(b, c, 257 + i);
    b.put(len - LEN_BASE[i], LEN_EXTRA[i]);
    int j = DIST_BASE.length - 1;
    while (DIST_BASE[j] > dist) {
      j--;
    }
    b.code(c.distCode[j], c.distLen[j]);
    b.put(dist - DIST_BASE[j], DIST_EXTRA[j]);
  }

  static String name(Code c) {
    return c == null ? "fixed" : "match-heavy, literals of " + c.litLen[0] + " bits";
  }

  /** The fixed code and the two match-heavy codes. */
  static final Code[] CODES = {null, matchHeavyCode(10), matchHeavyCode(12)};

  /**
   * A zlib stream of stored, fixed-Huffman and match-heavy dynamic blocks for random data with chosen matches; the
   * data to data[0].
   */
  static byte[] encode(Random r, int size, boolean endWithMatch, byte[][] data) {
    byte[] d = new byte[size];
    Bits b = new Bits();
    b.put(0x78, 8);
    b.put(0x01, 8);
    int op = 0;
    int alphabet = 1 + r.nextInt(r.nextBoolean() ? 4 : 256);
    while (true) {
      // one block: stored (sometimes) or fixed Huffman
      int blockEnd = Math.min(size, op + 1 + r.nextInt(r.nextInt(4) == 0 ? 100 : 40_000));
      boolean last = blockEnd == size;
      if (r.nextInt(8) == 0 && !(last && endWithMatch)) {
        b.put(last ? 1 : 0, 1);
        b.put(0, 2);
        b.align();
        int len = blockEnd - op;
        b.put(len, 16);
        b.put(~len, 16);
        for (int i = 0; i < len; i++) {
          d[op] = (byte) r.nextInt(256);
          b.put(d[op++], 8);
        }
      } else {
        Code code = CODES[r.nextInt(CODES.length)];
        blockHeader(b, last, code);
        while (op < blockEnd) {
          int room = blockEnd - op;
          boolean closing = last && endWithMatch;
          // a closing match takes the last 3..258 bytes; before it, matches leave 0 or at least 3 bytes
          boolean match = op > 0 && room >= 3 && (r.nextInt(3) == 0 || (closing && room <= 258));
          if (!match) {
            d[op] = (byte) (alphabet == 256 ? r.nextInt(256) : 'a' + r.nextInt(alphabet));
            symbol(b, code, d[op++] & 0xff);
            continue;
          }
          int maxDist = Math.min(op, 32768);
          int dist;
          switch (r.nextInt(6)) {
            case 0:
              dist = 1 + r.nextInt(Math.min(maxDist, 8));
              break;
            case 1:
              dist = maxDist; // the whole window, or back to the very first byte
              break;
            case 2:
              dist = Math.max(1, maxDist - r.nextInt(Math.min(maxDist, 20)));
              break;
            default:
              dist = 1 + r.nextInt(maxDist);
          }
          int len;
          if (closing && room <= 258) {
            len = room;
          } else {
            int maxLen = Math.min(258, closing ? room - 3 : room);
            int k = r.nextInt(4);
            len = k == 0 ? 3 : k == 1 ? maxLen : 3 + r.nextInt(maxLen - 2);
          }
          for (int i = 0; i < len; i++) {
            d[op + i] = d[op + i - dist];
          }
          op += len;
          match(b, code, len, dist);
        }
        symbol(b, code, 256);
      }
      if (last) {
        break;
      }
    }
    b.align();
    b.adler32(d);
    data[0] = d;
    return b.out.toByteArray();
  }

  /** Decodes into the middle of a guarded array; checks the guards and returns the output. */
  static byte[] decodeGuarded(Inflate inf, byte[] c, int outLen) throws IOException {
    byte[] in = new byte[c.length + 5];
    System.arraycopy(c, 0, in, 2, c.length);
    byte[] out = new byte[outLen + 40];
    Arrays.fill(out, (byte) 0x5a);
    try {
      inf.decode(in, 2, c.length, out, 11, outLen);
    } finally {
      for (int i = 0; i < 11; i++) {
        assertEquals((byte) 0x5a, out[i], "written before the output");
      }
      for (int i = 11 + outLen; i < out.length; i++) {
        assertEquals((byte) 0x5a, out[i], "written past the output");
      }
    }
    return Arrays.copyOfRange(out, 11, 11 + outLen);
  }

  @Test
  void chosenMatchesAndBlockEdges() throws IOException {
    Random r = new Random(1951_3);
    Inflate inf = new Inflate();
    int streams = 0;
    int[] sizes = new int[400];
    for (int i = 0; i < sizes.length; i++) {
      // around the fast loop's margins (258 + 18 output bytes, 24 input bytes) and the 32 KiB window
      sizes[i] = i < 120 ? i : i < 240 ? 250 + (i - 120) : i < 300 ? 32_700 + r.nextInt(200) : r.nextInt(90_000);
    }
    for (int size : sizes) {
      for (boolean endWithMatch : new boolean[] {false, true}) {
        byte[][] data = new byte[1][];
        byte[] c = encode(r, size, endWithMatch, data);
        assertArrayEquals(data[0], InflateTest.zlib(c, size, new int[1]), "java.util.zip, size " + size);
        assertArrayEquals(data[0], decodeGuarded(inf, c, size), "size " + size + " endWithMatch " + endWithMatch);
        streams++;
      }
    }
    assertTrue(streams == 800);
  }

  /**
   * A long match ending 0..40 bytes before the output's end while the fast loop runs (empty stored blocks after
   * the Huffman block keep enough input at hand): the wide copies may not write past the output.
   */
  @Test
  void longMatchesNearTheOutputsEnd() throws IOException {
    Random r = new Random(1954);
    Inflate inf = new Inflate();
    for (Code code : CODES) {
      for (int dist : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 41, 100}) {
        for (int k = 0; k <= 40; k++) {
          for (int lits = 0; lits <= 3; lits++) {
            Bits b = new Bits();
            b.put(0x78, 8);
            b.put(0x01, 8);
            blockHeader(b, false, code);
            int prefix = 300 + r.nextInt(50);
            byte[] d = new byte[prefix + lits + 258 + k];
            int op = 0;
            for (int i = 0; i < prefix + lits; i++) {
              d[op] = (byte) r.nextInt(256);
              symbol(b, code, d[op++] & 0xff);
            }
            match(b, code, 258, dist);
            for (int i = 0; i < 258; i++, op++) {
              d[op] = d[op - dist];
            }
            for (int i = 0; i < k; i++) {
              d[op] = (byte) r.nextInt(256);
              symbol(b, code, d[op++] & 0xff);
            }
            symbol(b, code, 256);
            for (int i = 0; i < 8; i++) { // empty stored blocks, the last one final
              b.put(i == 7 ? 1 : 0, 1);
              b.put(0, 2);
              b.align();
              b.put(0, 16);
              b.put(0xffff, 16);
            }
            b.adler32(d);
            byte[] c = b.out.toByteArray();
            assertArrayEquals(d, InflateTest.zlib(c, d.length, new int[1]));
            assertArrayEquals(d, decodeGuarded(inf, c, d.length),
                "dist " + dist + " k " + k + " lits " + lits + " " + name(code));
          }
        }
      }
    }
  }

  @Test
  void truncatedAndTooFarStreamsAreRefused() throws IOException {
    Random r = new Random(1952);
    Inflate inf = new Inflate();
    for (int t = 0; t < 60; t++) {
      int size = t < 30 ? 1 + r.nextInt(400) : 1000 + r.nextInt(40_000);
      byte[][] data = new byte[1][];
      byte[] c = encode(r, size, r.nextBoolean(), data);
      int step = Math.max(1, c.length / 300);
      for (int cut = 0; cut < c.length; cut += (cut > c.length - 40 ? 1 : step)) {
        byte[] part = Arrays.copyOf(c, cut);
        try {
          decodeGuarded(inf, part, size);
          fail("decodes a stream cut to " + cut + " of " + c.length + " bytes");
        } catch (IOException expected) {
          assertTrue(expected.getMessage().startsWith("zlib stream"), expected.getMessage());
        }
      }
    }
    // a distance one byte further back than the output's start: refused by both
    // (short outputs: the careful loop; followed by 2000 more bytes: the fast loop)
    for (Code code : CODES) {
      for (int first = 1; first < 1100; first += first < 40 ? 1 : 1000) {
        for (int after : new int[] {0, 2000}) {
          Bits b = new Bits();
          b.put(0x78, 8);
          b.put(0x01, 8);
          blockHeader(b, true, code);
          for (int i = 0; i < first; i++) {
            symbol(b, code, 'x');
          }
          match(b, code, 258, first + 1);
          for (int i = 0; i < after; i++) {
            symbol(b, code, 'y');
          }
          symbol(b, code, 256);
          b.align();
          b.put(0, 32);
          byte[] c = b.out.toByteArray();
          assertEquals(null, InflateTest.zlib(c, first + 258 + after, new int[1]));
          try {
            decodeGuarded(inf, c, first + 258 + after);
            fail("decodes a distance before the output's start");
          } catch (IOException expected) {
            assertTrue(expected.getMessage().contains("too far back"), expected.getMessage());
          }
        }
      }
    }
    // still decodes good streams
    byte[][] data = new byte[1][];
    byte[] c = encode(r, 5000, true, data);
    assertArrayEquals(data[0], decodeGuarded(inf, c, 5000));
  }

  /**
   * Every distance 1..48 with every length 3..48 and the lengths around the match copy's rounds (16 bytes a round
   * for distances >= 8, 8-byte patterns for 1, 2 and 4, a whole multiple of the period back for 3, 5, 6 and 7,
   * and the 32/40-byte unconditional copies tried for distances >= 8), back to back or after one literal, inside
   * the fast loop (a long run of literals follows) and at the output's end (the careful loop).
   */
  @Test
  void everyShortDistanceAndLength() throws IOException {
    Random r = new Random(1955);
    Inflate inf = new Inflate();
    int[] lens = new int[46 + 14];
    for (int i = 0; i < 46; i++) {
      lens[i] = 3 + i;
    }
    System.arraycopy(new int[] {55, 56, 57, 71, 72, 73, 88, 89, 100, 129, 255, 256, 257, 258}, 0, lens, 46, 14);
    for (Code code : CODES) {
      for (int dist = 1; dist <= 48; dist++) {
        for (int tail : new int[] {0, 1, 15, 39, 300}) {
          Bits b = new Bits();
          b.put(0x78, 8);
          b.put(0x01, 8);
          blockHeader(b, true, code);
          ByteArrayOutputStream d = new ByteArrayOutputStream();
          byte[] cur = new byte[0];
          for (int i = 0; i < 48; i++) {
            int v = r.nextInt(256);
            d.write(v);
            symbol(b, code, v);
          }
          for (int pass = 0; pass < 2; pass++) {
            for (int len : lens) {
              if (pass == 1 || r.nextBoolean()) { // pass 0: matches back to back or after a literal; pass 1: after one
                int v = r.nextInt(256);
                d.write(v);
                symbol(b, code, v);
              }
              cur = d.toByteArray();
              for (int i = 0; i < len; i++) {
                d.write(cur[cur.length - dist + (i % dist)]);
              }
              match(b, code, len, dist);
            }
          }
          for (int i = 0; i < tail; i++) {
            int v = r.nextInt(256);
            d.write(v);
            symbol(b, code, v);
          }
          symbol(b, code, 256);
          b.align();
          byte[] data = d.toByteArray();
          b.adler32(data);
          byte[] c = b.out.toByteArray();
          assertArrayEquals(data, InflateTest.zlib(c, data.length, new int[1]), "java.util.zip, dist " + dist);
          assertArrayEquals(data, decodeGuarded(inf, c, data.length),
              "dist " + dist + " tail " + tail + " " + name(code));
        }
      }
    }
  }

  /**
   * Corrupt match-heavy streams (random bits flipped, bytes replaced, cut short or lengthened): each is refused
   * with an IOException or decodes to java.util.zip's bytes; never another exception, a hang or a write outside
   * the output.
   */
  @Test
  @Timeout(120)
  void corruptMatchHeavyStreams() throws IOException {
    Random r = new Random(1956);
    Inflate inf = new Inflate();
    int refused = 0;
    int same = 0;
    for (int t = 0; t < 400; t++) {
      int size = 300 + r.nextInt(t < 200 ? 2000 : 40_000);
      byte[][] data = new byte[1][];
      byte[] c = encode(r, size, r.nextBoolean(), data);
      for (int m = 0; m < 12; m++) {
        byte[] bad = c.clone();
        int kind = r.nextInt(4);
        if (kind == 0) {
          for (int k = 1 + r.nextInt(3); k > 0; k--) {
            int bit = 16 + r.nextInt(bad.length * 8 - 16);
            bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
          }
        } else if (kind == 1) {
          bad[2 + r.nextInt(bad.length - 2)] = (byte) r.nextInt(256);
        } else if (kind == 2) {
          bad = Arrays.copyOf(bad, 2 + r.nextInt(bad.length - 2));
        } else {
          bad = Arrays.copyOf(bad, bad.length + 1 + r.nextInt(30));
          for (int i = c.length; i < bad.length; i++) {
            bad[i] = (byte) r.nextInt(256);
          }
        }
        int outLen = r.nextInt(8) == 0 ? size + r.nextInt(600) - 300 : size;
        outLen = Math.max(0, outLen);
        byte[] want = InflateTest.zlib(bad, outLen, new int[1]);
        try {
          byte[] got = decodeGuarded(inf, bad, outLen);
          assertArrayEquals(want, got, "decoded a stream that java.util.zip decodes otherwise");
          same++;
        } catch (IOException e) {
          assertTrue(e.getMessage().startsWith("zlib stream"), e.getMessage());
          refused++;
        }
      }
    }
    assertTrue(refused > 3000 && same > 0, refused + " refused, " + same + " decoded");
  }

  /**
   * Which Huffman loop a dynamic block gets: the test's match-heavy codes and Deflater's codes for data made of
   * repeated phrases go to the match loop, Deflater's codes for skewed and random bytes to the literal loop; both
   * decode to the data.
   */
  @Test
  void matchHeavyBlocksTakeTheMatchLoop() throws IOException {
    Random r = new Random(1957);
    Inflate inf = new Inflate();
    for (int litBits : new int[] {10, 12}) {
      Bits b = new Bits();
      b.put(0x78, 8);
      b.put(0x01, 8);
      blockHeader(b, true, matchHeavyCode(litBits));
      symbol(b, matchHeavyCode(litBits), 256);
      b.align();
      b.adler32(new byte[0]);
      assertTrue(Inflate.matchHeavy(b.out.toByteArray()), "match-heavy code, literals of " + litBits + " bits");
    }
    byte[] phrases = new byte[300_000];
    byte[][] dict = new byte[40][];
    for (int i = 0; i < dict.length; i++) {
      dict[i] = new byte[8 + r.nextInt(60)];
      r.nextBytes(dict[i]);
    }
    for (int p = 0; p < phrases.length; ) {
      byte[] w = dict[r.nextInt(dict.length)];
      int n = Math.min(w.length, phrases.length - p);
      System.arraycopy(w, 0, phrases, p, n);
      p += n;
      if (p < phrases.length && r.nextInt(4) == 0) {
        phrases[p++] = (byte) r.nextInt(256);
      }
    }
    byte[] random = new byte[100_000];
    r.nextBytes(random);
    byte[] skewed = new byte[200_000]; // mostly literals: a few very common and many rare byte values
    for (int i = 0; i < skewed.length; i++) {
      skewed[i] = (byte) Math.min(255, (int) (-Math.log(1 - r.nextDouble()) * 12));
    }
    for (int level = 1; level <= 9; level++) {
      byte[] c = ZlibReference.deflate(phrases, level, Deflater.DEFAULT_STRATEGY);
      assertTrue(Inflate.matchHeavy(c), "repeated phrases, level " + level);
      assertArrayEquals(phrases, decodeGuarded(inf, c, phrases.length), "repeated phrases, level " + level);
      c = ZlibReference.deflate(skewed, level, Deflater.DEFAULT_STRATEGY);
      assertTrue(!Inflate.matchHeavy(c), "skewed bytes, level " + level);
      assertArrayEquals(skewed, decodeGuarded(inf, c, skewed.length), "skewed bytes, level " + level);
      c = ZlibReference.deflate(random, level, Deflater.HUFFMAN_ONLY);
      assertTrue(!Inflate.matchHeavy(c), "random bytes, level " + level);
    }
  }

  @Test
  void everyLevelAndStrategyAndLongCodes() throws IOException {
    Random r = new Random(1953);
    Inflate inf = new Inflate();
    // geometric symbol frequencies (symbol k with probability 2^-(k+1)) give the longest codes zlib allows (15 bits)
    byte[] fib = new byte[200_000];
    for (int i = 0; i < fib.length; i++) {
      fib[i] = (byte) (Integer.numberOfTrailingZeros(r.nextInt() | 1 << 30) * 7 + (r.nextInt(64) == 0 ? 1 : 0));
    }
    for (int i = 0; i < 3000; i++) {
      int len = 3 + r.nextInt(60);
      int at = 40_000 + r.nextInt(fib.length - 40_100);
      int from = at - 1 - (int) Math.min(32_767, Math.exp(r.nextDouble() * Math.log(32_767)));
      System.arraycopy(fib, from, fib, at, len);
    }
    byte[][] inputs = {fib, InflateTest.corpus().get(30), InflateTest.corpus().get(33)};
    int[] strategies = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
    for (byte[] data : inputs) {
      for (int level = 0; level <= 9; level++) {
        for (int strategy : strategies) {
          byte[] c = ZlibReference.deflate(data, level, strategy);
          assertArrayEquals(data, decodeGuarded(inf, c, data.length), "level " + level + " strategy " + strategy);
        }
      }
    }
    assertTrue(Inflate.maxCodeLength(ZlibReference.deflate(fib, 6, Deflater.HUFFMAN_ONLY)) > Inflate.LIT_BITS,
        "the test data gives no literal/length codes longer than the main table");
  }
}
