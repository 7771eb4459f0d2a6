package org.chunkcdm.blosc;

import java.util.concurrent.atomic.LongAdder;

/** Process-wide decode counters, so tests and benchmarks can prove how much was decoded (see the test-only CodecProbes). */
final class BloscStats {
  static final LongAdder CHUNKS = new LongAdder();
  static final LongAdder BLOCKS = new LongAdder();
  static final LongAdder BYTES = new LongAdder();
  static final LongAdder NATIVE_CHUNKS = new LongAdder();

  private BloscStats() {}

  /** Chunks decoded whole (Java or native). */
  static long chunksDecoded() {
    return CHUNKS.sum();
  }

  /** Blocks decoded (Java decoder; a whole-chunk native decode counts all of its blocks). */
  static long blocksDecoded() {
    return BLOCKS.sum();
  }

  /** Decoded bytes produced (whole chunks and single blocks alike). */
  static long bytesDecoded() {
    return BYTES.sum();
  }

  /** Chunks decoded by the native library. */
  static long nativeChunksDecoded() {
    return NATIVE_CHUNKS.sum();
  }

  static void reset() {
    CHUNKS.reset();
    BLOCKS.reset();
    BYTES.reset();
    NATIVE_CHUNKS.reset();
  }
}
