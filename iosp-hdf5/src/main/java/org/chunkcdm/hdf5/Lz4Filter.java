package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.blosc.Lz4;

/**
 * The HDF5 LZ4 filter (32004, HDF Group / hdf5plugin / Debian hdf5-filter-plugin): an 8-byte big-endian total
 * decoded size, a 4-byte big-endian block size, then per block a 4-byte big-endian stored size and the block: a
 * raw LZ4 block (no LZ4 frame) of exactly the block's decoded size, or the block's bytes as they are when the
 * stored size equals the decoded size. The last block holds the remainder; a block size larger than the total
 * means one block. LZ4 blocks are decoded by the codec ({@link Lz4}).
 */
final class Lz4Filter {
  private Lz4Filter() {}

  static final int HEADER = 12;

  /** The total decoded size the header declares (a negative or truncated header is a {@link CodecException}). */
  static long decodedSize(byte[] in, int ip, int len) throws IOException {
    if (len < HEADER) {
      throw new CodecException("LZ4 filter: " + len + " bytes, too short for its 12-byte header");
    }
    long total = Bitshuffle.readLongBE(in, ip);
    if (total < 0) {
      throw new CodecException("LZ4 filter: header declares " + Long.toUnsignedString(total) + " bytes");
    }
    return total;
  }

  /**
   * Decodes the stream at {@code in[ip..ip+len)} into {@code out[op..op+n)}, where {@code n} must equal the header's
   * total ({@link #decodedSize}); every byte of the input must be used.
   */
  static void decode(byte[] in, int ip, int len, byte[] out, int op, int n) throws IOException {
    decode(in, ip, len, out, op, n, Integer.MAX_VALUE, null);
  }

  /**
   * As {@link #decode(byte[], int, int, byte[], int, int)}, telling {@code progress} (when not null) about each stretch
   * of about {@code step} bytes of output as soon as it is final, relative to {@code op}, in order, the last call
   * ending at {@code n}.
   */
  static void decode(byte[] in, int ip, int len, byte[] out, int op, int n, int step, Lz4.Progress progress)
      throws IOException {
    Lz4.Progress report = progress != null ? progress : (from, to) -> { };
    long total = decodedSize(in, ip, len);
    if (total != n) {
      throw new CodecException("LZ4 filter: header declares " + total + " decoded bytes, expected " + n);
    }
    long block = Bitshuffle.readIntBE(in, ip + 8) & 0xffffffffL;
    if (block == 0 && n > 0) {
      throw new CodecException("LZ4 filter: block size 0");
    }
    if (block > n) {
      block = n;
    }
    int p = ip + HEADER;
    int end = ip + len;
    int done = 0;
    for (int b = 0; done < n; b++) {
      int bs = (int) Math.min(block, n - done);
      if (end - p < 4) {
        throw new CodecException("LZ4 filter: block " + b + " (of " + bs + " bytes at " + done
            + ") has no stored size: the stream ends at " + len + " bytes");
      }
      long cs = Bitshuffle.readIntBE(in, p) & 0xffffffffL;
      p += 4;
      if (cs > end - p) {
        throw new CodecException("LZ4 filter: block " + b + " stores " + cs + " bytes, only " + (end - p)
            + " are left in the " + len + "-byte stream");
      }
      if (cs == bs) {
        System.arraycopy(in, p, out, op + done, bs);
        report.done(done, done + bs);
      } else {
        try {
          int base = done;
          Lz4.decodeInSteps(in, p, (int) cs, out, op + done, bs, null, step,
              (from, to) -> report.done(base + from, base + to));
        } catch (CodecException e) {
          throw new CodecException("LZ4 filter: block " + b + " (" + cs + " stored bytes for " + bs + "): "
              + e.getMessage(), e);
        }
      }
      p += (int) cs;
      done += bs;
    }
    if (p != end) {
      throw new CodecException("LZ4 filter: " + (end - p) + " bytes follow the last block of the " + len
          + "-byte stream");
    }
  }
}
