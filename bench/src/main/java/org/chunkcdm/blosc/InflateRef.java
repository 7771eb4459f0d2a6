package org.chunkcdm.blosc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.Adler32;
import org.chunkcdm.io.FormatException;

/**
 * BENCH ONLY: the decoder as of the third pass (commit 3435b02), kept to time the current {@link Inflate} against it in one run. A whole-buffer zlib (RFC 1950) / DEFLATE (RFC 1951) decoder for Blosc zlib streams: the whole compressed stream
 * is in a byte array and its whole output goes to a byte array of known size, so there is no streaming state, no
 * window copy and no per-call overhead. Huffman codes are decoded through lookup tables (a main table indexed by
 * the next {@value #LIT_BITS} (literal/length) or {@value #DIST_BITS} (distance) bits, with second-level tables
 * for longer codes), bits come from a 64-bit buffer refilled 8 bytes at a time, and matches are copied 8 bytes at
 * a time where the output has room.
 *
 * <p>Strict, as zlib is and more: the header must be a valid zlib header without a preset dictionary, every code
 * set must be valid (not over-subscribed; incomplete only where zlib allows it: a single code of length 1), every
 * distance must reach only bytes already produced, the stream must produce exactly the expected number of bytes,
 * its Adler-32 must match, and it must end exactly at the end of its compressed bytes. Anything else is a
 * {@link FormatException}. Not thread-safe: one instance per thread (it keeps its tables).
 */
public final class InflateRef {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  static final int LIT_BITS = 11;
  static final int DIST_BITS = 8;
  private static final int CL_BITS = 7;
  private static final int LIT_MASK = (1 << LIT_BITS) - 1;
  private static final int DIST_MASK = (1 << DIST_BITS) - 1;

  /*
   * A table entry (int): bits 0-3 the bits to consume (the codeword length, or the main-table bits for a pointer
   * to a second-level table, or the remaining codeword bits in a second-level table), bits 4-7 the extra bits to
   * read after it (lengths, distances) or a second-level table's index bits, bits 8-11 flags, bits 16-31 the value
   * (literal byte, length or distance base, code-length symbol, second-level table start).
   */
  private static final int LITERAL = 1 << 8;
  private static final int EOB = 1 << 9;
  private static final int SUB = 1 << 10;
  private static final int INVALID = 1 << 11;

  /** Length symbols 257..285: base and extra bits (RFC 1951 3.2.5). */
  private static final int[] LEN_BASE = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
      67, 83, 99, 115, 131, 163, 195, 227, 258};
  private static final int[] LEN_EXTRA = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
      5, 5, 5, 5, 0};
  private static final int[] DIST_BASE = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
      769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  private static final int[] DIST_EXTRA = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
      11, 11, 12, 12, 13, 13};
  /** The order in which the code-length code's lengths are stored. */
  private static final int[] CL_ORDER = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

  /** Entry (without bit counts) of each literal/length symbol 0..287 and each distance symbol 0..31. */
  private static final int[] LIT_SYM = new int[288];
  private static final int[] DIST_SYM = new int[32];
  private static final int[] CL_SYM = new int[19];

  private static final int LIT_SIZE = (1 << LIT_BITS) + 288 * (1 << (15 - LIT_BITS));
  private static final int DIST_SIZE = (1 << DIST_BITS) + 32 * (1 << (15 - DIST_BITS));

  private static final int[] FIXED_LIT = new int[LIT_SIZE];
  private static final int[] FIXED_DIST = new int[DIST_SIZE];

  static {
    for (int s = 0; s < 288; s++) {
      if (s < 256) {
        LIT_SYM[s] = s << 16 | LITERAL;
      } else if (s == 256) {
        LIT_SYM[s] = EOB;
      } else if (s < 286) {
        LIT_SYM[s] = LEN_BASE[s - 257] << 16 | LEN_EXTRA[s - 257] << 4;
      } else {
        LIT_SYM[s] = INVALID;
      }
    }
    for (int s = 0; s < 32; s++) {
      DIST_SYM[s] = s < 30 ? DIST_BASE[s] << 16 | DIST_EXTRA[s] << 4 : INVALID;
    }
    for (int s = 0; s < 19; s++) {
      CL_SYM[s] = s << 16;
    }
    byte[] lens = new byte[288];
    Arrays.fill(lens, 0, 144, (byte) 8);
    Arrays.fill(lens, 144, 256, (byte) 9);
    Arrays.fill(lens, 256, 280, (byte) 7);
    Arrays.fill(lens, 280, 288, (byte) 8);
    byte[] dl = new byte[32];
    Arrays.fill(dl, (byte) 5);
    if (!build(FIXED_LIT, LIT_BITS, lens, 0, 288, LIT_SYM, false)
        || !build(FIXED_DIST, DIST_BITS, dl, 0, 32, DIST_SYM, false)) {
      throw new AssertionError("fixed Huffman tables");
    }
  }

  private final int[] lit = new int[LIT_SIZE];
  private final int[] dist = new int[DIST_SIZE];
  private final int[] cl = new int[1 << CL_BITS];
  private final byte[] lens = new byte[288 + 32];
  private final Adler32 adler = new Adler32();

  // the bit reader while a block header is read (the Huffman loop keeps its own copies in locals)
  private byte[] in;
  private int ip;
  private int inEnd;
  private long bb;
  private int bl;

  /**
   * Decodes the zlib stream {@code in[ip0..ip0+inLen)} into exactly {@code outLen} bytes at {@code out[op0..]}.
   * Writes nothing outside {@code out[op0..op0+outLen)}.
   */
  public void decode(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen) throws IOException {
    if (inLen < 6) {
      throw corrupt("is too short (" + inLen + " bytes)", 0, outLen);
    }
    int cmf = in[ip0] & 0xff;
    int flg = in[ip0 + 1] & 0xff;
    if ((cmf << 8 | flg) % 31 != 0) {
      throw corrupt("has an incorrect header check", 0, outLen);
    }
    if ((cmf & 15) != 8) {
      throw corrupt("has an unknown compression method " + (cmf & 15), 0, outLen);
    }
    if ((cmf >>> 4) > 7) {
      throw corrupt("has an invalid window size", 0, outLen);
    }
    if ((flg & 0x20) != 0) {
      throw corrupt("needs a preset dictionary", 0, outLen);
    }
    this.in = in;
    this.ip = ip0 + 2;
    this.inEnd = ip0 + inLen;
    this.bb = 0;
    this.bl = 0;
    try {
      int op = op0;
      final int opEnd = op0 + outLen;
      boolean last;
      do {
        refill();
        last = (bb & 1) != 0;
        int type = (int) (bb >>> 1) & 3;
        drop(3);
        if (type == 0) {
          op = stored(out, op0, op, opEnd);
        } else if (type == 1) {
          op = huffman(FIXED_LIT, FIXED_DIST, out, op0, op, opEnd);
        } else if (type == 2) {
          dynamicTables(op - op0, outLen);
          op = huffman(lit, dist, out, op0, op, opEnd);
        } else {
          throw corrupt("has a block of invalid type 3", op - op0, outLen);
        }
      } while (!last);
      if (op != opEnd) {
        throw corrupt("ends early", op - op0, outLen);
      }
      // the Adler-32 trailer starts at the next whole byte
      int pos = consumedBytes();
      if (pos > inEnd - 4) {
        throw corrupt("is truncated (no Adler-32 trailer)", outLen, outLen);
      }
      int want = (in[pos] & 0xff) << 24 | (in[pos + 1] & 0xff) << 16 | (in[pos + 2] & 0xff) << 8 | (in[pos + 3] & 0xff);
      if (pos + 4 != inEnd) {
        throw corrupt("has " + (inEnd - pos - 4) + " bytes after its end", outLen, outLen);
      }
      if (adler32(out, op0, outLen) != want) {
        throw corrupt("has an incorrect Adler-32 check", outLen, outLen);
      }
    } finally {
      this.in = null;
    }
  }

  /**
   * Adler-32 on the Vector API where the JVM has it ({@code --add-modules jdk.incubator.vector}, 512-bit vectors,
   * self-check passed, not turned off by {@code -Dchunkcdm.blosc.vector=false}), else java.util.zip's.
   */
  static final boolean VECTOR_ADLER = vectorAdler();

  private static boolean vectorAdler() {
    if (!Filters.VECTOR) {
      return false;
    }
    try {
      return VectorAdler.usable() && VectorAdler.selfCheck();
    } catch (LinkageError | RuntimeException e) {
      return false;
    }
  }

  private int adler32(byte[] b, int off, int len) {
    if (VECTOR_ADLER) {
      return VectorAdler.adler32(b, off, len);
    }
    adler.reset();
    adler.update(b, off, len);
    return (int) adler.getValue();
  }

  /** The position of the first input byte not (even partly) consumed. */
  private int consumedBytes() {
    return ip - (bl >>> 3);
  }

  private static FormatException corrupt(String what, int decoded, int outLen) {
    return new FormatException("zlib stream " + what + " (at output byte " + decoded + " of " + outLen + ")");
  }

  /** At least 56 bits in the buffer afterwards (zeros past the end of the input, refused once consumed). */
  private void refill() throws FormatException {
    if (ip <= inEnd - 8) {
      bb |= (long) LONG.get(in, ip) << bl;
      ip += (63 - bl) >>> 3;
      bl |= 56;
    } else {
      while (bl <= 56) {
        if (ip < inEnd) {
          bb |= (in[ip] & 0xffL) << bl;
        }
        ip++;
        bl += 8;
      }
    }
  }

  private void drop(int n) throws FormatException {
    bb >>>= n;
    bl -= n;
    if (consumedBytes() > inEnd) {
      throw new FormatException("zlib stream is truncated");
    }
  }

  private int stored(byte[] out, int op0, int op, int opEnd) throws FormatException {
    // to the next byte boundary, and give the whole bytes still in the buffer back to the input
    bb >>>= bl & 7;
    bl -= bl & 7;
    ip -= bl >>> 3;
    bb = 0;
    bl = 0;
    if (ip > inEnd - 4) {
      throw corrupt("is truncated in a stored block's header", op - op0, opEnd - op0);
    }
    int len = (in[ip] & 0xff) | (in[ip + 1] & 0xff) << 8;
    int nlen = (in[ip + 2] & 0xff) | (in[ip + 3] & 0xff) << 8;
    ip += 4;
    if (len != (nlen ^ 0xffff)) {
      throw corrupt("has a stored block with invalid lengths", op - op0, opEnd - op0);
    }
    if (len > inEnd - ip) {
      throw corrupt("is truncated in a stored block", op - op0, opEnd - op0);
    }
    if (len > opEnd - op) {
      throw corrupt("decodes to more than the expected bytes", op - op0, opEnd - op0);
    }
    System.arraycopy(in, ip, out, op, len);
    ip += len;
    return op + len;
  }

  /** Reads a dynamic block's code lengths and builds {@link #lit} and {@link #dist}. */
  private void dynamicTables(int decoded, int outLen) throws FormatException {
    refill();
    int nlen = (int) (bb & 31) + 257;
    int ndist = (int) (bb >>> 5 & 31) + 1;
    int ncl = (int) (bb >>> 10 & 15) + 4;
    drop(14);
    if (nlen > 286 || ndist > 30) {
      throw corrupt("has too many length or distance symbols", decoded, outLen);
    }
    byte[] l = lens;
    Arrays.fill(l, 0, 19, (byte) 0);
    for (int i = 0; i < ncl; i++) {
      if (bl < 3) {
        refill();
      }
      l[CL_ORDER[i]] = (byte) (bb & 7);
      drop(3);
    }
    if (!build(cl, CL_BITS, l, 0, 19, CL_SYM, true)) {
      throw corrupt("has an invalid code lengths set", decoded, outLen);
    }
    int n = nlen + ndist;
    int i = 0;
    while (i < n) {
      if (bl < 14) { // a code-length code (<= 7 bits) and up to 7 extra bits
        refill();
      }
      int e = cl[(int) bb & ((1 << CL_BITS) - 1)];
      if ((e & INVALID) != 0) {
        throw corrupt("has an invalid code length code", decoded, outLen);
      }
      int sym = e >>> 16;
      drop(e & 15);
      if (sym < 16) {
        l[i++] = (byte) sym;
        continue;
      }
      int rep;
      byte v = 0;
      if (sym == 16) {
        if (i == 0) {
          throw corrupt("repeats a code length before the first", decoded, outLen);
        }
        v = l[i - 1];
        rep = 3 + (int) (bb & 3);
        drop(2);
      } else if (sym == 17) {
        rep = 3 + (int) (bb & 7);
        drop(3);
      } else {
        rep = 11 + (int) (bb & 127);
        drop(7);
      }
      if (rep > n - i) {
        throw corrupt("repeats code lengths past their count", decoded, outLen);
      }
      Arrays.fill(l, i, i + rep, v);
      i += rep;
    }
    if (l[256] == 0) {
      throw corrupt("has no end-of-block code", decoded, outLen);
    }
    if (!build(lit, LIT_BITS, l, 0, nlen, LIT_SYM, false)) {
      throw corrupt("has an invalid literal/length code set", decoded, outLen);
    }
    if (!build(dist, DIST_BITS, l, nlen, ndist, DIST_SYM, false)) {
      throw corrupt("has an invalid distance code set", decoded, outLen);
    }
  }

  /**
   * Builds the lookup table for the canonical Huffman code with lengths {@code lens[lp..lp+n)}; false when the
   * lengths are over-subscribed, or incomplete where zlib refuses that (always for the code-length code
   * ({@code codeLengths}), else unless the longest code has length 1). No codes at all gives a table of invalid
   * entries (a block without distances).
   */
  static boolean build(int[] table, int mainBits, byte[] lens, int lp, int n, int[] sym, boolean codeLengths) {
    int[] count = new int[16];
    int max = 0;
    for (int s = 0; s < n; s++) {
      int len = lens[lp + s];
      count[len]++;
      if (len > max) {
        max = len;
      }
    }
    int mainSize = 1 << mainBits;
    Arrays.fill(table, 0, mainSize, INVALID);
    if (max == 0) {
      return !codeLengths;
    }
    int left = 1;
    for (int len = 1; len <= 15; len++) {
      left = (left << 1) - count[len];
      if (left < 0) {
        return false;
      }
    }
    if (left > 0 && (codeLengths || max != 1)) {
      return false;
    }
    int[] next = new int[16];
    int code = 0;
    count[0] = 0;
    for (int len = 1; len <= 15; len++) {
      code = (code + count[len - 1]) << 1;
      next[len] = code;
    }
    int subBits = Math.max(0, max - mainBits);
    int subSize = 1 << subBits;
    int free = mainSize;
    for (int s = 0; s < n; s++) {
      int len = lens[lp + s];
      if (len == 0) {
        continue;
      }
      int rev = Integer.reverse(next[len]++) >>> (32 - len);
      if (len <= mainBits) {
        int e = sym[s] | len;
        for (int k = rev; k < mainSize; k += 1 << len) {
          table[k] = e;
        }
      } else {
        int prefix = rev & (mainSize - 1);
        int p = table[prefix];
        int start;
        if ((p & SUB) != 0) {
          start = p >>> 16;
        } else {
          start = free;
          free += subSize;
          Arrays.fill(table, start, start + subSize, INVALID);
          table[prefix] = start << 16 | SUB | subBits << 4 | mainBits;
        }
        int rest = len - mainBits;
        int e = sym[s] | rest;
        for (int k = rev >>> mainBits; k < subSize; k += 1 << rest) {
          table[start + k] = e;
        }
      }
    }
    return true;
  }

  /** Decodes one Huffman-coded block into {@code out[op..]}; returns the new output position. */
  private int huffman(int[] lt, int[] dt, byte[] out, final int op0, int op, final int opEnd) throws FormatException {
    final byte[] in = this.in;
    final int inEnd = this.inEnd;
    final int inSafe = inEnd - 8;
    int ip = this.ip;
    long bb = this.bb;
    int bl = this.bl;
    // in the fast loop the output has room for a whole match (at most 258 bytes) and 15 bytes more
    final int opFast = opEnd - 258 - 16;
    try {
      while (true) {
        if (ip <= inSafe && op <= opFast) {
          // the fast loop: 8 input bytes at hand, no output bounds to check
          bb |= (long) LONG.get(in, ip) << bl;
          ip += (63 - bl) >>> 3;
          bl |= 56;
          int e = lt[(int) bb & LIT_MASK];
          if ((e & SUB) != 0) {
            bb >>>= LIT_BITS;
            bl -= LIT_BITS;
            e = lt[(e >>> 16) + ((int) bb & ((1 << ((e >>> 4) & 15)) - 1))];
          }
          int n = e & 15;
          bb >>>= n;
          bl -= n;
          if ((e & LITERAL) != 0) {
            out[op++] = (byte) (e >>> 16);
            // up to two more literals from the main table without a refill (56 - 15 - 11 bits are left)
            e = lt[(int) bb & LIT_MASK];
            if ((e & (LITERAL | SUB)) == LITERAL) {
              n = e & 15;
              bb >>>= n;
              bl -= n;
              out[op++] = (byte) (e >>> 16);
              e = lt[(int) bb & LIT_MASK];
              if ((e & (LITERAL | SUB)) == LITERAL) {
                n = e & 15;
                bb >>>= n;
                bl -= n;
                out[op++] = (byte) (e >>> 16);
              }
            }
            continue;
          }
          if ((e & (EOB | INVALID)) != 0) {
            if ((e & EOB) != 0) {
              break;
            }
            throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
          }
          int x = (e >>> 4) & 15;
          int len = (e >>> 16) + ((int) bb & ((1 << x) - 1));
          bb >>>= x;
          bl -= x;
          e = dt[(int) bb & DIST_MASK];
          if ((e & SUB) != 0) {
            bb >>>= DIST_BITS;
            bl -= DIST_BITS;
            e = dt[(e >>> 16) + ((int) bb & ((1 << ((e >>> 4) & 15)) - 1))];
          }
          if ((e & INVALID) != 0) {
            throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
          }
          n = e & 15;
          bb >>>= n;
          bl -= n;
          x = (e >>> 4) & 15;
          int d = (e >>> 16) + ((int) bb & ((1 << x) - 1));
          bb >>>= x;
          bl -= x;
          if (d > op - op0) {
            throw corrupt("has a distance " + d + " too far back", op - op0, opEnd - op0);
          }
          // may write up to 15 bytes past the match: the fast loop runs only while that room exists
          Lz4.wideMatch(out, op, d, len);
          op += len;
          continue;
        }
        // refill: at least 56 bits, enough for a length, its extra bits, a distance and its extra bits
        if (ip <= inSafe) {
          bb |= (long) LONG.get(in, ip) << bl;
          ip += (63 - bl) >>> 3;
          bl |= 56;
        } else {
          while (bl <= 56) {
            if (ip < inEnd) {
              bb |= (in[ip] & 0xffL) << bl;
            }
            ip++;
            bl += 8;
          }
          if (ip - (bl >>> 3) > inEnd) {
            throw corrupt("is truncated", op - op0, opEnd - op0);
          }
        }
        int e = lt[(int) bb & LIT_MASK];
        if ((e & SUB) != 0) {
          bb >>>= LIT_BITS;
          bl -= LIT_BITS;
          e = lt[(e >>> 16) + ((int) bb & ((1 << ((e >>> 4) & 15)) - 1))];
        }
        int n = e & 15;
        bb >>>= n;
        bl -= n;
        if ((e & LITERAL) != 0) {
          if (op >= opEnd) {
            throw corrupt("decodes to more than the expected bytes", op - op0, opEnd - op0);
          }
          out[op++] = (byte) (e >>> 16);
          // a second literal without a refill (56 - 15 bits are left)
          e = lt[(int) bb & LIT_MASK];
          if ((e & (LITERAL | SUB)) == LITERAL) {
            if (op >= opEnd) {
              throw corrupt("decodes to more than the expected bytes", op - op0, opEnd - op0);
            }
            n = e & 15;
            bb >>>= n;
            bl -= n;
            out[op++] = (byte) (e >>> 16);
          }
          continue;
        }
        if ((e & (EOB | INVALID)) != 0) {
          if ((e & EOB) != 0) {
            break;
          }
          throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
        }
        int x = (e >>> 4) & 15;
        int len = (e >>> 16) + ((int) bb & ((1 << x) - 1));
        bb >>>= x;
        bl -= x;
        e = dt[(int) bb & DIST_MASK];
        if ((e & SUB) != 0) {
          bb >>>= DIST_BITS;
          bl -= DIST_BITS;
          e = dt[(e >>> 16) + ((int) bb & ((1 << ((e >>> 4) & 15)) - 1))];
        }
        if ((e & INVALID) != 0) {
          throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
        }
        n = e & 15;
        bb >>>= n;
        bl -= n;
        x = (e >>> 4) & 15;
        int d = (e >>> 16) + ((int) bb & ((1 << x) - 1));
        bb >>>= x;
        bl -= x;
        if (d > op - op0) {
          throw corrupt("has a distance " + d + " too far back", op - op0, opEnd - op0);
        }
        if (len > opEnd - op) {
          throw corrupt("decodes to more than the expected bytes", op - op0, opEnd - op0);
        }
        if (len <= opEnd - 16 - op) { // room for the up to 15 bytes Lz4.wideMatch may write past the match
          Lz4.wideMatch(out, op, d, len);
        } else {
          int ref = op - d;
          for (int i = 0; i < len; i++) {
            out[op + i] = out[ref + i];
          }
        }
        op += len;
      }
    } finally {
      this.ip = ip;
      this.bb = bb;
      this.bl = bl;
    }
    if (consumedBytes() > inEnd) {
      throw corrupt("is truncated", op - op0, opEnd - op0);
    }
    return op;
  }
}
