package org.chunkcdm.chunk;

/**
 * Per-use read settings: the decoded-chunk cache a read uses and how many threads it decodes with. Carried by
 * a {@link ChunkedArray} ({@link ChunkedArray#settings()}, set with {@link ChunkedArray#withSettings}) or
 * passed to a {@link SectionReader} call. {@link #defaults()} = the process-wide shared cache
 * ({@code -Dchunkcdm.cache.bytes}) and {@code -Dchunkcdm.decode.threads} threads.
 */
public final class ReadSettings {
  private static final ReadSettings DEFAULTS = new ReadSettings(null, 0);

  private final ChunkCache cache;
  private final int decodeThreads;

  private ReadSettings(ChunkCache cache, int decodeThreads) {
    if (decodeThreads < 0) {
      throw new IllegalArgumentException("decodeThreads must be >= 0: " + decodeThreads);
    }
    this.cache = cache;
    this.decodeThreads = decodeThreads;
  }

  public static ReadSettings defaults() {
    return DEFAULTS;
  }

  /**
   * @param cache the cache to use, null = the shared one
   * @param decodeThreads 0 = {@code -Dchunkcdm.decode.threads}; 1 = decode on the calling thread only; n = at
   *     most n threads (the caller included) of the shared decode pool work on one read
   */
  public static ReadSettings of(ChunkCache cache, int decodeThreads) {
    return cache == null && decodeThreads == 0 ? DEFAULTS : new ReadSettings(cache, decodeThreads);
  }

  /** These settings with another cache (null: the shared one). */
  public ReadSettings withCache(ChunkCache c) {
    return of(c, decodeThreads);
  }

  /** These settings with another number of decode threads (see {@link #of}). */
  public ReadSettings withDecodeThreads(int n) {
    return of(cache, n);
  }

  /** The cache (never null: the shared one when none was set). */
  public ChunkCache cache() {
    return cache != null ? cache : ChunkCache.shared();
  }

  /** As given: 0 means the process default. */
  public int decodeThreads() {
    return decodeThreads;
  }

  /** The number of threads a read really uses: at least 1, at most the decode pool's size plus the caller. */
  public int effectiveThreads() {
    return decodeThreads == 0 ? DecodePool.threads() : Math.min(decodeThreads, DecodePool.threads());
  }

  @Override
  public String toString() {
    return "ReadSettings[cache=" + (cache == null ? "shared" : cache.maxBytes() + " bytes") + ", decodeThreads="
        + decodeThreads + "]";
  }
}
