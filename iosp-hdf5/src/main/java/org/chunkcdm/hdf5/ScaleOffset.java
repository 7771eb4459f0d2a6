package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.CodecException;

/**
 * HDF5's scale-offset filter (6). {@code cd_values} (20): {@code [scale type (0 float D-scale, 2 integer), scale
 * factor (D, or minbits for integers, 0 = per chunk), elements per chunk, class (0 integer, 1 float), element
 * size, sign (1 signed), byte order (0 LE, 1 BE), fill value defined, fill value bytes little-endian, 4 per value]}.
 *
 * <p>An integer type whose scale factor is its full bit width is stored as it is. Otherwise a chunk starts with a
 * 21-byte header (minbits as 4 bytes LE, the size of minval, minval LE, zeros) followed by one {@code minbits}-bit
 * code per element, most significant bit first, packed without alignment. minbits equal to the full width: the
 * values follow the header as they are, little-endian (the writer's native order). minbits 0: every value is
 * minval. Integers: value = code + minval in the element's width, except the all-ones code = the fill value when
 * one is defined. Floats (D-scale): value = (float) code / 10^D + min in the element's precision, min being the
 * float in minval's low bytes; all-ones = the fill value when defined. Results are written in the dataset's byte
 * order.
 */
final class ScaleOffset {
  private ScaleOffset() {}

  static final int DSCALE = 0;
  static final int ESCALE = 1;
  static final int INT = 2;
  static final int HEADER = 21;

  static void check(int[] cd) throws IOException {
    if (cd.length < 8) {
      throw new CodecException("scale-offset: " + cd.length + " parameters, 20 expected");
    }
    int cls = cd[3];
    int size = cd[4];
    if (cls != 0 && cls != 1) {
      throw new CodecException("scale-offset: datatype class " + cls);
    }
    if (cls == 0 ? size != 1 && size != 2 && size != 4 && size != 8 : size != 4 && size != 8) {
      throw new CodecException("scale-offset: element size " + size + " for class " + cls);
    }
    if (cls == 1 && cd[0] != DSCALE) {
      throw new CodecException("scale-offset: scale type " + cd[0] + " for floats (only D-scaling is defined)");
    }
    if (cls == 0 && cd[0] != INT) {
      throw new CodecException("scale-offset: scale type " + cd[0] + " for integers");
    }
    if (cls == 0 && cd[1] > 8 * size) {
      throw new CodecException("scale-offset: minbits " + cd[1] + " exceed the " + 8 * size + "-bit type");
    }
    if (cd[7] != 0 && cd.length < 8 + (size + 3) / 4) {
      throw new CodecException("scale-offset: the fill value is missing from the parameters");
    }
  }

  /** Decoded size of a chunk: elements per chunk x element size. */
  static long decodedSize(int[] cd) throws IOException {
    check(cd);
    return (cd[2] & 0xffffffffL) * cd[4];
  }

  /** The fill value from {@code cd_values[8..]} as the element's bits (little-endian bytes, 4 per value). */
  static long fill(int[] cd, int size) {
    long v = 0;
    for (int b = 0; b < size; b++) {
      int word = cd[8 + b / 4];
      v |= ((long) (word >>> (8 * (b % 4))) & 0xff) << (8 * b);
    }
    return v;
  }

  /** Decodes {@code in[ip..ip+len)} into {@code out[op..op + decodedSize(cd))}. */
  static void decode(int[] cd, byte[] in, int ip, int len, byte[] out, int op) throws IOException {
    long total = decodedSize(cd);
    int cls = cd[3];
    int size = cd[4];
    int bits = 8 * size;
    boolean be = cd[6] == 1;
    long elems = cd[2] & 0xffffffffL;
    if (cls == 0 && cd[1] == bits) { // full precision asked for: the filter passes the data through
      if (len != total) {
        throw new CodecException("scale-offset: " + len + " stored bytes for " + total + " (stored unchanged)");
      }
      System.arraycopy(in, ip, out, op, len);
      return;
    }
    if (len < HEADER) {
      throw new CodecException("scale-offset: " + len + " bytes, too short for its 21-byte header");
    }
    long minbits = (in[ip] & 0xffL) | (in[ip + 1] & 0xffL) << 8 | (in[ip + 2] & 0xffL) << 16 | (in[ip + 3] & 0xffL) << 24;
    int mvSize = Math.min(8, in[ip + 4] & 0xff);
    long minval = 0;
    for (int i = 0; i < mvSize; i++) {
      minval |= (in[ip + 5 + i] & 0xffL) << (8 * i);
    }
    if (minbits > bits) {
      throw new CodecException("scale-offset: minbits " + minbits + " exceed the " + bits + "-bit type");
    }
    int mb = (int) minbits;
    if (mb == bits) { // the values follow the header, little-endian
      if (len - HEADER < total) {
        throw new CodecException("scale-offset: " + (len - HEADER) + " bytes after the header for " + total);
      }
      for (long i = 0, s = ip + HEADER, o = op; i < elems; i++, s += size, o += size) {
        put(out, (int) o, size, be, getLE(in, (int) s, size));
      }
      return;
    }
    long need = HEADER + (elems * mb + 7) / 8;
    if (need > len) {
      throw new CodecException("scale-offset: " + elems + " codes of " + mb + " bits need " + need
          + " bytes with the header, the chunk has " + len);
    }
    boolean fillDefined = cd[7] != 0;
    long fill = fillDefined ? fill(cd, size) : 0;
    long allOnes = mb == 0 ? 0 : (mb == 64 ? -1L : (1L << mb) - 1);
    Nbit.Bits codes = new Nbit.Bits(in, ip + HEADER, len - HEADER, "scale-offset");
    long widthMask = bits == 64 ? -1L : (1L << bits) - 1;
    if (cls == 0) {
      for (long i = 0, o = op; i < elems; i++, o += size) {
        long c = mb == 0 ? 0 : codes.read(mb);
        long v = fillDefined && c == allOnes ? fill : (c + minval) & widthMask;
        put(out, (int) o, size, be, v);
      }
    } else if (size == 4) {
      float min = Float.intBitsToFloat((int) minval);
      float p10 = (float) Math.pow(10.0, cd[1]);
      for (long i = 0, o = op; i < elems; i++, o += size) {
        int c = mb == 0 ? 0 : (int) codes.read(mb);
        float v = fillDefined && c == (int) allOnes ? Float.intBitsToFloat((int) fill) : (float) c / p10 + min;
        put(out, (int) o, 4, be, Float.floatToRawIntBits(v) & 0xffffffffL);
      }
    } else {
      double min = Double.longBitsToDouble(minval);
      double p10 = Math.pow(10.0, cd[1]);
      for (long i = 0, o = op; i < elems; i++, o += size) {
        long c = mb == 0 ? 0 : codes.read(mb);
        double v = fillDefined && c == allOnes ? Double.longBitsToDouble(fill) : (double) c / p10 + min;
        put(out, (int) o, 8, be, Double.doubleToRawLongBits(v));
      }
    }
  }

  private static long getLE(byte[] a, int p, int size) {
    long v = 0;
    for (int i = size - 1; i >= 0; i--) {
      v = v << 8 | (a[p + i] & 0xff);
    }
    return v;
  }

  private static void put(byte[] a, int p, int size, boolean be, long v) {
    if (be) {
      for (int k = size - 1; k >= 0; k--, v >>>= 8) {
        a[p + k] = (byte) v;
      }
    } else {
      for (int k = 0; k < size; k++, v >>>= 8) {
        a[p + k] = (byte) v;
      }
    }
  }
}
