package org.chunkcdm.blosc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.Adler32;

/**
 * A whole-buffer zlib (RFC 1950) / DEFLATE (RFC 1951) decoder for Blosc zlib streams: the whole compressed stream
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
 * {@link CodecException}. Not thread-safe: one instance per thread (it keeps its tables).
 */
final class Inflate {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  static final int LIT_BITS = 11;
  static final int DIST_BITS = 8;
  private static final int CL_BITS = 7;
  private static final int LIT_MASK = (1 << LIT_BITS) - 1;
  private static final int DIST_MASK = (1 << DIST_BITS) - 1;

  /*
   * A table entry (int), laid out so that the decode loop shifts the bit buffer by the entry itself (a long shift
   * uses only the count's low 6 bits):
   *   bits 0-4   the bits to consume: the codeword length plus, for distances, the extra bits (so a distance with
   *              its extra bits is one lookup and one shift); for a pointer to a second-level table the main
   *              table's bits; in a second-level table the codeword's remaining bits (plus extra bits)
   *   bit 5      zero (part of the shift count)
   *   bit 6      end of block
   *   bit 7      invalid code
   *   bits 8-13  lengths: the number of extra bits (read after the codeword is consumed, so that literals need no
   *              saved copy of the bit buffer); distances: the codeword bits without the extra bits (the extra
   *              bits start there in the saved buffer); pointers: a second-level table's index bits
   *   bit 14     pointer to a second-level table
   *   bit 15     exceptional: pointer, end of block or invalid
   *   bits 16-30 the value: literal byte, length or distance base, code-length symbol, second-level table start
   *   bit 31     literal (the entry is negative)
   * The static symbol templates (LIT_SYM, DIST_SYM, CL_SYM) hold the flags, the value and in bits 0-4 the number
   * of extra bits; build() adds the codeword length.
   */
  private static final int EOB = 1 << 6;
  private static final int INVALID = 1 << 7;
  private static final int SUB = 1 << 14;
  private static final int EXC = 1 << 15;
  private static final int LITERAL = 1 << 31;

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
        LIT_SYM[s] = EOB | EXC;
      } else if (s < 286) {
        LIT_SYM[s] = LEN_BASE[s - 257] << 16 | LEN_EXTRA[s - 257];
      } else {
        LIT_SYM[s] = INVALID | EXC;
      }
    }
    for (int s = 0; s < 32; s++) {
      DIST_SYM[s] = s < 30 ? DIST_BASE[s] << 16 | DIST_EXTRA[s] : INVALID | EXC;
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
    int[] count = new int[16];
    int[] next = new int[16];
    short[] sorted = new short[288];
    if (!build(FIXED_LIT, LIT_BITS, lens, 0, 288, LIT_SYM, false, count, next, sorted)
        || !build(FIXED_DIST, DIST_BITS, dl, 0, 32, DIST_SYM, false, count, next, sorted)) {
      throw new AssertionError("fixed Huffman tables");
    }
  }

  private final int[] lit = new int[LIT_SIZE];
  private final int[] dist = new int[DIST_SIZE];
  private final int[] cl = new int[1 << CL_BITS];
  private final byte[] lens = new byte[288 + 32];
  private final int[] count = new int[16];
  private final int[] next = new int[16];
  private final short[] sorted = new short[288];
  private final Adler32 adler = new Adler32();
  /** Whether the current dynamic block's code predicts literals for less than half of its symbols. */
  private boolean matchHeavy;

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
          op = matchHeavy ? huffmanMatches(lit, dist, out, op0, op, opEnd) : huffman(lit, dist, out, op0, op, opEnd);
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

  /** For tests: the longest literal/length code of the zlib stream's first block if it is a dynamic one, else 0. */
  static int maxCodeLength(byte[] zlib) throws IOException {
    Inflate inf = firstDynamicBlock(zlib);
    if (inf == null) {
      return 0;
    }
    int nlen = (int) (zlib[2] >>> 3 & 31) + 257;
    int max = 0;
    for (int s = 0; s < nlen; s++) {
      max = Math.max(max, inf.lens[s]);
    }
    return max;
  }

  /** For tests: whether the zlib stream's first block is a dynamic one decoded by {@link #huffmanMatches}. */
  static boolean matchHeavy(byte[] zlib) throws IOException {
    Inflate inf = firstDynamicBlock(zlib);
    return inf != null && inf.matchHeavy;
  }

  private static Inflate firstDynamicBlock(byte[] zlib) throws IOException {
    Inflate inf = new Inflate();
    inf.in = zlib;
    inf.ip = 2;
    inf.inEnd = zlib.length;
    inf.refill();
    if (((int) (inf.bb >>> 1) & 3) != 2) {
      return null;
    }
    inf.drop(3);
    inf.dynamicTables(0, 0);
    return inf;
  }

  /**
   * Adler-32 on the Vector API where the JVM has it ({@code --add-modules jdk.incubator.vector}, 512-bit vectors,
   * self-check passed), else java.util.zip's.
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

  private static CodecException corrupt(String what, int decoded, int outLen) {
    return new CodecException("zlib stream " + what + " (at output byte " + decoded + " of " + outLen + ")");
  }

  /** At least 56 bits in the buffer afterwards (zeros past the end of the input, refused once consumed). */
  private void refill() throws CodecException {
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

  private void drop(int n) throws CodecException {
    bb >>>= n;
    bl -= n;
    if (consumedBytes() > inEnd) {
      throw new CodecException("zlib stream is truncated");
    }
  }

  private int stored(byte[] out, int op0, int op, int opEnd) throws CodecException {
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
    RawCopy.copy(in, ip, out, op, len);
    ip += len;
    return op + len;
  }

  /** Reads a dynamic block's code lengths and builds {@link #lit} and {@link #dist}. */
  private void dynamicTables(int decoded, int outLen) throws CodecException {
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
    if (!build(cl, CL_BITS, l, 0, 19, CL_SYM, true, count, next, sorted)) {
      throw corrupt("has an invalid code lengths set", decoded, outLen);
    }
    int n = nlen + ndist;
    int i = 0;
    // the bit reader in locals; input past its end reads as zeros, refused once consumed (checked at the end)
    final byte[] in = this.in;
    long bb = this.bb;
    int bl = this.bl;
    int ip = this.ip;
    final int[] cl = this.cl;
    while (i < n) {
      if (bl < 14) { // a code-length code (<= 7 bits) and up to 7 extra bits
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
      int e = cl[(int) bb & ((1 << CL_BITS) - 1)];
      int sym = e >>> 16;
      bb >>>= e;
      bl -= e & 31;
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
        bb >>>= 2;
        bl -= 2;
      } else if (sym == 17) {
        rep = 3 + (int) (bb & 7);
        bb >>>= 3;
        bl -= 3;
      } else {
        rep = 11 + (int) (bb & 127);
        bb >>>= 7;
        bl -= 7;
      }
      if (rep > n - i) {
        throw corrupt("repeats code lengths past their count", decoded, outLen);
      }
      Arrays.fill(l, i, i + rep, v);
      i += rep;
    }
    this.bb = bb;
    this.bl = bl;
    this.ip = ip;
    if (consumedBytes() > inEnd) {
      throw new CodecException("zlib stream is truncated");
    }
    if (l[256] == 0) {
      throw corrupt("has no end-of-block code", decoded, outLen);
    }
    // the share of literals the code predicts: the Kraft sum of the literals' codes, in units of 2^-15
    int kraft = 0;
    for (int s = 0; s < 256; s++) {
      if (l[s] != 0) {
        kraft += 1 << (15 - l[s]);
      }
    }
    matchHeavy = kraft < 1 << 14;
    if (!build(lit, LIT_BITS, l, 0, nlen, LIT_SYM, false, count, next, sorted)) {
      throw corrupt("has an invalid literal/length code set", decoded, outLen);
    }
    if (!build(dist, DIST_BITS, l, nlen, ndist, DIST_SYM, false, count, next, sorted)) {
      throw corrupt("has an invalid distance code set", decoded, outLen);
    }
  }

  /**
   * Builds the lookup table for the canonical Huffman code with lengths {@code lens[lp..lp+n)}; false when the
   * lengths are over-subscribed, or incomplete where zlib refuses that (always for the code-length code
   * ({@code codeLengths}), else unless the longest code has length 1). No codes at all gives a table of invalid
   * entries (a block without distances). {@code count} and {@code next} (16) and {@code sorted} (n) are scratch.
   *
   * <p>The main table is filled by doubling: the codes of length 1, 2, ... are stored once each, at their
   * bit-reversed index in a table of 2^length entries that is then copied to its upper half for the next length
   * (one store per code and {@code System.arraycopy}, instead of one store per table entry).
   */
  static boolean build(int[] table, int mainBits, byte[] lens, int lp, int n, int[] sym, boolean codeLengths,
      int[] count, int[] next, short[] sorted) {
    Arrays.fill(count, 0);
    for (int s = 0; s < n; s++) {
      count[lens[lp + s]]++;
    }
    int max = 15;
    while (max > 0 && count[max] == 0) {
      max--;
    }
    int mainSize = 1 << mainBits;
    if (max == 0) {
      Arrays.fill(table, 0, mainSize, INVALID | EXC);
      return !codeLengths;
    }
    int left = 1;
    for (int len = 1; len <= 15; len++) {
      left = (left << 1) - count[len];
      if (left < 0) {
        return false;
      }
    }
    if (left > 0) {
      if (codeLengths || max != 1) {
        return false;
      }
      // a single code of length 1 (code 0): every even entry, the odd ones invalid
      Arrays.fill(table, 0, mainSize, INVALID | EXC);
      for (int s = 0; s < n; s++) {
        if (lens[lp + s] == 1) {
          int t = sym[s];
          int e = entry(t, 1, sym == LIT_SYM);
          for (int k = 0; k < mainSize; k += 2) {
            table[k] = e;
          }
        }
      }
      return true;
    }
    // the symbols sorted by code length, then by symbol: the order of their canonical codes
    next[1] = 0;
    for (int len = 1; len < 15; len++) {
      next[len + 1] = next[len] + count[len];
    }
    for (int s = 0; s < n; s++) {
      int len = lens[lp + s];
      if (len != 0) {
        sorted[next[len]++] = (short) s;
      }
    }
    int i = 0;
    int code = 0;
    int top = Math.min(max, mainBits);
    boolean lenFirst = sym == LIT_SYM;
    for (int len = 1; len <= mainBits; len++) {
      if (len > 1) {
        System.arraycopy(table, 0, table, 1 << (len - 1), 1 << (len - 1));
      }
      if (len <= top) {
        for (int end = i + count[len]; i < end; i++) {
          int t = sym[sorted[i]];
          table[Integer.reverse(code++) >>> (32 - len)] = entry(t, len, lenFirst);
        }
        code <<= 1;
      }
    }
    if (max > mainBits) {
      // the codes longer than the main table take the top of the code space: every main-table prefix from the
      // first one not taken by a shorter code up gets a second-level table of 2^(max - mainBits) entries
      int subBits = max - mainBits;
      int subSize = 1 << subBits;
      int start = mainSize;
      for (int pre = code >>> 1; pre < mainSize; pre++, start += subSize) {
        table[Integer.reverse(pre) >>> (32 - mainBits)] = start << 16 | EXC | SUB | subBits << 8 | mainBits;
      }
      for (int len = mainBits + 1; len <= max; len++) {
        int rest = len - mainBits;
        for (int end = i + count[len]; i < end; i++) {
          int t = sym[sorted[i]];
          int rev = Integer.reverse(code++) >>> (32 - len);
          int e = entry(t, rest, lenFirst);
          int sub = table[rev & (mainSize - 1)] >>> 16;
          for (int k = rev >>> mainBits; k < subSize; k += 1 << rest) {
            table[sub + k] = e;
          }
        }
        code <<= 1;
      }
    }
    return true;
  }

  /**
   * The entry for symbol template {@code t} with a codeword of {@code len} bits in its table. Lengths
   * ({@code lenFirst}, the literal/length table): the codeword's bits are consumed first, the extra bits' count
   * sits in bits 8-12 (so a literal needs no copy of the bit buffer for a possible length); distances and
   * code-length symbols: codeword and extra bits are consumed at once, the codeword bits in bits 8-13.
   */
  private static int entry(int t, int len, boolean lenFirst) {
    return lenFirst ? (t & ~31) + len + ((t & 31) << 8) : (t & ~31) + (t & 31) + len + (len << 8);
  }

  /** Decodes one Huffman-coded block into {@code out[op..]}; returns the new output position. */
  private int huffman(int[] lt, int[] dt, byte[] out, final int op0, int op, final int opEnd) throws CodecException {
    final byte[] in = this.in;
    final int inEnd = this.inEnd;
    int ip = this.ip;
    long bb = this.bb;
    int bl = this.bl;
    // The fast loop: each round refills at most twice (up to 7 bytes each, 8 read), and once more on entry, so
    // 24 input bytes are at hand; the output has room for two literals, a whole match (at most 258 bytes) and the 15 bytes
    // Lz4.wideMatch may write past it. Only the low 6 bits of bl count here: the whole entry is subtracted.
    final int inFast = inEnd - 24;
    final int opFast = opEnd - 258 - 2 - 16;
    if (ip <= inFast && op <= opFast) {
      bb |= (long) LONG.get(in, ip) << bl;
      ip += 7 - ((bl >>> 3) & 7);
      bl |= 56;
      // the next literal/length entry is looked up before the current symbol is finished (here: >= 56 bits)
      int e = lt[(int) bb & LIT_MASK];
      do {
        bb >>>= e;
        bl -= e;
        if (e < 0) {
          // a literal (<= 11 bits), and up to two more without a refill: 56 - 3 * 11 = 23 bits remain for the
          // next lookup; a length instead (<= 15 + 5 bits) leaves at least 14
          out[op++] = (byte) (e >>> 16);
          e = lt[(int) bb & LIT_MASK];
          bb >>>= e;
          bl -= e;
          if (e < 0) {
            out[op++] = (byte) (e >>> 16);
            e = lt[(int) bb & LIT_MASK];
            bb >>>= e;
            bl -= e;
            if (e < 0) {
              out[op++] = (byte) (e >>> 16);
              e = lt[(int) bb & LIT_MASK];
              bb |= (long) LONG.get(in, ip) << bl;
              ip += 7 - ((bl >>> 3) & 7);
              bl |= 56;
              continue;
            }
          }
        }
        if ((e & EXC) != 0) {
          if ((e & SUB) == 0) {
            if ((e & EOB) != 0) {
              this.ip = ip;
              this.bb = bb;
              this.bl = bl & 63;
              return op;
            }
            throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
          }
          // a second-level table (its codeword rest and extra bits <= 9 bits; at least 23 remain)
          e = lt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
          bb >>>= e;
          bl -= e;
          if (e < 0) {
            out[op++] = (byte) (e >>> 16);
            e = lt[(int) bb & LIT_MASK];
            bb |= (long) LONG.get(in, ip) << bl;
            ip += 7 - ((bl >>> 3) & 7);
            bl |= 56;
            continue;
          }
          if ((e & EXC) != 0) {
            if ((e & EOB) != 0) {
              this.ip = ip;
              this.bb = bb;
              this.bl = bl & 63;
              return op;
            }
            throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
          }
        }
        // a length: its codeword is consumed, the extra bits follow
        int x = e >>> 8;
        int len = (e >>> 16) + ((int) bb & ((1 << x) - 1));
        bb >>>= x;
        bl -= x;
        // the distance's main-table entry before the refill, off its dependency chain: at most 2 * 11 + 15 + 5 bits
        // were consumed since the last refill to >= 56, so >= 14 >= DIST_BITS remain
        e = dt[(int) bb & DIST_MASK];
        bb |= (long) LONG.get(in, ip) << bl;
        ip += 7 - ((bl >>> 3) & 7);
        bl |= 56;
        if ((e & EXC) != 0) {
          if ((e & SUB) == 0) {
            throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
          }
          bb >>>= e;
          bl -= e;
          e = dt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
          if ((e & EXC) != 0) {
            throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
          }
        }
        long saved = bb;
        bb >>>= e;
        bl -= e;
        int d = (e >>> 16) + (int) ((saved & ~(-1L << e)) >>> (e >>> 8));
        if (d > op - op0) {
          throw corrupt("has a distance " + d + " too far back", op - op0, opEnd - op0);
        }
        // >= 56 - 28 bits remain for the next lookup
        e = lt[(int) bb & LIT_MASK];
        bb |= (long) LONG.get(in, ip) << bl;
        ip += 7 - ((bl >>> 3) & 7);
        bl |= 56;
        Lz4.wideMatch(out, op, d, len);
        op += len;
      } while (ip <= inFast && op <= opFast);
      bl &= 63;
    }
    this.ip = ip;
    this.bb = bb;
    this.bl = bl;
    return careful(lt, dt, out, op0, op, opEnd);
  }

  /**
   * {@link #huffman} for a block whose code predicts mostly matches ({@link #matchHeavy}): the same decoding, with the
   * match copies inline in the fast loop (a match at a distance >= 8 copies 40 bytes unconditionally, the rest in
   * 16-byte rounds). Its own method: measured, these inline copies make match-heavy blocks 8-15% faster but, in
   * the one loop of {@link #huffman}, made C2 compile the literal path slower in most JVMs.
   */
  private int huffmanMatches(int[] lt, int[] dt, byte[] out, final int op0, int op, final int opEnd)
      throws CodecException {
    final byte[] in = this.in;
    final int inEnd = this.inEnd;
    int ip = this.ip;
    long bb = this.bb;
    int bl = this.bl;
    // The fast loop: each round refills at most twice (up to 7 bytes each, 8 read), and once more on entry, so
    // 24 input bytes are at hand; the output has room for two literals, a whole match (at most 258 bytes) and the
    // up to 14 bytes its copy may write past it (whole 16-byte rounds; a match of < 40 bytes at a distance >= 8
    // writes 40). Only the low 6 bits of bl count here: the whole entry is subtracted.
    final int inFast = inEnd - 24;
    final int opFast = opEnd - 258 - 2 - 16;
    if (ip <= inFast && op <= opFast) {
      bb |= (long) LONG.get(in, ip) << bl;
      ip += 7 - ((bl >>> 3) & 7);
      bl |= 56;
      // the next literal/length entry is looked up before the current symbol is finished (here: >= 56 bits)
      int e = lt[(int) bb & LIT_MASK];
      do {
        bb >>>= e;
        bl -= e;
        if (e < 0) {
          // a literal (<= 11 bits), and up to two more without a refill: 56 - 3 * 11 = 23 bits remain for the
          // next lookup; a length instead (<= 15 + 5 bits) leaves at least 14
          out[op++] = (byte) (e >>> 16);
          e = lt[(int) bb & LIT_MASK];
          bb >>>= e;
          bl -= e;
          if (e < 0) {
            out[op++] = (byte) (e >>> 16);
            e = lt[(int) bb & LIT_MASK];
            bb >>>= e;
            bl -= e;
            if (e < 0) {
              out[op++] = (byte) (e >>> 16);
              e = lt[(int) bb & LIT_MASK];
              bb |= (long) LONG.get(in, ip) << bl;
              ip += 7 - ((bl >>> 3) & 7);
              bl |= 56;
              continue;
            }
          }
        }
        if ((e & EXC) != 0) {
          if ((e & SUB) == 0) {
            if ((e & EOB) != 0) {
              this.ip = ip;
              this.bb = bb;
              this.bl = bl & 63;
              return op;
            }
            throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
          }
          // a second-level table (its codeword rest and extra bits <= 9 bits; at least 23 remain)
          e = lt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
          bb >>>= e;
          bl -= e;
          if (e < 0) {
            out[op++] = (byte) (e >>> 16);
            e = lt[(int) bb & LIT_MASK];
            bb |= (long) LONG.get(in, ip) << bl;
            ip += 7 - ((bl >>> 3) & 7);
            bl |= 56;
            continue;
          }
          if ((e & EXC) != 0) {
            if ((e & EOB) != 0) {
              this.ip = ip;
              this.bb = bb;
              this.bl = bl & 63;
              return op;
            }
            throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
          }
        }
        // a length: its codeword is consumed, the extra bits follow
        int x = e >>> 8;
        int len = (e >>> 16) + ((int) bb & ((1 << x) - 1));
        bb >>>= x;
        bl -= x;
        // the distance's main-table entry before the refill, off its dependency chain: at most 2 * 11 + 15 + 5 bits
        // were consumed since the last refill to >= 56, so >= 14 >= DIST_BITS remain
        e = dt[(int) bb & DIST_MASK];
        bb |= (long) LONG.get(in, ip) << bl;
        ip += 7 - ((bl >>> 3) & 7);
        bl |= 56;
        if ((e & EXC) != 0) {
          if ((e & SUB) == 0) {
            throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
          }
          bb >>>= e;
          bl -= e;
          e = dt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
          if ((e & EXC) != 0) {
            throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
          }
        }
        long saved = bb;
        bb >>>= e;
        bl -= e;
        int d = (e >>> 16) + (int) ((saved & ~(-1L << e)) >>> (e >>> 8));
        if (d > op - op0) {
          throw corrupt("has a distance " + d + " too far back", op - op0, opEnd - op0);
        }
        // >= 56 - 28 bits remain for the next lookup
        e = lt[(int) bb & LIT_MASK];
        bb |= (long) LONG.get(in, ip) << bl;
        ip += 7 - ((bl >>> 3) & 7);
        bl |= 56;
        int done = 0;
        if (d >= 8) {
          int ref = op - d;
          LONG.set(out, op, (long) LONG.get(out, ref));
          LONG.set(out, op + 8, (long) LONG.get(out, ref + 8));
          LONG.set(out, op + 16, (long) LONG.get(out, ref + 16));
          LONG.set(out, op + 24, (long) LONG.get(out, ref + 24));
          LONG.set(out, op + 32, (long) LONG.get(out, ref + 32));
          done = 40;
        }
        if (len > done) {
          Lz4.wideMatch(out, op + done, d, len - done);
        }
        op += len;
      } while (ip <= inFast && op <= opFast);
      bl &= 63;
    }
    this.ip = ip;
    this.bb = bb;
    this.bl = bl;
    return careful(lt, dt, out, op0, op, opEnd);
  }

  /**
   * The careful tail of a Huffman block, from the bit reader in {@link #ip}, {@link #bb}, {@link #bl}: every
   * symbol after a refill to >= 56 bits (enough for a length, a distance and their extra bits), input past its
   * end read as zeros and refused once consumed, every write checked. A method of its own so that C2 compiles the
   * fast loop alone: measured, this keeps the literal path fast whichever streams the JIT profiled first (in one
   * method with the fast loop, the literal-bound shuffle ts2 and clevel-1 streams ran at 0.74-0.96 and 0.48-0.65
   * GB/s in fresh JVMs, apart 0.93-0.97 and 0.62-0.65).
   */
  private int careful(int[] lt, int[] dt, byte[] out, final int op0, int op, final int opEnd) throws CodecException {
    final byte[] in = this.in;
    final int inEnd = this.inEnd;
    int ip = this.ip;
    long bb = this.bb;
    int bl = this.bl;
    try {
      while (true) {
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
          if (ip - (bl >>> 3) > inEnd) {
            throw corrupt("is truncated", op - op0, opEnd - op0);
          }
        }
        int e = lt[(int) bb & LIT_MASK];
        if ((e & SUB) != 0) {
          bb >>>= e;
          bl -= e & 31;
          e = lt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
        }
        bb >>>= e;
        bl -= e & 31;
        if (e < 0) {
          if (op >= opEnd) {
            throw corrupt("decodes to more than the expected bytes", op - op0, opEnd - op0);
          }
          out[op++] = (byte) (e >>> 16);
          continue;
        }
        if ((e & EXC) != 0) {
          if ((e & EOB) != 0) {
            break;
          }
          throw corrupt("has an invalid literal/length code", op - op0, opEnd - op0);
        }
        int x = (e >>> 8) & 31;
        int len = (e >>> 16) + ((int) bb & ((1 << x) - 1));
        bb >>>= x;
        bl -= x;
        e = dt[(int) bb & DIST_MASK];
        if ((e & SUB) != 0) {
          bb >>>= e;
          bl -= e & 31;
          e = dt[(e >>> 16) + ((int) bb & ((1 << (e >>> 8)) - 1))];
        }
        if ((e & EXC) != 0) {
          throw corrupt("has an invalid distance code", op - op0, opEnd - op0);
        }
        long saved = bb;
        bb >>>= e;
        bl -= e & 31;
        int d = (e >>> 16) + (int) ((saved & ~(-1L << e)) >>> (e >>> 8));
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
