package org.chunkcdm.hdf5blosc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.Lazy;
import ucar.nc2.iosp.hdf5.DataBTree;

/**
 * One chunked HDF5 dataset whose filter pipeline holds Blosc (32001) or Blosc2 (32026), as a
 * {@link ChunkedArray} on a regular grid: the chunk index comes from netcdf-java's own B-tree reader (read once,
 * on the first read), chunk bytes are read positionally, and the pipeline is undone in reverse order, skipping
 * the filters the chunk's filter mask marks as not applied. When Blosc is the last filter to undo, the chunk is
 * handed to core's {@link BloscChunkData}, so small reads decode only the blocks they need.
 */
final class H5BloscArray extends BasicChunkedArray {
  static final int DEFLATE = 1;
  static final int SHUFFLE = 2;
  static final int FLETCHER32 = 3;
  static final int BLOSC = 32001;
  static final int BLOSC2 = 32026;

  /** Positional reads of the file's bytes. */
  interface Bytes {
    byte[] read(long pos, int len) throws IOException;

    long length() throws IOException;
  }

  /** The stored chunks (netcdf-java's B-tree entries, read when the file was opened). */
  interface IndexSource {
    java.util.List<DataBTree.DataChunk> chunks() throws IOException;
  }

  private final String file;
  private final String variable;
  private final ChunkGrid.Regular grid;
  private final H5Internals.Filter[] pipeline;
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

  H5BloscArray(String file, String variable, DType dtype, long[] shape, int[] chunkShape, H5Internals.Filter[] pipeline,
      byte[] fill, Object cacheKey, Bytes bytes, IndexSource indexSource) {
    this(file, variable, dtype, ChunkGrid.regular(shape, chunkShape), pipeline, fill, cacheKey, bytes, indexSource);
  }

  private H5BloscArray(String file, String variable, DType dtype, ChunkGrid.Regular grid, H5Internals.Filter[] pipeline,
      byte[] fill, Object cacheKey, Bytes bytes, IndexSource indexSource) {
    super(dtype, grid, fill, cacheKey);
    this.file = file;
    this.variable = variable;
    this.grid = grid;
    this.pipeline = pipeline;
    this.bytes = bytes;
    this.indexSource = indexSource;
    this.chunkBytes = grid.chunkElements() * dtype.itemSize();
  }

  private Index readIndex() throws IOException {
    long n = grid.chunkCount();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IOException(file + ": variable '" + variable + "' has " + n + " chunks, too many to index");
    }
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
    Index ix = index.get();
    long pos = ix.pos[(int) k];
    if (pos < 0) {
      return null;
    }
    int size = ix.size[(int) k];
    int mask = ix.mask[(int) k];
    try {
      long len = bytes.length();
      if (size < 0 || pos > len - size) {
        throw new IOException(size + " bytes at file offset " + pos + " run past the end of the file (" + len + " bytes)");
      }
      byte[] buf = bytes.read(pos, size);
      return new Named(decode(buf, mask), k);
    } catch (IOException e) {
      throw chunkError(k, "(" + size + " bytes at file offset " + pos + ", filter mask " + mask + "): " + e.getMessage(), e);
    }
  }

  /** Undoes the pipeline, last filter first. */
  private ChunkData decode(byte[] buf, int mask) throws IOException {
    int last = -1; // the first filter of the pipeline that was applied: the last one to undo
    for (int f = 0; f < pipeline.length; f++) {
      if ((mask & (1 << f)) == 0) {
        last = f;
        break;
      }
    }
    for (int f = pipeline.length - 1; f >= 0; f--) {
      if ((mask & (1 << f)) != 0) {
        continue;
      }
      H5Internals.Filter flt = pipeline[f];
      switch (flt.id()) {
        case DEFLATE:
          buf = inflate(buf, f == last ? chunkBytes : -1);
          break;
        case SHUFFLE:
          buf = unshuffle(buf, flt.cdValues().length > 0 ? flt.cdValues()[0] : dtype().itemSize());
          break;
        case FLETCHER32:
          if (buf.length < 4) {
            throw new IOException("Fletcher32: " + buf.length + " bytes, no room for the checksum");
          }
          checkFletcher32(buf);
          buf = Arrays.copyOf(buf, buf.length - 4);
          break;
        case BLOSC:
        case BLOSC2: {
          ChunkData data = flt.id() == BLOSC ? blosc1(buf) : Blosc2Cframe.chunk(buf, grid.chunkShape(), chunkBytes);
          if (f == last) {
            checkSize(data.size(), flt);
            return data; // block-level partial decode for small reads
          }
          if (data.size() > Integer.MAX_VALUE - 8) {
            throw new IOException(flt.name() + ": decoded size " + data.size() + " is too large");
          }
          buf = data.readAll();
          break;
        }
        default:
          throw new IOException("filter " + flt.id() + " ('" + flt.name() + "') is not supported by chunkcdm's HDF5 reader");
      }
    }
    checkSize(buf.length, null);
    return ChunkData.of(buf);
  }

  /**
   * HDF5's Fletcher32 filter: the checksum of the data as big-endian 16-bit words (an odd last byte as the high
   * byte of a word), appended little-endian; like HDF5, the byte-swapped value older libraries wrote is accepted.
   */
  static void checkFletcher32(byte[] buf) throws IOException {
    int n = buf.length - 4;
    long sum1 = 0;
    long sum2 = 0;
    int i = 0;
    int words = n / 2;
    while (words > 0) {
      int t = Math.min(words, 360);
      words -= t;
      for (int k = 0; k < t; k++, i += 2) {
        sum1 += ((buf[i] & 0xff) << 8) | (buf[i + 1] & 0xff);
        sum2 += sum1;
      }
      sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
      sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    }
    if ((n & 1) != 0) {
      sum1 += (buf[n - 1] & 0xff) << 8;
      sum2 += sum1;
      sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
      sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
    int want = (int) ((sum2 << 16) | sum1);
    int stored = (buf[n] & 0xff) | (buf[n + 1] & 0xff) << 8 | (buf[n + 2] & 0xff) << 16 | (buf[n + 3] & 0xff) << 24;
    if (stored != want && stored != Integer.reverseBytes(want)) {
      throw new IOException(String.format("Fletcher32 checksum mismatch: stored %08x, computed %08x", stored, want));
    }
  }

  private void checkSize(long n, H5Internals.Filter f) throws IOException {
    if (n != chunkBytes) {
      throw new IOException((f == null ? "unfiltered chunk" : "filter " + f.id() + " output") + " holds " + n
          + " bytes, the chunk shape " + Arrays.toString(grid.chunkShape()) + " needs " + chunkBytes);
    }
  }

  private static BloscChunkData blosc1(byte[] buf) throws IOException {
    BloscChunkData d = BloscChunkData.of(buf, 0, buf.length);
    if (d.header().cbytes() > buf.length) {
      throw new IOException("Blosc frame says " + d.header().cbytes() + " compressed bytes, the chunk has " + buf.length);
    }
    return d;
  }

  private static byte[] inflate(byte[] src, long expected) throws IOException {
    Inflater inf = new Inflater();
    try {
      inf.setInput(src);
      int cap = expected > 0 ? (int) Math.min(expected, Integer.MAX_VALUE - 8) : Math.max(64, src.length * 4);
      byte[] out = new byte[cap];
      int n = 0;
      while (!inf.finished()) {
        if (n == out.length) {
          if (expected > 0 || out.length >= Integer.MAX_VALUE / 2) {
            throw new IOException("deflate: output exceeds " + out.length + " bytes");
          }
          out = Arrays.copyOf(out, out.length * 2);
        }
        int r = inf.inflate(out, n, out.length - n);
        if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
          throw new IOException("deflate: stream ends early after " + n + " bytes");
        }
        n += r;
      }
      return n == out.length ? out : Arrays.copyOf(out, n);
    } catch (DataFormatException e) {
      throw new IOException("deflate: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
  }

  /** HDF5 shuffle: byte j of every element stored together; trailing bytes (size % elem) stay as they are. */
  static byte[] unshuffle(byte[] src, int elem) {
    if (elem <= 1 || src.length < elem) {
      return src;
    }
    int n = src.length / elem;
    byte[] out = new byte[src.length];
    for (int j = 0; j < elem; j++) {
      int base = j * n;
      for (int i = 0; i < n; i++) {
        out[i * elem + j] = src[base + i];
      }
    }
    System.arraycopy(src, n * elem, out, n * elem, src.length - n * elem);
    return out;
  }

  /** Fill bytes of a CDM fill value in the given byte order, or null for zeros. */
  static byte[] fillBytes(Object fill, DType dt) {
    if (!(fill instanceof Number)) {
      return null;
    }
    Number v = (Number) fill;
    ByteBuffer bb = ByteBuffer.allocate(dt.itemSize()).order(dt.order() == null ? ByteOrder.LITTLE_ENDIAN : dt.order());
    switch (dt.kind()) {
      case FLOAT:
        if (dt.itemSize() == 8) {
          bb.putDouble(v.doubleValue());
        } else {
          bb.putFloat(v.floatValue());
        }
        break;
      default:
        switch (dt.itemSize()) {
          case 1:
            bb.put(v.byteValue());
            break;
          case 2:
            bb.putShort(v.shortValue());
            break;
          case 4:
            bb.putInt(v.intValue());
            break;
          default:
            bb.putLong(v.longValue());
        }
    }
    byte[] b = bb.array();
    for (byte x : b) {
      if (x != 0) {
        return b;
      }
    }
    return null;
  }

  /** A chunk whose decode errors name the file, variable and chunk. */
  private final class Named implements ChunkData {
    private final ChunkData d;
    private final long k;

    Named(ChunkData d, long k) {
      this.d = d;
      this.k = k;
    }

    @Override
    public long size() {
      return d.size();
    }

    /** The decoded blocks of a Blosc chunk, so that small reads cache blocks, not whole chunks. */
    @Override
    public int blockSize() {
      return d.blockSize();
    }

    @Override
    public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
      try {
        d.read(offset, dst, dstOff, len);
      } catch (IOException | RuntimeException e) {
        throw chunkError(k, "cannot decode: " + e.getMessage(), e);
      }
    }

    @Override
    public byte[] readAll() throws IOException {
      try {
        return d.readAll();
      } catch (IOException | RuntimeException e) {
        throw chunkError(k, "cannot decode: " + e.getMessage(), e);
      }
    }

    /** A Blosc chunk's pieces (typed whole reads convert them without a chunk-sized scratch pass). */
    @Override
    public boolean readsInPieces() {
      return d.readsInPieces();
    }

    @Override
    public void readPieces(int unit, Pieces sink) throws IOException {
      try {
        d.readPieces(unit, sink);
      } catch (IOException | RuntimeException e) {
        throw chunkError(k, "cannot decode: " + e.getMessage(), e);
      }
    }

    @Override
    public void release() {
      d.release();
    }
  }
}
