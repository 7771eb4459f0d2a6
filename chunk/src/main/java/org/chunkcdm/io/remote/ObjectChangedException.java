package org.chunkcdm.io.remote;

import java.io.IOException;

/** An object read with a version requirement (its ETag at open) that the server no longer has: it was replaced. */
public class ObjectChangedException extends IOException {
  private static final long serialVersionUID = 1L;

  public ObjectChangedException(String message) {
    super(message);
  }
}
