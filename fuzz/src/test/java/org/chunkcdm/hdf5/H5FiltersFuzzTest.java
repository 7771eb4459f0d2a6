package org.chunkcdm.hdf5;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fuzz.FuzzSupport;
import org.junit.jupiter.api.BeforeAll;
import ucar.nc2.iosp.hdf5.DataBTree;

/**
 * The HDF5 filter decoders of iosp-hdf5, one target each, and the whole pipeline of one stored chunk. Each decoder
 * gets the input's bytes (after a few parameter bytes, see each target) and must decode to exactly the size it
 * declares or throw an IOException; the pipeline target ({@link #filterPipeline}) builds a dataset of two chunks
 * whose first is the input, with a pipeline and filter mask chosen by the first bytes, and reads it whole and in
 * part through {@link H5ChunkedArray#chunk}.
 */
class H5FiltersFuzzTest {
  @BeforeAll
  static void warmUp() {
    FuzzSupport.warmUp(H5FiltersFuzzTest.class);
  }

  private static int u16(byte[] d, int i) {
    return (d[i] & 0xff) << 8 | (d[i + 1] & 0xff);
  }

  private static void sized(long declared, long got, String what) {
    if (declared != got) {
      throw new AssertionError(what + ": declared " + declared + " bytes, decoded " + got);
    }
  }

  /** Bytes 0-1: the size hint (cd_values[2], big-endian); then the LZF stream. */
  @FuzzTest
  void lzf(byte[] data) {
    if (data.length < 2) {
      return;
    }
    int hint = u16(data, 0);
    FuzzSupport.expectIoOnly(() -> {
      byte[] out = Lzf.decode(data, 2, data.length - 2, hint, FuzzSupport.MAX_DECODE);
      byte[] again = new byte[out.length];
      int n = Lzf.decode(data, 2, data.length - 2, again, 0, again.length);
      sized(out.length, n, "LZF");
      if (!Arrays.equals(out, again)) {
        throw new AssertionError("LZF: the two decodes differ");
      }
    });
  }

  /**
   * The whole input is one chunk of the LZ4 filter (32004), decoded whole and in steps (as a typed whole read takes
   * it): both fail, or both give the same bytes, the steps reporting every byte once, in order.
   */
  @FuzzTest
  void lz4Filter(byte[] data) {
    FuzzSupport.expectIoOnly(() -> {
      long n = Lz4Filter.decodedSize(data, 0, data.length);
      if (n > FuzzSupport.MAX_DECODE) {
        return;
      }
      byte[] whole = new byte[(int) n];
      IOException wholeFailed = null;
      try {
        Lz4Filter.decode(data, 0, data.length, whole, 0, (int) n);
      } catch (IOException e) {
        wholeFailed = e;
      }
      byte[] steps = new byte[(int) n];
      int[] next = {0};
      try {
        Lz4Filter.decode(data, 0, data.length, steps, 0, (int) n, 1 + data.length % 61, (from, to) -> {
          if (from != next[0] || to < from || to > n) {
            throw new AssertionError("LZ4 filter: step " + from + ".." + to + " after " + next[0]);
          }
          next[0] = to;
        });
      } catch (IOException e) {
        if (wholeFailed == null) {
          throw new AssertionError("LZ4 filter: decodes whole, fails in steps: " + e.getMessage(), e);
        }
        throw e;
      }
      if (wholeFailed != null) {
        throw new AssertionError("LZ4 filter: decodes in steps, fails whole: " + wholeFailed.getMessage());
      }
      if (next[0] != n || !Arrays.equals(whole, steps)) {
        throw new AssertionError("LZ4 filter: in steps, " + next[0] + " of " + n + " bytes reported, or other bytes");
      }
    });
  }

  /**
   * Byte 0: element size ({@code (b & 15) + 1}) and compression (bits 4-5: 0 none, 1 LZ4, 2 zstd); bytes 1-2: the
   * block size in elements from cd_values (big-endian, 0 = default); then the chunk.
   */
  @FuzzTest
  void bitshuffle(byte[] data) {
    if (data.length < 3) {
      return;
    }
    int elem = (data[0] & 15) + 1;
    int comp = new int[] {Bitshuffle.NONE, Bitshuffle.LZ4, Bitshuffle.ZSTD, Bitshuffle.LZ4}[(data[0] >> 4) & 3];
    int block = u16(data, 1);
    FuzzSupport.expectIoOnly(() -> {
      int len = data.length - 3;
      long n = comp == Bitshuffle.NONE ? len : Bitshuffle.decodedSize(data, 3, len);
      if (n > FuzzSupport.MAX_DECODE) {
        return;
      }
      Bitshuffle.decode(data, 3, len, new byte[(int) n], 0, (int) n, elem, block, comp);
    });
  }

  /** The whole input is one chunk of the Zstandard filter (32015) of a 1-byte-element dataset. */
  @FuzzTest
  void zstdFilter(byte[] data) {
    FuzzSupport.expectIoOnly(() -> {
      long n = org.chunkcdm.blosc.Streams.zstdContentSize(data, 0, data.length);
      if (n < 1 || n > FuzzSupport.MAX_DECODE) {
        return;
      }
      FilterPipeline p = new FilterPipeline(new H5Internals.Filter[] {
        new H5Internals.Filter(FilterPipeline.ZSTD, 1, new int[] {3}, "zstd")}, 1, new int[] {(int) n}, n);
      p.decodeInto(data, data.length, 0, new byte[(int) n], 0);
    });
  }

  /** The whole input is one chunk of the BZip2 filter (307). */
  @FuzzTest
  void bzip2(byte[] data) {
    FuzzSupport.expectIoOnly(() -> {
      byte[] out = Bzip2.decode(data, 0, data.length, -1, FuzzSupport.MAX_DECODE);
      byte[] again = Bzip2.decode(data, 0, data.length, out.length, FuzzSupport.MAX_DECODE);
      if (!Arrays.equals(out, again)) {
        throw new AssertionError("bzip2: the two decodes differ");
      }
    });
  }

  /**
   * N-bit (5), atomic type. Byte 0: need-not-compress (bit 0), byte order (bit 1), element size (bits 2-3: 1, 2, 4,
   * 8); byte 1: precision; byte 2: offset; bytes 3-4: elements (big-endian); then the chunk.
   */
  @FuzzTest
  void nbit(byte[] data) {
    if (data.length < 5) {
      return;
    }
    int size = 1 << ((data[0] >> 2) & 3);
    int[] cd = {8, data[0] & 1, u16(data, 3), Nbit.ATOMIC, size, (data[0] >> 1) & 1, data[1] & 0xff, data[2] & 0xff};
    FuzzSupport.expectIoOnly(() -> {
      long n = Nbit.decodedSize(cd);
      Nbit.decode(cd, data, 5, data.length - 5, new byte[(int) n], 0);
    });
  }

  /**
   * Scale-offset (6). Byte 0: class (bit 0: float), fill defined (bit 1), byte order (bit 2), sign (bit 3), element
   * size (bits 4-5: 1, 2, 4, 8); byte 1: scale factor (signed); bytes 2-3: elements (big-endian); bytes 4-11: the
   * fill value; then the chunk.
   */
  @FuzzTest
  void scaleOffset(byte[] data) {
    if (data.length < 12) {
      return;
    }
    boolean flt = (data[0] & 1) != 0;
    int size = flt ? 4 << ((data[0] >> 4) & 1) : 1 << ((data[0] >> 4) & 3);
    int[] cd = new int[20];
    cd[0] = flt ? ScaleOffset.DSCALE : ScaleOffset.INT;
    cd[1] = data[1];
    cd[2] = u16(data, 2);
    cd[3] = flt ? 1 : 0;
    cd[4] = size;
    cd[5] = (data[0] >> 3) & 1;
    cd[6] = (data[0] >> 2) & 1;
    cd[7] = (data[0] >> 1) & 1;
    for (int b = 0; b < 8; b++) {
      cd[8 + b / 4] |= (data[4 + b] & 0xff) << (8 * (b % 4));
    }
    FuzzSupport.expectIoOnly(() -> {
      long n = ScaleOffset.decodedSize(cd);
      ScaleOffset.decode(cd, data, 12, data.length - 12, new byte[(int) n], 0);
    });
  }

  private static final int[] IDS = {FilterPipeline.DEFLATE, FilterPipeline.SHUFFLE, FilterPipeline.FLETCHER32,
    FilterPipeline.NBIT, FilterPipeline.SCALEOFFSET, FilterPipeline.BZIP2, FilterPipeline.LZF, FilterPipeline.LZ4,
    FilterPipeline.BITSHUFFLE, FilterPipeline.ZSTD, 32013};

  /**
   * One stored chunk through a whole pipeline. Byte 0: number of filters (1-4, bits 0-1) and item size (bits 2-3:
   * 1, 2, 4, 8); bytes 1-4: the filters (index into deflate, shuffle, Fletcher32, N-bit, scale-offset, BZip2, LZF,
   * LZ4, Bitshuffle+LZ4, Zstd, ZFP (unknown)), in pipeline order; byte 5: the chunk's filter mask; bytes 6-7:
   * elements per chunk (big-endian); then the stored chunk. N-bit and scale-offset get the parameters HDF5 writes for
   * the item size (N-bit: precision 5 bits less than the type, offset 2).
   */
  @FuzzTest
  void filterPipeline(byte[] data) {
    if (data.length < 8) {
      return;
    }
    int count = (data[0] & 3) + 1;
    int item = 1 << ((data[0] >> 2) & 3);
    int mask = data[5] & 0xff;
    int elems = Math.max(1, u16(data, 6));
    long chunkBytes = (long) elems * item;
    List<H5Internals.Filter> pipe = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = IDS[(data[1 + i] & 0xff) % IDS.length];
      int[] cd;
      switch (id) {
        case FilterPipeline.NBIT:
          cd = new int[] {8, 0, elems, Nbit.ATOMIC, item, 0, Math.max(1, 8 * item - 5), Math.min(2, 8 * item - 1)};
          break;
        case FilterPipeline.SCALEOFFSET:
          cd = new int[20];
          cd[0] = ScaleOffset.INT;
          cd[2] = elems;
          cd[4] = item;
          cd[5] = 1;
          cd[7] = 1;
          break;
        case FilterPipeline.BITSHUFFLE:
          cd = new int[] {0, 4, item, 0, Bitshuffle.LZ4};
          break;
        case FilterPipeline.LZF:
          cd = new int[] {4, 261, (int) chunkBytes};
          break;
        case FilterPipeline.SHUFFLE:
          cd = new int[] {item};
          break;
        default:
          cd = new int[] {3};
      }
      pipe.add(new H5Internals.Filter(id, 1, cd, "fuzz-" + id));
    }
    int stored = data.length - 8;
    List<DataBTree.DataChunk> index = List.of(H5FuzzSupport.entry(8, stored, mask, new int[2]));
    H5ChunkedArray a = new H5ChunkedArray("fuzz.h5", "v", DType.forTypesize(item).withOrder(ByteOrder.LITTLE_ENDIAN),
        new long[] {2L * elems}, new int[] {elems}, pipe.toArray(new H5Internals.Filter[0]), null, null, "fuzz",
        H5FuzzSupport.bytes(data), () -> index);
    FuzzSupport.expectIoOnly(() -> H5FuzzSupport.checkChunks(a, chunkBytes));
  }
}
