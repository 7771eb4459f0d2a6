package org.chunkcdm.cdm;

import java.nio.ByteBuffer;
import org.chunkcdm.chunk.DType;
import ucar.ma2.Array;
import ucar.ma2.DataType;

/** Turns raw element bytes (in a {@link DType}'s byte order) into CDM arrays, per docs/cdm-contract.md. */
public final class Convert {
  private Convert() {}

  /** Builds the CDM array of a selection of logical {@code shape}; types with an extra dim get it appended. */
  public static Array toArray(DType dt, byte[] raw, int[] shape) {
    int n = 1;
    for (int s : shape) {
      n *= s;
    }
    ByteBuffer bb = ByteBuffer.wrap(raw).order(dt.order());
    int size = dt.itemSize();
    switch (dt.kind()) {
      case INT:
      case UINT: {
        DataType t = CdmTypes.of(dt);
        switch (size) {
          case 1:
            return Array.factory(t, shape, raw);
          case 2: {
            short[] v = new short[n];
            bb.asShortBuffer().get(v);
            return Array.factory(t, shape, v);
          }
          case 4: {
            int[] v = new int[n];
            bb.asIntBuffer().get(v);
            return Array.factory(t, shape, v);
          }
          default: {
            long[] v = new long[n];
            bb.asLongBuffer().get(v);
            return Array.factory(t, shape, v);
          }
        }
      }
      case FLOAT:
        return floats(bb, size, n, shape);
      case COMPLEX:
        return floats(bb, size / 2, 2 * n, append(shape, 2));
      case BOOL: {
        byte[] v = new byte[n];
        for (int i = 0; i < n; i++) {
          v[i] = raw[i] != 0 ? (byte) 1 : (byte) 0;
        }
        return Array.factory(DataType.UBYTE, shape, v);
      }
      case OPAQUE:
        return Array.factory(DataType.UBYTE, append(shape, size), raw);
      case BYTES: {
        char[] c = new char[raw.length];
        for (int i = 0; i < raw.length; i++) {
          c[i] = (char) (raw[i] & 0xff);
        }
        return Array.factory(DataType.CHAR, append(shape, size), c);
      }
      case UNICODE: {
        Object[] s = new Object[n];
        int units = size / 4;
        for (int i = 0; i < n; i++) {
          s[i] = ucs4(bb, i * size, units);
        }
        return Array.factory(DataType.STRING, shape, s);
      }
      default:
        throw new IllegalStateException("unknown kind " + dt.kind());
    }
  }

  private static Array floats(ByteBuffer bb, int size, int n, int[] shape) {
    switch (size) {
      case 2: {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
          v[i] = halfToFloat(bb.getShort(2 * i));
        }
        return Array.factory(DataType.FLOAT, shape, v);
      }
      case 4: {
        float[] v = new float[n];
        bb.asFloatBuffer().get(v);
        return Array.factory(DataType.FLOAT, shape, v);
      }
      default: {
        double[] v = new double[n];
        bb.asDoubleBuffer().get(v);
        return Array.factory(DataType.DOUBLE, shape, v);
      }
    }
  }

  /** UCS-4 code units to a String, numpy style: trailing NUL code points are not part of the value. */
  static String ucs4(ByteBuffer bb, int off, int units) {
    int end = units;
    while (end > 0 && bb.getInt(off + 4 * (end - 1)) == 0) {
      end--;
    }
    StringBuilder sb = new StringBuilder(end);
    for (int u = 0; u < end; u++) {
      int cp = bb.getInt(off + 4 * u);
      if (Character.isValidCodePoint(cp)) {
        sb.appendCodePoint(cp);
      } else {
        sb.append('\uFFFD');
      }
    }
    return sb.toString();
  }

  /** IEEE 754 half precision to float, exactly ({@link DType#halfToFloat}). */
  public static float halfToFloat(short h) {
    return DType.halfToFloat(h);
  }

  private static int[] append(int[] shape, int extra) {
    int[] s = new int[shape.length + 1];
    System.arraycopy(shape, 0, s, 0, shape.length);
    s[shape.length] = extra;
    return s;
  }
}
