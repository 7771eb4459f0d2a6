package org.chunkcdm.hdf5;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.chunkcdm.blosc.CodecException;

/**
 * The BZip2 filter (307; hdf5plugin, netcdf-c, Debian's hdf5-filter-plugin): each chunk is one complete .bz2
 * stream ({@code BZh1}..{@code BZh9}), decoded by Apache Commons Compress. Nothing may follow the stream.
 */
final class Bzip2 {
  private Bzip2() {}

  /**
   * Decodes the stream at {@code in[ip..ip+len)}: into exactly {@code expect} bytes when {@code expect >= 0}, else
   * into as many as it holds, at most {@code max}. Returns an array of exactly the decoded size.
   */
  static byte[] decode(byte[] in, int ip, int len, long expect, long max) throws IOException {
    if (len < 4 || in[ip] != 'B' || in[ip + 1] != 'Z' || in[ip + 2] != 'h' || in[ip + 3] < '1' || in[ip + 3] > '9') {
      throw new CodecException("bzip2: no 'BZh1'..'BZh9' stream header");
    }
    long limit = expect >= 0 ? expect : max;
    ByteArrayInputStream src = new ByteArrayInputStream(in, ip, len);
    byte[] out = new byte[(int) Math.max(0, Math.min(limit, expect >= 0 ? expect : Math.max(4096L, 4L * len)))];
    int n = 0;
    try (BZip2CompressorInputStream s = new BZip2CompressorInputStream(src, false)) {
      while (true) {
        if (n == out.length) {
          if (n >= limit) {
            if (s.read() < 0) {
              break;
            }
            throw new CodecException("bzip2: the stream decodes to more than " + limit + " bytes");
          }
          out = Arrays.copyOf(out, (int) Math.min(limit, Math.max(4096L, 2L * out.length)));
        }
        int r = s.read(out, n, out.length - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
    } catch (CodecException e) {
      throw e;
    } catch (IOException | RuntimeException e) { // commons-compress reports bad streams either way
      throw new CodecException("bzip2: " + e.getMessage(), e);
    }
    if (expect >= 0 && n != expect) {
      throw new CodecException("bzip2: the stream decodes to " + n + " bytes, expected " + expect);
    }
    if (src.available() > 0) {
      throw new CodecException("bzip2: " + src.available() + " bytes follow the end of the stream");
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}
