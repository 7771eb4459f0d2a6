package org.chunkcdm.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Blosc1 chunks stored raw ("memcpyed"), built by the format's header layout, for tests of the raw-copy paths. */
public final class RawBloscChunk {
  private RawBloscChunk() {}

  /** {@code data} as a Blosc1 chunk stored raw: a 16-byte header (memcpyed + shuffle flags, typesize {@code ts}). */
  public static byte[] of(byte[] data, int ts) {
    byte[] c = new byte[16 + data.length];
    c[0] = 2; // Blosc1 format version
    c[1] = 1; // BloscLZ format version
    c[2] = (byte) (0x02 | 0x01); // memcpyed | shuffle
    c[3] = (byte) ts;
    ByteBuffer b = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(4, data.length).putInt(8, Math.min(data.length, 1 << 16)).putInt(12, c.length);
    System.arraycopy(data, 0, c, 16, data.length);
    return c;
  }
}
