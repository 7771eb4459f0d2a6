package org.chunkcdm.zarr;

import java.io.IOException;

/**
 * One decoding step of a chunk's bytes (a compressor, a numcodecs filter, a checksum): the stored form in, the
 * form before that codec out. {@code outLen} is the size the output must have, or -1 when only the stream itself
 * tells (then the step checks the size it finds against the heap). Errors are IOExceptions without location; the
 * caller adds the store, array and chunk key. Implementations are immutable and thread-safe.
 */
interface Step {
  byte[] decode(byte[] in, int off, int len, int outLen) throws IOException;

  /**
   * Decodes into exactly {@code out[op..op + outLen)}; output of another size is an IOException. Default: {@link
   * #decode} and a copy; steps that can write into the given array do so.
   */
  default void decodeInto(byte[] in, int off, int len, byte[] out, int op, int outLen) throws IOException {
    byte[] b = decode(in, off, len, outLen);
    if (b.length != outLen) {
      throw new org.chunkcdm.io.FormatException(describe() + " decodes to " + b.length + " bytes, expected " + outLen);
    }
    System.arraycopy(b, 0, out, op, outLen);
  }

  /** The encoded size of {@code decodedLen} bytes when this step fixes it, else -1. */
  default long encodedSize(long decodedLen) {
    return -1;
  }

  /** A short human description, e.g. {@code zstd level 3}. */
  String describe();
}
