package org.chunkcdm.hdf5;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.FetchBuffers;
import org.chunkcdm.chunk.Lazy;
import org.chunkcdm.io.Bounds;
import ucar.nc2.iosp.hdf5.DataBTree;

/**
 * One chunked HDF5 dataset read by chunkcdm, as a {@link ChunkedArray} on a regular grid: the chunk index comes
 * from netcdf-java's own B-tree reader (read when the file was opened), chunk bytes are read positionally, and the
 * filter pipeline ({@link FilterPipeline}) is undone per chunk as its filter mask says. A chunk whose last filter to
 * undo is Blosc or Blosc2 is handed over as its Blosc chunk (small reads decode only the blocks they need); any
 * other chunk is decoded when it is first read, straight into the reader's buffer when the reader takes it whole.
 * Datatypes with reduced precision or non-IEEE fields ({@link H5Type}) are converted as HDF5 converts them.
 */
final class H5ChunkedArray extends BasicChunkedArray {
  /** Positional reads of the file's bytes. */
  interface Bytes {
    void read(long pos, byte[] dst, int off, int len) throws IOException;

    long length() throws IOException;
  }

  /** The stored chunks (netcdf-java's B-tree entries, read when the file was opened). */
  interface IndexSource {
    List<DataBTree.DataChunk> chunks() throws IOException;
  }

  private final String file;
  private final String variable;
  private final ChunkGrid.Regular grid;
  private final FilterPipeline pipeline;
  private final H5Type convert; // null: values as stored
  private final Bytes bytes;
  private final IndexSource indexSource;
  private final long chunkBytes;
  private final Lazy<Index> index = new Lazy<>(this::readIndex);

  private static final class Index {
    final long[] pos;
    final int[] size;
    final int[] mask;

    Index(int n) {
      pos = new long[n];
      size = new int[n];
      mask = new int[n];
      Arrays.fill(pos, -1);
    }
  }

  /**
   * @param fill the fill value's bytes as stored (file datatype, its byte order), or null for zeros; converted here
   *     like the values when {@code convert} is given
   */
  H5ChunkedArray(String file, String variable, DType dtype, long[] shape, int[] chunkShape,
      H5Internals.Filter[] pipeline, H5Type convert, byte[] fill, Object cacheKey, Bytes bytes, IndexSource indexSource) {
    this(file, variable, dtype, ChunkGrid.regular(shape, chunkShape), pipeline,
        convert == null || convert.isNative() ? null : convert, fill, cacheKey, bytes, indexSource);
  }

  private H5ChunkedArray(String file, String variable, DType dtype, ChunkGrid.Regular grid,
      H5Internals.Filter[] pipeline, H5Type convert, byte[] fill, Object cacheKey, Bytes bytes, IndexSource indexSource) {
    super(dtype, grid, fillBytes(fill, dtype, convert), cacheKey);
    this.file = file;
    this.variable = variable;
    this.grid = grid;
    this.chunkBytes = grid.chunkElements() * dtype.itemSize();
    this.pipeline = new FilterPipeline(pipeline, dtype.itemSize(), grid.chunkShape(), chunkBytes);
    this.convert = convert;
    this.bytes = bytes;
    this.indexSource = indexSource;
  }

  private static byte[] fillBytes(byte[] raw, DType dt, H5Type convert) {
    if (raw == null || raw.length != dt.itemSize()) {
      return null;
    }
    byte[] b = raw.clone();
    if (convert != null) {
      convert.convert(b, 0, 1);
    }
    for (byte x : b) {
      if (x != 0) {
        return b;
      }
    }
    return null;
  }

  @Override
  public ChunkGrid grid() {
    return grid;
  }

  /** The filter pipeline (tests). */
  FilterPipeline pipeline() {
    return pipeline;
  }

  /** Where chunk {@code k} is stored: {file offset, stored size, filter mask}, or null when it is not (tests). */
  long[] stored(long k) throws IOException {
    Index ix = index();
    return ix.pos[(int) k] < 0 ? null : new long[] {ix.pos[(int) k], ix.size[(int) k], ix.mask[(int) k]};
  }

  private Index index() throws IOException {
    return index.get();
  }

  private Index readIndex() throws IOException {
    long n = grid.chunkCount();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IOException(file + ": variable '" + variable + "' has " + n + " chunks, too many to index");
    }
    Bounds.checkAllocation(n * 16, file + ": chunk index of variable '" + variable + "'");
    Index ix = new Index((int) n);
    int rank = grid.rank();
    int[] cs = grid.chunkShape();
    long[] gs = grid.gridShape();
    long[] coord = new long[rank];
    try {
      for (DataBTree.DataChunk dc : indexSource.chunks()) {
        if (dc.filePos < 0) {
          continue;
        }
        boolean inside = true;
        for (int d = 0; d < rank; d++) {
          if (dc.offset[d] < 0 || dc.offset[d] % cs[d] != 0 || dc.offset[d] / cs[d] >= gs[d]) {
            inside = false;
            break;
          }
          coord[d] = dc.offset[d] / cs[d];
        }
        if (!inside) {
          continue; // a chunk of a shrunk dataset lying outside the current extent
        }
        int k = (int) grid.index(coord);
        ix.pos[k] = dc.filePos;
        ix.size[k] = dc.size;
        ix.mask[k] = dc.filterMask;
      }
    } catch (RuntimeException e) {
      throw new IOException(file + ": variable '" + variable + "': bad chunk index entry: " + e, e);
    }
    return ix;
  }

  private String where(long k) {
    long[] c = new long[grid.rank()];
    long rem = k;
    long[] gs = grid.gridShape();
    int[] cs = grid.chunkShape();
    for (int d = c.length - 1; d >= 0; d--) {
      c[d] = (rem % gs[d]) * cs[d];
      rem /= gs[d];
    }
    return file + ": variable '" + variable + "' chunk " + k + " at " + Arrays.toString(c);
  }

  IOException chunkError(long k, String msg, Throwable cause) {
    return new IOException(where(k) + ": " + msg, cause);
  }

  @Override
  public ChunkData chunk(long k) throws IOException {
    Index ix = index();
    long pos = ix.pos[(int) k];
    if (pos < 0) {
      return null;
    }
    int size = ix.size[(int) k];
    int mask = ix.mask[(int) k];
    String at = "(" + size + " bytes at file offset " + pos + ", filter mask " + mask + "): ";
    IOException unsupported = pipeline.problem(mask);
    if (unsupported != null) {
      throw chunkError(k, at + unsupported.getMessage(), unsupported);
    }
    byte[] buf = null;
    try {
      if (convert == null && pipeline.bloscLast(mask)) {
        // a Blosc chunk keeps the stored bytes it decodes from: an array of its own, not a pooled one
        byte[] own = new byte[size];
        readStored(pos, own, size);
        // decode errors, checked or not, name the file, variable and chunk
        return ChunkData.withAnyContext(pipeline.bloscChunk(own, size, mask),
            failure -> chunkError(k, at + "cannot decode: " + failure.getMessage(), failure));
      }
      buf = fetch(pos, size);
      Stored s = new Stored(k, pos, size, mask, buf, at);
      buf = null;
      return s;
    } catch (IOException | RuntimeException e) {
      if (buf != null) {
        FetchBuffers.give(buf);
      }
      throw chunkError(k, at + e.getMessage(), e);
    }
  }

  private void readStored(long pos, byte[] dst, int size) throws IOException {
    long len = bytes.length();
    if (size < 0 || pos < 0 || pos > len - size) {
      throw new IOException(size + " bytes at file offset " + pos + " run past the end of the file (" + len + " bytes)");
    }
    bytes.read(pos, dst, 0, size);
  }

  /** The stored bytes of a chunk in a pooled buffer (given back by the caller). */
  private byte[] fetch(long pos, int size) throws IOException {
    if (size < 0) {
      throw new IOException("negative stored size " + size);
    }
    Bounds.checkAllocation(size, "stored chunk");
    byte[] buf = FetchBuffers.take(size);
    try {
      readStored(pos, buf, size);
    } catch (IOException | RuntimeException e) {
      FetchBuffers.give(buf);
      throw e;
    }
    return buf;
  }

  /**
   * A chunk's stored bytes, decoded when first read: straight into the reader's array when it reads the chunk
   * whole in one piece, else once into an array of its own. {@link #release()} gives the stored bytes back to the
   * pool; a read after it fetches them again.
   */
  private final class Stored implements ChunkData {
    private final long k;
    private final long pos;
    private final int size;
    private final int mask;
    private final String at;
    private byte[] stored; // pooled, null once released
    private byte[] decoded;

    Stored(long k, long pos, int size, int mask, byte[] stored, String at) {
      this.k = k;
      this.pos = pos;
      this.size = size;
      this.mask = mask;
      this.stored = stored;
      this.at = at;
    }

    @Override
    public long size() {
      return chunkBytes;
    }

    /** The stored bytes, fetched again after a {@link #release()}. */
    private byte[] storedBytes() throws IOException {
      byte[] s = stored;
      if (s == null) {
        s = fetch(pos, size);
        stored = s;
      }
      return s;
    }

    private void decodeInto(byte[] dst, int off) throws IOException {
      try {
        pipeline.decodeInto(storedBytes(), size, mask, dst, off);
        if (convert != null) {
          convert.convert(dst, off, (int) (chunkBytes / dtype().itemSize()));
        }
      } catch (IOException | RuntimeException e) {
        throw chunkError(k, at + e.getMessage(), e);
      }
    }

    private byte[] decoded() throws IOException {
      byte[] d = decoded;
      if (d == null) {
        Bounds.checkAllocation(chunkBytes, where(k));
        d = new byte[(int) chunkBytes];
        decodeInto(d, 0);
        decoded = d;
      }
      return d;
    }

    @Override
    public synchronized void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
      if (offset < 0 || len < 0 || offset + len > chunkBytes) {
        throw chunkError(k, "read of " + len + " bytes at " + offset + " outside the chunk of " + chunkBytes + " bytes", null);
      }
      if (decoded == null && offset == 0 && len == chunkBytes) {
        decodeInto(dst, dstOff);
        return;
      }
      System.arraycopy(decoded(), (int) offset, dst, dstOff, len);
    }

    @Override
    public synchronized byte[] readAll() throws IOException {
      return decoded();
    }

    /** An LZ4-filtered chunk of values stored as read goes on in pieces while it is decoded. */
    @Override
    public boolean readsInPieces() {
      return convert == null && pipeline.lz4Last(mask);
    }

    @Override
    public synchronized void readPieces(int unit, Pieces sink) throws IOException {
      if (decoded != null || !readsInPieces() || chunkBytes > Integer.MAX_VALUE - 16) {
        byte[] d = decoded();
        sink.accept(d, 0, 0, d.length);
        return;
      }
      byte[] scratch = FetchBuffers.take((int) chunkBytes);
      try {
        pipeline.decodeInPieces(storedBytes(), size, mask, scratch, unit, sink);
      } catch (IOException | RuntimeException e) {
        throw chunkError(k, at + e.getMessage(), e);
      } finally {
        FetchBuffers.give(scratch);
      }
    }

    @Override
    public synchronized void release() {
      byte[] s = stored;
      stored = null;
      FetchBuffers.give(s);
    }
  }
}
