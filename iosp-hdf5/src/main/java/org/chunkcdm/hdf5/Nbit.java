package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.CodecException;

/**
 * HDF5's N-bit filter (5) for atomic datatypes. {@code cd_values = [parameter count, need not compress, elements
 * per chunk, class (1 atomic), element size, byte order (0 LE, 1 BE), precision, offset]}. With "need not
 * compress" set (a full-precision type) the chunk is stored as it is. Otherwise it is a bit stream holding, for
 * each element in order, its {@code precision} significant bits (bits {@code offset .. offset + precision - 1} of
 * the element's value) most significant first, packed across bytes without alignment. Decoding places each value
 * at {@code offset} in a zeroed element of the dataset's byte order; the datatype conversion ({@link H5Type})
 * then gives the values HDF5 returns.
 */
final class Nbit {
  private Nbit() {}

  static final int ATOMIC = 1;

  /** MSB-first bit reader over a byte range; reading past its end is a {@link CodecException}. */
  static final class Bits {
    private final byte[] a;
    private int p;
    private final int end;
    private final String what;
    private long acc; // unread bits, right-aligned
    private int have;

    Bits(byte[] a, int p, int len, String what) {
      this.a = a;
      this.p = p;
      this.end = p + len;
      this.what = what;
    }

    /** The next {@code n} bits (1..64) as an unsigned number. */
    long read(int n) throws CodecException {
      if (n <= 56) {
        while (have < n) {
          if (p >= end) {
            throw new CodecException(what + ": the bit stream ends early");
          }
          acc = acc << 8 | (a[p++] & 0xff);
          have += 8;
        }
        have -= n;
        long v = (acc >>> have) & ((1L << n) - 1);
        acc &= (1L << have) - 1;
        return v;
      }
      long hi = read(n - 32);
      return hi << 32 | read(32);
    }
  }

  /** The decoded size of a chunk: elements per chunk x element size ({@code cd_values[2] * cd_values[4]}). */
  static long decodedSize(int[] cd) throws IOException {
    check(cd);
    return (cd[2] & 0xffffffffL) * cd[4];
  }

  static void check(int[] cd) throws IOException {
    if (cd.length < 5) {
      throw new CodecException("N-bit: " + cd.length + " parameters, at least 5 needed");
    }
    if (cd[1] != 0) {
      return;
    }
    if (cd[3] != ATOMIC) {
      throw new CodecException("N-bit: datatype class " + cd[3] + " (array, compound or no-op types) is not supported");
    }
    if (cd.length < 8) {
      throw new CodecException("N-bit: " + cd.length + " parameters for an atomic type, 8 needed");
    }
    int size = cd[4];
    if (size != 1 && size != 2 && size != 4 && size != 8 || cd[6] < 1 || cd[7] < 0
        || (long) cd[6] + cd[7] > 8L * size || cd[5] != 0 && cd[5] != 1) {
      throw new CodecException("N-bit: element size " + size + ", byte order " + cd[5] + ", precision " + cd[6]
          + ", offset " + cd[7] + " are not a valid atomic type");
    }
  }

  /** Decodes {@code in[ip..ip+len)} into {@code out[op..op + decodedSize(cd))}. */
  static void decode(int[] cd, byte[] in, int ip, int len, byte[] out, int op) throws IOException {
    long n = decodedSize(cd);
    if (cd[1] != 0) { // stored as it is
      if (len != n) {
        throw new CodecException("N-bit: " + len + " stored bytes for " + n + " (stored uncompressed)");
      }
      System.arraycopy(in, ip, out, op, len);
      return;
    }
    long elems = cd[2] & 0xffffffffL;
    int size = cd[4];
    boolean be = cd[5] == 1;
    int precision = cd[6];
    int offset = cd[7];
    long need = (elems * precision + 7) / 8;
    if (need > len) {
      throw new CodecException("N-bit: " + elems + " values of " + precision + " bits need " + need + " bytes, the chunk has "
          + len);
    }
    Bits bits = new Bits(in, ip, len, "N-bit");
    for (long i = 0, o = op; i < elems; i++, o += size) {
      long v = bits.read(precision) << offset;
      if (be) {
        for (int k = size - 1; k >= 0; k--, v >>>= 8) {
          out[(int) o + k] = (byte) v;
        }
      } else {
        for (int k = 0; k < size; k++, v >>>= 8) {
          out[(int) o + k] = (byte) v;
        }
      }
    }
  }
}
