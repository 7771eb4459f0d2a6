package org.chunkcdm.chunk;

import java.io.IOException;

/**
 * A format's view of one stored N-d array: element type, chunk grid, and "get chunk i". A format module
 * implements only this (metadata parsing and chunk location); {@link SectionReader} does all section
 * assembly (chunk intersection, strides, byte order, fill values) for every format.
 *
 * <p>Implementations must be thread-safe: many threads read one array, so {@link #chunk(long)} must not
 * rely on a shared file pointer.
 */
public interface ChunkedArray {
  DType dtype();

  ChunkGrid grid();

  /**
   * The decoded content of chunk {@code index} (C order over the grid), or {@code null} when the chunk is not
   * stored and reads as the fill value. Errors are IOExceptions naming the file and the chunk.
   */
  ChunkData chunk(long index) throws IOException;

  /** Fill value for missing chunks: {@code itemSize} bytes in the dtype's byte order, or null for zeros. */
  default byte[] fillValue() {
    return null;
  }

  /**
   * Identity of this array's content for the shared decoded-chunk cache (e.g. path, variable, modification
   * time), or null to disable caching. Two arrays with equal keys must have equal chunks.
   */
  default Object cacheKey() {
    return null;
  }
}
