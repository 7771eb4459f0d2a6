package org.chunkcdm.io;

import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.blosc.LimitException;

import java.io.IOException;

/**
 * The bytes of a file are wrong: a header, size, offset or codec stream that the format does not allow. It
 * separates "this file is corrupt or not of this format" (the file must be replaced; retrying will not help)
 * from an {@link IOException} of the file system (missing file, permission, disk or network error), so the
 * CLI, a server and the Fiji plugin can tell a user which it is.
 *
 * <p>Messages name the file, variable and chunk where those are known; {@link #in(String, IOException)} adds
 * such context to an exception from a lower layer without changing its kind.
 */
public class FormatException extends IOException {
  private static final long serialVersionUID = 1L;

  public FormatException(String message) {
    super(message);
  }

  public FormatException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * {@code e} with {@code where: } in front of its message, of the same kind: a FormatException stays one and so
   * does the codec's {@link CodecException} (as a FormatException), a {@link LimitException} stays one, any other IOException becomes a plain IOException (an {@link java.io.EOFException} from a shrinking file stays
   * an I/O failure). The original is the cause.
   */
  public static IOException in(String where, IOException e) {
    String msg = where + ": " + e.getMessage();
    if (e instanceof FormatException || e instanceof CodecException) {
      return new FormatException(msg, e);
    }
    if (e instanceof LimitException) {
      LimitException l = new LimitException(msg);
      l.initCause(e);
      return l;
    }
    return new IOException(msg, e);
  }

  /** True when {@code t} or one of its causes is a FormatException or the codec's {@link CodecException}. */
  public static boolean isFormatError(Throwable t) {
    for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
      if (t instanceof FormatException || t instanceof CodecException) {
        return true;
      }
    }
    return false;
  }
}
