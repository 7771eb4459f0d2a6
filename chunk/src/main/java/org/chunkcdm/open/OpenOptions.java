package org.chunkcdm.open;

import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.ReadSettings;

/**
 * Per-use settings a host chooses instead of process-wide properties: the decoded-chunk cache a dataset's
 * reads use (null = the shared cache of {@code -Dchunkcdm.cache.bytes}) and the number of threads a read
 * decodes with (0 = {@code -Dchunkcdm.decode.threads}, 1 = decode on the calling thread only).
 */
public final class OpenOptions {
  private static final OpenOptions DEFAULTS = new OpenOptions(ReadSettings.defaults());

  private final ReadSettings settings;

  private OpenOptions(ReadSettings settings) {
    this.settings = settings;
  }

  public static OpenOptions defaults() {
    return DEFAULTS;
  }

  public OpenOptions withCache(ChunkCache c) {
    return new OpenOptions(settings.withCache(c));
  }

  public OpenOptions withDecodeThreads(int n) {
    return new OpenOptions(settings.withDecodeThreads(n));
  }

  /** The cache to use (never null: the shared one when none was set). */
  public ChunkCache cache() {
    return settings.cache();
  }

  public int decodeThreads() {
    return settings.decodeThreads();
  }

  /**
   * These options as the read settings an opener gives its arrays ({@link ChunkedArray#withSettings}): reads
   * of an opened array then use this cache and thread budget without the caller passing anything.
   */
  public ReadSettings readSettings() {
    return settings;
  }
}
