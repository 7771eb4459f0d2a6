package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.blosc.Streams;

/**
 * The Bitshuffle filter (32008). {@code cd_values = [major, minor, element size, block size in elements (0 =
 * default), compression (0 none, 2 LZ4, 3 zstd), zstd level]} (filter versions before 0.4 stop after the block
 * size or the compression). The {@code n} elements of a chunk go in blocks of {@code block} elements (a multiple of
 * 8), then one block of {@code n % block} rounded down to a multiple of 8, each block bit-transposed (the same
 * transposition as Blosc's bit shuffle, undone by the codec's {@link Streams#bitUnshuffle}); the last {@code n % 8}
 * elements are stored as they are.
 *
 * <p>Without compression the chunk is those bytes. With LZ4 or zstd it starts with a 12-byte header (8-byte
 * big-endian decoded size, 4-byte big-endian block size in bytes), then each transposed block is stored as a
 * 4-byte big-endian size and a raw LZ4 block or one zstd frame of exactly the block's bytes; the trailing
 * elements follow as they are.
 */
final class Bitshuffle {
  private Bitshuffle() {}

  static final int NONE = 0;
  static final int LZ4 = 2;
  static final int ZSTD = 3;

  /** The filter's default block size in elements for an element size: 8 KiB worth, a multiple of 8, at least 128. */
  static int defaultBlock(int elemSize) {
    int b = 8192 / elemSize;
    b -= b % 8;
    return Math.max(b, 128);
  }

  static long readLongBE(byte[] a, int p) {
    return (long) readIntBE(a, p) << 32 | (readIntBE(a, p + 4) & 0xffffffffL);
  }

  static int readIntBE(byte[] a, int p) {
    return (a[p] & 0xff) << 24 | (a[p + 1] & 0xff) << 16 | (a[p + 2] & 0xff) << 8 | (a[p + 3] & 0xff);
  }

  /** The decoded size of a compressed chunk's header ({@link CodecException} when it is short or negative). */
  static long decodedSize(byte[] in, int ip, int len) throws IOException {
    if (len < 12) {
      throw new CodecException("bitshuffle: " + len + " bytes, too short for its 12-byte header");
    }
    long n = readLongBE(in, ip);
    if (n < 0) {
      throw new CodecException("bitshuffle: header declares " + Long.toUnsignedString(n) + " bytes");
    }
    return n;
  }

  /**
   * Undoes the filter: {@code in[ip..ip+len)} into {@code out[op..op+n)}. {@code n} is the decoded size (the input
   * length without compression, the header's size with it, which must equal {@code n}); {@code block} is the block
   * size in elements from {@code cd_values} (0 = default; a compressed chunk's header gives its own).
   */
  static void decode(byte[] in, int ip, int len, byte[] out, int op, int n, int elemSize, int block, int compression)
      throws IOException {
    if (elemSize <= 0) {
      throw new CodecException("bitshuffle: element size " + elemSize);
    }
    if (n % elemSize != 0) {
      throw new CodecException("bitshuffle: " + n + " bytes are not a whole number of " + elemSize + "-byte elements");
    }
    int elems = n / elemSize;
    int p = ip;
    int end = ip + len;
    if (compression == NONE) {
      if (len != n) {
        throw new CodecException("bitshuffle: " + len + " stored bytes for " + n + " (no compression)");
      }
      block = block == 0 ? defaultBlock(elemSize) : block;
    } else {
      long total = decodedSize(in, ip, len);
      if (total != n) {
        throw new CodecException("bitshuffle: header declares " + total + " decoded bytes, expected " + n);
      }
      long bytes = readIntBE(in, ip + 8) & 0xffffffffL;
      if (bytes % elemSize != 0) {
        throw new CodecException("bitshuffle: block of " + bytes + " bytes is not a whole number of " + elemSize
            + "-byte elements");
      }
      block = (int) Math.min(Integer.MAX_VALUE, bytes / elemSize);
      p += 12;
    }
    if (block <= 0 || block % 8 != 0) {
      throw new CodecException("bitshuffle: block of " + block + " elements (must be a positive multiple of 8)");
    }
    int full = elems / block;
    int last = elems % block;
    last -= last % 8;
    int nblocks = full + (last > 0 ? 1 : 0);
    byte[] tmp = compression == NONE || nblocks == 0 ? null : new byte[(full > 0 ? block : last) * elemSize];
    int o = op;
    for (int b = 0; b < nblocks; b++) {
      int be = b < full ? block : last;
      int bytes = be * elemSize;
      if (compression == NONE) {
        Streams.bitUnshuffle(elemSize, in, p, out, o, bytes);
        p += bytes;
      } else {
        if (end - p < 4) {
          throw new CodecException("bitshuffle: block " + b + " has no stored size: the stream ends at " + len + " bytes");
        }
        long cs = readIntBE(in, p) & 0xffffffffL;
        p += 4;
        if (cs > end - p) {
          throw new CodecException("bitshuffle: block " + b + " stores " + cs + " bytes, only " + (end - p)
              + " are left in the " + len + "-byte stream");
        }
        try {
          Streams.decode(compression == LZ4 ? BloscCompressor.LZ4 : BloscCompressor.ZSTD, in, p, (int) cs, tmp, 0, bytes);
        } catch (CodecException e) {
          throw new CodecException("bitshuffle: block " + b + " (" + cs + " stored bytes for " + bytes + "): "
              + e.getMessage(), e);
        }
        Streams.bitUnshuffle(elemSize, tmp, 0, out, o, bytes);
        p += (int) cs;
      }
      o += bytes;
    }
    int rest = (elems - (full * block + last)) * elemSize;
    if (rest > end - p) {
      throw new CodecException("bitshuffle: the " + rest + " trailing bytes are missing from the " + len + "-byte stream");
    }
    System.arraycopy(in, p, out, o, rest);
    p += rest;
    if (p != end) {
      throw new CodecException("bitshuffle: " + (end - p) + " bytes follow the data in the " + len + "-byte stream");
    }
  }
}
