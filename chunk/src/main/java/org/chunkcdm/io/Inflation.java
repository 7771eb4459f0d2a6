package org.chunkcdm.io;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** Inflating a whole deflate or zlib payload of known size in one piece. */
public final class Inflation {
  private Inflation() {}

  /**
   * Inflates the input of {@code inf} into {@code out} until {@code out} is full, the stream ends, or it needs input
   * or a dictionary it does not have; the number of bytes written ({@code inf.finished()} tells whether the stream
   * ended).
   */
  public static int inflateInto(Inflater inf, byte[] out) throws DataFormatException {
    int n = 0;
    while (n < out.length && !inf.finished()) {
      int k = inf.inflate(out, n, out.length - n);
      if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
        break;
      }
      n += k;
    }
    return n;
  }
}
