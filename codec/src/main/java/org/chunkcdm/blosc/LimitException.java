package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * A size the data claims is too large for this JVM (it may be legal for the format, e.g. a 2 GiB Blosc2 zeros
 * chunk): neither bad bytes nor an I/O failure; a larger heap may help. See {@link MemoryLimit}.
 */
public class LimitException extends IOException {
  private static final long serialVersionUID = 1L;

  public LimitException(String message) {
    super(message);
  }
}
