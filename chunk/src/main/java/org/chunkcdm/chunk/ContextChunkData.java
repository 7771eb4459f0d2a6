package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.function.UnaryOperator;

/** A chunk whose read failures pass through a function that adds where they happened ({@link ChunkData#withContext}). */
final class ContextChunkData implements ChunkData {
  private final ChunkData data;
  private final UnaryOperator<IOException> context;

  ContextChunkData(ChunkData data, UnaryOperator<IOException> context) {
    this.data = data;
    this.context = context;
  }

  @Override
  public long size() {
    return data.size();
  }

  @Override
  public int blockSize() {
    return data.blockSize();
  }

  @Override
  public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
    try {
      data.read(offset, dst, dstOff, len);
    } catch (IOException e) {
      throw context.apply(e);
    }
  }

  @Override
  public byte[] readAll() throws IOException {
    try {
      return data.readAll();
    } catch (IOException e) {
      throw context.apply(e);
    }
  }

  @Override
  public boolean readsInPieces() {
    return data.readsInPieces();
  }

  @Override
  public void readPieces(int unit, Pieces sink) throws IOException {
    try {
      data.readPieces(unit, sink);
    } catch (IOException e) {
      throw context.apply(e);
    }
  }

  @Override
  public void release() {
    data.release();
  }
}
