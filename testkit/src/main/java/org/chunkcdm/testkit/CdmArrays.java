package org.chunkcdm.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;

/** Array helpers for comparing what netcdf-java returns with the manifests' raw expected bytes. */
public final class CdmArrays {
  private CdmArrays() {}

  private static final java.util.Set<DataType> INTEGERS = java.util.EnumSet.of(DataType.BYTE, DataType.UBYTE,
      DataType.SHORT, DataType.USHORT, DataType.INT, DataType.UINT, DataType.LONG, DataType.ULONG);

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
