package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.function.Function;

/**
 * A chunk whose read failures pass through a function that adds where they happened ({@link ChunkData#withContext},
 * {@link ChunkData#withAnyContext}).
 */
final class ContextChunkData implements ChunkData {
  /** A read of the wrapped chunk. */
  private interface Read<T> {
    T run() throws IOException;
  }

  private final ChunkData data;
  private final Function<Exception, IOException> context;
  /** Whether unchecked failures pass through {@link #context} too. */
  private final boolean unchecked;

  ContextChunkData(ChunkData data, Function<Exception, IOException> context, boolean unchecked) {
    this.data = data;
    this.context = context;
    this.unchecked = unchecked;
  }

  private <T> T inContext(Read<T> read) throws IOException {
    try {
      return read.run();
    } catch (IOException e) {
      throw context.apply(e);
    } catch (RuntimeException e) {
      if (!unchecked) {
        throw e;
      }
      throw context.apply(e);
    }
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
    inContext(() -> {
      data.read(offset, dst, dstOff, len);
      return null;
    });
  }

  @Override
  public void readOnce(long offset, byte[] dst, int dstOff, int len) throws IOException {
    inContext(() -> {
      data.readOnce(offset, dst, dstOff, len);
      return null;
    });
  }

  @Override
  public byte[] readAll() throws IOException {
    return inContext(data::readAll);
  }

  @Override
  public void readAll(java.nio.ByteBuffer dst) throws IOException {
    inContext(() -> {
      data.readAll(dst);
      return null;
    });
  }

  @Override
  public boolean readsInPieces() {
    return data.readsInPieces();
  }

  @Override
  public void readPieces(int unit, Pieces sink) throws IOException {
    inContext(() -> {
      data.readPieces(unit, sink);
      return null;
    });
  }

  @Override
  public void release() {
    data.release();
  }
}
