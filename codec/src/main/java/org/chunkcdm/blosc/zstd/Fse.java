package org.chunkcdm.blosc.zstd;

import org.chunkcdm.blosc.CodecException;
import java.io.IOException;

/**
 * Finite State Entropy tables (RFC 8878, 4.1): reading a table description (the normalized counts) and
 * building decoding tables from it. One instance holds the scratch arrays of one decoder (not thread-safe).
 *
 * <p>Sequence tables are {@code long[]} with one entry per state:
 * bits 0-31 the symbol's value base, 32-39 the symbol's extra bits, 40-47 the bits read for the next state,
 * 48-63 the next state's baseline. Huffman-weight tables are {@code int[]}: symbol | bits << 8 | baseline << 16.
 */
final class Fse {
  static final int LL_MAX_SYMBOL = 35;
  static final int ML_MAX_SYMBOL = 52;
  static final int OF_MAX_SYMBOL = 31;
  static final int LL_MAX_LOG = 9;
  static final int ML_MAX_LOG = 9;
  static final int OF_MAX_LOG = 8;
  static final int MIN_LOG = 5;

  /** Literals length codes: value base and extra bits (RFC 8878, 3.1.1.3.2.1.1). */
  static final int[] LL_BASE = new int[36];
  static final int[] LL_BITS = new int[36];
  /** Match length codes. */
  static final int[] ML_BASE = new int[53];
  static final int[] ML_BITS = new int[53];
  /** Offset codes: base 2^code, code extra bits. */
  static final int[] OF_BASE = new int[32];
  static final int[] OF_BITS = new int[32];

  /** Predefined distributions (RFC 8878, 3.1.1.3.2.2). */
  static final short[] LL_DEFAULT = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1,
      1, 1, 1, -1, -1, -1, -1};
  static final int LL_DEFAULT_LOG = 6;
  static final short[] ML_DEFAULT = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
      1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
  static final int ML_DEFAULT_LOG = 6;
  static final short[] OF_DEFAULT = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1,
      -1, -1};
  static final int OF_DEFAULT_LOG = 5;

  static {
    for (int c = 0; c < 16; c++) {
      LL_BASE[c] = c;
    }
    int[] llBits = {1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    int base = 16;
    for (int c = 16; c < 36; c++) {
      LL_BASE[c] = base;
      LL_BITS[c] = llBits[c - 16];
      base += 1 << llBits[c - 16];
    }
    for (int c = 0; c < 32; c++) {
      ML_BASE[c] = c + 3;
    }
    int[] mlBits = {1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    base = 35;
    for (int c = 32; c < 53; c++) {
      ML_BASE[c] = base;
      ML_BITS[c] = mlBits[c - 32];
      base += 1 << mlBits[c - 32];
    }
    for (int c = 0; c < 32; c++) {
      OF_BASE[c] = 1 << c; // 2^31 is stored as int bits and read back unsigned
      OF_BITS[c] = c;
    }
  }

  /** Per code: value base | extra bits << 32 (the symbol part of a sequence table entry). */
  static final long[] LL_SYM = symbols(LL_BASE, LL_BITS);
  static final long[] ML_SYM = symbols(ML_BASE, ML_BITS);
  static final long[] OF_SYM = symbols(OF_BASE, OF_BITS);

  static final long[] LL_PREDEFINED = predefined(LL_DEFAULT, LL_DEFAULT_LOG, LL_SYM);
  static final long[] ML_PREDEFINED = predefined(ML_DEFAULT, ML_DEFAULT_LOG, ML_SYM);
  static final long[] OF_PREDEFINED = predefined(OF_DEFAULT, OF_DEFAULT_LOG, OF_SYM);

  // scratch, reused by one decoder
  final short[] norm = new short[256];
  /** Accuracy log and number of symbols of the last description read or set. */
  int log;
  int symbols;
  private final int[] next = new int[256];
  private final byte[] spread = new byte[1 << LL_MAX_LOG];
  /** The symbols in order, each as often as its count, with room for one 8-byte write past the end. */
  private final byte[] ordered = new byte[(1 << LL_MAX_LOG) + 8];

  private static long[] symbols(int[] base, int[] bits) {
    long[] s = new long[base.length];
    for (int c = 0; c < s.length; c++) {
      s[c] = (base[c] & 0xFFFFFFFFL) | (long) bits[c] << 32;
    }
    return s;
  }

  private static long[] predefined(short[] dist, int log, long[] sym) {
    Fse f = new Fse();
    System.arraycopy(dist, 0, f.norm, 0, dist.length);
    f.log = log;
    f.symbols = dist.length;
    long[] t = new long[1 << log];
    try {
      f.buildSequenceTable(t, sym, "predefined table");
    } catch (IOException e) {
      throw new ExceptionInInitializerError(e);
    }
    return t;
  }

  /**
   * Reads a table description at {@code in[p..end)} into {@link #norm}, {@link #log} and {@link #symbols};
   * returns the number of bytes it occupies.
   */
  int readDescription(byte[] in, int p, int end, int maxSymbol, int maxLog, String what) throws IOException {
    if (p >= end) {
      throw new CodecException(what + ": FSE table description is missing (no bytes left)");
    }
    final long limitBits = 8L * (end - p);
    int al = (in[p] & 0x0F) + MIN_LOG;
    if (al > maxLog) {
      throw new CodecException(what + ": FSE accuracy log " + al + " is above the maximum " + maxLog);
    }
    int bitPos = 4;
    int remaining = (1 << al) + 1;
    int threshold = 1 << al;
    int nbBits = al + 1;
    int sym = 0;
    while (remaining > 1) {
      if (sym > maxSymbol) {
        throw new CodecException(what + ": FSE table description has more than " + (maxSymbol + 1) + " symbols");
      }
      // nbBits - 1 bits give a value below small; else nbBits bits give one of the 2 * threshold - small larger ones.
      // Which of the two is data, not a pattern a branch could learn: computed with masks
      int small = 2 * threshold - 1 - remaining;
      int v = peek(in, p, end, bitPos, nbBits);
      int low = v & (threshold - 1);
      int isLow = (low - small) >> 31; // -1 when low < small, else 0
      int wide = v & (2 * threshold - 1);
      wide -= small & -((wide >>> (nbBits - 1)) & 1); // values at or above threshold stand for value - small
      int value = (low & isLow) | (wide & ~isLow);
      bitPos += nbBits + isLow;
      int prob = value - 1;
      remaining -= Math.abs(prob);
      norm[sym++] = (short) prob;
      if (prob == 0) {
        int r;
        do {
          r = peek(in, p, end, bitPos, 2);
          bitPos += 2;
          if (sym + r > maxSymbol + 1) {
            throw new CodecException(what + ": FSE table description repeats zero past symbol " + maxSymbol);
          }
          for (int i = 0; i < r; i++) {
            norm[sym++] = 0;
          }
        } while (r == 3 && bitPos <= limitBits);
      }
      if (bitPos > limitBits) {
        throw new CodecException(what + ": FSE table description runs past its " + (end - p) + " bytes");
      }
      // threshold is the largest power of two not above remaining, which only decreases (while it is above 1)
      threshold = Integer.highestOneBit(remaining);
      nbBits = 32 - Integer.numberOfLeadingZeros(remaining);
    }
    if (remaining != 1 || bitPos > limitBits) {
      throw new CodecException(what + ": FSE table description is inconsistent (probabilities do not add up to "
          + (1 << al) + ")");
    }
    log = al;
    symbols = sym;
    return (bitPos + 7) >>> 3;
  }

  /** {@code n} (at most 16) bits at bit {@code bitPos} of the forward stream {@code in[p..end)}; zeros past its end. */
  private static int peek(byte[] in, int p, int end, int bitPos, int n) {
    int b = p + (bitPos >>> 3);
    if (b <= end - 4) { // one 4-byte read (n + 7 <= 23 bits)
      return ((int) ZstdDecoder.INT.get(in, b) >>> (bitPos & 7)) & ((1 << n) - 1);
    }
    int v = 0;
    for (int i = 0; i < 3; i++) {
      if (b + i < end) {
        v |= (in[b + i] & 0xFF) << (8 * i);
      }
    }
    return (v >>> (bitPos & 7)) & ((1 << n) - 1);
  }

  /** Sets the one-symbol table of RLE mode. */
  void setRle(int symbol) {
    log = 0;
    symbols = symbol + 1;
    for (int i = 0; i < symbol; i++) {
      norm[i] = 0;
    }
    norm[symbol] = 1;
  }

  /** Spreads the symbols of {@link #norm} over the table (RFC 8878, 4.1.1); fills {@link #spread} and {@link #next}. */
  private void spread(String what) throws IOException {
    final int size = 1 << log;
    int high = size - 1;
    for (int s = 0; s < symbols; s++) {
      int c = norm[s];
      if (c == -1) {
        spread[high--] = (byte) s;
        next[s] = 1;
      } else {
        next[s] = c;
      }
    }
    if (log == 0) {
      for (int s = 0; s < symbols; s++) {
        if (norm[s] == 1) {
          spread[0] = (byte) s;
        }
      }
      return;
    }
    final int mask = size - 1;
    final int step = (size >>> 1) + (size >>> 3) + 3;
    int pos = 0;
    if (high == size - 1) {
      // no "less than 1" symbols, so every position is free: the symbols in order, written 8 at a time (most counts
      // are at most 8: one write and no loop to mispredict per symbol), then dealt out to the positions
      final byte[] seq = ordered;
      int at = 0;
      for (int s = 0; s < symbols; s++) {
        int c = norm[s];
        if (c > size - at) {
          throw new CodecException(what + ": FSE distribution overfills its table of " + size);
        }
        long sv = s * 0x0101010101010101L;
        ZstdDecoder.LONG.set(seq, at, sv);
        for (int i = 8; i < c; i += 8) {
          ZstdDecoder.LONG.set(seq, at + i, sv);
        }
        at += c;
      }
      if (at != size) {
        throw new CodecException(what + ": FSE distribution does not fill its table");
      }
      // two positions a round, each advanced by two steps: two short dependency chains instead of one long one
      int pos2 = step & mask;
      final int step2 = (2 * step) & mask;
      for (int u = 0; u < size; u += 2) { // size is even (log >= 1 here)
        spread[pos] = seq[u];
        spread[pos2] = seq[u + 1];
        pos = (pos + step2) & mask;
        pos2 = (pos2 + step2) & mask;
      }
    } else {
      for (int s = 0; s < symbols; s++) {
        for (int i = norm[s]; i > 0; i--) {
          spread[pos] = (byte) s;
          do {
            pos = (pos + step) & mask;
          } while (pos > high);
        }
      }
    }
    if (pos != 0) {
      throw new CodecException(what + ": FSE distribution does not fill its table");
    }
  }

  /** Builds a sequence decoding table (layout in the class comment) into {@code t[0..2^log)}. */
  void buildSequenceTable(long[] t, long[] sym, String what) throws IOException {
    spread(what);
    final int size = 1 << log;
    final int[] nx = next;
    final byte[] sp = spread;
    for (int u = 0; u < size; u++) {
      int s = sp[u] & 0xFF;
      int ns = nx[s]++;
      int nb = Integer.numberOfLeadingZeros(ns) - 31 + log;
      t[u] = sym[s] | (long) nb << 40 | (long) ((ns << nb) - size) << 48;
    }
  }

  /** Builds a plain table (symbol | bits << 8 | baseline << 16) into {@code t[0..2^log)}. */
  void buildSymbolTable(int[] t, String what) throws IOException {
    spread(what);
    final int size = 1 << log;
    for (int u = 0; u < size; u++) {
      int s = spread[u] & 0xFF;
      int ns = next[s]++;
      int nb = log - (31 - Integer.numberOfLeadingZeros(ns));
      int baseline = (ns << nb) - size;
      t[u] = s | (nb << 8) | (baseline << 16);
    }
  }
}
