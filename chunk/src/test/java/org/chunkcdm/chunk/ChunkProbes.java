package org.chunkcdm.chunk;

/**
 * Test-only views and switches of the chunk layer for tests and benchmarks in other packages and modules: what a
 * read did (chunks scattered, decode jobs run by helper threads, fetch buffers reused) and the two read paths
 * compared by tests (scattering whole chunks, typed pieces).
 */
public final class ChunkProbes {
  private ChunkProbes() {}

  /** Whole chunks of large reads decoded into scratch and scattered into the output so far. */
  public static long scattered() {
    return ChunkTask.SCATTERED.sum();
  }

  /**
   * Sets the read size from which whole chunks are scattered (0 = every read of two or more chunks,
   * {@code Long.MAX_VALUE} = never) and returns the previous one. Process-wide.
   */
  public static long setScatterBytes(long bytes) {
    long old = SectionReader.scatterBytes;
    SectionReader.scatterBytes = bytes;
    return old;
  }

  /** The default of {@link #setScatterBytes}. */
  public static long defaultScatterBytes() {
    return SectionReader.PARALLEL_BYTES;
  }

  /** Sets whether typed reads offer decoders their destination array; returns the previous setting. */
  public static boolean setTypedPieces(boolean on) {
    boolean old = ChunkRuns.typedPieces;
    ChunkRuns.typedPieces = on;
    return old;
  }

  /** Decode jobs run by a thread other than the one that asked. */
  public static long helpedJobs() {
    return DecodePool.HELPED_JOBS.sum();
  }

  /** Fetch buffers handed out from the pool. */
  public static long fetchBuffersReused() {
    return FetchBuffers.REUSED.sum();
  }
}
