package org.chunkcdm.io;

/**
 * Test-only switches of the file access for tests and benchmarks in other modules: the mapping mode and limits, the
 * one-copy reads, the size check before a mapped copy.
 */
public final class IoProbes {
  private IoProbes() {}

  public static void setMapMode(FileHandles.MapMode m) {
    FileMaps.setMapMode(m);
  }

  /** {@code setMapMode(on ? ALWAYS : OFF)}. */
  public static void setMmap(boolean on) {
    FileMaps.setMapMode(on ? FileHandles.MapMode.ALWAYS : FileHandles.MapMode.OFF);
  }

  public static void setMapLimits(long windowBytes, long minFileBytes, long minReadBytes) {
    FileMaps.setMapLimits(windowBytes, minFileBytes, minReadBytes);
  }

  /** The current map mode and limits; {@code run()} on the result sets them back. */
  public static Runnable mapSettings() {
    return FileMaps.mapSettings();
  }

  public static void setNativeReads(boolean on) {
    FileHandles.setNativeReads(on);
  }

  public static void checkSizeBeforeMappedRead(boolean on) {
    FileMaps.checkSizeBeforeMappedRead(on);
  }
}
