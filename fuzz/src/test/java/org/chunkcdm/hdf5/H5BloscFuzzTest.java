package org.chunkcdm.hdf5;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fuzz.FuzzSupport;
import org.junit.jupiter.api.BeforeAll;
import ucar.nc2.iosp.hdf5.DataBTree;

/**
 * The HDF5-Blosc filter path of iosp-hdf5 at the level of one stored chunk: {@link H5ChunkedArray#chunk}
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
class H5BloscFuzzTest {
  @BeforeAll
  static void warmUp() {
    FuzzSupport.warmUp(H5BloscFuzzTest.class);
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
      pipe.add(new H5Internals.Filter(FilterPipeline.SHUFFLE, 0, shuffleCd == 0 ? new int[0] : new int[] {shuffleCd}, "shuffle"));
    }
    boolean blosc2 = (flags & 1) != 0;
    // cd_values as the filters write them: Blosc [2, 2, typesize, chunk bytes, clevel, shuffle, compressor]
    pipe.add(new H5Internals.Filter(blosc2 ? FilterPipeline.BLOSC2 : FilterPipeline.BLOSC, 1,
        new int[] {blosc2 ? 1 : 2, 2, itemSize, (int) chunkBytes, 5, 1, 0}, blosc2 ? "blosc2" : "blosc"));
    if ((flags & 4) != 0) {
      pipe.add(new H5Internals.Filter(FilterPipeline.DEFLATE, 0, new int[] {6}, "deflate"));
    }
    if ((flags & 8) != 0) {
      pipe.add(new H5Internals.Filter(FilterPipeline.FLETCHER32, 0, new int[0], "fletcher32"));
    }
    final int stored = data.length - 6;
    List<DataBTree.DataChunk> index = List.of(H5FuzzSupport.entry(6, stored, mask, new int[chunkShape.length + 1]));
    H5ChunkedArray a = new H5ChunkedArray("fuzz.h5", "v", DType.forTypesize(itemSize).withOrder(ByteOrder.LITTLE_ENDIAN),
        shape, chunkShape, pipe.toArray(new H5Internals.Filter[0]), null, null, "fuzz", H5FuzzSupport.bytes(data), () -> index);
    FuzzSupport.expectIoOnly(() -> H5FuzzSupport.checkChunks(a, chunkBytes));
  }
}
