package org.chunkcdm.ds;

import org.chunkcdm.chunk.Lazy;
import org.chunkcdm.io.FormatException;
import java.io.IOException;

/**
 * The missing-value bitmask of a masked variable (bit {@code 7 - i % 8} of byte {@code i / 8}, 1 = missing)
 * with a rank index: the number of missing elements before every block of {@link #BLOCK} elements. The index
 * is built on the first read (one pass over the bitmask, never at open), after which the stored position of
 * any element costs one small read of the bitmask bytes between its block start and the element.
 */
final class Bitmask {
  /** Elements per rank-index block (64 bitmask bytes). */
  static final int BLOCK = 512;
  private static final int PIECE = 1 << 16; // bitmask bytes read at once while indexing

    private final DsFile file;
  private final Object what; // "<file>: variable <name>"
  private final long pos; // file position of the bitmask
  private final long n; // elements
  private final Lazy<long[]> indexLazy = new Lazy<>(this::build);

  Bitmask(DsFile file, Object what, long pos, long n) {
        this.file = file;
    this.what = what;
    this.pos = pos;
    this.n = n;
  }

  /** Bytes of the bitmask on disk. */
  static long bytes(long n) {
    return (n + 7) / 8;
  }

  /** The whole bitmask into {@code m} ({@link #bytes}{@code (n)} bytes). */
  void readAll(byte[] m) throws IOException {
    file.readFully(pos, m, 0, m.length);
  }

  /** Number of missing elements of the whole variable (builds the index on first use). */
  long missing() throws IOException {
    long[] idx = index();
    return idx[idx.length - 1];
  }

  private long[] index() throws IOException {
    return indexLazy.get();
  }

  private long[] build() throws IOException {
    long blocks = (n + BLOCK - 1) / BLOCK;
    if (blocks + 1 > Integer.MAX_VALUE - 16) {
      throw new FormatException(what + ": " + n + " elements are too many for a bitmask index");
    }
    long[] idx = new long[(int) blocks + 1];
    long total = bytes(n);
    byte[] buf = new byte[(int) Math.min(PIECE, Math.max(1, total))];
    long missing = 0;
    for (long at = 0; at < total; at += buf.length) {
      int len = (int) Math.min(buf.length, total - at);
      file.readFully(pos + at, buf, 0, len);
      long firstElem = at * 8;
      long elems = Math.min((long) len * 8, n - firstElem);
      for (long e = 0; e < elems; e += BLOCK) {
        long blk = (firstElem + e) / BLOCK;
        idx[(int) blk] = missing;
        missing += count(buf, e, Math.min(e + BLOCK, elems));
      }
    }
    idx[(int) blocks] = missing;
    return idx;
  }

  /**
   * Reads the bitmask bits of elements {@code [e0, e1]} and the rank of {@code e0}. Returns the mask bytes
   * starting at the block of {@code e0}; {@code window[0]} receives the first element the bytes cover and
   * {@code window[1]} the number of non-missing elements before {@code e0}.
   */
  byte[] window(long e0, long e1, long[] window) throws IOException {
    long[] idx = index();
    long blk = e0 / BLOCK;
    long first = blk * BLOCK;
    long b0 = first / 8;
    long b1 = e1 / 8;
    byte[] m = new byte[(int) (b1 - b0 + 1)];
    file.readFully(pos + b0, m, 0, m.length);
    long missingBeforeE0 = idx[(int) blk] + count(m, 0, e0 - first);
    window[0] = first;
    window[1] = e0 - missingBeforeE0;
    return m;
  }

  private static final java.lang.invoke.VarHandle BE_LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

  /** The first set bit in {@code [from, to)} of a bitmask byte array, or {@code to}: 64 bits a step. */
  static int nextSet(byte[] m, int from, int to) {
    int k = from;
    while (k < to) {
      int at = k >>> 3;
      int shift = k & 7;
      if (at + 8 <= m.length) {
        long w = ((long) BE_LONGS.get(m, at)) << shift;
        if (w != 0) {
          return Math.min(to, k + Long.numberOfLeadingZeros(w));
        }
        k = (at << 3) + 64;
      } else {
        int w = (m[at] << shift) & 0xff;
        if (w != 0) {
          return Math.min(to, k + Integer.numberOfLeadingZeros(w) - 24);
        }
        k = (at << 3) + 8;
      }
    }
    return to;
  }

  /** Whether bit {@code i} of a bitmask byte array is set. */
  static boolean isSet(byte[] m, long i) {
    return (m[(int) (i >>> 3)] & (0x80 >>> (int) (i & 7))) != 0;
  }

  /** Number of set bits {@code [from, to)} of a bitmask byte array (bit 0 = MSB of byte 0). */
  static long count(byte[] m, long from, long to) {
    long c = 0;
    long i = from;
    while (i < to && (i & 7) != 0) {
      c += isSet(m, i) ? 1 : 0;
      i++;
    }
    while (i + 64 <= to) {
      int b = (int) (i >>> 3);
      long w = (m[b] & 0xffL) << 56 | (m[b + 1] & 0xffL) << 48 | (m[b + 2] & 0xffL) << 40 | (m[b + 3] & 0xffL) << 32
          | (m[b + 4] & 0xffL) << 24 | (m[b + 5] & 0xffL) << 16 | (m[b + 6] & 0xffL) << 8 | (m[b + 7] & 0xffL);
      c += Long.bitCount(w);
      i += 64;
    }
    while (i + 8 <= to) {
      c += Integer.bitCount(m[(int) (i >>> 3)] & 0xff);
      i += 8;
    }
    while (i < to) {
      c += isSet(m, i) ? 1 : 0;
      i++;
    }
    return c;
  }
}
