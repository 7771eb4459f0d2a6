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
}
