package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Section;

/**
 * The section reader against a brute-force model: an int32 array whose element at flat C index i is i,
 * stored in chunks (regular N-d grids, flat C/F layouts, missing chunks), read with random strided sections.
 */
class SectionReaderTest {
  /** In-memory chunked array of int32 values = C-order flat index (or fill -7 for missing chunks). */
  static final class Model extends MemoryArray {
    Model(ChunkGrid grid, ByteOrder order, Set<Long> missing) {
      this(grid, order, missing, ByteBuffer.allocate(4).order(order).putInt(-7).array());
    }

    /** Missing chunks read as {@code fill} (null: zeros). */
    Model(ChunkGrid grid, ByteOrder order, Set<Long> missing, byte[] fill) {
      super(DType.of(DType.Kind.INT, 4, order), grid, MemoryArray.indexElements(order), missing, fill);
    }
  }

  /** Expected values of a section, computed element by element. */
  static int[] expected(Model m, Section s) throws Exception {
    long[] shape = m.grid().shape();
    int rank = shape.length;
    int n = (int) s.computeSize();
    int[] out = new int[n];
    long[] coord = new long[rank];
    for (int e = 0; e < n; e++) {
      int q = e;
      for (int d = rank - 1; d >= 0; d--) {
        int len = s.getRange(d).length();
        coord[d] = s.getRange(d).element(q % len);
        q /= len;
      }
      long ci = MemoryArray.cIndex(coord, shape);
      out[e] = m.missing().contains(m.chunkOf(coord)) ? -7 : (int) ci;
    }
    return out;
  }

  static Section randomSection(Random rnd, long[] shape) throws Exception {
    int rank = shape.length;
    int[] origin = new int[rank];
    int[] size = new int[rank];
    int[] stride = new int[rank];
    for (int d = 0; d < rank; d++) {
      int len = (int) shape[d];
      origin[d] = rnd.nextInt(len);
      stride[d] = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(Math.max(1, len / 2)) : 1;
      int maxCount = (len - 1 - origin[d]) / stride[d] + 1;
      size[d] = (1 + rnd.nextInt(maxCount)) * stride[d];
    }
    int[] last = new int[rank];
    java.util.List<ucar.ma2.Range> ranges = new java.util.ArrayList<>();
    for (int d = 0; d < rank; d++) {
      last[d] = origin[d] + size[d] - stride[d];
      ranges.add(new ucar.ma2.Range(origin[d], last[d], stride[d]));
    }
    return new Section(ranges);
  }

  static void check(Model m, int sections, long seed) throws Exception {
    Random rnd = new Random(seed);
    int[] shapeI = SectionReader.cdmShape(m.grid().shape(), 0);
    // whole array
    Array all = org.chunkcdm.cdm.CdmReader.read(m, null);
    assertEquals(DataType.INT, all.getDataType());
    assertArrayEquals(shapeI, all.getShape());
    assertArrayEquals(expected(m, new Section(shapeI)), (int[]) all.copyTo1DJavaArray(), m.grid() + " whole");
    for (int i = 0; i < sections; i++) {
      Section s = randomSection(rnd, m.grid().shape());
      Array a = org.chunkcdm.cdm.CdmReader.read(m, s);
      assertArrayEquals(s.getShape(), a.getShape());
      assertArrayEquals(expected(m, s), (int[]) a.copyTo1DJavaArray(), m.grid() + " " + s);
    }
  }

  /**
   * readBytes into a reused buffer (at an offset) gives the bytes a fresh read gives, also where chunks are
   * missing and read as a zero fill value (the buffer's old content must not show through) or as -7.
   */
  @Test
  void readBytesIntoAReusedBufferWritesEverySelectedElement() throws Exception {
    ChunkGrid grid = ChunkGrid.regular(new long[] {13, 17}, new int[] {5, 4});
    Model minus7 = new Model(grid, ByteOrder.LITTLE_ENDIAN, Set.of(3L, 7L));
    ChunkedArray zeros = new Model(grid, ByteOrder.LITTLE_ENDIAN, Set.of(3L, 7L), null);
    ChunkedArray flat = new Model(ChunkGrid.flat(new long[] {100}, 7, false), ByteOrder.BIG_ENDIAN, Set.of(4L), new byte[4]);
    java.util.Random r = new java.util.Random(5);
    for (ChunkedArray m : java.util.List.of(minus7, zeros, flat)) {
      long[] shape = m.grid().shape();
      for (int k = 0; k < 60; k++) {
        long[] first = new long[shape.length];
        long[] count = new long[shape.length];
        long[] stride = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
          stride[d] = 1 + r.nextInt(3);
          first[d] = r.nextInt((int) shape[d]);
          count[d] = 1 + r.nextInt((int) ((shape[d] - 1 - first[d]) / stride[d] + 1));
        }
        byte[] want = SectionReader.readBytes(m, first, count, stride);
        byte[] buf = new byte[want.length + 9];
        java.util.Arrays.fill(buf, (byte) 0x55);
        SectionReader.readBytes(m, first, count, stride, buf, 3);
        assertArrayEquals(want, java.util.Arrays.copyOfRange(buf, 3, 3 + want.length), m.grid() + " " + java.util.Arrays.toString(first));
        assertEquals(0x55, buf[2] & 0xff);
        assertEquals(0x55, buf[3 + want.length] & 0xff);
        // the typed read into a reused int[] too
        int[] typed = new int[want.length / 4 + 2];
        java.util.Arrays.fill(typed, 0x55555555);
        SectionReader.readInto(m, first, count, stride, typed, 1);
        ByteBuffer wb = ByteBuffer.wrap(want).order(m.dtype().order());
        for (int i = 0; i < want.length / 4; i++) {
          assertEquals(wb.getInt(4 * i), typed[1 + i], m.grid() + " typed element " + i);
        }
        assertEquals(0x55555555, typed[0]);
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> SectionReader.readBytes(zeros, new long[] {0, 0}, new long[] {2, 2}, null, new byte[15], 0));
  }

  @Test
  void regularGrids() throws Exception {
    check(new Model(ChunkGrid.regular(new long[] {37}, new int[] {8}), ByteOrder.LITTLE_ENDIAN, Set.of(2L)), 200, 1);
    check(new Model(ChunkGrid.regular(new long[] {13, 17}, new int[] {5, 4}), ByteOrder.BIG_ENDIAN, Set.of(3L, 7L)), 300, 2);
    check(new Model(ChunkGrid.regular(new long[] {9, 10, 11}, new int[] {4, 10, 3}), ByteOrder.LITTLE_ENDIAN, Set.of()), 300, 3);
    check(new Model(ChunkGrid.regular(new long[] {6, 7, 8, 3}, new int[] {6, 2, 8, 3}), ByteOrder.LITTLE_ENDIAN, Set.of(1L)), 200, 4);
  }

  @Test
  void flatLayouts() throws Exception {
    check(new Model(ChunkGrid.flat(new long[] {100}, 7, false), ByteOrder.LITTLE_ENDIAN, Set.of(4L)), 200, 5);
    check(new Model(ChunkGrid.flat(new long[] {12, 9}, 10, false), ByteOrder.BIG_ENDIAN, Set.of()), 300, 6);
    check(new Model(ChunkGrid.flat(new long[] {5, 6, 7}, 11, true), ByteOrder.LITTLE_ENDIAN, Set.of(2L)), 300, 7);
    check(new Model(ChunkGrid.flat(new long[] {20, 3}, new long[] {0, 7, 7, 30, 31, 60}, false), ByteOrder.LITTLE_ENDIAN,
        Set.of()), 300, 8);
  }

  @Test
  void lazyChunkBoundariesAreLearnedOnFirstReadAndTheirErrorsAreIOExceptions() throws Exception {
    int[] asked = new int[1];
    check(new Model(ChunkGrid.flat(new long[] {20, 3}, 5, () -> {
      asked[0]++;
      return new long[] {0, 7, 7, 30, 31, 60};
    }), ByteOrder.LITTLE_ENDIAN, Set.of(3L)), 200, 9);
    assertEquals(1, asked[0], "the starts are computed once");
    Model broken = new Model(ChunkGrid.flat(new long[] {10}, 2, () -> {
      throw new IOException("chunk 1 header is unreadable");
    }), ByteOrder.LITTLE_ENDIAN, Set.of());
    IOException e = assertThrows(IOException.class, () -> org.chunkcdm.cdm.CdmReader.read(broken, null));
    assertEquals("chunk 1 header is unreadable", e.getMessage());
    Model lying = new Model(ChunkGrid.flat(new long[] {10}, 2, () -> new long[] {0, 4, 9}), ByteOrder.LITTLE_ENDIAN, Set.of());
    assertThrows(IOException.class, () -> org.chunkcdm.cdm.CdmReader.read(lying, null));
  }

  @Test
  void scalarAndEmpty() throws Exception {
    Model scalar = new Model(ChunkGrid.flat(new long[] {}, 1, false), ByteOrder.LITTLE_ENDIAN, Set.of());
    Array a = org.chunkcdm.cdm.CdmReader.read(scalar, null);
    assertEquals(0, a.getRank());
    assertEquals(0, a.getInt(a.getIndex()));
    Model empty = new Model(ChunkGrid.regular(new long[] {0, 3}, new int[] {4, 3}), ByteOrder.LITTLE_ENDIAN, Set.of());
    Array e = org.chunkcdm.cdm.CdmReader.read(empty, null);
    assertArrayEquals(new int[] {0, 3}, e.getShape());
    assertEquals(0, empty.opened.get());
  }

  @Test
  void touchesOnlyChunksWithSelectedElements() throws Exception {
    Model m = new Model(ChunkGrid.regular(new long[] {100, 100}, new int[] {10, 10}), ByteOrder.LITTLE_ENDIAN, Set.of());
    // every 25th row and column: rows 0,25,50,75 lie in chunk rows 0,2,5,7
    org.chunkcdm.cdm.CdmReader.read(m, new Section("0:99:25,0:99:25"));
    assertEquals(16, m.touched.size());
    Set<Long> expect = new HashSet<>();
    for (int r : new int[] {0, 2, 5, 7}) {
      for (int c : new int[] {0, 2, 5, 7}) {
        expect.add((long) r * 10 + c);
      }
    }
    assertEquals(expect, m.touched);
    Model f = new Model(ChunkGrid.flat(new long[] {1000}, 10, false), ByteOrder.LITTLE_ENDIAN, Set.of());
    org.chunkcdm.cdm.CdmReader.read(f, new Section("5:995:100"));
    assertEquals(10, f.touched.size());
  }

  @Test
  void largeSectionsDecodeInParallelAndStayCorrect() throws Exception {
    Model m = new Model(ChunkGrid.regular(new long[] {512, 1024}, new int[] {64, 128}), ByteOrder.LITTLE_ENDIAN, Set.of(5L));
    Array a = org.chunkcdm.cdm.CdmReader.read(m, null);
    assertArrayEquals(expected(m, new Section(new int[] {512, 1024})), (int[]) a.copyTo1DJavaArray());
  }

  @Test
  void sectionsLargerThanTheHeapAreIOExceptionsNotOutOfMemory() {
    long rows = Runtime.getRuntime().maxMemory() / 4 + 1; // int32: more than the heap, fewer than 2^31 elements
    Model huge = new Model(ChunkGrid.regular(new long[] {Math.min(rows, Integer.MAX_VALUE - 64)}, new int[] {1 << 20}),
        ByteOrder.LITTLE_ENDIAN, Set.of());
    IOException e = assertThrows(IOException.class, () -> org.chunkcdm.cdm.CdmReader.read(huge, null));
    assertTrue(e.getMessage().contains("heap"), e.getMessage());
    assertEquals(0, huge.opened.get(), "refused before any chunk was read");
  }

  @Test
  void badSectionsAreIOExceptions() {
    Model m = new Model(ChunkGrid.regular(new long[] {10}, new int[] {4}), ByteOrder.LITTLE_ENDIAN, Set.of());
    assertThrows(IOException.class, () -> org.chunkcdm.cdm.CdmReader.read(m, new Section("0:10")));
    assertThrows(IOException.class, () -> org.chunkcdm.cdm.CdmReader.read(m, new Section("0:3,0:1")));
  }

  @Test
  void typesConvertPerContract() throws Exception {
    byte[] half = {0x00, 0x3c, 0x00, (byte) 0xc0, 0x01, 0x00, 0x00, 0x7c}; // 1.0, -2.0, smallest subnormal, +inf
    Array h = org.chunkcdm.cdm.Convert.toArray(DType.parseNumpy("<f2"), half, new int[] {4});
    assertEquals(DataType.FLOAT, h.getDataType());
    assertArrayEquals(new float[] {1f, -2f, 0x1p-24f, Float.POSITIVE_INFINITY}, (float[]) h.copyTo1DJavaArray());
    Array s = org.chunkcdm.cdm.Convert.toArray(DType.parseNumpy("|S3"), "ab\0xyz".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
        new int[] {2});
    assertEquals(DataType.CHAR, s.getDataType());
    assertArrayEquals(new int[] {2, 3}, s.getShape());
    ByteBuffer u = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    u.putInt('h').putInt(0x1F600).putInt(0).putInt('x').putInt(0).putInt(0);
    Array us = org.chunkcdm.cdm.Convert.toArray(DType.parseNumpy("<U3"), u.array(), new int[] {2});
    assertEquals("h\uD83D\uDE00", us.getObject(0));
    assertEquals("x", us.getObject(1));
    Array c = org.chunkcdm.cdm.Convert.toArray(DType.parseNumpy(">c8"),
        ByteBuffer.allocate(8).putFloat(1.5f).putFloat(-2f).array(), new int[] {1});
    assertArrayEquals(new int[] {1, 2}, c.getShape());
    assertArrayEquals(new float[] {1.5f, -2f}, (float[]) c.copyTo1DJavaArray());
    Array b = org.chunkcdm.cdm.Convert.toArray(DType.parseNumpy("|b1"), new byte[] {0, 1, 2}, new int[] {3});
    assertEquals(DataType.UBYTE, b.getDataType());
    assertArrayEquals(new byte[] {0, 1, 1}, (byte[]) b.copyTo1DJavaArray());
  }
}
