package org.chunkcdm.hdf5blosc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fuzz.FuzzSupport;
import ucar.nc2.iosp.hdf5.DataBTree;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HDF5-Blosc filter path of iosp-hdf5blosc at the level of one stored chunk: {@link H5BloscArray#chunk}
 * undoes a filter pipeline (Blosc 32001 or Blosc2 32026 with their cd_values, optionally HDF5 shuffle with a
 * cd_values element size, deflate and Fletcher32, in HDF5's order and honouring the chunk's filter mask) and
 * decodes the chunk (the Blosc1 frame or the one-chunk Blosc2 contiguous frame, block-level partial reads included).
 *
 * <p>Input: byte 0 = pipeline (bit 0 Blosc2 instead of Blosc, bit 1 shuffle before Blosc, bit 2 deflate after
 * Blosc, bit 3 Fletcher32 last, bit 4 rank 2), byte 1 = the chunk's filter mask, byte 2 = item size (low 2 bits:
 * 1, 2, 4, 8) and shuffle cd_values[0] (high 6 bits; 0 = no cd_values, the item size), bytes 3-4 = elements per
 * chunk (big-endian), byte 5 = first chunk dimension when rank 2; then the stored chunk bytes. The dataset has two
 * chunks along the first dimension; only the first is stored.
 */
@ExtendWith(FuzzSupport.WarmUp.class)
class H5BloscFuzzTest {
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

  private static Field open(String name) throws NoSuchFieldException {
    Field f = DataBTree.DataChunk.class.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /** A B-tree entry as netcdf-java's reader would have made it from the file (its constructor reads a file). */
  private static DataBTree.DataChunk entry(long pos, int size, int mask, int[] offset) {
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

  @FuzzTest
  void hdf5BloscChunk(byte[] data) {
    if (data.length < 6) {
      return;
    }
    int flags = data[0] & 0xff;
    int mask = data[1] & 0xff;
    int itemSize = 1 << (data[2] & 3);
    int shuffleCd = (data[2] & 0xff) >>> 2;
    int elems = Math.max(1, (data[3] & 0xff) << 8 | (data[4] & 0xff));
    boolean rank2 = (flags & 16) != 0;
    int[] chunkShape;
    if (rank2) {
      int c0 = Math.max(1, data[5] & 0xff);
      chunkShape = new int[] {c0, Math.max(1, elems / c0)};
    } else {
      chunkShape = new int[] {elems};
    }
    long[] shape = new long[chunkShape.length];
    for (int d = 0; d < shape.length; d++) {
      shape[d] = d == 0 ? 2L * chunkShape[d] : chunkShape[d];
    }
    long chunkBytes = (long) itemSize * Arrays.stream(chunkShape).asLongStream().reduce(1, (a, b) -> a * b);
    List<H5Internals.Filter> pipe = new ArrayList<>();
    if ((flags & 2) != 0) {
      pipe.add(new H5Internals.Filter(H5BloscArray.SHUFFLE, 0, shuffleCd == 0 ? new int[0] : new int[] {shuffleCd}, "shuffle"));
    }
    boolean blosc2 = (flags & 1) != 0;
    // cd_values as the filters write them: Blosc [2, 2, typesize, chunk bytes, clevel, shuffle, compressor]
    pipe.add(new H5Internals.Filter(blosc2 ? H5BloscArray.BLOSC2 : H5BloscArray.BLOSC, 1,
        new int[] {blosc2 ? 1 : 2, 2, itemSize, (int) chunkBytes, 5, 1, 0}, blosc2 ? "blosc2" : "blosc"));
    if ((flags & 4) != 0) {
      pipe.add(new H5Internals.Filter(H5BloscArray.DEFLATE, 0, new int[] {6}, "deflate"));
    }
    if ((flags & 8) != 0) {
      pipe.add(new H5Internals.Filter(H5BloscArray.FLETCHER32, 0, new int[0], "fletcher32"));
    }
    final int stored = data.length - 6;
    List<DataBTree.DataChunk> index = List.of(entry(6, stored, mask, new int[chunkShape.length + 1]));
    H5BloscArray a = new H5BloscArray("fuzz.h5", "v", DType.forTypesize(itemSize).withOrder(ByteOrder.LITTLE_ENDIAN),
        shape, chunkShape, pipe.toArray(new H5Internals.Filter[0]), null, "fuzz", new H5BloscArray.Bytes() {
          @Override
          public byte[] read(long pos, int len) throws IOException {
            if (pos < 0 || len < 0 || pos + len > data.length) {
              throw new IOException("read of " + len + " bytes at " + pos + " outside the " + data.length + "-byte file");
            }
            return Arrays.copyOfRange(data, (int) pos, (int) pos + len);
          }

          @Override
          public long length() {
            return data.length;
          }
        }, () -> index);
    FuzzSupport.expectIoOnly(() -> {
      if (a.chunk(1) != null) {
        throw new AssertionError("chunk 1 is not stored but read as present");
      }
      ChunkData c = a.chunk(0);
      if (c.size() != chunkBytes) {
        throw new AssertionError("chunk 0 holds " + c.size() + " bytes, not " + chunkBytes);
      }
      if (c.size() > FuzzSupport.MAX_DECODE) {
        return;
      }
      byte[] all = c.readAll();
      if (all.length > 2) { // a part read (block-level partial decode) equals the same bytes of the whole
        byte[] part = new byte[all.length / 2];
        c.read(1, part, 0, part.length);
        if (!Arrays.equals(part, 0, part.length, all, 1, 1 + part.length)) {
          throw new AssertionError("partial read differs from the whole chunk");
        }
      }
    });
  }
}
