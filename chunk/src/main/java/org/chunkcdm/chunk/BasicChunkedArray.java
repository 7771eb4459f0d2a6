package org.chunkcdm.chunk;

/**
 * The state every stored array has: element type, chunk grid, fill value and cache key. A format's array extends this
 * and implements only {@link #chunk(long)} (where its chunks are and how they are decoded).
 */
public abstract class BasicChunkedArray implements ChunkedArray {
  private final DType dtype;
  private final ChunkGrid grid;
  private final byte[] fill;
  private final Object cacheKey;

  /**
   * {@code fill}: {@code itemSize} bytes in the dtype's byte order for chunks that are not stored, or null for zeros;
   * {@code cacheKey}: the identity of this array's content in the shared chunk cache, or null to read uncached.
   */
  protected BasicChunkedArray(DType dtype, ChunkGrid grid, byte[] fill, Object cacheKey) {
    if (fill != null && fill.length != dtype.itemSize()) {
      throw new IllegalArgumentException("fill value of " + fill.length + " bytes for " + dtype.itemSize() + "-byte items");
    }
    this.dtype = dtype;
    this.grid = grid;
    this.fill = fill;
    this.cacheKey = cacheKey;
  }

  @Override
  public final DType dtype() {
    return dtype;
  }

  @Override
  public ChunkGrid grid() {
    return grid;
  }

  @Override
  public final byte[] fillValue() {
    return fill;
  }

  @Override
  public final Object cacheKey() {
    return cacheKey;
  }
}
