package org.chunkcdm.blosc;

import java.io.IOException;
import org.chunkcdm.blosc.internal.Settings;

/**
 * The bound every size read from compressed data is checked against before anything is allocated: no single buffer
 * may take more than half of the JVM's maximum heap (so two such buffers never exhaust it together with the rest of
 * the program), or what the system property {@code chunkcdm.maxAllocation} (bytes) sets, and never more than the
 * largest Java array. Data that claims more is refused with a {@link LimitException}, never an
 * {@link OutOfMemoryError}.
 */
public final class MemoryLimit {
  /** Largest Java byte array that every JVM allocates. */
  public static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

  private MemoryLimit() {}

  /** Largest single allocation allowed now, in bytes. */
  public static long maxAllocation() {
    long lim = Settings.MAX_ALLOCATION.number(Runtime.getRuntime().maxMemory() / 2);
    return Math.min(lim, MAX_ARRAY);
  }

  /**
   * Throws unless {@code bytes} may be allocated in one piece. {@code what} names the data (e.g. {@code "Blosc chunk
   * block 3"}); callers that know the file and variable add them in front.
   */
  public static void check(long bytes, String what) throws IOException {
    if (bytes < 0) {
      throw new CodecException(what + ": negative size " + bytes);
    }
    long lim = maxAllocation();
    if (bytes > lim) {
      throw new LimitException(what + ": " + bytes + " bytes do not fit in memory (limit " + lim
          + " bytes, half of the JVM's maximum heap; raise -Xmx or set -Dchunkcdm.maxAllocation)");
    }
  }
}
