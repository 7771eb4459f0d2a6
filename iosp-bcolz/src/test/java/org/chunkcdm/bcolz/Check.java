package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.testkit.Fixtures;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Compares what netcdf-java returns with a manifest's expected raw values (C order, little-endian; U = UCS-4
 * LE, bool = one byte), converted here independently of the production conversion code.
 */
final class Check {
  private Check() {}

  /** What a variable must hold: numpy dtype, logical shape, raw expected values (C order, little-endian). */
  record Expect(String what, DType dtype, long[] shape, byte[] raw) {
    static Expect of(Fixtures.Variable fv) {
      return new Expect(fv.toString(), Check.dtype(fv), fv.shape(), fv.expected());
    }

    @Override
    public String toString() {
      return what;
    }
  }

  /** The CDM name of a manifest variable: the column name in a ctable, else the dataset's file name. */
  static String varName(Fixtures.Variable fv) {
    Fixtures.Dataset d = fv.dataset();
    if (d.kind().equals("bcolz-ctable")) {
      return fv.name();
    }
    return CdmNames.fromFileName(d.file().getFileName().toString());
  }

  static Variable find(NetcdfFile nc, Fixtures.Variable fv) {
    Variable v = nc.findVariable(varName(fv));
    assertNotNull(v, fv + " not found as " + varName(fv) + " in " + nc.getVariables());
    return v;
  }

  static DType dtype(Fixtures.Variable fv) {
    try {
      return DType.parseNumpy(fv.dtype());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Checks type, shape and all values of the variable. */
  static void assertWhole(Fixtures.Variable fv, Variable v) throws IOException {
    assertWhole(Expect.of(fv), v);
  }

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
    assertSection(fv, v, first, shape, stride, v.read());
  }

  /** Reads and checks a strided section of the logical dimensions (the extra type dimension is read whole). */
  static void assertSection(Expect fv, Variable v, long[] first, long[] count, long[] stride)
      throws IOException {
    DType dt = fv.dtype();
    List<Range> ranges = new ArrayList<>();
    try {
      for (int d = 0; d < first.length; d++) {
        ranges.add(new Range((int) first[d], (int) (first[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
      }
      if (dt.extraDim() > 0) {
        ranges.add(new Range(0, dt.extraDim() - 1));
      }
      assertSection(fv, v, first, count, stride, v.read(new Section(ranges)));
    } catch (InvalidRangeException e) {
      throw new AssertionError(e);
    }
  }

  private static void assertSection(Expect fv, Variable v, long[] first, long[] count, long[] stride,
      Array actual) {
    DType dt = fv.dtype();
    byte[] exp = gather(fv.raw(), fv.shape(), dt.itemSize(), first, count, stride);
    String what = fv + " section " + Arrays.toString(first) + "/" + Arrays.toString(count) + "/"
        + Arrays.toString(stride);
    int n = exp.length / Math.max(1, dt.itemSize());
    switch (dt.kind()) {
      case UNICODE: {
        assertEquals(DataType.STRING, actual.getDataType(), what);
        assertEquals(n, actual.getSize(), what);
        IndexIterator it = actual.getIndexIterator();
        for (int i = 0; i < n; i++) {
          assertEquals(ucs4(exp, i * dt.itemSize(), dt.itemSize() / 4), it.getObjectNext(), what + " element " + i);
        }
        break;
      }
      case BYTES: {
        assertEquals(DataType.CHAR, actual.getDataType(), what);
        byte[] got = new byte[(int) actual.getSize()];
        IndexIterator it = actual.getIndexIterator();
        for (int i = 0; i < got.length; i++) {
          char c = it.getCharNext();
          got[i] = (byte) c;
          if (c > 0xff) {
            throw new AssertionError(what + ": char " + (int) c + " is not a byte");
          }
        }
        assertArrayEquals(exp, got, what);
        break;
      }
      default:
        assertArrayEquals(exp, littleEndian(actual), what);
    }
  }

  /** numpy's U&lt;n&gt; item: code points, trailing NULs dropped. */
  static String ucs4(byte[] b, int off, int units) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int end = units;
    while (end > 0 && bb.getInt(off + 4 * (end - 1)) == 0) {
      end--;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < end; i++) {
      sb.appendCodePoint(bb.getInt(off + 4 * i));
    }
    return sb.toString();
  }

  /** The array's values as little-endian bytes, element by element. */
  static byte[] littleEndian(Array a) {
    return org.chunkcdm.testkit.CdmArrays.littleEndian(a);
  }

  /** The selected items of a C-order raw array, in C order. */
  static byte[] gather(byte[] raw, long[] shape, int item, long[] first, long[] count, long[] stride) {
    return org.chunkcdm.testkit.CdmArrays.gather(raw, shape, item, first, count, stride);
  }

  /** The variable's chunk length along dimension 0 ({@code _ChunkSizes[0]}, else a third of the length). */
  static long chunk0(Variable v, long len) {
    Attribute a = v.findAttribute("_ChunkSizes");
    if (a != null && a.getLength() > 0) {
      return a.getNumericValue(0).longValue();
    }
    return Math.max(1, len / 3);
  }

  /** Sub-sections that cross chunk boundaries, strided ones and a single point, checked against the manifest. */
  static void assertSections(Fixtures.Variable fv, Variable v) throws IOException {
    assertSections(Expect.of(fv), v);
  }

  static void assertSections(Expect fv, Variable v) throws IOException {
    long[] shape = fv.shape();
    int rank = shape.length;
    if (rank == 0 || Arrays.stream(shape).anyMatch(x -> x == 0)) {
      return;
    }
    // netcdf-java caches small variables whole: switch that off so every section goes to the IOSP
    v.setCaching(false);
    v.invalidateCache();
    long n0 = shape[0];
    long c = chunk0(v, n0);
    List<long[][]> cases = new ArrayList<>();
    // 1. rows around the first chunk boundary, everything else whole
    long boundary = Math.min(c, n0 - 1);
    long lo = Math.max(0, boundary - 2);
    long hi = Math.min(n0 - 1, boundary + 2);
    cases.add(box(shape, lo, hi - lo + 1, 1, false));
    // 2. strided over the whole first dimension (several chunks), inner dimensions strided too
    long st = Math.max(2, c / 3 + 1);
    long f = Math.min(1, n0 - 1);
    cases.add(box(shape, f, (n0 - 1 - f) / st + 1, st, true));
    // 3. stride 1 across the last boundary, to the end (covers the leftover chunk)
    long lastStart = ((n0 - 1) / c) * c;
    long from = Math.max(0, lastStart - 3);
    cases.add(box(shape, from, n0 - from, 1, false));
    // 4. one element in the middle
    long[][] pt = new long[3][rank];
    for (int d = 0; d < rank; d++) {
      pt[0][d] = shape[d] / 2;
      pt[1][d] = 1;
      pt[2][d] = 1;
    }
    cases.add(pt);
    for (long[][] k : cases) {
      assertSection(fv, v, k[0], k[1], k[2]);
    }
  }

  private static long[][] box(long[] shape, long first0, long count0, long stride0, boolean innerStride) {
    int rank = shape.length;
    long[][] k = new long[3][rank];
    k[0][0] = first0;
    k[1][0] = count0;
    k[2][0] = stride0;
    for (int d = 1; d < rank; d++) {
      if (innerStride && shape[d] > 1) {
        k[0][d] = 1;
        k[2][d] = 2;
        k[1][d] = (shape[d] - 2) / 2 + 1;
      } else {
        k[1][d] = shape[d];
        k[2][d] = 1;
      }
    }
    return k;
  }

  /** The enhanced values (netcdf-java may widen unsigned types) equal the raw ones numerically. */
  static void assertSameValues(String what, Array raw, Array enhanced) {
    assertEquals(raw.getSize(), enhanced.getSize(), what);
    DataType t = raw.getDataType();
    IndexIterator a = raw.getIndexIterator();
    IndexIterator b = enhanced.getIndexIterator();
    for (long i = 0; a.hasNext(); i++) {
      if (t == DataType.FLOAT || t == DataType.DOUBLE) {
        double x = a.getDoubleNext();
        double y = b.getDoubleNext();
        assertEquals(Double.doubleToLongBits(x), Double.doubleToLongBits(y), what + " enhanced element " + i);
      } else if (t.isIntegral()) {
        long x = a.getLongNext();
        if (t.isUnsigned() && t.getSize() < 8) {
          x &= (1L << (8 * t.getSize())) - 1;
        }
        if (t == DataType.ULONG && enhanced.getDataType().isFloatingPoint()) {
          // netcdf-java enhances ULONG to DOUBLE: compare the unsigned value rounded to double
          double ux = new java.math.BigInteger(Long.toUnsignedString(x)).doubleValue();
          assertEquals(ux, b.getDoubleNext(), what + " enhanced element " + i);
          continue;
        }
        assertEquals(x, b.getLongNext(), what + " enhanced element " + i);
      } else {
        assertEquals(a.getObjectNext(), b.getObjectNext(), what + " enhanced element " + i);
      }
    }
  }
}
