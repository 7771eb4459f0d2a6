package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The LZ4 decoder (its fast loop with 16-byte literal blocks, 3-word match copies and period patterns, and its
 * careful path) against a byte-at-a-time reference decoder written from the block format, on random valid streams
 * of many shapes and on mutated and truncated ones: the same bytes, or both refuse; only IOException; nothing
 * written outside the output range.
 */
class Lz4ReferenceTest {
  /** A read position in a stream, for the reference decoders. */
  static final class Input {
    final byte[] in;
    final int end;
    int ip;

    Input(byte[] in, int ip, int end) {
      this.in = in;
      this.ip = ip;
      this.end = end;
    }

    /**
     * {@code v}, plus the length extension that follows when {@code v == max} (bytes added up while they are 255, as
     * LZ4 and BloscLZ write long lengths); -1 when the input ends first.
     */
    long length(long v, long max) {
      if (v != max) {
        return v;
      }
      int b;
      do {
        if (ip >= end) {
          return -1;
        }
        b = in[ip++] & 0xff;
        v += b;
      } while (b == 255);
      return v;
    }
  }

  /** Byte-at-a-time decoder of the LZ4 block format with the same acceptance as {@link Lz4#decode}; null = refused. */
  static byte[] reference(byte[] in, int ip, int inLen, int outLen, byte[] dict) {
    Input r = new Input(in, ip, ip + inLen);
    int end = r.end;
    byte[] out = new byte[outLen];
    int op = 0;
    int dictLen = dict == null ? 0 : dict.length;
    while (true) {
      if (r.ip >= end) {
        return null;
      }
      int token = in[r.ip++] & 0xff;
      long lit = r.length(token >>> 4, 15);
      if (lit < 0 || lit > end - r.ip || lit > outLen - op) {
        return null;
      }
      for (int i = 0; i < lit; i++) {
        out[op++] = in[r.ip++];
      }
      if (r.ip == end) {
        return op == outLen ? out : null;
      }
      if (end - r.ip < 2) {
        return null;
      }
      int offset = (in[r.ip] & 0xff) | (in[r.ip + 1] & 0xff) << 8;
      r.ip += 2;
      long len = r.length(token & 15, 15);
      if (len < 0) {
        return null;
      }
      len += 4;
      if (offset == 0 || len > outLen - op || offset > op + dictLen) {
        return null;
      }
      for (int i = 0; i < len; i++, op++) {
        int from = op - offset;
        out[op] = from >= 0 ? out[from] : dict[dictLen + from];
      }
    }
  }

  /** Encodes sequences: literal counts and bytes, match offsets and lengths (the last one's match length ignored). */
  static final class Writer {
    final ByteArrayOutputStream s = new ByteArrayOutputStream();

    void sequence(byte[] lits, int offset, int len) {
      int litN = lits.length;
      int ml = len < 0 ? 0 : len - 4;
      s.write((Math.min(litN, 15) << 4) | Math.min(ml, 15));
      length(litN);
      s.write(lits, 0, litN);
      if (len >= 0) {
        s.write(offset & 0xff);
        s.write(offset >>> 8);
        length(ml);
      }
    }

    private void length(int n) {
      if (n >= 15) {
        n -= 15;
        while (n >= 255) {
          s.write(255);
          n -= 255;
        }
        s.write(n);
      }
    }
  }

  static int pickLength(Random r, boolean literal) {
    switch (r.nextInt(10)) {
      case 0:
        return (literal ? 0 : 4) + r.nextInt(600);
      case 1: { // around the 15 and 15 + 255 boundaries of the length fields
        int[] edge = {14, 15, 16, 17, 18, 19, 20, 268, 269, 270, 271, 272, 273, 274, 275, 524, 525, 526, 529, 530};
        int v = edge[r.nextInt(edge.length)];
        return literal ? v : Math.max(4, v + r.nextInt(5) - 2);
      }
      case 2:
        return (literal ? 0 : 4) + r.nextInt(40);
      default:
        return literal ? (r.nextInt(4) == 0 ? r.nextInt(16) : r.nextInt(4)) : 4 + r.nextInt(r.nextBoolean() ? 4 : 16);
    }
  }

  static int pickOffset(Random r, int avail) {
    int o;
    switch (r.nextInt(8)) {
      case 0:
        o = 1 + r.nextInt(7);
        break;
      case 1:
        o = 2;
        break;
      case 2:
        o = 8 + r.nextInt(24);
        break;
      case 3:
        o = avail; // reaching exactly the start of the history
        break;
      case 4:
        o = 1 + r.nextInt(65_535);
        break;
      default:
        o = 16 + r.nextInt(300);
    }
    return Math.max(1, Math.min(Math.min(o, avail), 65_535));
  }

  /** A random valid stream; returns {stream, decoded bytes}. */
  static byte[][] randomStream(Random r, int targetSize, byte[] dict) {
    Writer w = new Writer();
    byte[] out = new byte[targetSize + 2000];
    int op = 0;
    int dictLen = dict == null ? 0 : dict.length;
    int alphabet = 1 + r.nextInt(r.nextBoolean() ? 4 : 256);
    while (true) {
      int lit = pickLength(r, true);
      byte[] lits = new byte[lit];
      for (int i = 0; i < lit; i++) {
        lits[i] = (byte) r.nextInt(alphabet);
      }
      boolean last = op + lit >= targetSize || op + lit + dictLen == 0;
      if (last) {
        if (r.nextInt(4) == 0) {
          lits = new byte[0]; // output ending right after a match
        }
        w.sequence(lits, 0, -1);
        System.arraycopy(lits, 0, out, op, lits.length);
        op += lits.length;
        break;
      }
      System.arraycopy(lits, 0, out, op, lit);
      op += lit;
      int offset = pickOffset(r, op + dictLen);
      int len = Math.min(pickLength(r, false), Math.max(4, targetSize + 1000 - op));
      w.sequence(lits, offset, len);
      for (int i = 0; i < len; i++, op++) {
        int from = op - offset;
        out[op] = from >= 0 ? out[from] : dict[dictLen + from];
      }
    }
    return new byte[][] {w.s.toByteArray(), Arrays.copyOf(out, op)};
  }

  /** Decodes with {@link Lz4#decode} into a guarded output: null when refused (IOException). */
  static byte[] ours(byte[] stream, int outLen, byte[] dict, Random r) {
    int ip0 = r.nextInt(9);
    int op0 = r.nextInt(9);
    byte[] in = new byte[ip0 + stream.length + r.nextInt(40)];
    r.nextBytes(in);
    System.arraycopy(stream, 0, in, ip0, stream.length);
    byte[] out = new byte[op0 + outLen + r.nextInt(80)];
    Arrays.fill(out, (byte) 0x5b);
    try {
      Lz4.decode(in, ip0, stream.length, out, op0, outLen, dict);
    } catch (IOException e) {
      for (int i = 0; i < out.length; i++) {
        if ((i < op0 || i >= op0 + outLen) && out[i] != 0x5b) {
          fail("wrote byte " + i + " outside the output [" + op0 + ", " + (op0 + outLen) + ") before refusing");
        }
      }
      return null;
    } catch (RuntimeException e) {
      throw new AssertionError("not an IOException: " + e, e);
    }
    for (int i = 0; i < out.length; i++) {
      if ((i < op0 || i >= op0 + outLen) && out[i] != 0x5b) {
        fail("wrote byte " + i + " outside the output [" + op0 + ", " + (op0 + outLen) + ")");
      }
    }
    return Arrays.copyOfRange(out, op0, op0 + outLen);
  }

  @Test
  void randomValidStreamsMatchTheReference() {
    Random r = new Random(17);
    int fast = 0;
    for (int t = 0; t < 3000; t++) {
      int size = t % 50 == 0 ? 70_000 + r.nextInt(60_000) : r.nextInt(t % 3 == 0 ? 60 : 3000);
      byte[] dict = null;
      if (t % 7 == 0) {
        dict = new byte[1 + r.nextInt(t % 14 == 0 ? 70_000 : 300)];
        r.nextBytes(dict);
      }
      byte[][] s = randomStream(r, size, dict);
      byte[] want = reference(s[0], 0, s[0].length, s[1].length, dict);
      assertArrayEquals(s[1], want, "reference decoder disagrees with the writer, stream " + t);
      byte[] got = ours(s[0], s[1].length, dict, r);
      assertArrayEquals(want, got, "stream " + t + " (" + s[0].length + " bytes, decodes to " + s[1].length + ")");
      fast += s[1].length > 64 ? 1 : 0;
    }
    assertTrue(fast > 1000, "enough streams long enough for the fast loop: " + fast);
  }

  /** Every offset 1..65535 with match lengths around the copy widths, output ending right after the match. */
  @Test
  void everyOffsetAndShortLength() {
    Random r = new Random(5);
    for (int offset = 1; offset <= 65_535; offset += offset < 300 ? 1 : 1 + r.nextInt(600)) {
      for (int len : new int[] {4, 7, 8, 15, 16, 17, 18, 19, 23, 24, 25, 33, 40, 71}) {
        Writer w = new Writer();
        byte[] prefix = new byte[offset + r.nextInt(5)];
        r.nextBytes(prefix);
        w.sequence(prefix, offset, len);
        boolean tail = r.nextBoolean();
        byte[] lits = tail ? new byte[1 + r.nextInt(70)] : new byte[0];
        r.nextBytes(lits);
        w.sequence(lits, 0, -1);
        byte[] stream = w.s.toByteArray();
        int outLen = prefix.length + len + lits.length;
        byte[] want = reference(stream, 0, stream.length, outLen, null);
        assertArrayEquals(want, ours(stream, outLen, null, r), "offset " + offset + " length " + len);
        // one byte less or more output than the stream makes: both refuse
        assertEquals(null, ours(stream, outLen - 1, null, r));
        assertEquals(null, ours(stream, outLen + 1, null, r));
      }
    }
  }

  /**
   * The fast loop's match copy at short offsets (1-18: periods below 8 as a repeated first word and then words read
   * from the smallest multiple of the period that is at least 8 back, offsets 8-18 whose reads take bytes written by
   * the same match) at every margin to the end of the output and the input:
   * a history long enough for the offset, then the tested sequence (0, 3 or 14 literals in turn, match lengths 4-300:
   * around the 8-byte rounds, the unconditional 64-byte copy and the extended lengths), then a last sequence of
   * 0-120 literals, so that the match ends anywhere from right at the output's end to past the fast loop's 96-byte
   * room, and the stream ends 1-123 bytes after the match's fields. Each stream also decoded into one byte less and one byte more output (both
   * refuse), truncated at each of its last 24 bytes and with the match offset set to 0 and past the start of the
   * output (refused like the reference, nothing written outside the output).
   */
  @Test
  void shortOffsetsAtEveryMarginOfTheOutputAndInput() {
    Random r = new Random(18);
    int[] lens = {4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20, 23, 24, 25, 26, 31, 32, 33, 40, 47, 48, 49, 63,
        64, 65, 66, 71, 72, 73, 90, 270, 300};
    int cases = 0;
    for (int offset = 1; offset <= 18; offset++) {
      for (int len : lens) {
        for (int tail = 0; tail <= 120; tail += tail < 20 ? 1 : 5) {
          {
            int lit = new int[] {0, 3, 14}[(tail + len + offset) % 3];
            MatchCase m = matchCase(r, offset, len, lit, tail);
            byte[] stream = m.stream;
            int outLen = m.outLen;
            String what = m.what;
            assertArrayEquals(m.want, ours(stream, outLen, null, r), what);
            assertEquals(null, ours(stream, outLen - 1, null, r), what + ", one byte less output");
            assertEquals(null, ours(stream, outLen + 1, null, r), what + ", one byte more output");
            for (int cut = Math.max(0, stream.length - 24); cut < stream.length; cut++) {
              byte[] t = Arrays.copyOf(stream, cut);
              assertEquals(null, reference(t, 0, t.length, outLen, null));
              assertEquals(null, ours(t, outLen, null, r), what + ", truncated to " + cut + " bytes");
            }
            // the tested sequence's offset field: 0, and one byte further back than the output's start
            int ext = m.history >= 15 ? (m.history - 15) / 255 + 1 : 0; // literal length bytes
            int at = 1 + ext + m.history + 2 + 1 + lit; // first sequence (match length 4: no bytes), token, lits
            assertEquals(offset, (stream[at] & 0xff) | (stream[at + 1] & 0xff) << 8, what + ": offset field found");
            int back = m.history + 4 + lit;
            for (int bad : new int[] {0, back + 1}) {
              byte[] c = stream.clone();
              c[at] = (byte) bad;
              c[at + 1] = (byte) (bad >>> 8);
              assertEquals(null, reference(c, 0, c.length, outLen, null));
              assertEquals(null, ours(c, outLen, null, r), what + ", offset " + bad);
            }
            cases++;
          }
        }
      }
    }
    assertTrue(cases > 15_000, "cases: " + cases);
  }

  /** A stream of three sequences around one tested match, its output length and the reference decode of it. */
  private static final class MatchCase {
    byte[] stream;
    int history; // bytes before the first match
    int outLen;
    byte[] want;
    String what;
  }

  /**
   * A history long enough for {@code offset} (a few distinct values, as in shuffled planes) closed by a 4-byte
   * match, then {@code lit} literals and the tested match ({@code offset}, {@code len}), then {@code tail} last
   * literals; the reference decodes it (asserted valid).
   */
  private static MatchCase matchCase(Random r, int offset, int len, int lit, int tail) {
    Writer w = new Writer();
    byte[] history = new byte[offset + r.nextInt(3) + (r.nextBoolean() ? 0 : 40)];
    for (int i = 0; i < history.length; i++) {
      history[i] = (byte) r.nextInt(r.nextBoolean() ? 3 : 256);
    }
    w.sequence(history, 1 + r.nextInt(Math.min(offset, history.length)), 4);
    byte[] lits = new byte[lit];
    r.nextBytes(lits);
    w.sequence(lits, offset, len);
    byte[] last = new byte[tail];
    r.nextBytes(last);
    w.sequence(last, 0, -1);
    MatchCase m = new MatchCase();
    m.stream = w.s.toByteArray();
    m.history = history.length;
    m.outLen = history.length + 4 + lit + len + tail;
    m.want = reference(m.stream, 0, m.stream.length, m.outLen, null);
    assertTrue(m.want != null, "a valid stream");
    m.what = "offset " + offset + " length " + len + " literals " + lit + " tail " + tail;
    return m;
  }

  /** The long-match loop form this run tests: the uncounted form from Java 25 on (CI runs Java 17 and 25). */
  @Test
  void longMatchLoopFormIsTheConfiguredOne() {
    boolean want = Runtime.version().feature() >= 25;
    assertEquals(want, Lz4.uncountedMatchLoops(), "uncounted long-match loops on Java " + Runtime.version());
  }

  /**
   * The fast loop's matches past 24 bytes (five more words, then rounds of 64 bytes of the pattern word for periods 1,
   * 2 and 4 and rounds of 32 bytes read back for every other offset, which need the match length + 64 bytes of
   * output room): offsets 1-40 and a few far ones, every match length 19-140 and longer ones past the round
   * boundaries, 0, 3 or 14 literals before, and a last run of 0-100 literals, so that the match ends at every
   * distance from the output's end around the 64-byte room (and the careful path takes the match when the room is
   * short). Each stream decoded exactly, into 1-6 bytes less and one byte more output (all refuse) and truncated at
   * each of its last 4 bytes, against the byte-at-a-time reference; nothing written outside the output.
   */
  @Test
  void longMatchesAtEveryMarginOfTheOutputAndInput() {
    Random r = new Random(64);
    int[] offsets = new int[48];
    for (int i = 0; i < 40; i++) {
      offsets[i] = i + 1;
    }
    System.arraycopy(new int[] {63, 64, 65, 96, 127, 128, 300, 5000}, 0, offsets, 40, 8);
    int[] more = {159, 160, 161, 191, 192, 193, 255, 256, 257, 270, 271, 300, 525, 1000, 1031};
    int cases = 0;
    int fast = 0;
    for (int offset : offsets) {
      for (int k = 0; k < 122 + more.length; k++) {
        int len = k < 122 ? 19 + k : more[k - 122];
        for (int j = 0; j < 3; j++) {
          int tail = (len * 7 + offset * 5 + j * 34) % 101;
          int lit = new int[] {0, 3, 14}[(len + offset + j) % 3];
          MatchCase m = matchCase(r, offset, len, lit, tail);
          byte[] stream = m.stream;
          int outLen = m.outLen;
          String what = m.what;
          assertArrayEquals(m.want, ours(stream, outLen, null, r), what);
          assertEquals(null, ours(stream, outLen + 1, null, r), what + ", one byte more output");
          for (int less = 1; less <= 6; less++) {
            assertEquals(null, ours(stream, outLen - less, null, r), what + ", " + less + " bytes less output");
          }
          for (int cut = Math.max(0, stream.length - 4); cut < stream.length; cut++) {
            byte[] t = Arrays.copyOf(stream, cut);
            assertEquals(null, ours(t, outLen, null, r), what + ", truncated to " + cut + " bytes");
          }
          cases++;
          fast += tail >= 64 ? 1 : 0;
        }
      }
    }
    assertTrue(cases > 19_000 && fast > 6_000, "cases: " + cases + ", with room for the fast loop: " + fast);
  }

  /**
   * The careful path's literal runs of 15 or more (copied 32 bytes a round up to 128 literals when 32 bytes of room
   * follow them in the input and the output, else 8 bytes a round or by arraycopy): every run length 15-140 and a few
   * past 255, each followed by a match (offset 2, 9 or far, length 4 or 20) and a last run of 0-40 literals, so that
   * the run ends at every distance from the 32-byte room in the output and the input; also the run as the stream's
   * last sequence. Each stream decoded exactly, into 1-40 bytes less and one byte more output (all refuse), and
   * truncated at each of its last 8 bytes; nothing written outside the output.
   */
  @Test
  void longLiteralRunsAtEveryMarginOfTheOutputAndInput() {
    Random r = new Random(15);
    int cases = 0;
    for (int lit = 15; lit <= 300; lit += lit < 140 ? 1 : 29) {
      for (int tail = 0; tail <= 40; tail++) {
        int offset = new int[] {2, 9, 40 + r.nextInt(60)}[(lit + tail) % 3];
        int len = (lit + tail) % 2 == 0 ? 4 : 20;
        boolean lastRun = tail == 40; // the long run as the last sequence, after a short history
        Writer w = new Writer();
        byte[] history = new byte[100];
        r.nextBytes(history);
        w.sequence(history, 1 + r.nextInt(100), 4);
        byte[] lits = new byte[lit];
        r.nextBytes(lits);
        byte[] last = new byte[lastRun ? 0 : tail];
        r.nextBytes(last);
        if (lastRun) {
          w.sequence(lits, 0, -1);
        } else {
          w.sequence(lits, offset, len);
          w.sequence(last, 0, -1);
        }
        byte[] stream = w.s.toByteArray();
        int outLen = history.length + 4 + lit + (lastRun ? 0 : len + tail);
        byte[] want = reference(stream, 0, stream.length, outLen, null);
        assertTrue(want != null, "a valid stream");
        String what = lit + " literals, offset " + offset + " length " + len + (lastRun ? ", last" : ", tail " + tail);
        assertArrayEquals(want, ours(stream, outLen, null, r), what);
        assertEquals(null, ours(stream, outLen + 1, null, r), what + ", one byte more output");
        // 1 to 40 bytes less output: the run then ends at every distance from the output's end (in a valid stream
        // the input's end is always nearer), and the decoder refuses without writing past the smaller output
        for (int less = 1; less <= 40 && less <= outLen; less++) {
          assertEquals(null, ours(stream, outLen - less, null, r), what + ", " + less + " bytes less output");
        }
        for (int cut = Math.max(0, stream.length - 8); cut < stream.length; cut++) {
          byte[] t = Arrays.copyOf(stream, cut);
          assertEquals(null, reference(t, 0, t.length, outLen, null));
          assertEquals(null, ours(t, outLen, null, r), what + ", truncated to " + cut + " bytes");
        }
        cases++;
      }
    }
    assertTrue(cases > 5_000, "cases: " + cases);
  }

  @Test
  void mutatedAndTruncatedStreamsAgreeWithTheReference() {
    Random r = new Random(99);
    int refused = 0;
    int decoded = 0;
    for (int t = 0; t < 6000; t++) {
      byte[] dict = null;
      if (t % 5 == 0) {
        dict = new byte[1 + r.nextInt(100)];
        r.nextBytes(dict);
      }
      byte[][] s = randomStream(r, r.nextInt(t % 2 == 0 ? 200 : 2000), dict);
      byte[] stream = s[0].clone();
      int outLen = s[1].length;
      switch (t % 4) {
        case 0: // truncated
          stream = Arrays.copyOf(stream, r.nextInt(stream.length + 1));
          break;
        case 1: // other output length
          outLen = Math.max(0, outLen + r.nextInt(41) - 20);
          break;
        default: // 1-3 bytes changed
          for (int k = 1 + r.nextInt(3); k > 0 && stream.length > 0; k--) {
            int at = r.nextInt(stream.length);
            stream[at] = (byte) (r.nextInt(3) == 0 ? 0xff : r.nextInt(3) == 0 ? stream[at] ^ 0xf0 : r.nextInt(256));
          }
      }
      byte[] want = reference(stream, 0, stream.length, outLen, dict);
      byte[] got = ours(stream, outLen, dict, r);
      assertArrayEquals(want, got, "mutated stream " + t);
      if (want == null) {
        refused++;
      } else {
        decoded++;
      }
    }
    assertTrue(refused > 1000 && decoded > 300, "mix of refused " + refused + " and decoded " + decoded);
  }
}
