package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.blosc.zstd.ZstdTestData.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed input (truncated, bit-flipped, lying sizes, bad tables, bad offsets) ends in an IOException and
 * nothing else: no runtime exception, no error, no hang.
 */
class ZstdMalformedTest {
  static Stream<Sample> samples() {
    List<Sample> s = new ArrayList<>();
    byte[] text = ZstdTestData.make("text", 20_000, 1);
    s.add(new Sample("text level 3 checksum", text, ZstdTestData.compress(text, 3, true, true, null), null));
    byte[] planes = ZstdTestData.make("int32-planes", 64 << 10, 2);
    s.add(new Sample("int32 planes level 9", planes, ZstdTestData.compress(planes, 9, false, true, null), null));
    byte[] fl = ZstdTestData.make("float64-planes", 40_000, 3);
    s.add(new Sample("float64 planes level 19 no size", fl, ZstdTestData.compress(fl, 19, false, false, null), null));
    byte[] runs = ZstdTestData.make("runs", 300_000, 4);
    s.add(new Sample("runs level 1, several blocks", runs, ZstdTestData.compress(runs, 1, false, false, null), null));
    byte[] dict = ZstdTestData.trainedDictionary();
    byte[] small = ZstdTestData.make("text", 3000, 5);
    s.add(new Sample("text with a trained dictionary", small, ZstdTestData.compress(small, 3, false, true, dict), dict));
    byte[] raw = ZstdTestData.rawDictionary();
    s.add(new Sample("text with a raw dictionary, checksum", small, ZstdTestData.compress(small, 19, true, true, raw),
        raw));
    byte[] few = ZstdTestData.make("few-symbols", 5000, 6);
    s.add(new Sample("few symbols level 9", few, ZstdTestData.compress(few, 9, false, true, null), null));
    return s.stream();
  }

  /** Decodes and returns null, or the IOException; any other throwable fails the test with its stack trace. */
  static IOException decode(byte[] in, int outLen, ZstdDictionary dict, byte[] expect, String what) {
    byte[] out = new byte[outLen];
    try {
      int n = new ZstdDecoder().decompress(in, 0, in.length, out, 0, outLen, dict);
      assertEquals(outLen, n, what);
      if (expect != null) {
        assertArrayEquals(expect, out, what + ": decoded without error to other bytes");
      }
      return null;
    } catch (IOException e) {
      assertTrue(e.getMessage() != null && e.getMessage().startsWith("zstd"), what + ": message " + e.getMessage());
      return e;
    } catch (Throwable t) {
      StringWriter sw = new StringWriter();
      t.printStackTrace(new PrintWriter(sw));
      fail(what + ": " + t + " instead of an IOException\n" + sw);
      return null;
    }
  }

  private static ZstdDictionary dict(Sample s) throws IOException {
    return s.dict() == null ? null : new ZstdDictionary(s.dict());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void everyTruncationIsAnIOException(Sample s) throws IOException {
    ZstdDictionary d = dict(s);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      for (int len = 0; len < s.frame().length; len++) {
        assertTrue(decode(Arrays.copyOf(s.frame(), len), s.data().length, d, null, s + " cut at " + len) != null,
            s + " cut to " + len + " bytes decoded without error");
      }
    });
    assertEquals(null, decode(s.frame(), s.data().length, d, s.data(), s.name()), "the whole frame decodes");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void bitFlipsDecodeOrFailWithAnIOException(Sample s) throws IOException {
    ZstdDictionary d = dict(s);
    boolean checked = s.name().contains("checksum");
    Random r = new Random(s.name().hashCode());
    int positions = Math.min(8 * s.frame().length, 3000);
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      for (int i = 0; i < positions; i++) {
        int bit = positions == 8 * s.frame().length ? i : r.nextInt(8 * s.frame().length);
        byte[] f = s.frame().clone();
        f[bit >>> 3] ^= 1 << (bit & 7);
        // with a checksum, a flip that still decodes must give the original bytes
        decode(f, s.data().length, d, checked ? s.data() : null, s + " bit " + bit);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void randomDamageIsAnIOExceptionOrDecodes(Sample s) throws IOException {
    ZstdDictionary d = dict(s);
    Random r = new Random(~s.name().hashCode());
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      for (int i = 0; i < 1500; i++) {
        byte[] f = s.frame().clone();
        int n = 1 + r.nextInt(8);
        for (int j = 0; j < n; j++) {
          int at = r.nextInt(f.length);
          switch (r.nextInt(4)) {
            case 0:
              f[at] = (byte) r.nextInt(256);
              break;
            case 1:
              f[at] = 0;
              break;
            case 2:
              f[at] = (byte) 0xFF;
              break;
            default: { // a run of random bytes
              int len = Math.min(1 + r.nextInt(40), f.length - at);
              for (int k = 0; k < len; k++) {
                f[at + k] = (byte) r.nextInt(256);
              }
            }
          }
        }
        decode(f, s.data().length, d, null, s + " damage " + i);
      }
    });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void theExpectedSizeMustMatch(Sample s) throws IOException {
    ZstdDictionary d = dict(s);
    int n = s.data().length;
    for (int outLen : new int[] {0, 1, n - 1000, n - 1, n + 1, n + 1000, 2 * n + 5}) {
      if (outLen >= 0 && outLen != n) {
        IOException e = decode(s.frame(), outLen, d, null, s + " into " + outLen);
        assertTrue(e != null, s + ": decoded into " + outLen + " bytes instead of " + n);
      }
    }
  }

  /** Content size fields that lie: a frame that holds its real size, patched to say other sizes. */
  @Test
  void lyingContentSizes() throws IOException {
    byte[] data = ZstdTestData.make("text", 70_000, 8);
    byte[] f = ZstdTestData.compress(data, 3, false, true, null);
    int fhd = f[4] & 0xFF;
    assertEquals(2, fhd >>> 6, "a 4-byte content size field");
    int at = 5 + ((fhd & 0x20) == 0 ? 1 : 0) + new int[] {0, 1, 2, 4}[fhd & 3];
    for (long lie : new long[] {0, 1, 69_999, 70_001, 1 << 20, 0xFFFFFFFFL}) {
      byte[] g = f.clone();
      for (int i = 0; i < 4; i++) {
        g[at + i] = (byte) (lie >>> (8 * i));
      }
      assertTrue(decode(g, data.length, null, null, "size " + lie) != null, "content size " + lie + " accepted");
      assertTrue(decode(g, (int) Math.min(lie, 1 << 21), null, null, "size " + lie) != null,
          "content size " + lie + " accepted with that output size");
    }
  }

  /** Block sizes that lie: every block header of a multi-block frame, patched. */
  @Test
  void lyingBlockSizes() throws IOException {
    byte[] data = ZstdTestData.make("int32-planes", 400_000, 9);
    byte[] f = ZstdTestData.compress(data, 1, false, true, null);
    int fhd = f[4] & 0xFF;
    int p = 5 + ((fhd & 0x20) == 0 ? 1 : 0) + new int[] {0, 1, 2, 4}[fhd & 3] + ((fhd >>> 6) == 0 ? ((fhd & 0x20) != 0 ? 1 : 0)
        : 1 << (fhd >>> 6));
    int blocks = 0;
    while (true) {
      int bh = (f[p] & 0xFF) | (f[p + 1] & 0xFF) << 8 | (f[p + 2] & 0xFF) << 16;
      int size = bh >>> 3;
      for (int lie : new int[] {0, 1, size - 1, size + 1, size + 1000, (1 << 17) + 1, (1 << 21) - 1}) {
        if (lie < 0 || lie == size) {
          continue;
        }
        byte[] g = f.clone();
        int nb = (bh & 7) | lie << 3;
        g[p] = (byte) nb;
        g[p + 1] = (byte) (nb >>> 8);
        g[p + 2] = (byte) (nb >>> 16);
        assertTrue(decode(g, data.length, null, null, "block " + blocks + " size " + lie) != null,
            "block " + blocks + " size " + size + " -> " + lie + " accepted");
      }
      blocks++;
      p += 3 + (((bh >>> 1) & 3) == 1 ? 1 : size);
      if ((bh & 1) != 0) {
        break;
      }
    }
    assertTrue(blocks > 2);
  }

  @Test
  void dictionaryMismatches() throws IOException {
    byte[] dict = ZstdTestData.trainedDictionary();
    byte[] data = ZstdTestData.make("text", 2000, 10);
    byte[] f = ZstdTestData.compress(data, 3, false, true, dict);
    IOException none = decode(f, data.length, null, null, "no dictionary");
    assertTrue(none != null && none.getMessage().contains("needs dictionary"), String.valueOf(none));
    IOException other = decode(f, data.length, new ZstdDictionary(ZstdTestData.withId(dict, 12345)), null, "other ID");
    assertTrue(other != null && other.getMessage().contains("12345"), String.valueOf(other));
    IOException raw = decode(f, data.length, new ZstdDictionary(ZstdTestData.rawDictionary()), null, "raw");
    assertTrue(raw != null && raw.getMessage().contains("raw content"), String.valueOf(raw));
    // a frame without a dictionary ID decodes with the dictionary it was made with, and not without it
    byte[] noId;
    try (com.github.luben.zstd.ZstdCompressCtx ctx = new com.github.luben.zstd.ZstdCompressCtx()) {
      ctx.setLevel(3);
      ctx.setDictID(false);
      ctx.loadDict(dict);
      noId = ctx.compress(data);
    }
    assertEquals(null, decode(noId, data.length, new ZstdDictionary(dict), data, "no ID, with dictionary"));
    assertTrue(decode(noId, data.length, null, null, "no ID, without dictionary") != null);
  }

  @Test
  void malformedDictionaries() throws IOException {
    byte[] dict = ZstdTestData.trainedDictionary();
    new ZstdDictionary(dict);
    // cut inside the entropy tables or the repeat offsets: refused; cut in the content: a shorter content
    int firstGood = -1;
    for (int len = 8; len < 1500; len++) {
      try {
        ZstdDictionary cut = new ZstdDictionary(Arrays.copyOf(dict, len));
        if (firstGood < 0) {
          firstGood = len;
        }
        assertEquals(len - firstGood + 8, cut.contentSize(), "content of the dictionary cut to " + len);
      } catch (IOException e) {
        assertTrue(firstGood < 0, "cut to " + len + " refused, cut to " + firstGood + " accepted: " + e);
      } catch (Throwable t) {
        fail("dictionary cut to " + len + " bytes: " + t);
      }
    }
    assertTrue(firstGood > 8 + 50, "the tables take bytes: first acceptable cut " + firstGood);
    Random r = new Random(3);
    for (int i = 0; i < 3000; i++) {
      byte[] d = dict.clone();
      int at = 8 + r.nextInt(600);
      d[at] = (byte) r.nextInt(256);
      try {
        ZstdDictionary zd = new ZstdDictionary(d);
        // a damaged table that still parses must decode frames to IOExceptions or bytes, nothing else
        byte[] data = ZstdTestData.make("text", 1000, i);
        byte[] f = ZstdTestData.compress(data, 3, false, true, dict);
        decode(f, data.length, zd, null, "damaged dictionary byte " + at);
      } catch (IOException e) {
        // refused
      } catch (Throwable t) {
        fail("dictionary damaged at " + at + ": " + t);
      }
    }
    // short byte strings are raw content
    assertEquals(false, new ZstdDictionary(new byte[] {0x37, (byte) 0xA4, 0x30}).isFormatted());
    assertEquals(0, new ZstdDictionary(new byte[0]).contentSize());
  }

  @Test
  void handMadeFrames() throws IOException {
    // magic, descriptor 0x20 (single segment, 1-byte size) 3, raw last block of 3 bytes
    byte[] ok = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 3, 0x19, 0, 0, 'a', 'b', 'c'};
    assertEquals(null, decode(ok, 3, null, "abc".getBytes(), "raw block"));
    // 8-byte content size field (descriptor 0xE0), window descriptor absent
    byte[] fcs8 = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, (byte) 0xE0, 3, 0, 0, 0, 0, 0, 0, 0, 0x19, 0, 0, 'a', 'b', 'c'};
    assertEquals(null, decode(fcs8, 3, null, "abc".getBytes(), "8-byte size"));
    fcs8[12] = (byte) 0x80; // 2^63 + 3
    assertTrue(decode(fcs8, 3, null, null, "huge size").getMessage().contains("content size"));
    // RLE block: 5 times 'x', with a window descriptor (1 KiB) and no size
    byte[] rle = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x00, 0x00, 0x2B, 0, 0, 'x'};
    assertEquals(null, decode(rle, 5, null, "xxxxx".getBytes(), "RLE block"));
    // 2-byte content size: value + 256
    byte[] fcs2 = new byte[10 + 300];
    byte[] head = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x60, 44, 0, (byte) ((300 << 3) | 1), (byte) ((300 << 3) >>> 8),
        0};
    System.arraycopy(head, 0, fcs2, 0, head.length);
    assertEquals(null, decode(fcs2, 300, null, new byte[300], "2-byte size 44 + 256"));
    byte[][] bad = {
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x28, 3, 0x19, 0, 0, 'a', 'b', 'c'}, // reserved descriptor bit
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 3, 0x1F, 0, 0, 'a', 'b', 'c'}, // reserved block type
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 3, 0x18, 0, 0, 'a', 'b', 'c'}, // no last block
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFC, 0x20, 3, 0x19, 0, 0, 'a', 'b', 'c'}, // wrong magic
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 2, 0x19, 0, 0, 'a', 'b', 'c'}, // block exceeds the content size
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 3, 0x19, 0, 0, 'a', 'b', 'c', 0}, // stray byte
        {0x50, 0x2A, 0x4D, 0x18, 5, 0, 0, 0, 1, 2}, // skippable frame longer than the input
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x24, 3, 0x19, 0, 0, 'a', 'b', 'c', 1, 2, 3, 4}, // wrong checksum
        {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x21, 3, 7, 0x19, 0, 0, 'a', 'b', 'c'}, // needs dictionary 7
        {}, // nothing
    };
    for (int i = 0; i < bad.length; i++) {
      assertTrue(decode(bad[i], 3, null, null, "bad frame " + i) != null, "bad frame " + i + " accepted");
    }
    assertThrows(IOException.class, () -> new ZstdDecoder().decompress(new byte[] {0x28, (byte) 0xB5}, 0, 2,
        new byte[0], 0, 0));
  }

  /**
   * One compressed block with raw literals "ab" and one sequence (literal length 2, match length 3) coded with
   * the predefined tables; the offset value is {@code 2^ofCode + ofExtra}.
   */
  static byte[] oneSequenceFrame(int ofCode, int ofExtra) {
    int ll = state(Fse.LL_PREDEFINED, 2, 0);
    int ml = state(Fse.ML_PREDEFINED, 3, 0);
    int of = state(Fse.OF_PREDEFINED, 1 << ofCode, ofCode);
    // written forward in the reverse of the reading order: extra bits (LL, ML: none; OF), ML, OF, LL states, end mark
    long bits = ofExtra | (long) ml << ofCode | (long) of << (ofCode + 6) | (long) ll << (ofCode + 11)
        | 1L << (ofCode + 17);
    int nbytes = (ofCode + 18 + 7) / 8;
    byte[] f = new byte[4 + 2 + 3 + 5 + nbytes];
    byte[] head = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x20, 5};
    System.arraycopy(head, 0, f, 0, head.length);
    int bh = ((5 + nbytes) << 3) | (2 << 1) | 1;
    f[6] = (byte) bh;
    f[7] = (byte) (bh >>> 8);
    f[8] = (byte) (bh >>> 16);
    byte[] block = {0x10, 'a', 'b', 1, 0};
    System.arraycopy(block, 0, f, 9, block.length);
    for (int i = 0; i < nbytes; i++) {
      f[14 + i] = (byte) (bits >>> (8 * i));
    }
    return f;
  }

  /** The state of a predefined table whose symbol has this value base and extra bits. */
  private static int state(long[] table, int base, int extra) {
    for (int u = 0; u < table.length; u++) {
      if ((int) table[u] == base && ((table[u] >>> 32) & 0xFF) == extra) {
        return u;
      }
    }
    throw new AssertionError("no state for base " + base);
  }

  @Test
  void handMadeSequences() throws IOException {
    // offset value 5 = 2^2 + 1: offset 2, an overlapping match: "ab" then "aba"
    assertEquals(null, decode(oneSequenceFrame(2, 1), 5, null, "ababa".getBytes(), "offset 2"));
    // offset value 8: offset 5, before the start of the 2 bytes decoded
    IOException e = decode(oneSequenceFrame(3, 0), 5, null, null, "offset 5");
    assertTrue(e != null && e.getMessage().contains("offset 5 points before the start"), String.valueOf(e));
    // the same with a raw-content dictionary of 3 bytes: the match starts in it
    assertEquals(null, decode(oneSequenceFrame(3, 0), 5, new ZstdDictionary("xyz".getBytes()), "abxyz".getBytes(),
        "offset 5 into a dictionary"));
    // offset value 1 is repeat offset 1 (= 1 at the start): "ab" then "bbb"
    assertEquals(null, decode(oneSequenceFrame(0, 0), 5, null, "abbbb".getBytes(), "repeat offset 1"));
    // offset value 3 (code 1, extra 1) is repeat offset 3 (= 8 at the start): before the start
    assertTrue(decode(oneSequenceFrame(1, 1), 5, null, null, "repeat offset 3") != null);
  }

  /** A window of frames made by the reference encoder and then concatenated with junk in between: refused. */
  @Test
  void junkBetweenFrames() throws IOException {
    byte[] a = ZstdTestData.make("text", 1000, 11);
    byte[] f = ZstdTestData.compress(a, 3, false, true, null);
    byte[] two = ZstdTestData.concat(f, new byte[] {1, 2, 3, 4, 5}, f);
    IOException e = decode(two, 2000, null, null, "junk");
    assertTrue(e != null && e.getMessage().contains("no frame magic"), String.valueOf(e));
  }
}
