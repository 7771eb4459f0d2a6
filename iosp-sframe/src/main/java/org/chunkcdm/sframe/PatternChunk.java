package org.chunkcdm.sframe;

import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FormatException;

/** An index entry standing for one value repeated: zeros, or float32 / float64 quiet NaNs (little-endian). */
final class PatternChunk implements ChunkData {
  final long size;
  final byte[] pattern;
  private final String what;

  private PatternChunk(long size, byte[] pattern, String what) {
    this.size = size;
    this.pattern = pattern;
    this.what = what;
  }

  /** {@code size} bytes of zeros. */
  static PatternChunk zeros(long size) {
    return new PatternChunk(size, new byte[] {0}, "zeros");
  }

  /** {@code size} bytes of NaNs of {@code typesize} 4 or 8. */
  static PatternChunk nan(long size, int typesize) {
    return new PatternChunk(size,
        typesize == 4 ? new byte[] {0, 0, (byte) 0xc0, 0x7f} : new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xf8, 0x7f}, "NaN");
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
    if (offset < 0 || len < 0 || offset > size - len) {
      throw new FormatException(
          "read of " + len + " bytes at " + offset + " outside a " + what + " chunk of " + size + " bytes");
    }
    if (pattern.length == 1) {
      Arrays.fill(dst, dstOff, dstOff + len, pattern[0]);
      return;
    }
    for (int i = 0; i < len; i++) {
      dst[dstOff + i] = pattern[(int) ((offset + i) % pattern.length)];
    }
  }
}
