package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.ChunkRuns.RunSink;

/**
 * The plan of a section read over a flat chunk grid (storage order C; a Fortran-order grid is read as the C order of
 * the reversed shape and transposed after): one {@link ChunkTask} per chunk whose element range holds selected
 * elements, each copying the parts of the selection's rows inside that range.
 */
final class FlatPlan {
  private FlatPlan() {}

  /** The selection as rows of pieces in storage order (trailing dimensions selected whole merged into one). */
  private static final class Rows {
    final long pieceLen; // elements per piece
    final long npieces; // pieces per row
    final long step; // storage distance between pieces
    final long nrows;
    final long span; // storage extent of one row
    final java.util.function.LongUnaryOperator start; // storage start of row r, increasing in r

    Rows(long[] shape, long[] first, long[] count, long[] stride) {
      int rank = shape.length;
      long[] aStride = new long[rank];
      long s = 1;
      for (int d = rank - 1; d >= 0; d--) {
        aStride[d] = s;
        s *= shape[d];
      }
      int t = rank - 1;
      while (t > 0 && first[t] == 0 && stride[t] == 1 && count[t] == shape[t]) {
        t--;
      }
      final int tt = t;
      pieceLen = stride[t] == 1 ? count[t] * aStride[t] : aStride[t];
      npieces = stride[t] == 1 ? 1 : count[t];
      step = stride[t] * aStride[t];
      long rows = 1;
      for (int d = 0; d < t; d++) {
        rows *= count[d];
      }
      nrows = rows;
      span = (npieces - 1) * step + pieceLen;
      start = r -> {
        long f = first[tt] * aStride[tt];
        for (int d = tt - 1; d >= 0; d--) {
          long j = r % count[d];
          r /= count[d];
          f += (first[d] + j * stride[d]) * aStride[d];
        }
        return f;
      };
    }
  }

  static List<ChunkTask> tasks(ChunkedArray a, ChunkGrid.Flat g, long[] first, long[] count, long[] stride,
      Output out, int item) {
    Rows rows = new Rows(g.shape, first, count, stride);
    long kLo = g.chunkOf(rows.start.applyAsLong(0));
    long kHi = g.chunkOf(rows.start.applyAsLong(rows.nrows - 1) + rows.span - 1);
    List<ChunkTask> tasks = new ArrayList<>();
    for (long k = kLo; k <= kHi; k++) {
      ChunkTask task = task(rows, k, g.start(k), g.start(k + 1), out, item);
      if (task != null) {
        tasks.add(task);
      }
    }
    return tasks;
  }

  /** The task of chunk k (elements {@code [cs, ce)} in storage order), or null when no selected element is in it. */
  private static ChunkTask task(Rows rows, long k, long cs, long ce, Output out, int item) {
    if (ce <= cs) {
      return null;
    }
    long rlo = lowerRow(rows.start, rows.nrows, cs - rows.span + 1);
    long rhi = lowerRow(rows.start, rows.nrows, ce) - 1;
    boolean any = false;
    for (long r = rlo; r <= rhi && !any; r++) {
      any = rowTouches(rows.start.applyAsLong(r), rows.npieces, rows.pieceLen, rows.step, cs, ce);
    }
    if (!any) {
      return null;
    }
    ChunkTask task = new ChunkTask(k, (ce - cs) * item) {
      @Override
      void runs(RunSink sink) throws IOException {
        for (long r = rlo; r <= rhi; r++) {
          long outBase = r * rows.npieces * rows.pieceLen;
          piecesIn(rows.start.applyAsLong(r), rows.npieces, rows.pieceLen, rows.step, cs, ce, sink, outBase, item);
        }
      }

      @Override
      Output out() {
        return out;
      }
    };
    // estimate of the bytes needed from this chunk (exact for contiguous selections)
    long sel = Math.min(ce - cs, (rhi - rlo + 1) * rows.npieces * rows.pieceLen);
    task.bytes = sel * item;
    task.covers = sel == ce - cs; // may be true for a strided selection too: then it decodes more than needed
    return task;
  }

  /** First row r in [0, nrows] with rowStart(r) >= target. */
  private static long lowerRow(java.util.function.LongUnaryOperator rowStart, long nrows, long target) {
    long lo = 0;
    long hi = nrows;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (rowStart.applyAsLong(mid) < target) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** First and last piece index of a row that may overlap chunk [cs, ce) (empty when first &gt; last). */
  private static long[] pieceRange(long f0, long npieces, long pieceLen, long step, long cs, long ce) {
    long jlo = f0 + pieceLen > cs ? 0 : ceilDiv(cs - f0 - pieceLen + 1, step);
    long jhi = ce - 1 < f0 ? -1 : Math.min(npieces - 1, Math.floorDiv(ce - 1 - f0, step));
    return new long[] {jlo, jhi};
  }

  private static boolean rowTouches(long f0, long npieces, long pieceLen, long step, long cs, long ce) {
    long[] j = pieceRange(f0, npieces, pieceLen, step, cs, ce);
    for (long q = j[0]; q <= j[1]; q++) {
      long ps = f0 + q * step;
      if (Math.max(ps, cs) < Math.min(ps + pieceLen, ce)) {
        return true;
      }
    }
    return false;
  }

  /** Copies the parts of a row's pieces inside chunk [cs, ce). */
  private static void piecesIn(long f0, long npieces, long pieceLen, long step, long cs, long ce, RunSink sink,
      long outBase, int item) throws IOException {
    long[] j = pieceRange(f0, npieces, pieceLen, step, cs, ce);
    for (long q = j[0]; q <= j[1]; q++) {
      long ps = f0 + q * step;
      long a = Math.max(ps, cs);
      long b = Math.min(ps + pieceLen, ce);
      if (a < b) {
        long dst = outBase + q * pieceLen + (a - ps);
        sink.copy((a - cs) * item, (int) (dst * item), (int) ((b - a) * item));
      }
    }
  }

  static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }

  static long[] reverse(long[] a) {
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      r[i] = a[a.length - 1 - i];
    }
    return r;
  }

  /** {@code src} holds the selection in C order of the reversed dims; writes it in C order of {@code count}. */
  static void transpose(byte[] src, byte[] dst, long[] count, int item) {
    int rank = count.length;
    long n = 1;
    for (long c : count) {
      n *= c;
    }
    // stride in src (reversed C order) of each original dimension
    long[] srcStride = new long[rank];
    long s = 1;
    for (int d = 0; d < rank; d++) {
      srcStride[d] = s;
      s *= count[d];
    }
    long[] idx = new long[rank];
    long srcPos = 0;
    for (long e = 0; e < n; e++) {
      System.arraycopy(src, (int) (srcPos * item), dst, (int) (e * item), item);
      int d = rank - 1;
      while (d >= 0) {
        idx[d]++;
        srcPos += srcStride[d];
        if (idx[d] < count[d]) {
          break;
        }
        srcPos -= srcStride[d] * count[d];
        idx[d] = 0;
        d--;
      }
    }
  }
}
