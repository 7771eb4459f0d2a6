package org.chunkcdm.blosc.zstd;

import org.chunkcdm.blosc.CodecException;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Huffman-coded literals (RFC 8878, 4.2): the tree description (FSE-compressed or direct 4-bit weights),
 * the decoding table and the 1- and 4-stream decoders. A table is an {@code int[1 << maxBits]} indexed by
 * the next {@code maxBits} bits of the stream: code length | symbol << 8 (the length in the low bits, so that a
 * container can be shifted by the entry itself). Instances hold per-decoder
 * scratch (not thread-safe); the stream decoders are static.
 */
final class Huffman {
  static final int MAX_BITS = 11;
  static final int TABLE_SIZE = 1 << MAX_BITS;
  private static final int WEIGHTS_MAX_LOG = 6;
  private static final VarHandle LONG = ZstdDecoder.LONG;
  private static final VarHandle INT = ZstdDecoder.INT;

  private final Fse fse;
  private final byte[] weights = new byte[256];
  private final int[] rankStart = new int[MAX_BITS + 2];
  private final int[] weightTable = new int[1 << WEIGHTS_MAX_LOG];
  /** Code length limit of the table built by the last {@link #readTable}. */
  int maxBits;

  Huffman(Fse fse) {
    this.fse = fse;
  }

  /**
   * Reads a Huffman tree description at {@code in[p..end)}, builds its decoding table into {@code t} and
   * sets {@link #maxBits}; returns the number of bytes the description occupies.
   */
  int readTable(byte[] in, int p, int end, int[] t, String what) throws IOException {
    if (p >= end) {
      throw new CodecException(what + ": Huffman tree description is missing");
    }
    int header = in[p] & 0xFF;
    int n;
    int size;
    if (header < 128) {
      size = 1 + header;
      if (header == 0 || size > end - p) {
        throw new CodecException(what + ": Huffman weights of " + header + " compressed bytes do not fit in the "
            + (end - p - 1) + " bytes left");
      }
      n = fseWeights(in, p + 1, p + size, what);
    } else {
      n = header - 127;
      size = 1 + (n + 1) / 2;
      if (size > end - p) {
        throw new CodecException(what + ": " + n + " direct Huffman weights do not fit in the " + (end - p - 1)
            + " bytes left");
      }
      for (int i = 0; i < n; i++) {
        int b = in[p + 1 + i / 2] & 0xFF;
        weights[i] = (byte) ((i & 1) == 0 ? b >>> 4 : b & 0x0F);
      }
    }
    build(n, t, what);
    return size;
  }

  /** Decodes the FSE-compressed weights in {@code in[p..end)}; returns how many there are. */
  private int fseWeights(byte[] in, int p, int end, String what) throws IOException {
    int used = fse.readDescription(in, p, end, MAX_BITS, WEIGHTS_MAX_LOG, what);
    fse.buildSymbolTable(weightTable, what);
    final int log = fse.log;
    final int s = p + used;
    if (s >= end) {
      throw new CodecException(what + ": Huffman weights have no bitstream after their FSE table");
    }
    int last = in[end - 1] & 0xFF;
    if (last == 0) {
      throw new CodecException(what + ": Huffman weights bitstream has no end mark");
    }
    // bit position just above the next bit to read; reading below bit 0 yields zeros (and means the end)
    int pos = 8 * (end - s) - (Integer.numberOfLeadingZeros(last) - 23);
    pos -= log;
    int state1 = bitsAt(in, s, end, pos, log);
    pos -= log;
    int state2 = bitsAt(in, s, end, pos, log);
    int n = 0;
    while (true) {
      if (n > 253) {
        throw new CodecException(what + ": more than 255 Huffman weights");
      }
      int e = weightTable[state1];
      weights[n++] = (byte) e;
      int nb = (e >>> 8) & 0xFF;
      pos -= nb;
      state1 = (e >>> 16) + bitsAt(in, s, end, pos, nb);
      if (pos < 0) {
        weights[n++] = (byte) weightTable[state2];
        break;
      }
      e = weightTable[state2];
      weights[n++] = (byte) e;
      nb = (e >>> 8) & 0xFF;
      pos -= nb;
      state2 = (e >>> 16) + bitsAt(in, s, end, pos, nb);
      if (pos < 0) {
        weights[n++] = (byte) weightTable[state1];
        break;
      }
    }
    if (pos < -WEIGHTS_MAX_LOG) {
      throw new CodecException(what + ": Huffman weights bitstream is too short for its states");
    }
    return n;
  }

  /** Bits {@code [lo, lo+n)} of the stream {@code in[s..e)} (bit 0 = lowest bit of in[s]); zeros below bit 0. */
  static int bitsAt(byte[] in, int s, int e, int lo, int n) {
    if (n == 0) {
      return 0;
    }
    if (lo < 0) {
      int hi = lo + n;
      return hi <= 0 ? 0 : bitsAt(in, s, e, 0, hi) << -lo;
    }
    int b = s + (lo >>> 3);
    int v = 0;
    for (int i = 0; i < 3 && b + i < e; i++) {
      v |= (in[b + i] & 0xFF) << (8 * i);
    }
    return (v >>> (lo & 7)) & ((1 << n) - 1);
  }

  /** Completes {@code weights[0..n)} with the implied last weight and builds the table (RFC 8878, 4.2.1). */
  private void build(int n, int[] t, String what) throws IOException {
    if (n < 1 || n > 255) {
      throw new CodecException(what + ": " + n + " Huffman weights (1 to 255 expected)");
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
      int w = weights[i];
      if (w > MAX_BITS) {
        throw new CodecException(what + ": Huffman weight " + w + " of symbol " + i + " is above " + MAX_BITS);
      }
      if (w > 0) {
        total += 1 << (w - 1);
      }
    }
    if (total == 0) {
      throw new CodecException(what + ": all Huffman weights are zero");
    }
    int mb = 32 - Integer.numberOfLeadingZeros(total); // highest bit + 1
    if (mb > MAX_BITS) {
      throw new CodecException(what + ": Huffman codes longer than " + MAX_BITS + " bits");
    }
    int rest = (1 << mb) - total;
    if ((rest & (rest - 1)) != 0) {
      throw new CodecException(what + ": Huffman weights do not complete to a power of two");
    }
    weights[n] = (byte) (32 - Integer.numberOfLeadingZeros(rest));
    int symbols = n + 1;
    Arrays.fill(rankStart, 0);
    for (int i = 0; i < symbols; i++) {
      int w = weights[i];
      if (w > 0) {
        rankStart[w] += 1 << (w - 1);
      }
    }
    int pos = 0;
    for (int w = 1; w <= mb; w++) {
      int c = rankStart[w];
      rankStart[w] = pos;
      pos += c;
    }
    for (int i = 0; i < symbols; i++) {
      int w = weights[i];
      if (w > 0) {
        int len = 1 << (w - 1);
        int at = rankStart[w];
        Arrays.fill(t, at, at + len, (mb + 1 - w) | i << 8);
        rankStart[w] = at + len;
      }
    }
    maxBits = mb;
  }

  /** Decodes one Huffman stream {@code in[s..e)} into exactly {@code n} bytes at {@code out[op..]}. */
  static void decode1(byte[] in, int s, int e, int[] t, int maxBits, byte[] out, int op, int n, String what)
      throws IOException {
    decode1(in, s, e, t, maxBits, out, op, n, what, 0);
  }

  /** {@code stream}: 1 to 4 for the streams of a 4-stream block (for messages), 0 for a single stream. */
  private static void decode1(byte[] in, int s, int e, int[] t, int maxBits, byte[] out, int op, int n, String what,
      int stream) throws IOException {
    if (e <= s) {
      throw new CodecException(name(what, stream) + ": empty Huffman stream");
    }
    int last = in[e - 1] & 0xFF;
    if (last == 0) {
      throw new CodecException(name(what, stream) + ": Huffman stream has no end mark");
    }
    final int sh = 64 - maxBits;
    int k = Integer.numberOfLeadingZeros(last) - 23;
    int p;
    long c;
    if (e - s >= 8) {
      p = e - 8;
      c = (long) LONG.get(in, p);
    } else {
      p = s;
      c = 0;
      for (int i = 0; i < e - s; i++) {
        c |= (in[s + i] & 0xFFL) << (8 * i);
      }
      k += 8 * (8 - (e - s));
    }
    int o = op;
    final int end = op + n;
    // fast: rounds of iterations that need no checks, each a full refill and 5 symbols of at most maxBits (<= 11)
    // bits from the 57 or more bits available
    final int perIteration = 5 * maxBits;
    while (e - s >= 8) {
      int iters = Math.min((end - o) / 5, (8 * (p - s) - k) / perIteration);
      if (iters < 2) {
        break;
      }
      for (int it = 0; it < iters; it++) {
        p -= k >>> 3;
        k &= 7;
        c = (long) LONG.get(in, p);
        int q = o + 5 * it;
        // the container shifted by each code length as it is used (the entry's low 6 bits are the shift count)
        long b = c << k;
        int v = t[(int) (b >>> sh)];
        out[q] = (byte) (v >>> 8);
        b <<= v;
        k += v;
        v = t[(int) (b >>> sh)];
        out[q + 1] = (byte) (v >>> 8);
        b <<= v;
        k += v;
        v = t[(int) (b >>> sh)];
        out[q + 2] = (byte) (v >>> 8);
        b <<= v;
        k += v;
        v = t[(int) (b >>> sh)];
        out[q + 3] = (byte) (v >>> 8);
        b <<= v;
        k += v;
        v = t[(int) (b >>> sh)];
        out[q + 4] = (byte) (v >>> 8);
        k = (k + v) & 0xFF; // the symbols added above 8 bits
      }
      o += 5 * iters;
    }
    rest(in, s, e, p, k, c, t, sh, out, o, end, what, stream, n);
  }

  /**
   * Decodes the rest of one stream {@code in[s..e)} from container {@code c} read at {@code p} with {@code k} bits
   * used, symbol by symbol into {@code out[o..end)}, and checks the stream is used up exactly ({@code n}: its symbols,
   * for messages).
   */
  private static void rest(byte[] in, int s, int e, int p, int k, long c, int[] t, int sh, byte[] out, int o, int end,
      String what, int stream, int n) throws IOException {
    while (o < end) {
      int back = k >>> 3;
      if (p - back >= s) {
        p -= back;
        k &= 7;
        c = (long) LONG.get(in, p);
      } else if (p > s) {
        k -= (p - s) << 3;
        p = s;
        c = (long) LONG.get(in, p);
      }
      if (k > 64) {
        throw new CodecException(name(what, stream) + ": Huffman stream of " + (e - s) + " bytes ends before its " + n
            + " symbols");
      }
      int v = t[(int) ((c << k) >>> sh)];
      out[o++] = (byte) (v >>> 8);
      k += v & 0xFF;
    }
    long left = 8L * (p - s) + 64 - k;
    if (left != 0) {
      throw new CodecException(name(what, stream) + ": Huffman stream of " + (e - s) + " bytes "
          + (left > 0 ? "has " + left + " bits left over" : "is " + -left + " bits short") + " after its " + n
          + " symbols");
    }
  }

  private static String name(String what, int stream) {
    return stream == 0 ? what : what + " (Huffman stream " + stream + " of 4)";
  }

  /** Decodes the 4 Huffman streams of {@code in[s..e)} (jump table first) into exactly {@code n} bytes at {@code out[op..]}. */
  static void decode4(byte[] in, int s, int e, int[] t, int maxBits, byte[] out, int op, int n, String what)
      throws IOException {
    if (e - s < 10) {
      throw new CodecException(what + ": 4 Huffman streams in only " + (e - s) + " bytes");
    }
    int l1 = (in[s] & 0xFF) | (in[s + 1] & 0xFF) << 8;
    int l2 = (in[s + 2] & 0xFF) | (in[s + 3] & 0xFF) << 8;
    int l3 = (in[s + 4] & 0xFF) | (in[s + 5] & 0xFF) << 8;
    int l4 = e - s - 6 - l1 - l2 - l3;
    if (l1 == 0 || l2 == 0 || l3 == 0 || l4 <= 0) {
      throw new CodecException(what + ": Huffman jump table (" + l1 + ", " + l2 + ", " + l3 + ") does not fit the "
          + (e - s - 6) + " bytes of the 4 streams");
    }
    int seg = (n + 3) >>> 2;
    int n4 = n - 3 * seg;
    if (n4 < 0) {
      throw new CodecException(what + ": " + n + " literals cannot be split into 4 Huffman streams");
    }
    final int s1 = s + 6;
    final int s2 = s1 + l1;
    final int s3 = s2 + l2;
    final int s4 = s3 + l3;
    if (l1 < 8 || l2 < 8 || l3 < 8 || l4 < 8 || seg < 8) {
      decode1(in, s1, s2, t, maxBits, out, op, seg, what, 1);
      decode1(in, s2, s3, t, maxBits, out, op + seg, seg, what, 2);
      decode1(in, s3, s4, t, maxBits, out, op + 2 * seg, seg, what, 3);
      decode1(in, s4, e, t, maxBits, out, op + 3 * seg, n4, what, 4);
      return;
    }
    interleaved(in, s1, s2, s3, s4, e, t, maxBits, out, op, seg, n4, what);
  }

  /**
   * Decodes the 4 streams {@code in[s1..s2)}, {@code in[s2..s3)}, {@code in[s3..s4)} and {@code in[s4..e)} (each at
   * least 8 bytes long) into {@code seg}, {@code seg}, {@code seg} and {@code n4} bytes at {@code out[op..]}.
   */
  private static void interleaved(byte[] in, int s1, int s2, int s3, int s4, int e, int[] t, int maxBits, byte[] out,
      int op, int seg, int n4, String what) throws IOException {
    final int sh = 64 - maxBits;
    int p1 = s2 - 8;
    int p2 = s3 - 8;
    int p3 = s4 - 8;
    int p4 = e - 8;
    int k1 = mark(in, s2, what);
    int k2 = mark(in, s3, what);
    int k3 = mark(in, s4, what);
    int k4 = mark(in, e, what);
    int o1 = op;
    final int end1 = op + seg;
    final int end4 = op + 3 * seg + n4;
    // in rounds of iterations that need no checks: each iteration refills every stream and decodes 4 symbols of at
    // most maxBits bits from each, so a stream with B bits left takes (B - 8) / (4 maxBits) of them
    final int perIteration = 4 * maxBits;
    while (true) {
      int iters = Math.min(end1 - o1, end4 - (o1 + 3 * seg)) >>> 2;
      iters = Math.min(iters, (8 * (p1 - s1) - k1) / perIteration);
      iters = Math.min(iters, (8 * (p2 - s2) - k2) / perIteration);
      iters = Math.min(iters, (8 * (p3 - s3) - k3) / perIteration);
      iters = Math.min(iters, (8 * (p4 - s4) - k4) / perIteration);
      if (iters < 2) {
        break;
      }
      for (int it = 0; it < iters; it++) {
        int q = o1 + 4 * it;
        p1 -= k1 >>> 3;
        p2 -= k2 >>> 3;
        p3 -= k3 >>> 3;
        p4 -= k4 >>> 3;
        k1 = four(in, p1, k1 & 7, t, sh, out, q);
        k2 = four(in, p2, k2 & 7, t, sh, out, q + seg);
        k3 = four(in, p3, k3 & 7, t, sh, out, q + 2 * seg);
        k4 = four(in, p4, k4 & 7, t, sh, out, q + 3 * seg);
      }
      o1 += 4 * iters;
    }
    finish(in, s1, p1, k1, t, sh, out, o1, end1, what, 1, seg);
    finish(in, s2, p2, k2, t, sh, out, o1 + seg, end1 + seg, what, 2, seg);
    finish(in, s3, p3, k3, t, sh, out, o1 + 2 * seg, end1 + 2 * seg, what, 3, seg);
    finish(in, s4, p4, k4, t, sh, out, o1 + 3 * seg, end4, what, 4, n4);
  }

  /**
   * 4 symbols of one stream, from the container read at {@code p} with {@code k < 8} bits used, written at once
   * as one int at {@code out[o..]}: returns the bits used of that container. The container is shifted left by the
   * bits already used, then by each code length as it is used (the entry's low 6 bits are the shift count); the bit
   * count gains the symbols above bit 8, masked off at the end.
   */
  private static int four(byte[] in, int p, int k, int[] t, int sh, byte[] out, int o) {
    long b = (long) LONG.get(in, p) << k;
    int v = t[(int) (b >>> sh)];
    b <<= v;
    k += v;
    int w = v >>> 8;
    v = t[(int) (b >>> sh)];
    b <<= v;
    k += v;
    w |= v & 0xFF00;
    v = t[(int) (b >>> sh)];
    b <<= v;
    k += v;
    w |= (v & 0xFF00) << 8;
    v = t[(int) (b >>> sh)];
    w |= (v & 0xFF00) << 16;
    INT.set(out, o, w);
    return (k + v) & 0xFF;
  }

  /** Bits consumed before the first symbol of a stream ending at {@code e}: the zeros above the end mark and the mark. */
  private static int mark(byte[] in, int e, String what) throws IOException {
    int last = in[e - 1] & 0xFF;
    if (last == 0) {
      throw new CodecException(what + ": Huffman stream has no end mark");
    }
    return Integer.numberOfLeadingZeros(last) - 23;
  }

  /** Decodes the rest of one stream (at least 8 bytes long) and checks it is used up exactly. */
  private static void finish(byte[] in, int s, int p, int k, int[] t, int sh, byte[] out, int o, int end, String what,
      int stream, int n) throws IOException {
    long c = (long) LONG.get(in, p);
    while (o < end) {
      int back = k >>> 3;
      if (p - back >= s) {
        p -= back;
        k &= 7;
        c = (long) LONG.get(in, p);
      } else if (p > s) {
        k -= (p - s) << 3;
        p = s;
        c = (long) LONG.get(in, p);
      }
      if (k > 64) {
        throw new CodecException(what + ": Huffman stream " + stream + " of 4 ends before its " + n + " symbols");
      }
      int v = t[(int) ((c << k) >>> sh)];
      out[o++] = (byte) (v >>> 8);
      k += v & 0xFF;
    }
    long left = 8L * (p - s) + 64 - k;
    if (left != 0) {
      throw new CodecException(what + ": Huffman stream " + stream + " of 4 " + (left > 0 ? "has " + left
          + " bits left over" : "is " + -left + " bits short") + " after its " + n + " symbols");
    }
  }
}
