package org.chunkcdm.sframe;

import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.DType;
import org.msgpack.core.MessageUnpacker;

/**
 * The {@code b2nd} metalayer of a Blosc2 N-d array (msgpack {@code [version, ndim, shape, chunkshape,
 * blockshape, dtype_format, dtype]}) and the chunk layout it implies: each stored chunk is an "extchunk"
 * (chunkshape rounded up to whole blocks) made of blocks of blockshape in C order over the block grid, each
 * block in C order. {@link #view(ChunkData)} presents such a chunk as its chunkshape in C order, reading only
 * the blocks a byte range needs.
 */
final class B2nd {
  final long[] shape;
  final int[] chunkshape;
  final int[] blockshape;
  final int[] extchunkshape;
  final String dtypeString;
  final DType dtype;

  private B2nd(long[] shape, int[] chunkshape, int[] blockshape, String dtypeString, DType dtype) {
    this.shape = shape;
    this.chunkshape = chunkshape;
    this.blockshape = blockshape;
    this.dtypeString = dtypeString;
    this.dtype = dtype;
    extchunkshape = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      extchunkshape[d] = blockshape[d] == 0 ? 0 : (chunkshape[d] + blockshape[d] - 1) / blockshape[d] * blockshape[d];
    }
  }

  /** Parses and validates the metalayer content (IOException messages say what is wrong). */
  static B2nd parse(byte[] meta, int typesize) throws IOException {
    long[] shape;
    int[] chunks;
    int[] blocks;
    String dt;
    try (MessageUnpacker u = Frame.MSGPACK.newUnpacker(meta)) {
      int n = u.unpackArrayHeader();
      if (n < 7) {
        throw new FormatException("b2nd metalayer is a msgpack array of " + n + " items, 7 expected");
      }
      int version = u.unpackInt();
      if (version != 0) {
        throw new FormatException("b2nd metalayer version " + version + " is not supported (0 expected)");
      }
      int ndim = u.unpackInt();
      if (ndim < 0 || ndim > 32) {
        throw new FormatException("b2nd ndim " + ndim + " is not between 0 and 32");
      }
      shape = new long[ndim];
      chunks = new int[ndim];
      blocks = new int[ndim];
      readDims(u, ndim, "shape", shape, null);
      readDims(u, ndim, "chunkshape", null, chunks);
      readDims(u, ndim, "blockshape", null, blocks);
      int fmt = u.unpackInt();
      if (fmt != 0) {
        throw new FormatException("b2nd dtype_format " + fmt + " is not supported (0 = NumPy expected)");
      }
      dt = u.unpackString();
    } catch (IOException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IOException("b2nd metalayer is not valid msgpack: " + e.getMessage(), e);
    }
    for (int d = 0; d < shape.length; d++) {
      // c-blosc2 writes chunkshape and blockshape 0 for a dimension of length 0
      boolean empty = shape[d] == 0 && chunks[d] == 0 && blocks[d] == 0;
      if (!empty && (shape[d] < 0 || chunks[d] <= 0 || blocks[d] <= 0 || blocks[d] > chunks[d])) {
        throw new FormatException("b2nd shape " + Arrays.toString(shape) + ", chunkshape " + Arrays.toString(chunks)
            + ", blockshape " + Arrays.toString(blocks) + " are inconsistent");
      }
    }
    return new B2nd(shape, chunks, blocks, dt, dtype(dt, typesize));
  }

  /**
   * The element type of a numpy dtype string. A dtype this reader has no CDM type for (a structured dtype
   * such as {@code [('f0', 'V7')]}, which python-blosc2 writes for void items) is read as opaque records of
   * the frame's typesize (UBYTE with an extra last dimension), the dtype string staying in the
   * {@code numpy_dtype} attribute; Python objects ({@code O}) are refused.
   */
  static DType dtype(String dt, int typesize) throws IOException {
    try {
      return DType.parseNumpy(dt);
    } catch (IOException e) {
      String t = dt.trim();
      if (t.matches("[<>|=]?O\\d*")) {
        throw new FormatException("b2nd dtype '" + dt + "' holds Python objects, which cannot be read");
      }
      return DType.of(DType.Kind.OPAQUE, typesize, null);
    }
  }

  private static void readDims(MessageUnpacker u, int ndim, String what, long[] l, int[] i) throws IOException {
    int n = u.unpackArrayHeader();
    if (n != ndim) {
      throw new FormatException("b2nd " + what + " has " + n + " entries, ndim is " + ndim);
    }
    for (int d = 0; d < n; d++) {
      if (l != null) {
        l[d] = u.unpackLong();
      } else {
        i[d] = u.unpackInt();
      }
    }
  }

  /** The chunk shape for the chunk grid: a dimension of length 0 (chunkshape 0) counts as 1. */
  int[] gridChunkshape() {
    int[] c = chunkshape.clone();
    for (int d = 0; d < c.length; d++) {
      c[d] = Math.max(1, c[d]);
    }
    return c;
  }

  /** Items of one stored (extended) chunk. */
  long extItems() {
    long n = 1;
    for (int e : extchunkshape) {
      n = Math.multiplyExact(n, e);
    }
    return n;
  }

  /** Items of one block. */
  long blockItems() {
    long n = 1;
    for (int b : blockshape) {
      n = Math.multiplyExact(n, b);
    }
    return n;
  }

  /**
   * True when the block layout already is C order over chunkshape: no padding, and blocks are slabs along
   * the first dimension (every other dimension whole).
   */
  boolean isPlainLayout() {
    for (int d = 0; d < chunkshape.length; d++) {
      if (extchunkshape[d] != chunkshape[d] || d > 0 && blockshape[d] != chunkshape[d]) {
        return false;
      }
    }
    return true;
  }

  /** A stored chunk (decoded size {@link #extItems()} * item size) seen as chunkshape in C order. */
  ChunkData view(ChunkData stored) {
    return view(stored, dtype.itemSize());
  }

  /**
   * As {@link #view(ChunkData)} with items of {@code itemSize} bytes (the frame's typesize) whatever the dtype
   * string says: the HDF5 Blosc2 filter's arrays carry {@code |V4}-like or default dtypes.
   */
  ChunkData view(ChunkData stored, int itemSize) {
    return isPlainLayout() ? stored : new Padded(stored, itemSize);
  }

  /** Chunk content in C order over chunkshape, mapped onto the padded block layout. */
  final class Padded implements ChunkData {
    private final ChunkData stored;
    private final int item;
    private final long size;
    private final long blockBytes;
    private final int[] nblocks = new int[chunkshape.length];

    Padded(ChunkData stored, int item) {
      this.stored = stored;
      this.item = item;
      this.blockBytes = blockItems() * item;
      long n = item;
      for (int d = 0; d < chunkshape.length; d++) {
        n *= chunkshape[d];
        nblocks[d] = extchunkshape[d] / blockshape[d];
      }
      size = n;
    }

    @Override
    public long size() {
      return size;
    }

    /** One-dimensional: the C-order view is the stored bytes at the same offsets, so its blocks are the stored ones. */
    @Override
    public int blockSize() {
      return chunkshape.length == 1 && stored.blockSize() == blockBytes ? stored.blockSize() : 0;
    }

    /** Target of one run: {@code len} bytes at {@code src} of the stored chunk go to {@code dst} of the output. */
    private interface Sink {
      void copy(long src, int dst, int len) throws IOException;
    }

    /**
     * Splits the C-order byte range {@code [offset, offset+len)} into runs that are contiguous in the stored
     * layout (at most to the end of a block row along the last dimension) and hands each to the sink.
     */
    private void runs(long offset, int len, Sink sink) throws IOException {
      int rank = chunkshape.length;
      int last = rank - 1;
      long end = offset + len;
      long o = offset;
      long[] c = new long[rank];
      while (o < end) {
        long it = o / item;
        int r = (int) (o % item);
        long rem = it;
        long blk = 0;
        long pos = 0;
        for (int d = last; d >= 0; d--) {
          c[d] = rem % chunkshape[d];
          rem /= chunkshape[d];
        }
        for (int d = 0; d < rank; d++) {
          blk = blk * nblocks[d] + c[d] / blockshape[d];
          pos = pos * blockshape[d] + c[d] % blockshape[d];
        }
        long runItems = Math.min(blockshape[last] - c[last] % blockshape[last], chunkshape[last] - c[last]);
        int n = (int) Math.min(runItems * item - r, end - o);
        sink.copy(blk * blockBytes + pos * item + r, (int) (o - offset), n);
        o += n;
      }
    }

    @Override
    public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
      if (offset < 0 || len < 0 || offset > size - len) {
        throw new FormatException("b2nd chunk: read of " + len + " bytes at " + offset + " outside its " + size + " bytes");
      }
      if (len == size && stored.readsInPieces() && blockBytes <= Integer.MAX_VALUE) {
        // the whole chunk: its blocks arrive in pieces (decoded in parallel where allowed, each piece still in the
        // CPU cache) and their rows are placed straight into dst; no chunk-sized array in between
        stored.readPieces((int) blockBytes, (a, off, at, n) -> placeBlocks(a, off, at, n, dst, dstOff));
        return;
      }
      if (len == size) { // the whole chunk: decode it in one piece (in parallel where allowed), then place the rows
        byte[] all = stored.readAll();
        runs(0, len, (src, d, n) -> System.arraycopy(all, (int) src, dst, dstOff + d, n));
        return;
      }
      runs(offset, len, (src, d, n) -> stored.read(src, dst, dstOff + d, n));
    }

    /**
     * Places stored bytes {@code [at, at+n)} of the padded block layout (whole blocks: {@code at} and, but for the
     * end of the chunk, {@code n} are multiples of the block size) at their C-order places over chunkshape in
     * {@code dst[dstOff..]}, dropping the padding.
     */
    private void placeBlocks(byte[] a, int off, long at, int n, byte[] dst, int dstOff) throws IOException {
      int rank = chunkshape.length;
      int last = rank - 1;
      if (at % blockBytes != 0) {
        throw new FormatException("b2nd chunk: a piece of decoded blocks starts at byte " + at + ", inside a block of "
            + blockBytes + " bytes");
      }
      long rowItems = blockshape[last];
      long rows = blockItems() / Math.max(1, rowItems);
      int[] bc = new int[rank]; // block coordinates
      int[] w = new int[rank]; // row coordinates inside the block (last dimension 0)
      for (long blk = at / blockBytes; blk * blockBytes < at + n; blk++) {
        long rem = blk;
        for (int d = last; d >= 0; d--) {
          bc[d] = (int) (rem % nblocks[d]);
          rem /= nblocks[d];
        }
        if (rem != 0) {
          throw new FormatException("b2nd chunk: decoded block " + blk + " lies outside the chunk's "
              + java.util.Arrays.toString(nblocks) + " blocks");
        }
        long base = off + (blk * blockBytes - at);
        long c0 = (long) bc[last] * blockshape[last];
        int runItems = (int) Math.min(rowItems, chunkshape[last] - c0);
        if (runItems <= 0) {
          continue; // a block of padding only
        }
        for (long r = 0; r < rows; r++) {
          long rr = r;
          boolean inside = true;
          long dstItem = 0;
          for (int d = last - 1; d >= 0; d--) {
            w[d] = (int) (rr % blockshape[d]);
            rr /= blockshape[d];
          }
          for (int d = 0; d < last; d++) {
            long c = (long) bc[d] * blockshape[d] + w[d];
            if (c >= chunkshape[d]) {
              inside = false;
              break;
            }
            dstItem = dstItem * chunkshape[d] + c;
          }
          if (!inside) {
            continue;
          }
          dstItem = dstItem * chunkshape[last] + c0;
          long from = base + r * rowItems * item;
          if (from + (long) runItems * item > (long) off + n) {
            throw new FormatException("b2nd chunk: a piece of " + n + " decoded bytes ends inside block " + blk);
          }
          System.arraycopy(a, (int) from, dst, dstOff + (int) (dstItem * item), runItems * item);
        }
      }
    }

    @Override
    public void release() {
      stored.release();
    }

    @Override
    public byte[] readAll() throws IOException {
      if (size > Integer.MAX_VALUE - 8) {
        throw new FormatException("b2nd chunk of " + size + " bytes is too large to decode in one piece");
      }
      byte[] all = stored.readAll();
      byte[] out = new byte[(int) size];
      runs(0, out.length, (src, d, n) -> System.arraycopy(all, (int) src, out, d, n));
      return out;
    }
  }
}
