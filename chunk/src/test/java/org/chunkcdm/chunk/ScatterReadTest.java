package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Whole chunks of a large N-d read that land in several pieces of the result are decoded into scratch and
 * scattered straight into the destination (issue 14): the result is identical to the path through the cache
 * (and to the values the chunks were built from) for rank 2-4 grids with edge chunks, every typed element type
 * and both byte orders, strided and unstrided boxes; such chunks are decoded once each and never enter the cache;
 * chunks a read covers only in part still go through it.
 */
class ScatterReadTest {
  private long saved = -1;

  @AfterEach
  void restore() {
    if (saved >= 0) {
      ChunkProbes.setScatterBytes(saved);
    }
  }

  /** An N-d array of in-memory chunks (full chunk extent, also at the edges) whose element e has bytes f(e). */
  static final class Nd extends BasicChunkedArray {
    final DType dt;
    final ChunkGrid.Regular grid;
    final byte[] flat; // the whole array in C order, storage byte order
    final byte[][] chunks;

    Nd(DType dt, long[] shape, int[] chunk, long seed) {
      super(dt, ChunkGrid.regular(shape, chunk), null, new Object());
      this.dt = dt;
      this.grid = (ChunkGrid.Regular) super.grid();
      int item = dt.itemSize();
      long n = 1;
      for (long s : shape) {
        n *= s;
      }
      flat = new byte[(int) n * item];
      Random r = new Random(seed);
      r.nextBytes(flat);
      if (dt.kind() == DType.Kind.BOOL) {
        for (int i = 0; i < flat.length; i++) {
          flat[i] = (byte) (flat[i] & 1);
        }
      }
      if (dt.kind() == DType.Kind.FLOAT) { // no NaN payloads: compare values, not bits
        ByteBuffer bb = ByteBuffer.wrap(flat).order(dt.order());
        for (int e = 0; e < n; e++) {
          if (item == 8) {
            bb.putDouble(e * 8, r.nextGaussian() * 1e3);
          } else if (item == 4) {
            bb.putFloat(e * 4, (float) (r.nextGaussian() * 1e3));
          }
        }
      }
      int rank = shape.length;
      int nc = (int) grid.chunkCount();
      chunks = new byte[nc][];
      long[] gs = new long[rank];
      long cElems = 1;
      for (int d = 0; d < rank; d++) {
        gs[d] = (shape[d] + chunk[d] - 1) / chunk[d];
        cElems *= chunk[d];
      }
      for (int k = 0; k < nc; k++) {
        long[] kk = new long[rank];
        long rem = k;
        for (int d = rank - 1; d >= 0; d--) {
          kk[d] = rem % gs[d];
          rem /= gs[d];
        }
        byte[] c = new byte[(int) cElems * item];
        for (int e = 0; e < cElems; e++) { // position of element e of the chunk in the array
          long rest = e;
          long at = 0;
          boolean inside = true;
          long mul = 1;
          for (int d = rank - 1; d >= 0; d--) {
            long i = kk[d] * chunk[d] + rest % chunk[d];
            rest /= chunk[d];
            inside &= i < shape[d];
            at += i * mul;
            mul *= shape[d];
          }
          if (inside) {
            System.arraycopy(flat, (int) at * item, c, e * item, item);
          } else {
            c[e * item] = 0x55; // padding the reads must never show
          }
        }
        chunks[k] = c;
      }
    }

    @Override
    public ChunkData chunk(long index) {
      return ChunkData.of(chunks[(int) index]);
    }

    /** The box's bytes in C order, from the flat array. */
    byte[] expected(long[] origin, long[] shape, long[] stride) {
      int rank = origin.length;
      int item = dt.itemSize();
      long n = 1;
      for (long s : shape) {
        n *= s;
      }
      long[] as = grid.shape();
      byte[] out = new byte[(int) n * item];
      long[] idx = new long[rank];
      for (int e = 0; e < n; e++) {
        long at = 0;
        for (int d = 0; d < rank; d++) {
          at = at * as[d] + origin[d] + idx[d] * stride[d];
        }
        System.arraycopy(flat, (int) at * item, out, e * item, item);
        for (int d = rank - 1; d >= 0 && ++idx[d] == shape[d]; d--) {
          idx[d] = 0;
        }
      }
      return out;
    }
  }

  static final DType[] TYPES = {
    DType.of(DType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.FLOAT, 8, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.FLOAT, 4, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.FLOAT, 2, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.INT, 2, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.UINT, 4, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.INT, 8, ByteOrder.BIG_ENDIAN),
    DType.of(DType.Kind.INT, 1, ByteOrder.LITTLE_ENDIAN),
    DType.of(DType.Kind.BOOL, 1, ByteOrder.LITTLE_ENDIAN),
  };

  static final long[][] SHAPES = {{13, 17, 19}, {8, 16, 16}, {3, 4, 5, 6}, {40, 30}};
  static final int[][] CHUNKS = {{4, 5, 6}, {2, 8, 16}, {2, 2, 5, 3}, {8, 7}};

  /** Whole, sub-boxes, strided boxes and random boxes of an array of rank {@code rank}. */
  static List<long[][]> boxes(long[] shape, Random r) {
    int rank = shape.length;
    List<long[][]> out = new ArrayList<>();
    long[] zero = new long[rank];
    long[] one = new long[rank];
    java.util.Arrays.fill(one, 1);
    out.add(new long[][] {zero, shape.clone(), one});
    long[] o = new long[rank];
    long[] s = new long[rank];
    long[] st2 = new long[rank];
    for (int d = 0; d < rank; d++) {
      o[d] = 1;
      s[d] = shape[d] - 2;
      st2[d] = 2;
    }
    out.add(new long[][] {o, s, one});
    long[] s2 = new long[rank];
    for (int d = 0; d < rank; d++) {
      s2[d] = (shape[d] - 1) / 2;
    }
    out.add(new long[][] {o, s2, st2});
    long[] s3 = new long[rank]; // stride 1 except the slowest dimension
    long[] st3 = one.clone();
    st3[0] = 3;
    for (int d = 0; d < rank; d++) {
      s3[d] = d == 0 ? (shape[0] + 2) / 3 : shape[d];
    }
    out.add(new long[][] {zero, s3, st3});
    for (int i = 0; i < 6; i++) {
      long[] ro = new long[rank];
      long[] rs = new long[rank];
      long[] rst = new long[rank];
      for (int d = 0; d < rank; d++) {
        rst[d] = 1 + (i % 3 == 0 ? r.nextInt(3) : 0);
        ro[d] = r.nextInt((int) shape[d]);
        rs[d] = 1 + r.nextInt((int) ((shape[d] - 1 - ro[d]) / rst[d] + 1));
      }
      out.add(new long[][] {ro, rs, rst});
    }
    return out;
  }

  /** The typed result of a box as bytes in the dtype's order (for comparing whatever the Java type). */
  static byte[] typedAsBytes(DType dt, Object arr) {
    int n = java.lang.reflect.Array.getLength(arr);
    if (arr instanceof byte[]) {
      return (byte[]) arr;
    }
    ByteBuffer bb = ByteBuffer.allocate(n * 8).order(dt.order());
    for (int i = 0; i < n; i++) {
      if (arr instanceof short[]) {
        bb.putShort(((short[]) arr)[i]);
      } else if (arr instanceof int[]) {
        bb.putInt(((int[]) arr)[i]);
      } else if (arr instanceof long[]) {
        bb.putLong(((long[]) arr)[i]);
      } else if (arr instanceof float[]) {
        bb.putFloat(((float[]) arr)[i]);
      } else {
        bb.putDouble(((double[]) arr)[i]);
      }
    }
    return java.util.Arrays.copyOf(bb.array(), bb.position());
  }

  static Object typed(Nd a, long[][] box, ChunkCache cache) throws IOException {
    long n = 1;
    for (long s : box[1]) {
      n *= s;
    }
    Object dst = SectionReader.newTypedArray(a.dt, (int) n + 3);
    SectionReader.readInto(a, box[0], box[1], box[2], dst, 3, ReadSettings.of(cache, 0));
    Object out = SectionReader.newTypedArray(a.dt, (int) n);
    System.arraycopy(dst, 3, out, 0, (int) n);
    return out;
  }

  @Test
  void scatteredReadsEqualCachedReadsAndTheValues() throws Exception {
    saved = ChunkProbes.setScatterBytes(0); // every read of two or more chunks scatters
    Random r = new Random(14);
    int cases = 0;
    for (int g = 0; g < SHAPES.length; g++) {
      for (DType dt : TYPES) {
        Nd a = new Nd(dt, SHAPES[g], CHUNKS[g], 100 * g + dt.itemSize());
        for (long[][] box : boxes(SHAPES[g], r)) {
          String what = dt + " " + java.util.Arrays.toString(SHAPES[g]) + " box " + java.util.Arrays.deepToString(box);
          byte[] want = a.expected(box[0], box[1], box[2]);
          ChunkProbes.setScatterBytes(0);
          ChunkCache c1 = new ChunkCache(64L << 20);
          byte[] raw = SectionReader.readBytes(a, box[0], box[1], box[2], ReadSettings.of(c1, 0));
          Object scattered = typed(a, box, c1);
          ChunkProbes.setScatterBytes(Long.MAX_VALUE);
          ChunkCache c2 = new ChunkCache(64L << 20);
          Object cached = typed(a, box, c2);
          assertArrayEquals(want, raw, what + ": bytes");
          if (dt.kind() == DType.Kind.FLOAT && dt.itemSize() == 2) { // float16: compare the converted floats
            assertArrayEquals((float[]) cached, (float[]) scattered, what);
          } else {
            assertArrayEquals(want, typedAsBytes(dt, scattered), what + ": typed, scattered");
            assertArrayEquals(want, typedAsBytes(dt, cached), what + ": typed, through the cache");
          }
          cases++;
        }
      }
    }
    assertTrue(cases >= 300, cases + " cases");
  }

  @Test
  void wholeChunksOfALargeReadAreDecodedOnceAndNotCached() throws Exception {
    saved = ChunkProbes.setScatterBytes(0);
    DType f64 = DType.of(DType.Kind.FLOAT, 8, ByteOrder.BIG_ENDIAN);
    Nd a = new Nd(f64, new long[] {13, 17, 19}, new int[] {4, 5, 6}, 7); // 4*4*4 = 64 chunks, edges included
    for (int threads : new int[] {1, 0}) { // the calling thread alone; the decode threads
      ChunkCache cache = new ChunkCache(64L << 20);
      long s0 = ChunkProbes.scattered();
      long[] origin = {0, 0, 0};
      long[] shape = {13, 17, 19};
      double[] got = new double[13 * 17 * 19];
      SectionReader.readInto(a, origin, shape, null, got, 0, ReadSettings.of(cache, threads));
      assertArrayEquals(a.expected(origin, shape, new long[] {1, 1, 1}), typedAsBytes(f64, got));
      assertEquals(64, cache.chunkDecodes(), "each chunk decoded once");
      assertEquals(64, ChunkProbes.scattered() - s0, "every chunk scattered");
      assertEquals(0, cache.bytes(), "nothing went through the cache");
      // a box covering the interior chunks whole and the others in part: only the partial ones are cached
      cache.clear();
      long c0 = cache.chunkDecodes();
      s0 = ChunkProbes.scattered();
      long[] o2 = {2, 0, 0};
      long[] sh2 = {11, 17, 19}; // chunk rows 0 (rows 2-3 of 0-3: part) and 1-3 (whole)
      double[] got2 = new double[11 * 17 * 19];
      SectionReader.readInto(a, o2, sh2, null, got2, 0, ReadSettings.of(cache, threads));
      assertArrayEquals(a.expected(o2, sh2, new long[] {1, 1, 1}), typedAsBytes(f64, got2));
      assertEquals(64, cache.chunkDecodes() - c0);
      assertEquals(48, ChunkProbes.scattered() - s0, "the 48 chunks covered whole are scattered");
      assertEquals(16L * 4 * 5 * 6 * 8, cache.bytes(), "the 16 chunks covered in part are cached");
    }
  }

  @Test
  void smallReadsStillUseTheCache() throws Exception {
    saved = ChunkProbes.setScatterBytes(ChunkProbes.defaultScatterBytes()); // the default
    DType f64 = DType.of(DType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN);
    Nd a = new Nd(f64, new long[] {13, 17, 19}, new int[] {4, 5, 6}, 8);
    ChunkCache cache = new ChunkCache(64L << 20);
    long s0 = ChunkProbes.scattered();
    double[] got = new double[13 * 17 * 19];
    SectionReader.readInto(a, new long[3], new long[] {13, 17, 19}, null, got, 0, ReadSettings.of(cache, 0));
    assertEquals(0, ChunkProbes.scattered() - s0, "a read below the threshold does not scatter");
    assertTrue(cache.bytes() > 0);
    long d0 = cache.chunkDecodes();
    SectionReader.readInto(a, new long[3], new long[] {13, 17, 19}, null, got, 0, ReadSettings.of(cache, 0));
    assertEquals(d0, cache.chunkDecodes(), "the second read is served from the cache");
    assertArrayEquals(a.expected(new long[3], new long[] {13, 17, 19}, new long[] {1, 1, 1}), typedAsBytes(f64, got));
  }
}
