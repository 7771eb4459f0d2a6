package org.chunkcdm.chunk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory array for tests: logical C-order element bytes (in the dtype's byte order), cut into chunks as its grid
 * says (flat grids in C or Fortran storage order; regular chunks at full extent, the part outside the array filled
 * with {@code 0x5a} bytes that a correct reader never returns). Chunks listed as missing read as the fill value.
 * Counts the chunks asked for.
 */
public class MemoryArray extends BasicChunkedArray {
  /** Writes the bytes of the element with C-order index {@code cIndex} at {@code dst[off..off+itemSize)}. */
  public interface Elements {
    void element(long cIndex, byte[] dst, int off);
  }

  private final byte[] logical; // null when the elements come from a function
  private final Elements elements;
  private final Set<Long> missing;
  /** Every {@link #chunk} call. */
  public final AtomicInteger opened = new AtomicInteger();
  /** The chunk indices asked for. */
  public final Set<Long> touched = ConcurrentHashMap.newKeySet();

  public MemoryArray(DType dt, ChunkGrid grid, byte[] logical, Set<Long> missing, byte[] fill, Object cacheKey) {
    super(dt, grid, fill, cacheKey);
    this.logical = logical;
    this.elements = (i, dst, off) -> System.arraycopy(logical, (int) i * dt.itemSize(), dst, off, dt.itemSize());
    this.missing = missing;
  }

  /** Elements computed on demand (arrays larger than the heap). */
  public MemoryArray(DType dt, ChunkGrid grid, Elements elements, Set<Long> missing, byte[] fill) {
    super(dt, grid, fill, null);
    this.logical = null;
    this.elements = elements;
    this.missing = missing;
  }

  /** int32 elements equal to their C-order index, in the dtype's byte order. */
  public static Elements indexElements(java.nio.ByteOrder order) {
    return (i, dst, off) -> ByteBuffer.wrap(dst).order(order).putInt(off, (int) i);
  }

  public MemoryArray(DType dt, ChunkGrid grid, byte[] logical, Set<Long> missing, byte[] fill) {
    this(dt, grid, logical, missing, fill, null);
  }

  /** The logical C-order element bytes (not a copy). */
  public byte[] logical() {
    return logical;
  }

  /** The chunks that read as the fill value. */
  public Set<Long> missing() {
    return missing;
  }

  /** The C-order index of {@code coord}. */
  public static long cIndex(long[] coord, long[] shape) {
    long i = 0;
    for (int d = 0; d < shape.length; d++) {
      i = i * shape[d] + coord[d];
    }
    return i;
  }

  @Override
  public ChunkData chunk(long index) {
    opened.incrementAndGet();
    touched.add(index);
    if (missing.contains(index)) {
      return null;
    }
    ChunkGrid grid = grid();
    return ChunkData.of(grid instanceof ChunkGrid.Flat ? flatChunk((ChunkGrid.Flat) grid, index)
        : regularChunk((ChunkGrid.Regular) grid, index));
  }

  private byte[] flatChunk(ChunkGrid.Flat f, long index) {
    int item = dtype().itemSize();
    long[] shape = f.shape();
    int rank = shape.length;
    long s = f.start(index);
    long e = f.start(index + 1);
    byte[] b = new byte[(int) (e - s) * item];
    long[] coord = new long[rank];
    for (long st = s; st < e; st++) { // storage index -> coordinates -> C index
      long r = st;
      for (int i = 0; i < rank; i++) {
        int d = f.fortranOrder() ? i : rank - 1 - i;
        coord[d] = r % shape[d];
        r /= shape[d];
      }
      elements.element(cIndex(coord, shape), b, (int) (st - s) * item);
    }
    return b;
  }

  private byte[] regularChunk(ChunkGrid.Regular g, long index) {
    int item = dtype().itemSize();
    long[] shape = g.shape();
    int rank = shape.length;
    int[] c = g.chunkShape();
    long[] gs = g.gridShape();
    long[] k = new long[rank];
    long r = index;
    for (int d = rank - 1; d >= 0; d--) {
      k[d] = r % gs[d];
      r /= gs[d];
    }
    int n = (int) g.chunkElements();
    byte[] b = new byte[n * item];
    Arrays.fill(b, (byte) 0x5a); // padding outside the array: must never be read
    long[] coord = new long[rank];
    for (int e = 0; e < n; e++) {
      int q = e;
      boolean inside = true;
      for (int d = rank - 1; d >= 0; d--) {
        coord[d] = k[d] * c[d] + q % c[d];
        q /= c[d];
        inside &= coord[d] < shape[d];
      }
      if (inside) {
        elements.element(cIndex(coord, shape), b, e * item);
      }
    }
    return b;
  }

  /** The chunk holding the element at {@code coord}. */
  public long chunkOf(long[] coord) {
    ChunkGrid grid = grid();
    long[] shape = grid.shape();
    if (grid instanceof ChunkGrid.Flat) {
      ChunkGrid.Flat f = (ChunkGrid.Flat) grid;
      long st = 0;
      if (f.fortranOrder()) {
        for (int d = shape.length - 1; d >= 0; d--) {
          st = st * shape[d] + coord[d];
        }
      } else {
        st = cIndex(coord, shape);
      }
      return f.chunkOf(st);
    }
    ChunkGrid.Regular g = (ChunkGrid.Regular) grid;
    long idx = 0;
    for (int d = 0; d < shape.length; d++) {
      idx = idx * g.gridShape()[d] + coord[d] / g.chunkShape()[d];
    }
    return idx;
  }
}
