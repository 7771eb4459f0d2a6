package org.chunkcdm.blosc2stores;

import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FormatException;

/**
 * Which physical rows of a CTable are live: the positions whose {@code _valid_rows} entry is true, in physical
 * order (what python-blosc2's {@code len(table)} and {@code table[col][:]} show). When the schema's
 * {@code n_rows} equals the physical length, python-blosc2 takes row k as physical row k without looking at
 * {@code _valid_rows}, and so does {@link #column}; otherwise {@code _valid_rows} is read on the first read of
 * any column (chunk by chunk, kept as runs of live rows), never when the table is opened. Thread-safe.
 */
final class LiveRows {
  /** Rows of {@code _valid_rows} read at once while building the runs. */
  private static final int SCAN = 1 << 20;

  private final String name;
  private final ChunkedArray valid;
  final long physical;
  final long live;
  private volatile Runs runs;

  /** Runs of live physical rows: start, length, and the live rows before each. */
  private static final class Runs {
    final long[] start;
    final long[] length;
    final long[] before;

    Runs(long[] start, long[] length, long[] before) {
      this.start = start;
      this.length = length;
      this.before = before;
    }

    /** The first run ending after physical row {@code p} (or the run count). */
    int firstEndingAfter(long p) {
      int lo = 0;
      int hi = start.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (start[mid] + length[mid] > p) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }

    /** Live rows before physical row {@code p}. */
    long liveBefore(long p, long total) {
      int j = firstEndingAfter(p);
      if (j == start.length) {
        return total;
      }
      return before[j] + Math.max(0, p - start[j]);
    }
  }

  /**
   * @param live the schema's {@code n_rows}, or -1 when it has none (then {@code _valid_rows} is counted now, as
   *     python-blosc2 does)
   */
  LiveRows(String name, ChunkedArray valid, long live) throws IOException {
    this.name = name;
    this.valid = valid;
    this.physical = valid.grid().shape()[0];
    if (live < 0) {
      this.live = total(runs(-1));
    } else {
      if (live > physical) {
        throw new FormatException(name + ": the schema's n_rows " + live + " is more than the " + physical
            + " rows of _valid_rows");
      }
      this.live = live;
    }
  }

  private static long total(Runs r) {
    int n = r.start.length;
    return n == 0 ? 0 : r.before[n - 1] + r.length[n - 1];
  }

  /** Logical row k is physical row k (no deleted row before the last live one). */
  boolean identity() {
    return live == physical;
  }

  /** The runs, read from {@code _valid_rows} on first use; {@code expect} live rows (-1: any number). */
  private Runs runs(long expect) throws IOException {
    Runs r = runs;
    if (r != null) {
      return r;
    }
    synchronized (this) {
      if (runs != null) {
        return runs;
      }
      long[] s = new long[16];
      long[] l = new long[16];
      long[] b = new long[16];
      int n = 0;
      long count = 0;
      long open = -1; // start of the run being read, -1 when none
      for (long at = 0; at < physical; at += SCAN) {
        int m = (int) Math.min(SCAN, physical - at);
        byte[] v = SectionReader.readBytes(valid, new long[] {at}, new long[] {m}, new long[] {1});
        for (int i = 0; i <= m; i++) {
          boolean on = i < m && v[i] != 0;
          if (on && open < 0) {
            open = at + i;
          } else if (!on && open >= 0 && (i < m || at + m == physical)) {
            if (n == s.length) {
              s = Arrays.copyOf(s, 2 * n);
              l = Arrays.copyOf(l, 2 * n);
              b = Arrays.copyOf(b, 2 * n);
            }
            s[n] = open;
            l[n] = at + i - open;
            b[n] = count;
            count += l[n];
            n++;
            open = -1;
          }
        }
      }
      if (expect >= 0 && count != expect) {
        throw new FormatException(name + ": _valid_rows marks " + count + " rows live, but the schema's n_rows is "
            + expect);
      }
      r = new Runs(Arrays.copyOf(s, n), Arrays.copyOf(l, n), Arrays.copyOf(b, n));
      runs = r;
      return r;
    }
  }

  /**
   * The live rows of a column (its physical length at least {@link #physical}; first dimension = rows): the
   * column itself when the rows are the first {@link #live} physical ones, else a view gathering the live rows
   * of each stored chunk.
   */
  ChunkedArray column(ChunkedArray col, String what) throws IOException {
    long[] shape = col.grid().shape();
    if (shape.length == 0 || shape[0] < physical) {
      throw new FormatException(what + ": " + (shape.length == 0 ? "a 0-d array" : shape[0] + " rows")
          + " but the table has " + physical + " physical rows");
    }
    if (!(col.grid() instanceof ChunkGrid.Regular)) {
      throw new FormatException(what + ": a column must be a b2nd array");
    }
    int[] cs = ((ChunkGrid.Regular) col.grid()).chunkShape();
    long[] want = shape.clone();
    want[0] = live;
    if (identity()) {
      return shape[0] == live ? col : new Rows(col, ChunkGrid.regular(want, cs));
    }
    for (int d = 1; d < shape.length; d++) {
      if (cs[d] != shape[d]) {
        throw new FormatException(what + ": deleted rows can only be skipped when a chunk holds whole rows; "
            + "chunk shape " + Arrays.toString(cs) + ", shape " + Arrays.toString(shape));
      }
    }
    return new Gathered(col, want, cs[0]);
  }

  /** A column seen with another number of rows (whole chunks unchanged). */
  private static final class Rows extends BasicChunkedArray {
    private final ChunkedArray col;

    Rows(ChunkedArray col, ChunkGrid grid) {
      super(col.dtype(), grid, col.fillValue(), col.cacheKey());
      this.col = col;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      return col.chunk(index);
    }
  }

  /** Bytes of one row of a column of {@code shape} (elements of {@code item} bytes). */
  private int rowBytes(long[] shape, int item) throws FormatException {
    long rb = item;
    for (int d = 1; d < shape.length; d++) {
      rb = Math.multiplyExact(rb, shape[d]);
    }
    if (rb > Integer.MAX_VALUE) {
      throw new FormatException(name + ": rows of " + rb + " bytes");
    }
    return (int) rb;
  }

  /** The grid of the live rows: chunk i holds the live rows of stored chunk i (known once the mask is read). */
  private ChunkGrid liveGrid(long[] shape, long chunkRows, long rowItems) {
    long chunks = (physical + chunkRows - 1) / chunkRows;
    return ChunkGrid.flat(shape, chunks, () -> {
      Runs r = runs(live);
      long[] starts = new long[(int) chunks + 1];
      for (int i = 0; i <= chunks; i++) {
        starts[i] = r.liveBefore(Math.min(physical, i * chunkRows), live) * rowItems;
      }
      return starts;
    });
  }

  /** The live rows of a column: logical chunk i = the live rows of stored chunk i (empty when none is live). */
  private final class Gathered extends BasicChunkedArray {
    private final ChunkedArray col;
    private final long chunkRows;
    private final int rowBytes;

    Gathered(ChunkedArray col, long[] shape, long chunkRows) throws IOException {
      super(col.dtype(), liveGrid(shape, chunkRows, rowBytes(shape, col.dtype().itemSize()) / col.dtype().itemSize()),
          null, new Object());
      this.col = col;
      this.chunkRows = chunkRows;
      this.rowBytes = rowBytes(shape, col.dtype().itemSize());
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      Runs r = runs(live);
      long from = index * chunkRows;
      long to = Math.min(physical, from + chunkRows);
      long rows = r.liveBefore(to, live) - r.liveBefore(from, live);
      ChunkData stored = rows == 0 ? null : col.chunk(index);
      return new ChunkData() {
        @Override
        public long size() {
          return rows * rowBytes;
        }

        @Override
        public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
          if (offset < 0 || len < 0 || offset > size() - len) {
            throw new FormatException(name + ": read of " + len + " bytes at " + offset + " outside a chunk of "
                + size() + " live bytes");
          }
          if (len == 0) {
            return;
          }
          // the stored span holding the wanted live rows, read once, then the live rows' bytes picked from it
          long firstRow = offset / rowBytes;
          long lastRow = (offset + len - 1) / rowBytes;
          long p0 = physicalOf(r, from, firstRow);
          long p1 = physicalOf(r, from, lastRow) + 1;
          long spanBytes = (p1 - p0) * rowBytes;
          if (spanBytes > Integer.MAX_VALUE - 8) {
            throw new FormatException(name + ": a span of " + spanBytes + " bytes");
          }
          byte[] span = new byte[(int) spanBytes];
          stored.read((p0 - from) * rowBytes, span, 0, span.length);
          long logical = r.liveBefore(from, live);
          int j = r.firstEndingAfter(p0); // the run holding p0
          long done = 0;
          while (done < len) {
            long runStart = Math.max(r.start[j], from);
            long runEnd = Math.min(r.start[j] + r.length[j], to);
            long lb = (r.before[j] + (runStart - r.start[j]) - logical) * rowBytes; // chunk-local logical byte
            long le = lb + (runEnd - runStart) * rowBytes;
            long a = Math.max(lb, offset + done);
            long e = Math.min(le, offset + len);
            if (a < e) {
              long src = (runStart - p0) * rowBytes + (a - lb);
              System.arraycopy(span, (int) src, dst, dstOff + (int) (a - offset), (int) (e - a));
              done += e - a;
            }
            j++;
          }
        }

        @Override
        public void release() {
          if (stored != null) {
            stored.release();
          }
        }
      };
    }

    /** The physical row of the chunk-local live row {@code k} of the chunk starting at physical row {@code from}. */
    private long physicalOf(Runs r, long from, long k) {
      long target = r.liveBefore(from, live) + k; // global logical row
      int lo = 0;
      int hi = r.start.length - 1;
      while (lo < hi) { // the last run whose first live row is at most target
        int mid = (lo + hi + 1) >>> 1;
        if (r.before[mid] <= target) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      return r.start[lo] + (target - r.before[lo]);
    }
  }
}
