package org.chunkcdm.io;

import java.io.IOException;

/**
 * The bound every size read from a file (or a request) is checked against before anything is allocated: no
 * single buffer may take more than a fraction of the JVM's maximum heap. A file that claims more is refused
 * with an IOException naming it, never an {@link OutOfMemoryError}.
 *
 * <p>The limit is {@code maxMemory / 2} (so two such buffers never exhaust the heap together with the rest
 * of the program), overridable with {@code -Dchunkcdm.maxAllocation=<bytes>} (never above
 * {@code Integer.MAX_VALUE - 16}, the largest Java array).
 */
public final class Bounds {
  /** Largest Java byte array that every JVM allocates. */
  public static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

  private Bounds() {}

  /**
   * A size the file claims is too large for this JVM (it may be legal for the format, e.g. a 2 GiB Blosc2
   * zeros chunk): neither bad bytes nor an I/O failure; a larger heap may help.
   */
  public static final class LimitException extends IOException {
    private static final long serialVersionUID = 1L;

    public LimitException(String message) {
      super(message);
    }
  }

  /** Largest single allocation allowed now, in bytes. */
  public static long maxAllocation() {
    long lim = Runtime.getRuntime().maxMemory() / 2;
    String p = System.getProperty("chunkcdm.maxAllocation");
    if (p != null) {
      try {
        lim = Long.parseLong(p.trim());
      } catch (NumberFormatException e) {
        // keep the heap-derived limit
      }
    }
    return Math.max(0, Math.min(lim, MAX_ARRAY));
  }

  /**
   * Throws unless {@code bytes} may be allocated in one piece. {@code what} names the file, variable and chunk
   * (e.g. {@code "/data/x.bcolz: chunk 3 of 'temp'"}).
   */
  public static void checkAllocation(long bytes, String what) throws IOException {
    if (bytes < 0) {
      throw new FormatException(what + ": negative size " + bytes);
    }
    long lim = maxAllocation();
    if (bytes > lim) {
      throw new LimitException(what + ": " + bytes + " bytes do not fit in memory (limit " + lim
          + " bytes, half of the JVM's maximum heap; raise -Xmx or set -Dchunkcdm.maxAllocation)");
    }
  }
}
