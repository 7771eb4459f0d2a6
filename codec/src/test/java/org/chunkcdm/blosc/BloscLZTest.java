package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The BloscLZ decoder (with its 8-byte literal and match copies) against a byte-at-a-time reference decoder written
 * here from the format description in {@link BloscLZ}, on random valid streams (short and long literal runs,
 * matches at every distance 1..9000 incl. the far form, periods 1..7, matches and runs that end at or near the end
 * of the output) and on mutated ones: the same bytes, or both refuse; nothing written outside the output range.
 */
class BloscLZTest {
  /** The plain definition: returns the decoded bytes, or null where the stream is invalid. */
  static byte[] reference(byte[] in, int ip, int inLen, int outLen) {
    Lz4ReferenceTest.Input r = new Lz4ReferenceTest.Input(in, ip, ip + inLen);
    int end = r.end;
    byte[] out = new byte[outLen];
    int op = 0;
    if (inLen <= 0) {
      return null;
    }
    int ctrl = in[r.ip++] & 31;
    while (true) {
      if (ctrl < 32) {
        int run = ctrl + 1;
        if (run > end - r.ip || run > outLen - op) {
          return null;
        }
        for (int i = 0; i < run; i++) {
          out[op++] = in[r.ip++];
        }
      } else {
        long ext = r.length((ctrl >> 5) - 1, 6);
        if (ext < 0) {
          return null;
        }
        int len = (int) ext;
        int ofs = (ctrl & 31) << 8;
        if (r.ip >= end) {
          return null;
        }
        int code = in[r.ip++] & 0xff;
        len += 3;
        int dist;
        if (code == 255 && ofs == (31 << 8)) {
          if (end - r.ip < 2) {
            return null;
          }
          dist = ((in[r.ip] & 0xff) << 8 | (in[r.ip + 1] & 0xff)) + 8192;
          r.ip += 2;
        } else {
          dist = ofs + code + 1;
        }
        if (dist > op || len > outLen - op) {
          return null;
        }
        for (int i = 0; i < len; i++, op++) {
          out[op] = out[op - dist];
        }
      }
      if (r.ip >= end) {
        break;
      }
      ctrl = in[r.ip++] & 0xff;
    }
    return op == outLen ? out : null;
  }

  /** A random valid stream of about {@code target} decoded bytes; returns the stream, its length is decoded. */
  static byte[] randomStream(Random r, int target, int[] decodedLen) {
    ByteArrayOutputStream s = new ByteArrayOutputStream();
    int op = 0;
    boolean first = true;
    while (op < target || first) {
      boolean literal = first || op == 0 || r.nextInt(3) == 0;
      if (literal) {
        int run = 1 + (r.nextInt(4) == 0 ? r.nextInt(32) : r.nextInt(4));
        s.write(run - 1); // the first instruction's high bits are ignored; keep them zero
        for (int i = 0; i < run; i++) {
          s.write(r.nextInt(4) == 0 ? r.nextInt(256) : 'a' + r.nextInt(3));
        }
        op += run;
      } else {
        int dist;
        switch (r.nextInt(4)) {
          case 0:
            dist = 1 + r.nextInt(Math.min(op, 7));
            break;
          case 1:
            dist = 1 + r.nextInt(Math.min(op, 32));
            break;
          default:
            dist = 1 + r.nextInt(Math.min(op, 9000));
            break;
        }
        int len = 3 + (r.nextInt(5) == 0 ? r.nextInt(600) : r.nextInt(20));
        int code = len - 3; // (ctrl >> 5) - 1 = min(code, 6), then extra bytes when 6
        int lenField = Math.min(code, 6);
        if (dist >= 8192) { // the far form: ofs 31 << 8, code 255, then v (big-endian): dist = v + 8192
          s.write((lenField + 1) << 5 | 31);
          writeLen(s, code, lenField);
          s.write(255);
          int v = dist - 8192;
          s.write(v >>> 8);
          s.write(v & 0xff);
        } else {
          int d = dist - 1; // ofs + code, at most 8190: never the far form's 31 << 8 | 255
          s.write((lenField + 1) << 5 | (d >>> 8));
          writeLen(s, code, lenField);
          s.write(d & 0xff);
        }
        op += len;
      }
      first = false;
    }
    decodedLen[0] = op;
    return s.toByteArray();
  }

  private static void writeLen(ByteArrayOutputStream s, int code, int lenField) {
    if (lenField == 6) {
      int rest = code - 6;
      while (rest >= 255) {
        s.write(255);
        rest -= 255;
      }
      s.write(rest);
    }
  }

  @Test
  void validStreamsDecodeAsTheReference() throws IOException {
    Random r = new Random(17);
    int checked = 0;
    for (int round = 0; round < 3000; round++) {
      int target = r.nextInt(5) == 0 ? r.nextInt(20_000) : r.nextInt(300);
      int[] n = new int[1];
      byte[] stream = randomStream(r, target, n);
      byte[] want = reference(stream, 0, stream.length, n[0]);
      assertTrue(want != null, "generator made an invalid stream in round " + round);
      int pad = r.nextInt(5);
      byte[] in = new byte[pad + stream.length + r.nextInt(3)];
      System.arraycopy(stream, 0, in, pad, stream.length);
      int op0 = r.nextInt(7);
      byte[] out = new byte[op0 + n[0] + r.nextInt(3)];
      r.nextBytes(out);
      byte[] guard = out.clone();
      BloscLZ.decode(in, pad, stream.length, out, op0, n[0]);
      assertArrayEquals(want, Arrays.copyOfRange(out, op0, op0 + n[0]), "round " + round);
      assertArrayEquals(Arrays.copyOf(guard, op0), Arrays.copyOf(out, op0));
      assertArrayEquals(Arrays.copyOfRange(guard, op0 + n[0], guard.length),
          Arrays.copyOfRange(out, op0 + n[0], out.length));
      checked++;
    }
    assertEquals(3000, checked);
  }

  @Test
  void mutatedStreamsGetTheReferenceVerdict() {
    Random r = new Random(23);
    int refused = 0;
    for (int round = 0; round < 4000; round++) {
      int[] n = new int[1];
      byte[] stream = randomStream(r, r.nextInt(2000), n);
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        stream[r.nextInt(stream.length)] = (byte) r.nextInt(256);
      }
      int outLen = r.nextInt(4) == 0 ? n[0] + r.nextInt(9) - 4 : n[0];
      if (outLen < 0) {
        outLen = 0;
      }
      if (r.nextInt(4) == 0) { // truncated
        stream = Arrays.copyOf(stream, r.nextInt(stream.length + 1));
      }
      byte[] want = reference(stream, 0, stream.length, outLen);
      byte[] out = new byte[outLen + 16];
      Arrays.fill(out, (byte) 0x5a);
      boolean ok;
      try {
        BloscLZ.decode(stream, 0, stream.length, out, 0, outLen);
        ok = true;
      } catch (IOException e) {
        ok = false;
        refused++;
      }
      assertEquals(want != null, ok, "round " + round);
      if (ok) {
        assertArrayEquals(want, Arrays.copyOf(out, outLen), "round " + round);
      }
      for (int i = outLen; i < out.length; i++) {
        assertEquals((byte) 0x5a, out[i], "wrote past the output in round " + round);
      }
    }
    assertTrue(refused > 100, "too few mutations were invalid: " + refused);
  }
}
