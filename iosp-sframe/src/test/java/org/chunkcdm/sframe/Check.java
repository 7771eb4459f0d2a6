package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.testkit.Fixtures;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Compares what netcdf-java returns with the blosc2 manifest's expected raw bytes (C order, little-endian),
 * ignoring the manifest's {@code undefined_byte_ranges}. The expected type of a plain frame follows the
 * contract's typesize rule; the test gathers expected sections with its own index arithmetic.
 */
final class Check {
  private Check() {}

  /** What the variable must hold, plus a mask of defined bytes (1) and the chunk / block shape (items). */
  record Expect(String what, DType dtype, long[] shape, byte[] raw, byte[] defined, long[] chunk, long[] block) {
    static Expect of(Fixtures.Variable fv) {
      JsonNode v = fv.json();
      JsonNode d = fv.dataset().json();
      byte[] raw = fv.expected();
      byte[] defined = new byte[raw.length];
      Arrays.fill(defined, (byte) 1);
      for (JsonNode r : d.path("undefined_byte_ranges")) {
        Arrays.fill(defined, r.get(0).asInt(), r.get(1).asInt(), (byte) 0);
      }
      DType dt;
      long[] shape;
      long[] chunk;
      long[] block;
      try {
        if (fv.dtype().equals("bytes")) {
          int ts = v.path("typesize").asInt();
          dt = DType.forTypesize(ts);
          shape = new long[] {raw.length / ts};
          long cs = d.path("frame").path("chunksize").asLong() / ts;
          chunk = new long[] {cs > 0 ? cs : Math.max(1, shape[0] / 3)};
          block = chunk;
        } else {
          dt = DType.parseNumpy(fv.dtype());
          shape = fv.shape();
          chunk = longs(v.path("chunkshape"));
          block = longs(v.path("blockshape"));
        }
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      return new Expect(fv.toString(), dt, shape, raw, defined, chunk, block);
    }

    @Override
    public String toString() {
      return what;
    }
  }

  static long[] longs(JsonNode a) {
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asLong();
    }
    return out;
  }

  static String varName(Fixtures.Dataset d) {
    return CdmNames.fromFileName(d.file().getFileName().toString());
  }

  static Variable find(NetcdfFile nc, Fixtures.Dataset d) {
    Variable v = nc.findVariable(varName(d));
    assertNotNull(v, d + " not found as " + varName(d) + " in " + nc.getVariables());
    return v;
  }

  /** Checks type, shape and all values of the variable. */
  static void assertWhole(Expect fv, Variable v) throws IOException {
    DType dt = fv.dtype();
    assertEquals(org.chunkcdm.cdm.CdmTypes.of(dt), v.getDataType(), fv + " type");
    long[] shape = fv.shape();
    int[] want = new int[shape.length + (dt.extraDim() > 0 ? 1 : 0)];
    for (int d = 0; d < shape.length; d++) {
      want[d] = (int) shape[d];
    }
    if (dt.extraDim() > 0) {
      want[shape.length] = dt.extraDim();
    }
    assertArrayEquals(want, v.getShape(), fv + " shape");
    long[] first = new long[shape.length];
    long[] stride = new long[shape.length];
    Arrays.fill(stride, 1);
    compare(fv, first, shape, stride, v.read());
  }

  /** Reads and checks a strided section of the logical dimensions (the extra type dimension is read whole). */
  static void assertSection(Expect fv, Variable v, long[] first, long[] count, long[] stride) throws IOException {
    try {
      compare(fv, first, count, stride, v.read(section(fv, first, count, stride)));
    } catch (InvalidRangeException e) {
      throw new AssertionError(e);
    }
  }

  static Section section(Expect fv, long[] first, long[] count, long[] stride) {
    List<Range> ranges = new ArrayList<>();
    try {
      for (int d = 0; d < first.length; d++) {
        ranges.add(new Range((int) first[d], (int) (first[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
      }
      if (fv.dtype().extraDim() > 0) {
        ranges.add(new Range(0, fv.dtype().extraDim() - 1));
      }
    } catch (InvalidRangeException e) {
      throw new AssertionError(e);
    }
    return new Section(ranges);
  }

  static void compare(Expect fv, long[] first, long[] count, long[] stride, Array actual) {
    int item = fv.dtype().itemSize();
    byte[] exp = gather(fv.raw(), fv.shape(), item, first, count, stride);
    byte[] mask = gather(fv.defined(), fv.shape(), item, first, count, stride);
    byte[] got = littleEndian(actual);
    String what = fv + " section " + Arrays.toString(first) + "/" + Arrays.toString(count) + "/"
        + Arrays.toString(stride);
    assertEquals(exp.length, got.length, what + " size");
    for (int i = 0; i < mask.length; i++) {
      if (mask[i] == 0) {
        exp[i] = 0;
        got[i] = 0;
      }
    }
    assertArrayEquals(exp, got, what);
  }

  /** The array's values as little-endian bytes, element by element. */
  static byte[] littleEndian(Array a) {
    return org.chunkcdm.testkit.CdmArrays.littleEndian(a);
  }

  /** The selected items of a C-order raw array, in C order. */
  static byte[] gather(byte[] raw, long[] shape, int item, long[] first, long[] count, long[] stride) {
    return org.chunkcdm.testkit.CdmArrays.gather(raw, shape, item, first, count, stride);
  }

  /**
   * Sub-sections crossing block and chunk boundaries in every dimension, strided ones, the tail of the last
   * chunk and a single point, each checked against the expected array sliced here.
   */
  static List<long[][]> sections(Expect fv) {
    long[] shape = fv.shape();
    int rank = shape.length;
    List<long[][]> cases = new ArrayList<>();
    if (rank == 0 || Arrays.stream(shape).anyMatch(x -> x == 0)) {
      return cases;
    }
    long[][] a = new long[3][rank]; // around the first block boundary up to past the first chunk boundary
    long[][] b = new long[3][rank]; // strided over everything, stride not dividing block or chunk sizes
    long[][] c = new long[3][rank]; // from a few items before the last chunk start to the end
    long[][] e = new long[3][rank]; // stride block+1 starting inside the first block
    long[][] p = new long[3][rank]; // one element
    for (int d = 0; d < rank; d++) {
      long n = shape[d];
      long bs = fv.block()[d];
      long cs = fv.chunk()[d];
      a[0][d] = Math.min(n - 1, Math.max(0, bs - 2));
      a[1][d] = Math.min(n - 1, cs + 2) - a[0][d] + 1;
      a[2][d] = 1;
      b[0][d] = Math.min(1, n - 1);
      b[2][d] = 3;
      b[1][d] = (n - 1 - b[0][d]) / 3 + 1;
      long lastStart = (n - 1) / cs * cs;
      c[0][d] = Math.max(0, lastStart - 3);
      c[1][d] = n - c[0][d];
      c[2][d] = 1;
      e[0][d] = Math.min(n - 1, Math.max(0, bs - 1));
      e[2][d] = bs + 1;
      e[1][d] = (n - 1 - e[0][d]) / e[2][d] + 1;
      p[0][d] = n / 2;
      p[1][d] = 1;
      p[2][d] = 1;
    }
    cases.add(a);
    cases.add(b);
    cases.add(c);
    cases.add(e);
    cases.add(p);
    return cases;
  }

  static void assertSections(Expect fv, Variable v) throws IOException {
    // netcdf-java caches small variables whole: switch that off so every section goes to the IOSP
    v.setCaching(false);
    v.invalidateCache();
    for (long[][] k : sections(fv)) {
      assertSection(fv, v, k[0], k[1], k[2]);
    }
  }
}
