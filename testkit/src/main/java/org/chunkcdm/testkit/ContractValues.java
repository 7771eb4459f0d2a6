package org.chunkcdm.testkit;

import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;

/** The values of a read as {@link IospContract#compare} compares them. */
final class ContractValues {
  private ContractValues() {}

  /** Values as little-endian bytes; chars as one byte each (a char above 0xff fails). */
  static byte[] bytes(Array a, String what) {
    if (a.getDataType() == DataType.CHAR) {
      byte[] got = new byte[(int) a.getSize()];
      IndexIterator it = a.getIndexIterator();
      for (int i = 0; i < got.length; i++) {
        char ch = it.getCharNext();
        if (ch > 0xff) {
          throw new AssertionError(what + ": char " + (int) ch + " is not a byte");
        }
        got[i] = (byte) ch;
      }
      return got;
    }
    return CdmArrays.littleEndian(a);
  }

  /** Linear C-order indexes of a strided selection. */
  static int[] select(long[] shape, long[] first, long[] count, long[] stride) {
    int rank = shape.length;
    long total = Expected.count(count);
    int[] out = new int[(int) total];
    long[] idx = new long[rank];
    for (int k = 0; k < total; k++) {
      long lin = 0;
      for (int d = 0; d < rank; d++) {
        lin = lin * shape[d] + first[d] + idx[d] * stride[d];
      }
      out[k] = (int) lin;
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
