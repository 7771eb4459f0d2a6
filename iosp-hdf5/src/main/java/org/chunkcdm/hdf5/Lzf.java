package org.chunkcdm.hdf5;

import java.io.IOException;
import java.util.Arrays;
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

  /**
   * Decodes {@code in[ip..ip+len)} into {@code out[op..op+room)}; returns the number of bytes written. A stream
   * that needs more room, or is malformed (a literal or match running past the input, a reference before the
   * output start), is a {@link CodecException}.
   */
  static int decode(byte[] in, int ip, int len, byte[] out, int op, int room) throws IOException {
    byte[] d = decode(in, ip, len, room, room);
    System.arraycopy(d, 0, out, op, d.length);
    return d.length;
  }

  /**
   * Decodes a stream of unknown decoded size into an array that starts at {@code guess} bytes and doubles while the
   * output does not fit (in one pass, the decoded part kept), up to {@code max} bytes. Returns an array of exactly the
   * decoded size.
   */
  static byte[] decode(byte[] in, int ip, int len, long guess, long max) throws IOException {
    byte[] out = new byte[(int) Math.max(0, Math.min(Math.max(64, guess), max))];
    int end = ip + len;
    int p = ip;
    int o = 0;
    while (p < end) {
      int c = in[p++] & 0xff;
      int n;
      int dist = 0;
      if (c < 32) {
        n = c + 1;
        if (n > end - p) {
          throw new CodecException("LZF: a literal of " + n + " bytes at input offset " + (p - 1 - ip) + " runs past the "
              + len + "-byte stream");
        }
      } else {
        n = c >>> 5;
        if (n == 7) {
          if (p >= end) {
            throw new CodecException("LZF: a match length runs past the " + len + "-byte stream");
          }
          n += in[p++] & 0xff;
        }
        if (p >= end) {
          throw new CodecException("LZF: a match distance runs past the " + len + "-byte stream");
        }
        dist = ((c & 31) << 8) + (in[p++] & 0xff) + 1;
        n += 2;
        if (dist > o) {
          throw new CodecException("LZF: a match " + dist + " bytes back at output offset " + o
              + " reaches before the output start");
        }
      }
      if (n > out.length - o) {
        if (o + (long) n > max) {
          throw new CodecException("LZF: the stream decodes to more than " + max + " bytes");
        }
        out = Arrays.copyOf(out, (int) Math.min(max, Math.max(o + (long) n, 2L * out.length)));
      }
      if (dist == 0) {
        System.arraycopy(in, p, out, o, n);
        p += n;
        o += n;
      } else {
        o = copyMatch(out, o, dist, n);
      }
    }
    return o == out.length ? out : Arrays.copyOf(out, o);
  }

  /** Copies {@code n} bytes from {@code dist} bytes back (the source may overlap); returns the new output end. */
  private static int copyMatch(byte[] out, int o, int dist, int n) {
    int ref = o - dist;
    while (n > 0) { // an overlapping copy repeats the last dist bytes: copy them in runs of at most dist
      int k = Math.min(n, dist);
      System.arraycopy(out, ref, out, o, k);
      o += k;
      n -= k;
      dist += k;
    }
    return o;
  }
}
