package org.chunkcdm.blosc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * LZ4 block decoder (the raw block format, no LZ4 frame) with an optional prefix dictionary, as c-blosc2 uses
 * it for LZ4 and LZ4HC streams. A block is a sequence of sequences: a token (high nibble literal count, low
 * nibble match length - 4; 15 means "add the following bytes up to and including the first one that is not
 * 255"), the literals, then a 2-byte little-endian match offset (never 0). The last sequence has literals only.
 * A match may reach back past the start of the output into the end of the dictionary.
 */
public final class Lz4 {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

  /** Literal runs and matches up to this length are copied 8 bytes at a time, longer ones by arraycopy. */
  private static final int WILD = 64;

  /** The careful path copies literal runs up to this length 32 bytes at a time, longer ones by arraycopy. */
  private static final int LONG_LITERALS = 128;

  /** For offsets 1..7: the smallest multiple of the offset that is at least 8; [8] = 8 (any offset from 8 up). */
  private static final int[] PERIOD = {0, 8, 8, 9, 8, 10, 12, 14, 8};

  /** For periods 1..7: the low {@code period} bytes of a little-endian word; [8]: all of it. */
  private static final long[] MASK = {0, 0xffL, 0xffffL, 0xffffffL, 0xffffffffL, 0xffffffffffL, 0xffffffffffffL,
      0xffffffffffffffL, -1L};

  /**
   * For periods 1..7: a 1 at every multiple of the period's bits, so that the masked bytes times it repeat;
   * [8] = 1 (the word as read).
   */
  private static final long[] REPEAT = {0, 0x0101010101010101L, 0x0001000100010001L, 0x0001000001000001L,
      0x0000000100000001L, 0x0000010000000001L, 0x0001000000000001L, 0x0100000000000001L, 1L};

  /**
   * 1 where the long-match loops of {@link #decode} ({@link #patternRun}, {@link #farRun}) run with a stride that the
   * JIT cannot prove constant, 0 where it can. With a constant stride C2 makes them counted loops. Then Java 25's C2 compiles the whole fast loop so that
   * the benchmark's LZ4 streams decode 9-21% slower than with uncounted loops, and Java 17's so that its typesize-4
   * and -8 streams decode 7-9% faster (typesize 2: 2-4% slower). The stride is {@code 64 | (len >>> 31 & UNCOUNTED)},
   * which is 64 either way since len is positive; with 0 the term folds away and Java 17 runs the code it ran before.
   * On from Java 25, the newest JDK measured; Java 18-24 keep the counted loops (not measured). CI runs every test on
   * Java 17 and Java 25, so both forms are tested.
   */
  private static final int UNCOUNTED = Runtime.version().feature() >= 25 ? 1 : 0;

  /**
   * Whether the fast loop copies a match from 8 or more bytes back as plain words before it turns to the one
   * branch-free code for every offset. Measured single-threaded on LZ4 streams of unshuffled float64 (the HDF5 LZ4
   * filter's) and on Blosc's typesize-4 and -8 split streams: Java 17 decodes them 1-13% faster with that branch,
   * Java 25 13-22% slower. On below Java 25 (Java 18-24 not measured); CI runs every test on Java 17 and 25, so both
   * forms are tested.
   */
  private static final boolean FAR_FIRST = Runtime.version().feature() < 25;

  private Lz4() {}

  /** Whether {@link #decode}'s long-match loops take the uncounted form (see {@code UNCOUNTED}); for tests. */
  static boolean uncountedMatchLoops() {
    return UNCOUNTED == 1;
  }

  /**
   * Decodes {@code in[ip0..ip0+inLen)} into exactly {@code outLen} bytes at {@code out[op0..]}; {@code dict}
   * (may be null) is the history that precedes the output. Never writes outside {@code out[op0..op0+outLen)}.
   *
   * <p>Two loops. The fast loop takes a sequence only while the input has 20 bytes and the output 96 bytes of room
   * past its start, so that the literals can be copied as one or two 8-byte words (the second for more than 8) and
   * the match as two 8-byte words, three past 16 bytes (eight past 24, more in a loop only past 64: rounds of 64
   * bytes of a period-1/2/4 pattern word, of 32 bytes otherwise, so a match of 19 or more bytes needs its length + 64
   * bytes of room) without a check per field; a sequence it cannot take (a literal run of 15 or more, a match reaching into the dictionary or before the output, a long match near the output's end) goes
   * to {@link #sequence}, which checks every field, and the fast loop resumes after it. The careful path is a
   * separate method so that the fast loop keeps its few values in registers (measured: with both in one method
   * the JIT kept the output position and the limits on the stack).
   */
  public static void decode(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen, byte[] dict)
      throws IOException {
    decode(in, ip0, inLen, out, op0, outLen, outLen, dict);
  }

  /**
   * As {@link #decode(byte[], int, int, byte[], int, int, byte[])}, but stops once at least the first {@code need}
   * bytes of the output are final (a point read in a stream): the bytes after them may be written or not, and the
   * input is checked as far as it was decoded. With {@code need >= outLen}, the whole stream, checked to its end.
   *
   * <p>The fast loop's match: one code for every offset, without a branch on it (below Java 25 after a branch for
   * offsets of 8 or more, {@code FAR_FIRST}): at typesize 8 a quarter of the sequences have period 2 and most others a
   * far offset, and removing the branch between them made the typesize-8 streams 8-18% faster ({@code
   * Lz4SequenceBench}). With m = min(offset, 8): the first word is the 8-byte read at the match start, of which the
   * low m bytes are kept and repeated (MASK[8] keeps all 8, REPEAT[8] = 1); word k >= 1 is read p = max(PERIOD[m],
   * offset) bytes before it, which is the match source itself for offset >= 8 and, for a period below 8, the
   * smallest multiple of it that is at least 8, so the read ends before the write it feeds and starts at or after the
   * match source (nop + 8 - p >= nop - offset): every byte read is final and repeats with the period. A match past 24
   * bytes gets 40 more bytes unconditionally (the 96 bytes of room allow it) and only a longer one a loop: measured
   * 2-9% faster on the typesize-8 and -2 streams than the loop from 24, whose exit at a varying round the branch
   * predictor misses.
   */
  static void decode(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen, int need, byte[] dict)
      throws IOException {
    decodeFrom(in, ip0, inLen, ip0, out, op0, outLen, op0, need, dict);
  }

  /** Receives the output of {@link #decodeInSteps} as it becomes final. */
  public interface Progress {
    /** The output bytes from {@code from} to {@code to} (relative to the output's start) are final. */
    void done(int from, int to) throws IOException;
  }

  /**
   * As {@link #decode(byte[], int, int, byte[], int, int, byte[])}, but tells {@code progress} about every stretch of
   * about {@code step} bytes of output as soon as it is final (each byte once, in order, the last call ending at
   * {@code outLen}), so that a caller can copy it on while it is still in the CPU cache.
   */
  public static void decodeInSteps(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen, byte[] dict,
      int step, Progress progress) throws IOException {
    Objects.checkFromIndexSize(ip0, inLen, in.length);
    Objects.checkFromIndexSize(op0, outLen, out.length);
    if (step <= 0) {
      throw new IllegalArgumentException("step " + step);
    }
    int ip = ip0;
    int done = 0;
    while (true) {
      int need = (int) Math.min(outLen, (long) done + step);
      long next = decodeFrom(in, ip0, inLen, ip, out, op0, outLen, op0 + done, need, dict);
      if (next < 0) {
        progress.done(done, outLen);
        return;
      }
      ip = (int) (next >>> 32);
      int now = (int) next - op0;
      progress.done(done, now);
      done = now;
    }
  }

  /**
   * The decode loop, from input position {@code ip} and output position {@code op} (the end of a sequence decoded
   * before, or the starts): returns -1 once the whole output is decoded and checked, else, when it stopped because
   * the first {@code need} bytes are final, the positions after the last sequence it decoded ({@code ip << 32 | op}).
   */
  private static long decodeFrom(byte[] in, int ip0, int inLen, int ipStart, byte[] out, int op0, int outLen,
      int opStart, int need, byte[] dict) throws IOException {
    int ip = ipStart;
    int op = opStart;
    final int ipEnd = ip0 + inLen;
    final int opEnd = op0 + outLen;
    final int opStop = need < outLen ? op0 + Math.max(need, 0) : Integer.MAX_VALUE;
    final int ipLimit = ipEnd - 20;
    final int opLimit = Math.min(opEnd - 96, opStop);
    while (true) {
      while (ip < ipLimit && op < opLimit) {
        int token = in[ip] & 0xff;
        if (token >= 0xf0) { // 15 or more literals
          break;
        }
        int lit = token >>> 4;
        int mp = ip + 1 + lit; // the match offset: ip + 16 at most, inside the input
        int offset = (short) SHORT.get(in, mp) & 0xffff;
        int nop = op + lit;
        if (offset == 0 || offset > nop - op0) { // refused or taken from the dictionary by the careful path
          break;
        }
        int len = token & 15;
        int np = mp + 2;
        if (len == 15) {
          int b;
          do {
            if (np >= ipEnd) {
              throw corrupt("match length passes the end of the input", nop - op0, outLen);
            }
            b = in[np++] & 0xff;
            len += b;
          } while (b == 255 && len <= outLen);
          if (len + 4 + 64 > opEnd - nop) { // the rounds below write up to 63 bytes past the match
            break;
          }
        }
        len += 4;
        // literals (at most 14) as one or two words: reads end 3 bytes before ipEnd, writes 80 before opEnd; most
        // sequences have 0 or 1 literal, and copying the second word only when needed made the LZ4 filter's
        // unshuffled float64 streams 2-3% faster (Lz4FileBench), Blosc's LZ4 streams within noise
        LONG.set(out, op, (long) LONG.get(in, ip + 1));
        if (lit > 8) {
          LONG.set(out, op + 8, (long) LONG.get(in, ip + 9));
        }
        ip = np;
        if (FAR_FIRST && offset >= 8) { // the words at the match source, read after the writes they may overlap
          int src = nop - offset;
          LONG.set(out, nop, (long) LONG.get(out, src));
          LONG.set(out, nop + 8, (long) LONG.get(out, src + 8));
          if (len > 16) { // the third word only when needed: unshuffled float64 streams 3-5% faster (Lz4FileBench)
            LONG.set(out, nop + 16, (long) LONG.get(out, src + 16));
            if (len > 24) {
              farRun(out, nop, src, len);
            }
          }
          op = nop + len;
          continue;
        }
        int m = Math.min(offset, 8);
        long w = ((long) LONG.get(out, nop - offset) & MASK[m]) * REPEAT[m];
        int src = nop - Math.max(PERIOD[m], offset);
        LONG.set(out, nop, w);
        LONG.set(out, nop + 8, (long) LONG.get(out, src + 8));
        if (len > 16) { // as above: Java 25 decodes the unshuffled float64 streams 4% faster, Blosc's within noise
          LONG.set(out, nop + 16, (long) LONG.get(out, src + 16));
          if (len > 24) {
            if ((0x16 >>> m & 1) != 0) {
              patternRun(out, nop, w, len);
            } else {
              farRun(out, nop, src, len);
            }
          }
        }
        op = nop + len;
      }
      if (op >= opStop) {
        return (long) ip << 32 | (op & 0xffffffffL);
      }
      long next = sequence(in, ip, ipEnd, out, op, op0, outLen, dict);
      if (next < 0) {
        return -1;
      }
      ip = (int) (next >>> 32);
      op = (int) next;
    }
  }

  /**
   * One sequence at {@code in[ip]}, every field checked: returns the positions after it ({@code ip << 32 | op}),
   * or -1 when it was the last sequence and the output is complete.
   */
  private static long sequence(byte[] in, int ip, int ipEnd, byte[] out, int op, int op0, int outLen, byte[] dict)
      throws IOException {
    final int opEnd = op0 + outLen;
    if (ip >= ipEnd) {
      throw corrupt("ends before its last literals", op - op0, outLen);
    }
    int token = in[ip++] & 0xff;
    int lit = token >>> 4;
    if (lit == 15) {
      int b;
      do {
        if (ip >= ipEnd) {
          throw corrupt("literal length passes the end of the input", op - op0, outLen);
        }
        b = in[ip++] & 0xff;
        lit += b;
      } while (b == 255 && lit <= outLen);
    }
    if (lit <= LONG_LITERALS && lit <= ipEnd - 32 - ip && lit <= opEnd - 32 - op) {
      // the long literal runs the fast loop hands over (a fifth of the typesize-4 streams' time): 32 bytes a round,
      // up to 31 bytes past the literals, still inside the input and the output; measured 3-4% faster on the
      // typesize-4 shuffle and typesize-2 bitshuffle streams than the 8-byte rounds and arraycopy past 64 bytes
      int i = 0;
      do {
        LONG.set(out, op + i, (long) LONG.get(in, ip + i));
        LONG.set(out, op + i + 8, (long) LONG.get(in, ip + i + 8));
        LONG.set(out, op + i + 16, (long) LONG.get(in, ip + i + 16));
        LONG.set(out, op + i + 24, (long) LONG.get(in, ip + i + 24));
        i += 32;
      } while (i < lit);
    } else if (lit <= WILD && lit <= ipEnd - 8 - ip && lit <= opEnd - 8 - op) {
      // 8 bytes at a time, up to 7 bytes past the literals: still inside the input and the output
      wideCopy(in, ip, out, op, lit);
    } else {
      if (lit > ipEnd - ip) {
        throw corrupt(lit + " literals pass the end of the input", op - op0, outLen);
      }
      if (lit > opEnd - op) {
        throw corrupt("decodes to more than the expected bytes", op - op0, outLen);
      }
      System.arraycopy(in, ip, out, op, lit);
    }
    ip += lit;
    op += lit;
    if (ip == ipEnd) {
      if (op != opEnd) {
        throw corrupt("ends early", op - op0, outLen);
      }
      return -1;
    }
    return match(in, ip, ipEnd, out, op, op0, outLen, dict, token & 15);
  }

  /**
   * The match of a sequence checked by {@link #sequence} (its offset at {@code in[ip]}, {@code len} its token's low
   * nibble), every field checked: returns the positions after it ({@code ip << 32 | op}).
   */
  private static long match(byte[] in, int ip, int ipEnd, byte[] out, int op, int op0, int outLen, byte[] dict,
      int len) throws IOException {
    final int opEnd = op0 + outLen;
    if (ip > ipEnd - 2) {
      throw corrupt("match offset passes the end of the input", op - op0, outLen);
    }
    int offset = (in[ip] & 0xff) | (in[ip + 1] & 0xff) << 8;
    ip += 2;
    if (len == 15) {
      int b;
      do {
        if (ip >= ipEnd) {
          throw corrupt("match length passes the end of the input", op - op0, outLen);
        }
        b = in[ip++] & 0xff;
        len += b;
      } while (b == 255 && len <= outLen);
    }
    len += 4;
    if (offset == 0) {
      throw corrupt("match offset 0", op - op0, outLen);
    }
    if (len > opEnd - op) {
      throw corrupt("decodes to more than the expected bytes", op - op0, outLen);
    }
    if (offset > op - op0) { // the match starts in the dictionary
      op = dictionaryMatch(out, op, op0, outLen, dict, offset, len);
    } else if (len <= opEnd - 16 - op && (len <= WILD || offset < len)) {
      wideMatch(out, op, offset, len);
      op += len;
    } else {
      copyMatch(out, op - offset, op, len);
      op += len;
    }
    return (long) ip << 32 | (op & 0xffffffffL);
  }

  /**
   * A match of {@code len} bytes (room checked) at {@code out[op..]} that starts {@code offset} bytes back, in the
   * dictionary before the output: returns the output position after it.
   */
  private static int dictionaryMatch(byte[] out, int op, int op0, int outLen, byte[] dict, int offset, int len)
      throws IOException {
    int back = op - op0;
    int fromDict = offset - back;
    if (dict == null || fromDict > dict.length) {
      throw corrupt("match offset " + offset + " reaches before the start of the output"
          + (dict == null ? "" : " and its " + dict.length + "-byte dictionary"), back, outLen);
    }
    int n = Math.min(len, fromDict);
    System.arraycopy(dict, dict.length - fromDict, out, op, n);
    op += n;
    len -= n;
    if (len > 0) {
      copyMatch(out, op0, op, len);
      op += len;
    }
    return op;
  }

  /**
   * The rest of a match of {@code len > 24} bytes at {@code out[nop..]} with period 1, 2 or 4 from byte 24 on: every
   * word is {@code w}, written from the register (read back from the word just written, as for the other offsets,
   * each round waited for the store before it; these long pattern runs hold a third of the typesize-4 streams'
   * bytes, avg. ~1,000-byte runs of period 2; measured 2-20% faster on the lz4 streams, with the 32-byte rounds of
   * {@link #farRun}). Writes up to 63 bytes past the match: the fast loop checked the room.
   */
  private static void patternRun(byte[] out, int nop, long w, int len) {
    LONG.set(out, nop + 24, w);
    LONG.set(out, nop + 32, w);
    LONG.set(out, nop + 40, w);
    LONG.set(out, nop + 48, w);
    LONG.set(out, nop + 56, w);
    final int step = 64 | (len >>> 31 & UNCOUNTED); // 64: see UNCOUNTED
    for (int i = 64; i < len; i += step) {
      LONG.set(out, nop + i, w);
      LONG.set(out, nop + i + 8, w);
      LONG.set(out, nop + i + 16, w);
      LONG.set(out, nop + i + 24, w);
      LONG.set(out, nop + i + 32, w);
      LONG.set(out, nop + i + 40, w);
      LONG.set(out, nop + i + 48, w);
      LONG.set(out, nop + i + 56, w);
    }
  }

  /**
   * The rest of a match of {@code len > 24} bytes at {@code out[nop..]} of any other offset from byte 24 on, each
   * word read from {@code src} = {@code nop - max(PERIOD[min(offset, 8)], offset)} on (see {@link #decode}): 32
   * bytes a round past 64 (up to 31 past the match), each read ending in bytes written before it.
   */
  private static void farRun(byte[] out, int nop, int src, int len) {
    LONG.set(out, nop + 24, (long) LONG.get(out, src + 24));
    LONG.set(out, nop + 32, (long) LONG.get(out, src + 32));
    LONG.set(out, nop + 40, (long) LONG.get(out, src + 40));
    LONG.set(out, nop + 48, (long) LONG.get(out, src + 48));
    LONG.set(out, nop + 56, (long) LONG.get(out, src + 56));
    final int step = 32 | (len >>> 31 & UNCOUNTED); // 32: see UNCOUNTED
    for (int i = 64; i < len; i += step) {
      LONG.set(out, nop + i, (long) LONG.get(out, src + i));
      LONG.set(out, nop + i + 8, (long) LONG.get(out, src + i + 8));
      LONG.set(out, nop + i + 16, (long) LONG.get(out, src + i + 16));
      LONG.set(out, nop + i + 24, (long) LONG.get(out, src + i + 24));
    }
  }

  /**
   * An LZ match of {@code len >= 1} bytes at distance {@code offset >= 1} ({@code out[op - offset]} already
   * written) copied with 8-byte reads and writes; may write up to 15 bytes past the match, which the caller
   * guarantees lie inside the output. Every read lies in bytes already final. Also used by BloscLZ, Inflate and
   * the zstd decoder (public for that package only; not an API for callers outside core).
   */
  public static void wideMatch(byte[] out, int op, int offset, int len) {
    int ref = op - offset;
    if (offset >= 8) {
      // 16 bytes a round: with offset >= 8 the second read ends in the bytes the first write made
      int i = 0;
      do {
        LONG.set(out, op + i, (long) LONG.get(out, ref + i));
        LONG.set(out, op + i + 8, (long) LONG.get(out, ref + i + 8));
        i += 16;
      } while (i < len);
    } else if ((offset & (offset - 1)) == 0) {
      // period 1, 2 or 4: one 8-byte pattern repeats
      long v = (long) LONG.get(out, ref);
      v = offset == 1 ? (v & 0xffL) * 0x0101010101010101L
          : offset == 2 ? (v & 0xffffL) * 0x0001000100010001L : (v & 0xffffffffL) * 0x0000000100000001L;
      int i = 0;
      do {
        LONG.set(out, op + i, v);
        i += 8;
      } while (i < len);
    } else {
      // period 3, 5, 6, 7: 8 bytes one by one (a fixed count the JIT unrolls), then 8 at a time from a whole
      // multiple of the period back, which lies in bytes already final
      int period = PERIOD[offset];
      for (int i = 0; i < 8; i++) {
        out[op + i] = out[ref + i];
      }
      for (int i = 8; i < len; i += 8) {
        LONG.set(out, op + i, (long) LONG.get(out, op + i - period));
      }
    }
  }

  /**
   * Copies {@code len} bytes from {@code in[ip..]} to {@code out[op..]} 8 bytes at a time; may read and write up
   * to 7 bytes past them, which the caller guarantees lie inside both arrays' valid ranges. Also used by BloscLZ.
   */
  static void wideCopy(byte[] in, int ip, byte[] out, int op, int len) {
    int i = 0;
    do {
      LONG.set(out, op + i, (long) LONG.get(in, ip + i));
      i += 8;
    } while (i < len);
  }

  /** The message names what is wrong and where (built outside the decode loop, which stays small for the JIT). */
  private static CodecException corrupt(String what, int decoded, int outLen) {
    return new CodecException("LZ4 stream: " + what + " (at output byte " + decoded + " of " + outLen + ")");
  }

  /**
   * Copies {@code len} bytes from {@code ref} to {@code op > ref} with LZ semantics (the source may overlap the
   * destination: a distance below the length repeats the last {@code op - ref} bytes). Also used by BloscLZ.
   */
  static void copyMatch(byte[] out, int ref, int op, int len) {
    int dist = op - ref;
    if (dist >= len) {
      System.arraycopy(out, ref, out, op, len);
    } else if (dist == 1) {
      java.util.Arrays.fill(out, op, op + len, out[ref]);
    } else if (len < 32) {
      for (int i = 0; i < len; i++) {
        out[op + i] = out[ref + i];
      }
    } else {
      // the output repeats with period dist: each copy may take everything written so far, doubling the span
      int done = 0;
      while (done < len) {
        int n = Math.min(len - done, dist + done);
        System.arraycopy(out, ref, out, op + done, n);
        done += n;
      }
    }
  }
}
