package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * Receives a decoded chunk in pieces ({@link BloscChunk#decodePieces}): {@code len} bytes at {@code a[off..]} are the
 * chunk's bytes from byte {@code at} on. The array is valid only during the call (it may be a reused buffer or the
 * stored bytes themselves): copy from it, never keep or modify it. Calls for disjoint pieces may come from several
 * threads at once.
 */
public interface PieceSink {
  void accept(byte[] a, int off, long at, int len) throws IOException;

  /**
   * The primitive array these pieces are converted into, when they are (a typed read), else null (the default). The
   * decoder may then write some of the chunk's elements straight into it (a block's last unshuffle storing
   * {@code long}s) instead of handing their bytes to {@link #accept}; every element still arrives exactly once, one
   * way or the other.
   */
  default TypedDestination typed() {
    return null;
  }
}
