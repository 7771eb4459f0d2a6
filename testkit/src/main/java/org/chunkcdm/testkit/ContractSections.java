package org.chunkcdm.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import ucar.nc2.Attribute;
import ucar.nc2.Variable;

/** The sections {@link IospContract#sections} checks a variable on, each {first, count, stride}. */
final class ContractSections {
  private ContractSections() {}

  /** The sections of {@code e} (read through {@code v}, whose {@code _ChunkSizes} may give the chunk shape). */
  static List<long[][]> of(Expected e, Variable v) {
    long[] shape = e.shape();
    int rank = shape.length;
    List<long[][]> out = new ArrayList<>();
    if (rank == 0 || Arrays.stream(shape).anyMatch(x -> x == 0)) {
      return out;
    }
    long[] chunk = chunkShape(e, v, shape);
    long[] block = new long[rank];
    long[] eb = e.block();
    for (int d = 0; d < rank; d++) {
      block[d] = Math.max(1, eb != null && eb.length == rank ? eb[d] : chunk[d]);
    }
    alongFirst(out, shape, chunk[0]);
    inEveryDimension(out, shape, chunk, block);
    return out;
  }

  /**
   * In every dimension: around the first block boundary past the first chunk boundary; stride 3; from before the
   * last chunk start to the end; stride block+1 from inside the first block; strides 1, 2, 3 from index 1; the
   * second half; one element in the middle.
   */
  private static void inEveryDimension(List<long[][]> out, long[] shape, long[] chunk, long[] block) {
    int rank = shape.length;
    long[][] a = new long[3][rank];
    long[][] c = new long[3][rank];
    long[][] g = new long[3][rank];
    long[][] half = new long[3][rank];
    long[][] p = new long[3][rank];
    for (int d = 0; d < rank; d++) {
      long n = shape[d];
      long bs = block[d];
      long csz = chunk[d];
      a[0][d] = Math.min(n - 1, Math.max(0, bs - 2));
      a[1][d] = Math.min(n - 1, csz + 2) - a[0][d] + 1;
      a[2][d] = 1;
      long lastStart = (n - 1) / csz * csz;
      c[0][d] = Math.max(0, lastStart - 3);
      c[1][d] = n - c[0][d];
      c[2][d] = 1;
      g[0][d] = Math.min(n - 1, Math.max(0, bs - 1));
      g[2][d] = bs + 1;
      g[1][d] = (n - 1 - g[0][d]) / g[2][d] + 1;
      half[0][d] = n / 2;
      half[1][d] = n - n / 2;
      half[2][d] = 1;
      p[0][d] = n / 2;
      p[1][d] = 1;
      p[2][d] = 1;
    }
    add(out, a);
    add(out, fromOne(shape, 3));
    add(out, c);
    add(out, g);
    for (int s = 1; s <= 3; s++) {
      add(out, fromOne(shape, s));
    }
    add(out, half);
    add(out, p);
  }

  /** Stride {@code s} from index 1 (0 in a dimension of one) to the end, in every dimension. */
  private static long[][] fromOne(long[] shape, int s) {
    long[][] k = new long[3][shape.length];
    for (int d = 0; d < shape.length; d++) {
      k[0][d] = Math.min(1, shape[d] - 1);
      k[2][d] = s;
      k[1][d] = (shape[d] - 1 - k[0][d]) / s + 1;
    }
    return k;
  }

  /** Chunk shape: the expectation's, else {@code _ChunkSizes}, else a third of each dimension (at least 1). */
  private static long[] chunkShape(Expected e, Variable v, long[] shape) {
    int rank = shape.length;
    long[] chunk = new long[rank];
    long[] ec = e.chunk();
    Attribute cs = v == null ? null : v.findAttribute("_ChunkSizes");
    for (int d = 0; d < rank; d++) {
      long c;
      if (ec != null && ec.length == rank) {
        c = ec[d];
      } else if (cs != null && cs.getLength() > d && cs.getNumericValue(d) != null) {
        c = cs.getNumericValue(d).longValue();
      } else {
        c = shape[d] / 3;
      }
      chunk[d] = Math.max(1, c);
    }
    return chunk;
  }

  /**
   * Along dimension 0, the others whole (or strided by 2): rows around the first chunk boundary; strided over
   * all chunks; stride 1 across the last chunk boundary to the end.
   */
  private static void alongFirst(List<long[][]> out, long[] shape, long c0) {
    long n0 = shape[0];
    long boundary = Math.min(c0, n0 - 1);
    long lo = Math.max(0, boundary - 2);
    long hi = Math.min(n0 - 1, boundary + 2);
    add(out, box(shape, lo, hi - lo + 1, 1, false));
    long st = Math.max(2, c0 / 3 + 1);
    long f = Math.min(1, n0 - 1);
    add(out, box(shape, f, (n0 - 1 - f) / st + 1, st, true));
    long lastStart0 = ((n0 - 1) / c0) * c0;
    long from = Math.max(0, lastStart0 - 3);
    add(out, box(shape, from, n0 - from, 1, false));
  }

  private static void add(List<long[][]> out, long[][] k) {
    for (long[][] o : out) {
      if (Arrays.deepEquals(o, k)) {
        return;
      }
    }
    out.add(k);
  }

  private static long[][] box(long[] shape, long first0, long count0, long stride0, boolean innerStride) {
    int rank = shape.length;
    long[][] k = new long[3][rank];
    k[0][0] = first0;
    k[1][0] = count0;
    k[2][0] = stride0;
    for (int d = 1; d < rank; d++) {
      if (innerStride && shape[d] > 1) {
        k[0][d] = 1;
        k[2][d] = 2;
        k[1][d] = (shape[d] - 2) / 2 + 1;
      } else {
        k[1][d] = shape[d];
        k[2][d] = 1;
      }
    }
    return k;
  }
}
