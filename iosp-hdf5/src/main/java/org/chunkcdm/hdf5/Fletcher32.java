package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.CodecException;

/**
 * HDF5's Fletcher32 filter (3): the last 4 bytes of its output are the checksum, little-endian, of the bytes before
 * them, computed over big-endian 16-bit words (an odd last byte as the high byte of a word), sums reduced every 360
 * words. Like HDF5, the byte-swapped value older libraries wrote is accepted too.
 */
final class Fletcher32 {
  private Fletcher32() {}

  /** The checksum of {@code a[off..off+n)}. */
  static int checksum(byte[] a, int off, int n) {
    long sum1 = 0;
    long sum2 = 0;
    int i = off;
    int words = n / 2;
    while (words > 0) {
      int t = Math.min(words, 360);
      words -= t;
      for (int k = 0; k < t; k++, i += 2) {
        sum1 += ((a[i] & 0xff) << 8) | (a[i + 1] & 0xff);
        sum2 += sum1;
      }
      sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
      sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    }
    if ((n & 1) != 0) {
      sum1 += (a[off + n - 1] & 0xff) << 8;
      sum2 += sum1;
      sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
      sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    return (int) ((sum2 << 16) | sum1);
  }

  /** Checks the checksum at the end of {@code a[off..off+len)}; the data are the first {@code len - 4} bytes. */
  static void check(byte[] a, int off, int len) throws IOException {
    if (len < 4) {
      throw new CodecException("Fletcher32: " + len + " bytes, no room for the checksum");
    }
    int n = len - 4;
    int want = checksum(a, off, n);
    int p = off + n;
    int stored = (a[p] & 0xff) | (a[p + 1] & 0xff) << 8 | (a[p + 2] & 0xff) << 16 | (a[p + 3] & 0xff) << 24;
    if (stored != want && stored != Integer.reverseBytes(want)) {
      throw new CodecException(String.format("Fletcher32 checksum mismatch: stored %08x, computed %08x", stored, want));
    }
  }
}
