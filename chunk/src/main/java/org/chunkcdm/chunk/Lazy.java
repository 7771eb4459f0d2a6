package org.chunkcdm.chunk;

import java.io.IOException;

/**
 * A value loaded on first use, once, by whichever thread asks first (e.g. a chunk index read from a file when the first
 * read needs it, not at open). A failed load is not remembered: the next {@link #get()} tries again.
 */
public final class Lazy<T> {
  /** Loads the value; may fail with an IOException. */
  public interface Loader<T> {
    T load() throws IOException;
  }

  private final Loader<T> loader;
  private volatile T value;

  public Lazy(Loader<T> loader) {
    this.loader = loader;
  }

  /** The value, loading it now if no thread has. */
  public T get() throws IOException {
    T v = value;
    if (v == null) {
      synchronized (this) {
        v = value;
        if (v == null) {
          v = loader.load();
          if (v == null) {
            throw new IllegalStateException("a lazy value loaded as null");
          }
          value = v;
        }
      }
    }
    return v;
  }

  /** The value if loaded, else null (never loads). */
  public T peek() {
    return value;
  }

  /** Forgets the value: the next {@link #get()} loads it again. */
  public void reset() {
    value = null;
  }
}
