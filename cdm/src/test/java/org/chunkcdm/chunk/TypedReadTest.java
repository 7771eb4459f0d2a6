package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import ucar.ma2.Range;
import ucar.ma2.Section;

/**
 * Typed reads ({@link SectionReader#readInto}) of random boxes with random strides and destination offsets,
 * over every typed dtype, both byte orders, regular grids, flat C and Fortran layouts and missing chunks
 * (fill value), against values computed element by element from the array's logical bytes and against the
 * CDM read of the same section.
 */
class TypedReadTest {
  static final DType[] TYPES = {
    DType.of(DType.Kind.INT, 1, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.UINT, 1, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.BOOL, 1, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.INT, 2, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.UINT, 2, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.UINT, 4, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.INT, 8, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.UINT, 8, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.FLOAT, 2, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.FLOAT, 2, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.FLOAT, 4, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN),
  };

  /** The typed value of element bytes at {@code off}, boxed for comparison (floats by bits). */
  static Object value(DType dt, byte[] b, int off) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(dt.order());
    switch (dt.kind()) {
      case BOOL:
        return (byte) (b[off] != 0 ? 1 : 0);
      case FLOAT:
        if (dt.itemSize() == 2) {
          return Float.floatToRawIntBits(DType.halfToFloat(bb.getShort(off)));
        }
        return dt.itemSize() == 4 ? (Object) Float.floatToRawIntBits(bb.getFloat(off)) : (Object) Double.doubleToRawLongBits(bb.getDouble(off));
      default:
        switch (dt.itemSize()) {
          case 1:
            return b[off];
          case 2:
            return bb.getShort(off);
          case 4:
            return bb.getInt(off);
          default:
            return bb.getLong(off);
        }
    }
  }

  static Object got(Object arr, int i) {
    Object v = Array.get(arr, i);
    if (v instanceof Float) {
      return Float.floatToRawIntBits((Float) v);
    }
    if (v instanceof Double) {
      return Double.doubleToRawLongBits((Double) v);
    }
    return v;
  }

  static ChunkGrid randomGrid(Random r, long[] shape) {
    int rank = shape.length;
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    switch (r.nextInt(3)) {
      case 0: {
        int[] c = new int[rank];
        for (int d = 0; d < rank; d++) {
          c[d] = 1 + r.nextInt((int) shape[d] + 1);
        }
        return ChunkGrid.regular(shape, c);
      }
      case 1:
        return ChunkGrid.flat(shape, 1 + r.nextInt((int) n), false);
      default:
        return ChunkGrid.flat(shape, 1 + r.nextInt((int) n), true);
    }
  }

  @Test
  void randomBoxesOfEveryTypedDtype() throws Exception {
    Random r = new Random(12);
    int reads = 0;
    for (int round = 0; round < 60; round++) {
      for (DType dt : TYPES) {
        int rank = 1 + r.nextInt(4);
        long[] shape = new long[rank];
        long n = 1;
        for (int d = 0; d < rank; d++) {
          shape[d] = 1 + r.nextInt(rank == 1 ? 300 : rank == 2 ? 30 : 9);
          n *= shape[d];
        }
        byte[] logical = new byte[(int) n * dt.itemSize()];
        r.nextBytes(logical);
        ChunkGrid g = randomGrid(r, shape);
        java.util.Set<Long> missing = new java.util.HashSet<>();
        for (long k = 0; k < g.chunkCount(); k++) {
          if (r.nextInt(5) == 0) {
            missing.add(k);
          }
        }
        byte[] fill = new byte[dt.itemSize()];
        r.nextBytes(fill);
        MemoryArray m = new MemoryArray(dt, g, logical, missing, r.nextBoolean() ? fill : null);
        for (int q = 0; q < 4; q++) {
          check(m, r);
          reads++;
        }
      }
    }
    assertTrue(reads > 3000);
  }

  private static void check(MemoryArray m, Random r) throws Exception {
    DType dt = m.dtype();
    long[] shape = m.grid().shape();
    int rank = shape.length;
    long[] origin = new long[rank];
    long[] count = new long[rank];
    long[] stride = new long[rank];
    List<Range> ranges = new ArrayList<>();
    long n = 1;
    for (int d = 0; d < rank; d++) {
      origin[d] = r.nextInt((int) shape[d]);
      stride[d] = 1 + (r.nextInt(3) == 0 ? r.nextInt(4) : 0);
      long max = (shape[d] - 1 - origin[d]) / stride[d] + 1;
      count[d] = 1 + r.nextInt((int) max);
      n *= count[d];
      ranges.add(new Range((int) origin[d], (int) (origin[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
    }
    int off = r.nextInt(5);
    Object dst = SectionReader.newTypedArray(dt, (int) n + off + 2);
    boolean allOnes = true;
    for (long s : stride) {
      allOnes &= s == 1;
    }
    SectionReader.readInto(m, origin, count, allOnes && r.nextBoolean() ? null : stride, dst, off);
    String what = dt + " " + m.grid() + " origin " + java.util.Arrays.toString(origin) + " count "
        + java.util.Arrays.toString(count) + " stride " + java.util.Arrays.toString(stride);
    Object cdm = org.chunkcdm.cdm.CdmReader.read(m, new Section(ranges)).copyTo1DJavaArray();
    long[] coord = new long[rank];
    for (int e = 0; e < n; e++) {
      int q = e;
      for (int d = rank - 1; d >= 0; d--) {
        coord[d] = origin[d] + (q % count[d]) * stride[d];
        q /= count[d];
      }
      Object want;
      if (m.missing().contains(m.chunkOf(coord))) {
        want = m.fillValue() == null ? value(dt, new byte[dt.itemSize()], 0) : value(dt, m.fillValue(), 0);
      } else {
        want = value(dt, m.logical(), (int) MemoryArray.cIndex(coord, shape) * dt.itemSize());
      }
      assertEquals(want, got(dst, off + e), what + " element " + e);
      assertEquals(want, got(cdm, e), what + " element " + e + " (CDM read)");
    }
    for (int i = 0; i < off; i++) { // nothing written before the offset
      assertEquals(got(SectionReader.newTypedArray(dt, 1), 0), got(dst, i));
    }
  }

  @Test
  void refusesOtherKindsAndBadArguments() throws IOException {
    MemoryArray complex = new MemoryArray(DType.of(DType.Kind.COMPLEX, 8, ByteOrder.LITTLE_ENDIAN), ChunkGrid.flat(new long[] {4}, 2, false),
        new byte[32], java.util.Set.of(), null);
    assertNull(SectionReader.typedClass(complex.dtype()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SectionReader.readInto(complex, new long[] {0}, new long[] {4}, null, new float[8], 0));
    assertTrue(e.getMessage().contains("<c8"), e.getMessage());
    MemoryArray ints = new MemoryArray(DType.of(DType.Kind.INT, 2, ByteOrder.LITTLE_ENDIAN), ChunkGrid.regular(new long[] {4, 5}, new int[] {2, 2}),
        new byte[40], java.util.Set.of(), null);
    assertEquals(short.class, SectionReader.typedClass(ints.dtype()));
    assertThrows(IllegalArgumentException.class, // wrong destination type
        () -> SectionReader.readInto(ints, new long[] {0, 0}, new long[] {4, 5}, null, new int[20], 0));
    assertThrows(IllegalArgumentException.class, // outside
        () -> SectionReader.read(ints, new long[] {3, 0}, new long[] {2, 5}, null, new short[20], 0));
    assertThrows(IllegalArgumentException.class, // strided past the end
        () -> SectionReader.read(ints, new long[] {0, 1}, new long[] {1, 3}, new long[] {1, 2}, new short[20], 0));
    assertThrows(IllegalArgumentException.class, // destination too small
        () -> SectionReader.read(ints, new long[] {0, 0}, new long[] {4, 5}, null, new short[20], 1));
    assertThrows(IllegalArgumentException.class, // rank
        () -> SectionReader.read(ints, new long[] {0}, new long[] {4}, null, new short[20], 0));
    short[] empty = new short[0];
    SectionReader.read(ints, new long[] {0, 0}, new long[] {0, 5}, null, empty, 0); // empty box: nothing to do
  }

  @Test
  void largeParallelReadIntoOffset() throws Exception {
    // a box of several MB over many chunks goes through the parallel path
    long[] shape = {64, 256, 256};
    DType dt = DType.of(DType.Kind.UINT, 2, ByteOrder.BIG_ENDIAN);
    byte[] logical = new byte[64 * 256 * 256 * 2];
    ByteBuffer bb = ByteBuffer.wrap(logical).order(ByteOrder.BIG_ENDIAN);
    for (int i = 0; i < logical.length / 2; i++) {
      bb.putShort(2 * i, (short) (i * 31 + 7));
    }
    MemoryArray m = new MemoryArray(dt, ChunkGrid.regular(shape, new int[] {8, 64, 64}), logical, java.util.Set.of(), null);
    short[] dst = new short[3 + 40 * 200 * 256];
    SectionReader.read(m, new long[] {10, 30, 0}, new long[] {40, 200, 256}, null, dst, 3);
    for (int z = 0; z < 40; z += 7) {
      for (int y = 0; y < 200; y += 13) {
        for (int x = 0; x < 256; x += 5) {
          int ci = ((10 + z) * 256 + 30 + y) * 256 + x;
          assertEquals((short) (ci * 31 + 7), dst[3 + (z * 200 + y) * 256 + x]);
        }
      }
    }
    short[] whole = (short[]) SectionReader.readTyped(m, new long[] {0, 0, 0}, shape, null);
    short[] want = new short[whole.length];
    ByteBuffer.wrap(logical).order(ByteOrder.BIG_ENDIAN).asShortBuffer().get(want);
    assertArrayEquals(want, whole);
  }
}
