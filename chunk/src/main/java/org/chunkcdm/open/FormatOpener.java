package org.chunkcdm.open;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the format modules' openers share: the format name, and a {@link #canOpen} that keeps the contract of never
 * throwing (a failure while looking at a path means it is not this format's).
 */
public abstract class FormatOpener implements DatasetOpener {
  private final String format;

  protected FormatOpener(String format) {
    this.format = format;
  }

  @Override
  public final String format() {
    return format;
  }

  @Override
  public final boolean canOpen(Path path) {
    try {
      return claims(path);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * True when this opener claims {@code path} (see {@link DatasetOpener#canOpen}); an exception, e.g. for an
   * unreadable or foreign file, counts as false.
   */
  protected abstract boolean claims(Path path) throws IOException;
}
