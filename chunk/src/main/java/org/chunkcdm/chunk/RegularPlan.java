package org.chunkcdm.chunk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.ChunkRuns.RunSink;

/**
 * The plan of a section read over a regular N-d chunk grid: one {@link ChunkTask} per chunk holding selected elements,
 * each knowing the runs (chunk offset, output offset, length) it copies; trailing dimensions a chunk covers whole are
 * merged into longer runs.
 */
final class RegularPlan {
  private RegularPlan() {}

  static List<ChunkTask> tasks(ChunkedArray a, ChunkGrid.Regular g, long[] first, long[] count,
      long[] stride, Output out, int item) {
    int rank = g.rank();
    int[] c = g.chunkShape;
    long[] shape = g.shape;
    List<long[]> perDim = chunksPerDimension(c, shape, first, count, stride);
    long[] chunkStride = new long[rank];
    long[] outStride = new long[rank];
    long cs = 1;
    long os = 1;
    for (int d = rank - 1; d >= 0; d--) {
      chunkStride[d] = cs;
      outStride[d] = os;
      cs *= c[d];
      os *= count[d];
    }
    long chunkBytes = cs * item;
    List<ChunkTask> tasks = new ArrayList<>();
    int[] pos = new int[rank];
    for (int d = 0; d < rank; d++) {
      if (perDim.get(d).length == 0) {
        return tasks;
      }
    }
    long[] gridShape = g.gridShape;
    while (true) {
      long[] k = new long[rank];
      long[] js = new long[rank];
      long[] je = new long[rank];
      long idx = 0;
      long nsel = 1;
      long inArray = 1; // elements of the chunk inside the array
      for (int d = 0; d < rank; d++) {
        long[] t = perDim.get(d);
        k[d] = t[3 * pos[d]];
        js[d] = t[3 * pos[d] + 1];
        je[d] = t[3 * pos[d] + 2];
        idx = idx * gridShape[d] + k[d];
        nsel *= je[d] - js[d] + 1;
        inArray *= Math.min(c[d], shape[d] - k[d] * c[d]);
      }
      ChunkTask task = new ChunkTask(idx, chunkBytes) {
        @Override
        void runs(RunSink sink) throws IOException {
          RegularPlan.runs(sink, k, js, je, first, stride, c, count, chunkStride, outStride, item);
        }

        @Override
        Output out() {
          return out;
        }
      };
      task.bytes = nsel * item;
      task.covers = nsel == inArray;
      tasks.add(task);
      int d = rank - 1;
      while (d >= 0) {
        if (++pos[d] < perDim.get(d).length / 3) {
          break;
        }
        pos[d] = 0;
        d--;
      }
      if (d < 0) {
        return tasks;
      }
    }
  }

  private static void runs(RunSink sink, long[] k, long[] js, long[] je, long[] first, long[] stride, int[] c,
      long[] count, long[] chunkStride, long[] outStride, int item) throws IOException {
    int rank = k.length;
    // merge trailing dimensions fully covered (whole chunk extent, stride 1, output of the same extent)
    int t = rank - 1;
    while (t > 0 && stride[t] == 1 && je[t] - js[t] + 1 == c[t] && count[t] == c[t] && stride[t - 1] == 1) {
      t--;
    }
    long runElems; // elements per run
    boolean contiguous = stride[t] == 1;
    long inner = 1; // elements of the merged dims after t
    for (int d = t + 1; d < rank; d++) {
      inner *= c[d];
    }
    runElems = contiguous ? (je[t] - js[t] + 1) * inner : inner;
    long[] j = new long[t + 1];
    for (int d = 0; d <= t; d++) {
      j[d] = js[d];
    }
    while (true) {
      long src = 0;
      long dst = 0;
      for (int d = 0; d <= t; d++) {
        src += (first[d] + j[d] * stride[d] - k[d] * c[d]) * chunkStride[d];
        dst += j[d] * outStride[d];
      }
      if (contiguous) {
        sink.copy(src * item, (int) (dst * item), (int) (runElems * item));
      } else {
        long srcStep = stride[t] * chunkStride[t];
        for (long q = js[t]; q <= je[t]; q++) {
          sink.copy(src * item, (int) (dst * item), (int) (runElems * item));
          src += srcStep;
          dst += outStride[t];
        }
      }
      int d = t - 1;
      while (d >= 0) {
        if (++j[d] <= je[d]) {
          break;
        }
        j[d] = js[d];
        d--;
      }
      if (d < 0) {
        return;
      }
    }
  }

  /**
   * Per dimension: the chunks holding selected elements and the selection index range inside each, as triples
   * (chunk index k, first selection index, last selection index).
   */
  private static List<long[]> chunksPerDimension(int[] c, long[] shape, long[] first, long[] count, long[] stride) {
    int rank = c.length;
    List<long[]> perDim = new ArrayList<>(); // each long[] = triples (k, jStart, jEnd)
    for (int d = 0; d < rank; d++) {
      long last = first[d] + (count[d] - 1) * stride[d];
      long[] buf = new long[(int) Math.min(3 * (last / c[d] - first[d] / c[d] + 1), 3 * count[d])];
      int m = 0;
      long k = first[d] / c[d];
      while (true) { // k is always the chunk of a selected element
        long lo = k * c[d];
        long hi = Math.min(lo + c[d], shape[d]);
        long js = first[d] >= lo ? 0 : FlatPlan.ceilDiv(lo - first[d], stride[d]);
        long je = Math.min(count[d] - 1, Math.floorDiv(hi - 1 - first[d], stride[d]));
        buf[m++] = k;
        buf[m++] = js;
        buf[m++] = je;
        if (je + 1 >= count[d]) {
          break;
        }
        k = (first[d] + (je + 1) * stride[d]) / c[d];
      }
      perDim.add(java.util.Arrays.copyOf(buf, m));
    }
    return perDim;
  }

}
