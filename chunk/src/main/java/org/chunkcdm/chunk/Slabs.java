package org.chunkcdm.chunk;

import java.util.Arrays;

/**
 * Cuts an N-d selection of {@code shape} (CDM index space of the selection) into slabs of at most
 * {@code maxBytes}: leading indices fixed, one dimension ranged, trailing dimensions whole, so every slab is a
 * C-order-contiguous run of the selection. The ranged dimension is the first one a single index of which
 * (with all trailing dimensions) fits the bound. When the selection is a whole variable with a known chunk
 * layout, slab boundaries along the ranged dimension fall on chunk boundaries: whole regular chunks per slab,
 * or even pieces of one chunk when one chunk's extent is over the bound (never across a chunk boundary), or
 * flat chunk starts that lie on a row boundary. A selection within the bound is one slab (none when it is
 * empty). Without a chunk layout the slabs are plain C-order runs of the selection: concatenated, their elements
 * are the selection's in C order.
 */
public final class Slabs {
  private final int[] shape;
  private final int k; // ranged dimension; -1 = one slab of everything
  private final int rows; // rows per slab along k (upper bound)
  private final long rowElems; // elements of one index along k (trailing dims)
  private final int unit; // regular chunk extent along k (1 = no regular alignment)
  private final ChunkGrid.Flat flat; // flat chunk starts to align to (logical elements), or null
  private final int extra; // CDM elements per logical element for flat alignment (extra last dim)
  private final int[] lead; // current leading indices (dims < k)
  private int pos; // current index along k
  private boolean done;

  /** Plain C-order slabs of at most {@code maxBytes} of a selection of {@code shape} (no chunk alignment). */
  public Slabs(int[] shape, long elemBytes, long maxBytes) {
    this(shape, elemBytes, maxBytes, null, null, 1);
  }

  /**
   * @param shape selection shape (all entries &gt; 0 unless the selection is empty)
   * @param elemBytes bytes of one CDM element
   * @param maxBytes slab bound
   * @param chunkShape regular chunk shape in CDM space (same rank), or null
   * @param flat flat chunk layout of the whole variable (C order), or null
   * @param extra CDM elements per logical element of {@code flat} (1 when no extra dimension)
   */
  public Slabs(int[] shape, long elemBytes, long maxBytes, int[] chunkShape, ChunkGrid.Flat flat, int extra) {
    this.shape = shape.clone();
    this.flat = flat != null && !flat.fortranOrder() ? flat : null;
    this.extra = Math.max(1, extra);
    long total = elemBytes;
    for (int s : shape) {
      total *= s;
    }
    int r = shape.length;
    long[] trail = new long[r]; // elements after one index of dim d
    long t = 1;
    for (int d = r - 1; d >= 0; d--) {
      trail[d] = t;
      t *= shape[d];
    }
    done = t == 0;
    if (r == 0 || total <= maxBytes) {
      k = -1;
      rows = 0;
      rowElems = 0;
      unit = 1;
      lead = new int[0];
      return;
    }
    // the first dimension one index of which (with everything after it) fits the bound
    int kk = r - 1;
    for (int d = 0; d < r; d++) {
      if (trail[d] * elemBytes <= maxBytes) {
        kk = d;
        break;
      }
    }
    k = kk;
    rowElems = trail[k];
    long n = Math.max(1, maxBytes / (rowElems * elemBytes));
    int u = 1;
    if (chunkShape != null && chunkShape[k] > 1) {
      long c = Math.min(chunkShape[k], shape[k]);
      u = (int) c;
      if (n >= c) {
        n = n / c * c; // whole chunks per slab
      } else {
        long pieces = (c + n - 1) / n; // even pieces of one chunk, never across a chunk boundary
        n = (c + pieces - 1) / pieces;
      }
    }
    unit = u;
    rows = (int) Math.min(n, shape[k]);
    lead = new int[k];
  }

  /** Whether the selection is one slab. */
  public boolean single() {
    return k < 0;
  }

  /** The next slab as {origin, shape} in selection space, or null at the end. */
  public int[][] next() {
    if (done) {
      return null;
    }
    int r = shape.length;
    if (k < 0) {
      done = true;
      return new int[][] {new int[r], shape.clone()};
    }
    int end = Math.min(shape[k], pos + rows);
    if (unit > 1 && rows < unit) {
      end = (int) Math.min(end, (pos / unit + 1L) * unit); // pieces of a chunk end at its boundary
    }
    if (flat != null && end < shape[k]) {
      end = alignFlat(end);
    }
    int[] origin = new int[r];
    int[] count = shape.clone();
    System.arraycopy(lead, 0, origin, 0, k);
    Arrays.fill(count, 0, k, 1);
    origin[k] = pos;
    count[k] = end - pos;
    pos = end;
    if (pos >= shape[k]) {
      pos = 0;
      int d = k - 1;
      while (d >= 0) {
        if (++lead[d] < shape[d]) {
          break;
        }
        lead[d] = 0;
        d--;
      }
      if (d < 0) {
        done = true;
      }
    }
    return new int[][] {origin, count};
  }

  /** Moves a slab end back to the last flat chunk start on a row boundary after {@code pos}, if any. */
  private int alignFlat(int end) {
    long base = 0; // flat CDM index of (lead, 0, 0...)
    long mul = 1;
    int r = shape.length;
    long[] strides = new long[r];
    for (int d = r - 1; d >= 0; d--) {
      strides[d] = mul;
      mul *= shape[d];
    }
    for (int d = 0; d < k; d++) {
      base += lead[d] * strides[d];
    }
    long endCdm = base + (long) end * rowElems;
    if (endCdm % extra != 0) {
      return end;
    }
    long endItem = endCdm / extra;
    long chunk = flat.chunkOf(endItem);
    long s = flat.start(chunk);
    if (s == endItem) {
      return end;
    }
    long sCdm = s * extra;
    long startCdm = base + (long) pos * rowElems;
    if (sCdm > startCdm && (sCdm - base) % rowElems == 0) {
      return (int) ((sCdm - base) / rowElems);
    }
    return end;
  }
}
