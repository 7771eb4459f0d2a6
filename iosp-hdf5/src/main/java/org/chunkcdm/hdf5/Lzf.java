package org.chunkcdm.hdf5;

import java.io.IOException;
import org.chunkcdm.blosc.CodecException;

/**
 * LZF (HDF5 filter 32000, h5py's {@code lzf_filter}): a bare LZF stream, no header. A control byte {@code c < 32}
 * is followed by {@code c + 1} literal bytes; otherwise {@code L = c >> 5} ({@code L == 7}: plus the next byte) and
 * a back reference copies {@code L + 2} bytes from {@code ((c & 31) << 8) + next byte + 1} bytes back in the
 * output (the source may overlap what is being written). The stream carries no length: the filter's
 * {@code cd_values[2]} is the size it was given (the chunk size), a decoder that runs out of room retries larger.
 */
final class Lzf {
  private Lzf() {}

  /** Thrown by {@link #decode(byte[], int, int, byte[], int, int)} when the output needs more than its room. */
  static final class OutputFull extends CodecException {
    private static final long serialVersionUID = 1L;

    OutputFull(int room) {
      super("LZF: the stream decodes to more than " + room + " bytes");
    }
  }

  /**
   * Decodes {@code in[ip..ip+len)} into {@code out[op..op+room)}; returns the number of bytes written. A stream
   * that does not fit is an {@link OutputFull}; a malformed one (a literal or match running past the input, a
   * reference before the output start) is a {@link CodecException}.
   */
  static int decode(byte[] in, int ip, int len, byte[] out, int op, int room) throws IOException {
    int end = ip + len;
    int start = op;
    int limit = op + room;
    int p = ip;
    int o = op;
    while (p < end) {
      int c = in[p++] & 0xff;
      if (c < 32) {
        int n = c + 1;
        if (n > end - p) {
          throw new CodecException("LZF: a literal of " + n + " bytes at input offset " + (p - 1 - ip) + " runs past the "
              + len + "-byte stream");
        }
        if (n > limit - o) {
          throw new OutputFull(room);
        }
        System.arraycopy(in, p, out, o, n);
        p += n;
        o += n;
      } else {
        int n = c >>> 5;
        if (n == 7) {
          if (p >= end) {
            throw new CodecException("LZF: a match length runs past the " + len + "-byte stream");
          }
          n += in[p++] & 0xff;
        }
        if (p >= end) {
          throw new CodecException("LZF: a match distance runs past the " + len + "-byte stream");
        }
        int dist = ((c & 31) << 8) + (in[p++] & 0xff) + 1;
        n += 2;
        int ref = o - dist;
        if (ref < start) {
          throw new CodecException("LZF: a match " + dist + " bytes back at output offset " + (o - start)
              + " reaches before the output start");
        }
        if (n > limit - o) {
          throw new OutputFull(room);
        }
        if (dist >= n) {
          System.arraycopy(out, ref, out, o, n);
          o += n;
        } else {
          for (int i = 0; i < n; i++) {
            out[o++] = out[ref++];
          }
        }
      }
    }
    return o - start;
  }

  /**
   * Decodes a stream of unknown decoded size: first into {@code guess} bytes, then twice as many while the output
   * does not fit, up to {@code max} bytes. Returns an array of exactly the decoded size.
   */
  static byte[] decode(byte[] in, int ip, int len, long guess, long max) throws IOException {
    long room = Math.max(64, Math.min(guess, max));
    while (true) {
      byte[] out = new byte[(int) room];
      try {
        int n = decode(in, ip, len, out, 0, out.length);
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
      } catch (OutputFull e) {
        if (room >= max) {
          throw new CodecException("LZF: the stream decodes to more than " + max + " bytes", e);
        }
        room = Math.min(max, room * 2);
      }
    }
  }
}
