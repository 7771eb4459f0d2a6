package org.chunkcdm.blosc;

import java.io.IOException;
import org.chunkcdm.chunk.ChunkData;

/**
 * TEMPORARY STUB on branch bcolz until branch codec is merged (take codec's version on conflict).
 * Decodes memcpy'ed Blosc1 chunks only.
 */
public final class BloscChunkData {
  private BloscChunkData() {}

  public static ChunkData of(byte[] src, int off, int len) throws IOException {
    BloscHeader h = BloscHeader.parse(src, off, len);
    if ((h.flags() & 0x02) == 0) {
      throw new IOException("codec not merged yet: only memcpy Blosc chunks decode on this branch");
    }
    if (h.cbytes() > len || h.nbytes() + 16 > h.cbytes()) {
      throw new IOException("bad Blosc chunk sizes");
    }
    byte[] b = new byte[(int) h.nbytes()];
    System.arraycopy(src, off + 16, b, 0, b.length);
    return ChunkData.of(b);
  }
}
