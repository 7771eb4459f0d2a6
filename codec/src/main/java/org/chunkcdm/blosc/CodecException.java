package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * Compressed bytes the codec cannot decode: a Blosc header, block offset or codec stream (BloscLZ, LZ4, Snappy,
 * zlib, Zstandard) that its format does not allow, or a decoded size that differs from the one the chunk declares.
 * Retrying will not help; the data must be replaced. The message says what is wrong and where in the stream.
 */
public class CodecException extends IOException {
  private static final long serialVersionUID = 1L;

  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
