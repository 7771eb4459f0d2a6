package org.chunkcdm.hdf5;

import java.io.IOException;
import java.lang.reflect.Field;
import ucar.nc2.iosp.hdf5.DataBTree;

/** What the HDF5 fuzz targets share: a file made of the input's bytes, and chunk index entries. */
final class H5FuzzSupport {
  private static final sun.misc.Unsafe UNSAFE;
  private static final Field SIZE;
  private static final Field MASK;
  private static final Field OFFSET;
  private static final Field POS;

  static {
    try {
      Field u = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      u.setAccessible(true);
      UNSAFE = (sun.misc.Unsafe) u.get(null);
      SIZE = open("size");
      MASK = open("filterMask");
      OFFSET = open("offset");
      POS = open("filePos");
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private H5FuzzSupport() {}

  private static Field open(String name) throws NoSuchFieldException {
    Field f = DataBTree.DataChunk.class.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /** A B-tree entry as netcdf-java's reader would have made it from the file (its constructor reads a file). */
  static DataBTree.DataChunk entry(long pos, int size, int mask, int[] offset) {
    try {
      DataBTree.DataChunk c = (DataBTree.DataChunk) UNSAFE.allocateInstance(DataBTree.DataChunk.class);
      POS.set(c, pos);
      SIZE.set(c, size);
      MASK.set(c, mask);
      OFFSET.set(c, offset);
      return c;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** The input as the file's bytes. */
  static H5ChunkedArray.Bytes bytes(byte[] data) {
    return new H5ChunkedArray.Bytes() {
      @Override
      public void read(long pos, byte[] dst, int off, int len) throws IOException {
        if (pos < 0 || len < 0 || pos + len > data.length) {
          throw new IOException("read of " + len + " bytes at " + pos + " outside the " + data.length + "-byte file");
        }
        System.arraycopy(data, (int) pos, dst, off, len);
      }

      @Override
      public long length() {
        return data.length;
      }
    };
  }

  /**
   * The checks of a two-chunk array whose first chunk is the input: chunk 1 is not stored, chunk 0 has the chunk
   * size, and (when small enough to decode) a part read equals the same bytes of the whole.
   */
  static void checkChunks(H5ChunkedArray a, long chunkBytes) throws java.io.IOException {
    if (a.chunk(1) != null) {
      throw new AssertionError("chunk 1 is not stored but read as present");
    }
    org.chunkcdm.chunk.ChunkData c = a.chunk(0);
    if (c.size() != chunkBytes) {
      throw new AssertionError("chunk 0 holds " + c.size() + " bytes, not " + chunkBytes);
    }
    if (c.size() > org.chunkcdm.fuzz.FuzzSupport.MAX_DECODE) {
      return;
    }
    byte[] all = c.readAll();
    if (all.length > 2) {
      byte[] part = new byte[all.length / 2];
      c.read(1, part, 0, part.length);
      if (!java.util.Arrays.equals(part, 0, part.length, all, 1, 1 + part.length)) {
        throw new AssertionError("partial read differs from the whole chunk");
      }
    }
    c.release();
  }
}
