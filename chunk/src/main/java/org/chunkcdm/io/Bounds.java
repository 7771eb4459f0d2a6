package org.chunkcdm.io;

import java.io.IOException;
import org.chunkcdm.blosc.LimitException;
import org.chunkcdm.blosc.MemoryLimit;

/**
 * The bound every size read from a file (or a request) is checked against before anything is allocated: no
 * single buffer may take more than a fraction of the JVM's maximum heap. A file that claims more is refused
 * with an IOException naming it, never an {@link OutOfMemoryError}. The same bound as the codec's
 * ({@link MemoryLimit}): {@code maxMemory / 2}, or {@code -Dchunkcdm.maxAllocation=<bytes>}, never above
 * {@link #MAX_ARRAY}.
 */
public final class Bounds {
  /** Largest Java byte array that every JVM allocates. */
  public static final long MAX_ARRAY = MemoryLimit.MAX_ARRAY;

  private Bounds() {}

  /** Largest single allocation allowed now, in bytes. */
  public static long maxAllocation() {
    return MemoryLimit.maxAllocation();
  }

  /**
   * Throws unless {@code bytes} may be allocated in one piece: a {@link LimitException} when it is too large for this
   * JVM, a {@link FormatException} when negative. {@code what} names the file, variable and chunk (e.g.
   * {@code "/data/x.bcolz: chunk 3 of 'temp'"}).
   */
  public static void checkAllocation(long bytes, String what) throws IOException {
    if (bytes < 0) {
      throw new FormatException(what + ": negative size " + bytes);
    }
    MemoryLimit.check(bytes, what);
  }
}
