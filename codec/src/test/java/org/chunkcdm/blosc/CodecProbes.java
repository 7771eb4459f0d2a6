package org.chunkcdm.blosc;

/** Test-only view of the codec's decode counters, for tests and benchmarks in other modules. */
public final class CodecProbes {
  private CodecProbes() {}

  /** Chunks decoded whole (Java or native). */
  public static long chunksDecoded() {
    return BloscStats.chunksDecoded();
  }

  /** Blocks decoded (a whole-chunk native decode counts all of its blocks). */
  public static long blocksDecoded() {
    return BloscStats.blocksDecoded();
  }

  /** Decoded bytes produced. */
  public static long bytesDecoded() {
    return BloscStats.bytesDecoded();
  }

  /** Chunks decoded by the native library. */
  public static long nativeChunksDecoded() {
    return BloscStats.nativeChunksDecoded();
  }

  public static void reset() {
    BloscStats.reset();
  }
}
