package org.chunkcdm.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;

/** Array helpers for comparing what netcdf-java returns with the manifests' raw expected bytes. */
public final class CdmArrays {
  private CdmArrays() {}

  private static final java.util.Set<DataType> INTEGERS = java.util.EnumSet.of(DataType.BYTE, DataType.UBYTE,
      DataType.SHORT, DataType.USHORT, DataType.INT, DataType.UINT, DataType.LONG, DataType.ULONG);

  /**
   * {@code n} random sections of {@code shape}, each dimension a random first..last with stride 1 to 3 drawn from
   * {@code r}; none for a scalar or an empty shape.
   */
  public static List<Section> randomSections(int[] shape, int n, Random r) {
    List<Section> out = new ArrayList<>();
    if (shape.length == 0) {
      return out;
    }
    for (int d : shape) {
      if (d <= 0) {
        return out;
      }
    }
    try {
      for (int k = 0; k < n; k++) {
        List<Range> rr = new ArrayList<>();
        for (int len : shape) {
          int a = r.nextInt(len);
          int b = a + r.nextInt(len - a);
          rr.add(new Range(a, b, 1 + r.nextInt(3)));
        }
        out.add(new Section(rr));
      }
    } catch (InvalidRangeException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  /** The array's values as little-endian bytes, element by element (floats as their bits). */
  public static byte[] littleEndian(Array a) {
    DataType t = a.getDataType();
    int size = t.getSize();
    ByteBuffer bb = ByteBuffer.allocate((int) a.getSize() * size).order(ByteOrder.LITTLE_ENDIAN);
    IndexIterator it = a.getIndexIterator();
    while (it.hasNext()) {
      long bits;
      if (t == DataType.FLOAT) {
        bits = Float.floatToRawIntBits(it.getFloatNext());
      } else if (t == DataType.DOUBLE) {
        bits = Double.doubleToRawLongBits(it.getDoubleNext());
      } else if (INTEGERS.contains(t)) {
        bits = it.getLongNext();
      } else {
        throw new AssertionError("unexpected type " + t);
      }
      for (int k = 0; k < size; k++) {
        bb.put((byte) (bits >>> 8 * k));
      }
    }
    return bb.array();
  }

  /** The selected items of a C-order raw array, in C order. */
  public static byte[] gather(byte[] raw, long[] shape, int item, long[] first, long[] count, long[] stride) {
    int rank = shape.length;
    long n = 1;
    for (long c : count) {
      n *= c;
    }
    byte[] out = new byte[(int) (n * item)];
    if (n == 0) {
      return out;
    }
    long[] st = new long[rank];
    long s = 1;
    for (int d = rank - 1; d >= 0; d--) {
      st[d] = s;
      s *= shape[d];
    }
    long[] idx = new long[rank];
    for (long e = 0; e < n; e++) {
      long src = 0;
      for (int d = 0; d < rank; d++) {
        src += (first[d] + idx[d] * stride[d]) * st[d];
      }
      System.arraycopy(raw, (int) (src * item), out, (int) (e * item), item);
      for (int d = rank - 1; d >= 0; d--) {
        if (++idx[d] < count[d]) {
          break;
        }
        idx[d] = 0;
      }
    }
    return out;
  }
}
