package org.chunkcdm.chunk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * How an N-d array of {@link #shape()} is cut into chunks. Two layouts cover every format:
 *
 * <ul>
 *   <li>{@link Regular}: N-d chunks of a fixed chunk shape (bcolz carrays: {@code [chunklen, shape[1:]...]},
 *       b2nd, HDF5). Chunk {@code (i0..in)} covers {@code [i*c, min((i+1)*c, shape))} in each dimension and its
 *       decoded content is in C order over the FULL chunk shape (an edge chunk may be physically shorter only
 *       where nothing past the array's end would follow, e.g. a bcolz leftover chunk).
 *   <li>{@link Flat}: the array flattened in C (or Fortran) order into consecutive item ranges, chunk k holding
 *       items {@code [start(k), start(k+1))} (Bloscpack files, Blosc2 frames without b2nd, .ds variables).
 * </ul>
 *
 * Chunks are numbered 0.. {@link #chunkCount()}-1 in C order over the grid.
 */
public abstract class ChunkGrid {
  final long[] shape;

  ChunkGrid(long[] shape) {
    this.shape = shape.clone();
    for (long s : shape) {
      if (s < 0) {
        throw new IllegalArgumentException("negative dimension in " + Arrays.toString(shape));
      }
    }
  }

  /** Logical array shape (element counts per dimension, without CDM's extra type dimensions). */
  public long[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  /** Number of elements of the whole array. */
  public long size() {
    long n = 1;
    for (long s : shape) {
      n = Math.multiplyExact(n, s);
    }
    return n;
  }

  public abstract long chunkCount();

  /** N-d regular grid with the given chunk shape (each entry &gt; 0). */
  public static Regular regular(long[] shape, int[] chunkShape) {
    return new Regular(shape, chunkShape);
  }

  /** Flat layout with equal chunks of {@code chunkItems} elements (the last may be shorter). */
  public static Flat flat(long[] shape, long chunkItems, boolean fortranOrder) {
    return new Flat(shape, chunkItems, null, fortranOrder);
  }

  /**
   * Flat layout with variable chunk sizes: {@code starts} has one entry per chunk plus the total element
   * count as the last entry, non-decreasing, starting at 0.
   */
  public static Flat flat(long[] shape, long[] starts, boolean fortranOrder) {
    return new Flat(shape, 0, starts.clone(), fortranOrder);
  }

  /** N-d chunks of one shape. */
  public static final class Regular extends ChunkGrid {
    final int[] chunkShape;
    final long[] gridShape;

    Regular(long[] shape, int[] chunkShape) {
      super(shape);
      if (chunkShape.length != shape.length) {
        throw new IllegalArgumentException("chunk rank " + chunkShape.length + " != array rank " + shape.length);
      }
      this.chunkShape = chunkShape.clone();
      this.gridShape = new long[shape.length];
      for (int d = 0; d < shape.length; d++) {
        if (chunkShape[d] <= 0) {
          throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunkShape) + " has a non-positive entry");
        }
        gridShape[d] = (shape[d] + chunkShape[d] - 1) / chunkShape[d];
      }
    }

    public int[] chunkShape() {
      return chunkShape.clone();
    }

    /** Number of chunks per dimension. */
    public long[] gridShape() {
      return gridShape.clone();
    }

    /** Elements of one full chunk. */
    public long chunkElements() {
      long n = 1;
      for (int c : chunkShape) {
        n = Math.multiplyExact(n, c);
      }
      return n;
    }

    @Override
    public long chunkCount() {
      long n = 1;
      for (long g : gridShape) {
        n = Math.multiplyExact(n, g);
      }
      return n;
    }

    /** Linear chunk number of grid coordinates. */
    public long index(long[] gridCoord) {
      long idx = 0;
      for (int d = 0; d < gridShape.length; d++) {
        idx = idx * gridShape[d] + gridCoord[d];
      }
      return idx;
    }

    @Override
    public String toString() {
      return "Regular" + Arrays.toString(shape) + " chunks " + Arrays.toString(chunkShape);
    }
  }

  /** Computes chunk starts on first use (e.g. from chunk headers that opening a dataset should not read). */
  public interface StartsSource {
    /** One entry per chunk plus the total element count, non-decreasing from 0. */
    long[] starts() throws IOException;
  }

  /**
   * Flat layout with variable chunk sizes known only later: {@code source} is asked once, on the first
   * read that needs chunk boundaries; its result is checked like {@link #flat(long[], long[], boolean)}'s.
   */
  public static Flat flat(long[] shape, long chunks, StartsSource source) {
    return new Flat(shape, chunks, source);
  }

  /** The flattened array cut into consecutive item ranges. */
  public static final class Flat extends ChunkGrid {
    final long chunkItems; // > 0 for equal chunks
    private final long[] starts; // variable chunks (null for equal chunks and for a lazy grid)
    private final Lazy<long[]> lazyStarts; // a lazy grid's variable chunks
    private final StartsSource source; // lazy variable chunks
    private final long lazyCount;
    final boolean fortran;
    final long total;

    Flat(long[] shape, long chunks, StartsSource source) {
      super(shape);
      this.fortran = false;
      this.total = size();
      this.chunkItems = 0;
      this.source = source;
      this.lazyCount = chunks;
      this.starts = null;
      this.lazyStarts = new Lazy<>(this::loadStarts);
    }

    Flat(long[] shape, long chunkItems, long[] starts, boolean fortran) {
      super(shape);
      this.fortran = fortran;
      this.total = size();
      this.source = null;
      this.lazyCount = -1;
      this.lazyStarts = null;
      if (starts == null) {
        if (chunkItems <= 0 && total > 0) {
          throw new IllegalArgumentException("chunk item count must be positive");
        }
        this.chunkItems = Math.max(1, chunkItems);
        this.starts = null;
      } else {
        if (starts.length == 0 || starts[0] != 0 || starts[starts.length - 1] != total) {
          throw new IllegalArgumentException("chunk starts must run from 0 to " + total);
        }
        for (int i = 1; i < starts.length; i++) {
          if (starts[i] < starts[i - 1]) {
            throw new IllegalArgumentException("chunk starts decrease at " + i);
          }
        }
        this.chunkItems = 0;
        this.starts = starts;
      }
    }

    /** The variable chunk starts, asking the lazy source on first use (IOExceptions become unchecked). */
    long[] starts() {
      if (starts != null || lazyStarts == null) {
        return starts;
      }
      try {
        return lazyStarts.get();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The lazy source's starts, checked to describe this grid. */
    private long[] loadStarts() throws IOException {
      long[] s = source.starts();
      if (s.length != lazyCount + 1 || s[0] != 0 || s[s.length - 1] != total) {
        throw new IOException("chunk sizes add up to " + s[s.length - 1] + " elements in " + (s.length - 1)
            + " chunks, but the array has " + total + " in " + lazyCount);
      }
      for (int i = 1; i < s.length; i++) {
        if (s[i] < s[i - 1]) {
          throw new IOException("chunk starts decrease at chunk " + i);
        }
      }
      return s;
    }

    public boolean fortranOrder() {
      return fortran;
    }

    /** True when every chunk but the last holds {@link #chunkItems()} elements. */
    public boolean isEqualChunks() {
      return starts == null && source == null;
    }

    /** Elements per chunk for equal chunks, else 0. */
    public long chunkItems() {
      return chunkItems;
    }

    @Override
    public long chunkCount() {
      if (source != null) {
        return lazyCount;
      }
      if (starts != null) {
        return starts.length - 1;
      }
      return (total + chunkItems - 1) / chunkItems;
    }

    /** First element (in storage order) of chunk k; {@code start(chunkCount())} is the total. */
    public long start(long k) {
      if (!isEqualChunks()) {
        return starts()[(int) k];
      }
      return Math.min(total, k * chunkItems);
    }

    /** The chunk holding element {@code item} (storage order). */
    public long chunkOf(long item) {
      if (isEqualChunks()) {
        return item / chunkItems;
      }
      long[] starts = starts();
      int i = Arrays.binarySearch(starts, item);
      if (i >= 0) {
        while (i + 1 < starts.length && starts[i + 1] == item) {
          i++; // skip empty chunks
        }
        return i;
      }
      return -i - 2;
    }

    @Override
    public String toString() {
      return "Flat" + Arrays.toString(shape) + (isEqualChunks() ? " chunks of " + chunkItems : " " + chunkCount() + " chunks")
          + (fortran ? " F" : "");
    }
  }
}
