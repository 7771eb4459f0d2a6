package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sequence loop's fast paths (all six fields read from one 64-bit container, 16-byte match copies, 8-byte
 * byte-run fills) and the 4-stream Huffman loop (4 symbols a stream gathered into one write), held to the input
 * on random data of many shapes compressed by the reference zstd (zstd-jni): byte runs of every length, matches
 * at distances 1 to 7, 8 to 15 and beyond with short, medium and long lengths, repeat offsets, long literal runs
 * (lengths with many extra bits), skewed literals in 1 and 4 Huffman streams, byte planes as Blosc writes them,
 * outputs that end right after a match or a few bytes after it. Damaged frames are refused with an IOException or
 * decode to the bytes aircompressor's decoder (an independent pure-Java zstd) gives, and never write outside the
 * output.
 */
class ZstdFastPathTest {
  /** Random data of mixed shapes, {@code size} bytes (the segments are cut off at the end). */
  static byte[] shapes(Random r, int size) {
    byte[] b = new byte[size];
    int i = 0;
    int lastDist = 1 + r.nextInt(20);
    while (i < size) {
      int kind = r.nextInt(10);
      int len;
      switch (kind) {
        case 0: { // literals, usually short, sometimes long (literal lengths with many extra bits)
          len = r.nextInt(8) == 0 ? r.nextInt(70_000) : r.nextInt(40);
          int alphabet = 1 + r.nextInt(r.nextBoolean() ? 16 : 256);
          for (int j = 0; j < len && i + j < size; j++) {
            b[i + j] = (byte) r.nextInt(alphabet);
          }
          break;
        }
        case 1: { // a run of one byte (offset 1), every length
          len = r.nextBoolean() ? 1 + r.nextInt(40) : 1 + r.nextInt(r.nextInt(4) == 0 ? 20_000 : 600);
          Arrays.fill(b, i, Math.min(size, i + len), (byte) r.nextInt(4));
          break;
        }
        case 2: // periodic data, period 2 to 7 (overlapping short offsets)
        case 3: { // or 8 to 40 (16-byte copies whose second read overlaps the first write)
          int period = kind == 2 ? 2 + r.nextInt(6) : 8 + r.nextInt(33);
          len = 3 + r.nextInt(r.nextBoolean() ? 14 : r.nextBoolean() ? 62 : 3000);
          for (int j = 0; j < period && i + j < size; j++) {
            b[i + j] = (byte) r.nextInt(256);
          }
          for (int j = period; j < len && i + j < size; j++) {
            b[i + j] = b[i + j - period];
          }
          break;
        }
        case 4:
        case 5: { // a copy of earlier data: a new distance or the last one (repeat offsets)
          int dist = r.nextInt(3) == 0 ? lastDist : 1 + r.nextInt(Math.max(1, Math.min(i, r.nextBoolean() ? 64 : 1 << 20)));
          if (dist > i) {
            len = 0;
            break;
          }
          lastDist = dist;
          len = 3 + r.nextInt(r.nextBoolean() ? 14 : r.nextBoolean() ? 62 : 2000);
          for (int j = 0; j < len && i + j < size; j++) {
            b[i + j] = b[i + j - dist];
          }
          break;
        }
        case 6: { // a byte plane of a smooth float64 series, as Blosc's shuffle leaves it
          len = 8 * (16 + r.nextInt(2000));
          int n = len / 8;
          double v = r.nextDouble() * 100;
          double step = r.nextDouble() * 1e-3;
          for (int j = 0; j < n; j++) {
            long bits = Double.doubleToLongBits(v + j * step);
            for (int k = 0; k < 8; k++) {
              int at = i + k * n + j;
              if (at < size) {
                b[at] = (byte) (bits >>> (8 * k));
              }
            }
          }
          break;
        }
        case 7: { // int16 counters, byte-shuffled
          len = 2 * (16 + r.nextInt(4000));
          int n = len / 2;
          int v = r.nextInt(60_000);
          for (int j = 0; j < n; j++) {
            v += r.nextInt(3);
            if (i + j < size) {
              b[i + j] = (byte) v;
            }
            if (i + n + j < size) {
              b[i + n + j] = (byte) (v >>> 8);
            }
          }
          break;
        }
        default: { // skewed random bytes (Huffman literals with short codes)
          len = r.nextInt(3000);
          for (int j = 0; j < len && i + j < size; j++) {
            b[i + j] = (byte) Math.min(255, (int) (-Math.log(1 - r.nextDouble()) * 3));
          }
        }
      }
      i += len;
    }
    return b;
  }

  /** Decodes into the middle of a larger array filled with a marker; checks the bytes and that nothing else changed. */
  private static void roundTrip(byte[] in, byte[] frame, int op, String what) throws IOException {
    byte[] out = new byte[op + in.length + 40];
    Arrays.fill(out, (byte) 0xA5);
    int n = new ZstdDecoder().decompress(frame, 0, frame.length, out, op, in.length);
    assertEquals(in.length, n, what);
    for (int i = 0; i < in.length; i++) {
      if (out[op + i] != in[i]) {
        fail(what + ": byte " + i + " of " + in.length + " is " + out[op + i] + ", expected " + in[i]);
      }
    }
    for (int i = 0; i < out.length; i++) {
      if ((i < op || i >= op + in.length) && out[i] != (byte) 0xA5) {
        fail(what + ": byte " + (i - op) + " outside the output was written");
      }
    }
    // an output array of exactly the size: the wide copies must stay inside it
    byte[] exact = new byte[in.length];
    new ZstdDecoder().decompress(frame, 0, frame.length, exact, 0, in.length);
    assertArrayEquals(in, exact, what + " (exact output array)");
  }

  @Test
  void randomShapesDecodeToTheirInput() throws IOException {
    Random r = new Random(17);
    int[] levels = {1, 3, 5, 9, 19};
    ZstdDecoder reused = new ZstdDecoder(); // one decoder for all frames, as a thread-local one would be
    for (int t = 0; t < 300; t++) {
      int size = r.nextInt(4) == 0 ? r.nextInt(200) : r.nextInt(r.nextInt(5) == 0 ? 400_000 : 40_000);
      byte[] in = shapes(r, size);
      int level = levels[r.nextInt(size > 100_000 ? 4 : 5)];
      byte[] frame = ZstdTestData.compress(in, level, r.nextBoolean(), r.nextBoolean(), null);
      String what = "shape " + t + " (" + size + " bytes, level " + level + ")";
      roundTrip(in, frame, r.nextInt(20), what);
      byte[] out = new byte[size];
      reused.decompress(frame, 0, frame.length, out, 0, size);
      assertArrayEquals(in, out, what + " (reused decoder)");
    }
  }

  @Test
  void outputsEndingAtEveryDistanceAfterAMatch() throws IOException {
    // a long match ends the data, then 0 to 40 literal bytes: the last sequences run into the end of the output,
    // where the fast path must hand over to the exact copies
    Random r = new Random(5);
    for (int tail = 0; tail <= 40; tail++) {
      for (int period : new int[] {1, 3, 8, 12, 16, 100}) {
        byte[] head = new byte[200 + r.nextInt(100)];
        r.nextBytes(head);
        int matchLen = 1 + r.nextInt(300);
        byte[] in = new byte[head.length + matchLen + tail];
        System.arraycopy(head, 0, in, 0, head.length);
        for (int i = head.length; i < head.length + matchLen; i++) {
          in[i] = in[i - period];
        }
        for (int i = head.length + matchLen; i < in.length; i++) {
          in[i] = (byte) r.nextInt(256);
        }
        for (int level : new int[] {1, 9}) {
          byte[] frame = ZstdTestData.compress(in, level, false, true, null);
          roundTrip(in, frame, 3, "tail " + tail + " period " + period + " level " + level);
        }
      }
    }
  }

  @Test
  void skewedLiteralsInOneAndFourHuffmanStreams() throws IOException {
    // no matches: compressed literals only, with sizes that split unevenly into 4 streams (and 1-stream sizes)
    Random r = new Random(23);
    for (int t = 0; t < 200; t++) {
      int size = t < 100 ? 1 + r.nextInt(1100) : 1000 + r.nextInt(130_000);
      double scale = 0.5 + r.nextDouble() * 20;
      byte[] in = new byte[size];
      for (int i = 0; i < size; i++) {
        in[i] = (byte) Math.min(255, (int) (-Math.log(1 - r.nextDouble()) * scale));
      }
      byte[] frame = ZstdTestData.compress(in, 1 + r.nextInt(9), false, true, null);
      roundTrip(in, frame, r.nextInt(9), "skewed literals " + t + " (" + size + " bytes)");
    }
  }

  /**
   * Blocks whose first sequence takes most of their Huffman-coded literals, as bit-shuffled data compresses: a long
   * run of skewed bytes (no match of 5 bytes or more is likely in it), then {@code matches} copies of earlier data
   * with short runs of literals between them, and {@code tail} literals at the end.
   */
  static byte[] longFirstRun(Random r, int run, int matches, int tail) {
    byte[] b = new byte[run + matches * 3000 + tail];
    int i = 0;
    for (; i < run; i++) {
      b[i] = (byte) Math.min(255, (int) (-Math.log(1 - r.nextDouble()) * 24));
    }
    for (int m = 0; m < matches; m++) {
      int lits = r.nextInt(20);
      for (int j = 0; j < lits; j++) {
        b[i++] = (byte) r.nextInt(256);
      }
      int len = 8 + r.nextInt(2000);
      int dist = 1 + r.nextInt(i - 1);
      for (int j = 0; j < len; j++, i++) {
        b[i] = b[i - dist];
      }
    }
    for (int j = 0; j < tail; j++) {
      b[i++] = (byte) Math.min(255, (int) (-Math.log(1 - r.nextDouble()) * 24));
    }
    return Arrays.copyOf(b, i);
  }

  @Test
  void longFirstLiteralRunsAreDecodedInPlace() throws IOException {
    // the first sequence's literals are Huffman-decoded straight into the output and the rest copied out (from 1 to
    // 4 Huffman streams, with 0 to 40 sequences and up to 3,000 literals after the last one); blocks of literals only
    // also go straight into the output
    Random r = new Random(41);
    ZstdDecoder reused = new ZstdDecoder();
    long expected = 0;
    for (int t = 0; t < 150; t++) {
      int run = t % 3 == 0 ? 2048 + r.nextInt(2048) : 2048 + r.nextInt(126_000);
      int matches = t % 5 == 0 ? r.nextInt(2) : r.nextInt(40);
      byte[] in = longFirstRun(r, run, matches, r.nextBoolean() ? 0 : r.nextInt(3000));
      byte[] frame = ZstdTestData.compress(in, 1 + r.nextInt(4), r.nextBoolean(), true, null);
      String what = "long first run " + t + " (" + run + " of " + in.length + " bytes)";
      roundTrip(in, frame, r.nextInt(20), what);
      byte[] out = new byte[in.length];
      long before = reused.literalsInPlace;
      reused.decompress(frame, 0, frame.length, out, 0, in.length);
      assertArrayEquals(in, out, what + " (reused decoder)");
      expected += Math.min(run, ZstdDecoder.BLOCK_MAX);
      assertTrue(reused.literalsInPlace - before <= in.length, what + ": " + (reused.literalsInPlace - before));
    }
    // most of the runs themselves (a match found inside one cuts it short, the next block starts another)
    assertTrue(reused.literalsInPlace > expected * 3 / 4, reused.literalsInPlace + " of " + expected);
  }

  @Test
  void damagedFramesAreRefusedOrDecodeAsAnotherDecoderDoes() {
    Random r = new Random(99);
    damaged(r, 60, () -> shapes(r, 500 + r.nextInt(30_000)), 1000, 20);
  }

  @Test
  void damagedFramesWithLongFirstRunsAreRefusedOrDecodeAsAnotherDecoderDoes() {
    Random r = new Random(43);
    damaged(r, 20, () -> longFirstRun(r, 2048 + r.nextInt(30_000), r.nextInt(10), r.nextInt(100)), 300, 10);
  }

  /**
   * Damages {@code frames} frames of {@code source}'s data 60 ways each (truncated or 1-4 bytes changed): each is
   * refused with an IOException or decodes to the bytes aircompressor gives, writing nothing outside the output.
   */
  private static void damaged(Random r, int frames, java.util.function.Supplier<byte[]> source, int minRefused,
      int minDecodedByBoth) {
    ZstdDecompressor air = new ZstdDecompressor();
    int decodedByBoth = 0;
    int refused = 0;
    for (int t = 0; t < frames; t++) {
      byte[] in = source.get();
      byte[] frame = ZstdTestData.compress(in, 1 + r.nextInt(9), false, r.nextBoolean(), null);
      for (int m = 0; m < 60; m++) {
        byte[] f;
        if (m % 6 == 0) {
          f = Arrays.copyOf(frame, r.nextInt(frame.length)); // truncated
        } else {
          f = frame.clone();
          int n = 1 + r.nextInt(4);
          for (int j = 0; j < n; j++) {
            int at = 4 + r.nextInt(f.length - 4); // the magic stays
            f[at] = r.nextBoolean() ? (byte) (f[at] ^ (1 << r.nextInt(8))) : (byte) r.nextInt(256);
          }
        }
        String what = "shape " + t + " damage " + m;
        int op = 7;
        byte[] out = new byte[op + in.length + 40];
        Arrays.fill(out, (byte) 0xA5);
        boolean ok;
        try {
          new ZstdDecoder().decompress(f, 0, f.length, out, op, in.length);
          ok = true;
        } catch (IOException e) {
          assertTrue(e.getMessage() != null && e.getMessage().startsWith("zstd"), what + ": " + e.getMessage());
          ok = false;
          refused++;
        } catch (Throwable e) {
          throw new AssertionError(what + ": " + e + " instead of an IOException", e);
        }
        for (int i = 0; i < out.length; i++) {
          if ((i < op || i >= op + in.length) && out[i] != (byte) 0xA5) {
            fail(what + ": byte " + (i - op) + " outside the output was written");
          }
        }
        if (ok) {
          byte[] ref = new byte[in.length];
          int n;
          try {
            n = air.decompress(f, 0, f.length, ref, 0, ref.length);
          } catch (RuntimeException e) {
            continue; // aircompressor refuses what we accept (it checks other things): nothing to compare
          }
          if (n == in.length) {
            decodedByBoth++;
            assertArrayEquals(ref, Arrays.copyOfRange(out, op, op + in.length), what + ": other bytes than aircompressor's");
          }
        }
      }
    }
    assertTrue(refused > minRefused, "refused " + refused);
    assertTrue(decodedByBoth > minDecodedByBoth, "only " + decodedByBoth + " damaged frames decoded by both decoders");
  }
}
