package org.chunkcdm.sframe;

import java.io.IOException;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FormatException;

/** An index entry meaning "all NaN": float32 or float64 quiet NaNs, little-endian. */
final class NanChunk implements ChunkData {
  final long size;
  final byte[] pattern;

  NanChunk(long size, int typesize) {
    this.size = size;
    pattern = typesize == 4 ? new byte[] {0, 0, (byte) 0xc0, 0x7f} : new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xf8, 0x7f};
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
    if (offset < 0 || len < 0 || offset > size - len) {
      throw new FormatException("read of " + len + " bytes at " + offset + " outside a NaN chunk of " + size + " bytes");
    }
    for (int i = 0; i < len; i++) {
      dst[dstOff + i] = pattern[(int) ((offset + i) % pattern.length)];
    }
  }
}
