package org.chunkcdm.testkit;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** java.util.zip's verdict on a zlib stream, the reference the pure-Java inflate is compared with. */
public final class ZlibVerdict {
  private ZlibVerdict() {}

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
