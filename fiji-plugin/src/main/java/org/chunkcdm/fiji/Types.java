package org.chunkcdm.fiji;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;

/**
 * The one place where the viewer reads numbers: a box of a {@link ChunkedArray} through core's typed read
 * ({@link SectionReader#readTyped}, which decodes only the chunks the box crosses, in parallel, with the
 * array's chunk cache, and converts each chunk into the Java array as it is decoded).
 */
public final class Types {
  private Types() {}

  /** The types the viewer shows: (u)int 1/2/4/8, float 2/4/8, bool. */
  public static boolean isSupported(DType dt) {
    switch (dt.kind()) {
      case INT:
      case UINT:
      case BOOL:
        return true;
      case FLOAT:
        return dt.itemSize() == 2 || dt.itemSize() == 4 || dt.itemSize() == 8;
      default:
        return false;
    }
  }

  /**
   * Reads a box (C order over the selection, per CDM dimension first/count/stride) as a Java primitive array:
   * {@code byte[]} for 1-byte types (bool normalised to 0/1), {@code short[]}, {@code int[]}, {@code long[]}
   * for 2/4/8-byte integers (unsigned values in two's complement bits), {@code float[]} for float16/32,
   * {@code double[]} for float64.
   */
  public static Object read(ChunkedArray a, long[] first, long[] count, long[] stride) throws IOException {
    return SectionReader.readTyped(a, first, count, stride);
  }

  /** Converts raw bytes in the dtype's byte order (see {@link #read}). */
  public static Object toPrimitive(DType dt, byte[] b) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(dt.order() == null ? ByteOrder.LITTLE_ENDIAN : dt.order());
    int size = dt.itemSize();
    int n = b.length / size;
    switch (dt.kind()) {
      case BOOL: {
        byte[] o = new byte[n];
        for (int i = 0; i < n; i++) {
          o[i] = (byte) (b[i] != 0 ? 1 : 0);
        }
        return o;
      }
      case FLOAT:
        if (size == 2) {
          float[] f = new float[n];
          for (int i = 0; i < n; i++) {
            f[i] = DType.halfToFloat(bb.getShort(2 * i));
          }
          return f;
        }
        if (size == 4) {
          float[] f = new float[n];
          bb.asFloatBuffer().get(f);
          return f;
        }
        double[] d = new double[n];
        bb.asDoubleBuffer().get(d);
        return d;
      default:
        switch (size) {
          case 1:
            return b;
          case 2: {
            short[] s = new short[n];
            bb.asShortBuffer().get(s);
            return s;
          }
          case 4: {
            int[] s = new int[n];
            bb.asIntBuffer().get(s);
            return s;
          }
          default: {
            long[] s = new long[n];
            bb.asLongBuffer().get(s);
            return s;
          }
        }
    }
  }

  /** Element {@code i} of a {@link #read} result as a double (unsigned types as unsigned). */
  public static double value(DType dt, Object prim, int i) {
    boolean unsigned = dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.BOOL;
    if (prim instanceof byte[]) {
      byte v = ((byte[]) prim)[i];
      return unsigned ? v & 0xff : v;
    } else if (prim instanceof short[]) {
      short v = ((short[]) prim)[i];
      return unsigned ? v & 0xffff : v;
    } else if (prim instanceof int[]) {
      int v = ((int[]) prim)[i];
      return unsigned ? v & 0xffffffffL : v;
    } else if (prim instanceof long[]) {
      long v = ((long[]) prim)[i];
      if (unsigned && v < 0) {
        return (double) ((v >>> 1) | (v & 1)) * 2.0; // round to odd, then scale: correctly rounded
      }
      return v;
    } else if (prim instanceof float[]) {
      return ((float[]) prim)[i];
    }
    return ((double[]) prim)[i];
  }
}
