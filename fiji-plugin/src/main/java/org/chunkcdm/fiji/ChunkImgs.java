package org.chunkcdm.fiji;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import net.imglib2.img.basictypeaccess.array.ByteArray;
import net.imglib2.img.basictypeaccess.array.DoubleArray;
import net.imglib2.img.basictypeaccess.array.FloatArray;
import net.imglib2.img.basictypeaccess.array.IntArray;
import net.imglib2.img.basictypeaccess.array.LongArray;
import net.imglib2.img.basictypeaccess.array.ShortArray;
import net.imglib2.img.cell.Cell;
import net.imglib2.img.cell.CellGrid;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.NativeType;
import net.imglib2.type.numeric.integer.ByteType;
import net.imglib2.type.numeric.integer.IntType;
import net.imglib2.type.numeric.integer.LongType;
import net.imglib2.type.numeric.integer.ShortType;
import net.imglib2.type.numeric.integer.UnsignedByteType;
import net.imglib2.type.numeric.integer.UnsignedIntType;
import net.imglib2.type.numeric.integer.UnsignedLongType;
import net.imglib2.type.numeric.integer.UnsignedShortType;
import net.imglib2.type.numeric.real.DoubleType;
import net.imglib2.type.numeric.real.FloatType;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;

/**
 * The ImgLib2 adapter (no ImageJ classes): a variable as a {@link LazyCellImg} whose cell grid is the variable's
 * chunk grid with the axis order reversed (CDM {@code (t,z,y,x)} → ImgLib2 {@code (x,y,z,t)}), so a C-order
 * chunk is the F-order cell buffer without a transpose.
 *
 * <ul>
 *   <li>{@link ChunkGrid.Regular} grids (bcolz, b2nd): one cell per chunk, loading a cell decodes exactly that
 *       chunk.
 *   <li>{@link ChunkGrid.Flat} grids (Bloscpack, Blosc2 frames, .ds: consecutive C-order item ranges) have no
 *       N-d chunk shape. Cells are then C-order "slabs": the trailing CDM dimensions whole while their product
 *       fits in one chunk's item count, the next dimension cut into {@code chunkItems / product} rows, the
 *       leading dimensions 1. A cell then crosses at most two chunks (one when chunk boundaries fall on row
 *       boundaries), and a row is never split unless one row is larger than a chunk. Fortran-ordered flat
 *       layouts (Bloscpack ndarrays with {@code order: F}) get the mirror image: leading dimensions whole.
 * </ul>
 *
 * Cells are at most {@link #MAX_CELL_ELEMENTS} elements (ImgLib2 cells are Java arrays). Loading a cell reads
 * its box through core's section assembly; the decoded cell bytes are kept in core's byte-bounded
 * {@link ChunkCache} (the same one the rest of chunkcdm uses) so revisiting a cell does not decode again.
 * Element types: (u)int8..(u)int64, float32/64 (float16 widened to float32) → the matching ImgLib2 type,
 * bool → {@link UnsignedByteType} 0/1; anything else is refused with an IOException.
 */
public final class ChunkImgs {
  /** Largest cell (elements). */
  public static final long MAX_CELL_ELEMENTS = 1L << 28;

  private ChunkImgs() {}

  /** The variable as a lazy cell image (ImgLib2 axis order: CDM reversed). */
  public static LazyCellImg<?, ?> open(ImageVariable v) throws IOException {
    String why = v.whyNotAnImage();
    if (why != null) {
      throw new IOException(why);
    }
    return open(v.array(), v.dataset().path() + ":" + v.name());
  }

  /** A chunked array as a lazy cell image; {@code what} names it in errors. */
  public static LazyCellImg<?, ?> open(ChunkedArray a, String what) throws IOException {
    DType dt = a.dtype();
    if (!Types.isSupported(dt)) {
      throw new IOException(what + ": element type " + dt + " (" + dt.kind() + ") has no ImgLib2 pixel type");
    }
    long[] shape = a.grid().shape();
    if (shape.length == 0) {
      throw new IOException(what + ": a scalar is not an image");
    }
    for (long s : shape) {
      if (s == 0) {
        throw new IOException(what + ": empty array " + Arrays.toString(shape));
      }
    }
    int[] cdmCell = cellShape(a.grid());
    int n = shape.length;
    long[] imgDims = new long[n];
    int[] cellDims = new int[n];
    for (int d = 0; d < n; d++) {
      imgDims[d] = shape[n - 1 - d];
      cellDims[d] = cdmCell[n - 1 - d];
    }
    CellGrid grid = new CellGrid(imgDims, cellDims);
    CellLoader loader = new CellLoader(a, grid, what);
    switch (dt.kind()) {
      case BOOL:
        return new LazyCellImg<>(grid, new UnsignedByteType(), i -> new Cell<>(loader.dims(i), loader.min(i), new ByteArray((byte[]) loader.load(i))));
      case INT:
      case UINT: {
        boolean u = dt.kind() == DType.Kind.UINT;
        switch (dt.itemSize()) {
          case 1:
            return u ? lazy(grid, new UnsignedByteType(), loader, p -> new ByteArray((byte[]) p))
                : lazy(grid, new ByteType(), loader, p -> new ByteArray((byte[]) p));
          case 2:
            return u ? lazy(grid, new UnsignedShortType(), loader, p -> new ShortArray((short[]) p))
                : lazy(grid, new ShortType(), loader, p -> new ShortArray((short[]) p));
          case 4:
            return u ? lazy(grid, new UnsignedIntType(), loader, p -> new IntArray((int[]) p))
                : lazy(grid, new IntType(), loader, p -> new IntArray((int[]) p));
          default:
            return u ? lazy(grid, new UnsignedLongType(), loader, p -> new LongArray((long[]) p))
                : lazy(grid, new LongType(), loader, p -> new LongArray((long[]) p));
        }
      }
      default:
        return dt.itemSize() == 8 ? lazy(grid, new DoubleType(), loader, p -> new DoubleArray((double[]) p))
            : lazy(grid, new FloatType(), loader, p -> new FloatArray((float[]) p));
    }
  }

  private interface Wrap<A> {
    A wrap(Object primitive);
  }

  private static <T extends NativeType<T>, A extends net.imglib2.img.basictypeaccess.DataAccess> LazyCellImg<T, A> lazy(
      CellGrid grid, T type, CellLoader loader, Wrap<A> wrap) {
    return new LazyCellImg<>(grid, type, i -> new Cell<>(loader.dims(i), loader.min(i), wrap.wrap(loader.load(i))));
  }

  /**
   * The cell shape in CDM order for a chunk grid: the chunk shape for regular grids (capped at
   * {@link #MAX_CELL_ELEMENTS}), C-order slabs of about one chunk for flat grids (see the class comment).
   */
  public static int[] cellShape(ChunkGrid g) {
    long[] shape = g.shape();
    int n = shape.length;
    int[] cell = new int[n];
    if (g instanceof ChunkGrid.Regular) {
      int[] c = ((ChunkGrid.Regular) g).chunkShape();
      for (int d = 0; d < n; d++) {
        cell[d] = (int) Math.min(c[d], Math.max(1, shape[d]));
      }
    } else {
      ChunkGrid.Flat f = (ChunkGrid.Flat) g;
      long chunks = Math.max(1, f.chunkCount());
      long items = f.isEqualChunks() ? f.chunkItems() : Math.max(1, g.size() / chunks);
      items = Math.max(1, Math.min(items, MAX_CELL_ELEMENTS));
      Arrays.fill(cell, 1);
      long prod = 1;
      boolean fortran = f.fortranOrder();
      for (int i = 0; i < n; i++) {
        int d = fortran ? i : n - 1 - i; // storage order: fastest dimension first
        long s = Math.max(1, shape[d]);
        if (prod * s <= items) {
          cell[d] = (int) s;
          prod *= s;
        } else {
          cell[d] = (int) Math.max(1, Math.min(s, items / prod));
          break;
        }
      }
    }
    // cap: halve the slowest dimension above 1 until the cell fits a Java array comfortably
    while (product(cell) > MAX_CELL_ELEMENTS) {
      for (int d = 0; d < n; d++) {
        if (cell[d] > 1) {
          cell[d] = (cell[d] + 1) / 2;
          break;
        }
      }
    }
    return cell;
  }

  private static long product(int[] c) {
    long p = 1;
    for (int x : c) {
      p *= x;
    }
    return p;
  }

  /** Key of a cell layout of one array in the shared chunk cache (distinct from core's chunk keys). */
  private record CellKey(Object arrayKey, String layout) {}

  /** Loads one cell's box through core, through the shared cache. */
  static final class CellLoader {
    final ChunkedArray a;
    final CellGrid grid;
    final String what;
    final int n;
    final CellKey key;

    CellLoader(ChunkedArray a, CellGrid grid, String what) {
      this.a = a;
      this.grid = grid;
      this.what = what;
      this.n = grid.numDimensions();
      Object k = a.cacheKey();
      this.key = k == null ? null : new CellKey(k, "imglib2-cells" + Arrays.toString(grid.getCellDimensions()));
    }

    long[] min(long index) {
      long[] min = new long[n];
      int[] dims = new int[n];
      grid.getCellDimensions(index, min, dims);
      return min;
    }

    int[] dims(long index) {
      long[] min = new long[n];
      int[] dims = new int[n];
      grid.getCellDimensions(index, min, dims);
      return dims;
    }

    Object load(long index) {
      long[] min = new long[n];
      int[] dims = new int[n];
      grid.getCellDimensions(index, min, dims);
      try {
        ChunkCache cache = a.settings().cache(); // the array's own (OpenOptions), else the shared one
        byte[] bytes = key == null ? null : cache.get(key, index);
        if (bytes == null) {
          long[] first = new long[n];
          long[] count = new long[n];
          long[] stride = new long[n];
          for (int d = 0; d < n; d++) {
            first[n - 1 - d] = min[d];
            count[n - 1 - d] = dims[d];
            stride[d] = 1;
          }
          bytes = org.chunkcdm.chunk.SectionReader.readBytes(a, first, count, stride);
          if (key != null) {
            cache.put(key, index, bytes);
          }
        }
        return Types.toPrimitive(a.dtype(), bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(what + ": cell " + index + " at " + Arrays.toString(min) + ": " + e.getMessage(), e);
      }
    }
  }
}
