package org.chunkcdm.sframe;

/** Test-only view of the frame reader's counters, for tests and benchmarks in other modules. */
public final class SframeProbes {
  private SframeProbes() {}

  /**
   * Chunks of any Blosc2 frame (frame files, sparse frames, frames at an offset or in memory) asked for in this JVM
   * so far, special index entries included: proves that opening a dataset reads no chunk.
   */
  public static long chunksFetched() {
    return Frame.FETCHED.sum();
  }
}
