package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;

/**
 * For format modules' tests (through core's test jar): every variable of rank &ge; 2 of a dataset read with
 * whole chunks scattered straight into the result ({@link SectionReader#setScatterBytes} 0, so even the small
 * fixtures take that path) equals the read through the cache (scatter off) — raw bytes and the typed read, for
 * the whole array, an inner box, strided boxes and a box strided in the slowest dimension only — and the
 * scattered whole read decodes each chunk once and caches none it covered entirely.
 */
public final class ScatterChecks {
  /** Chunks the whole reads of {@link #check} scattered (the rest landed in one piece each). */
  public static final java.util.concurrent.atomic.LongAdder SCATTERED_IN_CHECKS = new java.util.concurrent.atomic.LongAdder();

  private ScatterChecks() {}

  /** Checks every N-d variable of the dataset at {@code p}; returns how many were checked. */
  public static int check(Path p) throws Exception {
    int checked = 0;
    long saved = ChunkProbes.setScatterBytes(0);
    try (ChunkedDataset ds = Datasets.open(p)) {
      for (ChunkedVariable v : ds.variables()) {
        ChunkedArray a = v.array();
        if (a == null || a.grid().rank() < 2 || a.grid().chunkCount() < 2) {
          continue;
        }
        long[] shape = a.grid().shape();
        boolean empty = false;
        for (long s : shape) {
          empty |= s == 0;
        }
        if (empty) {
          continue;
        }
        for (long[][] box : boxes(shape)) {
          String what = p + " " + v.name() + " box " + java.util.Arrays.deepToString(box);
          ChunkProbes.setScatterBytes(0);
          ChunkCache c1 = new ChunkCache(64L << 20);
          byte[] scattered = SectionReader.readBytes(a, box[0], box[1], box[2], ReadSettings.of(c1, 0));
          Object typedScattered = typed(a, box, c1);
          ChunkProbes.setScatterBytes(Long.MAX_VALUE);
          ChunkCache c2 = new ChunkCache(64L << 20);
          byte[] cached = SectionReader.readBytes(a, box[0], box[1], box[2], ReadSettings.of(c2, 0));
          Object typedCached = typed(a, box, c2);
          assertArrayEquals(cached, scattered, what + ": bytes");
          if (typedCached != null) {
            assertEquals(java.util.Arrays.deepToString(new Object[] {typedCached}),
                java.util.Arrays.deepToString(new Object[] {typedScattered}), what + ": typed");
          }
        }
        // the whole read: each chunk decoded once, the ones it covers entirely (all of them) scattered, not cached
        ChunkProbes.setScatterBytes(0);
        ChunkCache c = new ChunkCache(64L << 20);
        long s0 = ChunkProbes.scattered();
        SectionReader.readBytes(a, new long[shape.length], shape, null, ReadSettings.of(c, 1));
        long stored = 0;
        for (long k = 0; k < a.grid().chunkCount(); k++) {
          stored += a.chunk(k) == null ? 0 : 1;
        }
        assertEquals(stored, c.chunkDecodes(), p + " " + v.name() + ": chunks decoded");
        // chunks landing in one piece are decoded straight into the result, the others scattered: none cached
        assertEquals(0, c.bytes(), p + " " + v.name() + ": nothing cached");
        SCATTERED_IN_CHECKS.add(ChunkProbes.scattered() - s0);
        checked++;
      }
    } finally {
      ChunkProbes.setScatterBytes(saved);
    }
    return checked;
  }

  private static Object typed(ChunkedArray a, long[][] box, ChunkCache cache) throws Exception {
    if (SectionReader.typedClass(a.dtype()) == null) {
      return null;
    }
    long n = 1;
    for (long s : box[1]) {
      n *= s;
    }
    Object dst = SectionReader.newTypedArray(a.dtype(), (int) n);
    SectionReader.readInto(a, box[0], box[1], box[2], dst, 0, ReadSettings.of(cache, 0));
    return dst;
  }

  static java.util.List<long[][]> boxes(long[] shape) {
    int rank = shape.length;
    java.util.List<long[][]> out = new java.util.ArrayList<>();
    long[] zero = new long[rank];
    long[] one = new long[rank];
    java.util.Arrays.fill(one, 1);
    out.add(new long[][] {zero, shape.clone(), one});
    long[] o = new long[rank];
    long[] s = new long[rank];
    long[] two = new long[rank];
    long[] half = new long[rank];
    for (int d = 0; d < rank; d++) {
      o[d] = shape[d] > 2 ? 1 : 0;
      s[d] = Math.max(1, shape[d] - 2 * o[d]);
      two[d] = 2;
      half[d] = (shape[d] - o[d] + 1) / 2;
    }
    out.add(new long[][] {o, s, one});
    out.add(new long[][] {o, half, two});
    long[] st = one.clone();
    st[0] = 3;
    long[] s3 = shape.clone();
    s3[0] = (shape[0] + 2) / 3;
    out.add(new long[][] {zero, s3, st});
    return out;
  }
}
