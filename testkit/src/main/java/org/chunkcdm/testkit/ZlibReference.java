package org.chunkcdm.testkit;

import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * java.util.zip as the reference the pure-Java inflate is compared with: zlib streams written by {@link Deflater},
 * and {@link Inflater}'s verdict on a stream.
 */
public final class ZlibReference {
  private ZlibReference() {}

  /** The zlib stream {@link Deflater} writes for {@code data} at {@code level} with {@code strategy}. */
  public static byte[] deflate(byte[] data, int level, int strategy) {
    return deflate(data, 0, data.length, level, strategy);
  }

  /** The zlib stream {@link Deflater} writes for {@code data[off..off+len)} at {@code level} with {@code strategy}. */
  public static byte[] deflate(byte[] data, int off, int len, int level, int strategy) {
    Deflater d = new Deflater(level);
    try {
      d.setStrategy(strategy);
      d.setInput(data, off, len);
      d.finish();
      byte[] buf = new byte[len + len / 100 + 64];
      int n = 0;
      while (!d.finished()) {
        if (n == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
        n += d.deflate(buf, n, buf.length - n);
      }
      return Arrays.copyOf(buf, n);
    } finally {
      d.end();
    }
  }

  /**
   * Decodes the zlib stream {@code c[off..off+len)} with {@link Inflater}: the {@code outLen} bytes when the stream
   * ends after exactly that many, else null (refused, or a different size). {@code trailing[0]} is set to the input
   * bytes left after the stream.
   */
  public static byte[] inflate(byte[] c, int off, int len, int outLen, int[] trailing) {
    Inflater inf = new Inflater();
    try {
      inf.setInput(c, off, len);
      byte[] out = new byte[outLen];
      int n = 0;
      while (n < outLen) {
        int k = inf.inflate(out, n, outLen - n);
        if (k == 0 && (inf.finished() || inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += k;
      }
      if (n != outLen || !inf.finished() && (inf.inflate(new byte[1]) > 0 || !inf.finished())) {
        return null;
      }
      trailing[0] = inf.getRemaining();
      return out;
    } catch (DataFormatException e) {
      return null;
    } finally {
      inf.end();
    }
  }
}
