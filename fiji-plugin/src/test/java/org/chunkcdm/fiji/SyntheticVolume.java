package org.chunkcdm.fiji;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;

/**
 * A synthetic uint16 volume (z, y, x) whose chunks are generated on request, never stored: value(z, y, x) =
 * (z * 7 + y * 3 + x) mod 65536. Counts every chunk it produces ({@link #decoded}), so tests and benchmarks see
 * exactly which chunks a read decoded.
 */
public final class SyntheticVolume extends BasicChunkedArray {
  private static final java.util.concurrent.atomic.AtomicLong SERIAL = new java.util.concurrent.atomic.AtomicLong();
  public final AtomicLong decoded = new AtomicLong();
  private final ChunkGrid.Regular grid;

  public SyntheticVolume(long nz, long ny, long nx, int cz, int cy, int cx) {
    super(DType.of(DType.Kind.UINT, 2, ByteOrder.LITTLE_ENDIAN),
        ChunkGrid.regular(new long[] {nz, ny, nx}, new int[] {cz, cy, cx}), null,
        "synthetic-" + SERIAL.incrementAndGet() + "-" + System.nanoTime());
    this.grid = (ChunkGrid.Regular) super.grid();
  }

  public static int value(long z, long y, long x) {
    return (int) ((z * 7 + y * 3 + x) & 0xffff);
  }

  @Override
  public ChunkData chunk(long index) throws IOException {
    decoded.incrementAndGet();
    long[] gs = grid.gridShape();
    int[] c = grid.chunkShape();
    long gx = index % gs[2];
    long gy = (index / gs[2]) % gs[1];
    long gz = index / (gs[2] * gs[1]);
    byte[] b = new byte[c[0] * c[1] * c[2] * 2];
    int i = 0;
    for (int z = 0; z < c[0]; z++) {
      for (int y = 0; y < c[1]; y++) {
        long base = value(gz * c[0] + z, gy * c[1] + y, gx * c[2]);
        for (int x = 0; x < c[2]; x++) {
          int v = (int) ((base + x) & 0xffff);
          b[i++] = (byte) v;
          b[i++] = (byte) (v >>> 8);
        }
      }
    }
    return ChunkData.of(b);
  }
}
