package org.chunkcdm.chunk;

import java.io.IOException;
import org.chunkcdm.io.Bounds;

/** {@link ChunkData#decodedOnRead}: decoded into the reader's array for a whole-chunk read, else once and kept. */
final class DecodedOnRead implements ChunkData {
  private final long size;
  private final ChunkData.DecodeInto decoder;
  private byte[] decoded;

  DecodedOnRead(long size, ChunkData.DecodeInto decoder) {
    if (size < 0) {
      throw new IllegalArgumentException("chunk size " + size);
    }
    this.size = size;
    this.decoder = decoder;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public synchronized void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
    if (offset < 0 || len < 0 || offset + len > size) {
      throw new IOException("read of " + len + " bytes at " + offset + " outside a chunk of " + size + " bytes");
    }
    if (decoded == null && offset == 0 && len == size) {
      decoder.decodeInto(dst, dstOff);
      return;
    }
    System.arraycopy(readAll(), (int) offset, dst, dstOff, len);
  }

  @Override
  public synchronized byte[] readAll() throws IOException {
    byte[] d = decoded;
    if (d == null) {
      Bounds.checkAllocation(size, "decoded chunk");
      d = new byte[(int) size];
      decoder.decodeInto(d, 0);
      decoded = d;
    }
    return d;
  }
}
