package org.chunkcdm.chunk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where {@link SectionReader} puts a section's elements: raw bytes in storage order, or straight into the
 * primitive array a CDM {@code Array} wraps (converting byte order as chunks arrive, in parallel, so a large
 * read never holds the data twice).
 */
abstract class Output {
  /** Copies {@code len} bytes of elements (storage order) to byte offset {@code dst} of the output. */
  abstract void put(byte[] src, int srcOff, int dst, int len);

  /** The output when it is a byte array in storage order (callers may write into it directly), else null. */
  byte[] bytes() {
    return null;
  }

  /** The Java array holding the result. */
  abstract Object storage();

  static Output of(DType dt, int n) {
    if (dt.kind() == DType.Kind.INT || dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.FLOAT) {
      switch (dt.itemSize()) {
        case 2:
          return dt.kind() == DType.Kind.FLOAT ? null : new Shorts(new short[n], dt.order());
        case 4:
          return dt.kind() == DType.Kind.FLOAT ? new Floats(new float[n], dt.order()) : new Ints(new int[n], dt.order());
        case 8:
          return dt.kind() == DType.Kind.FLOAT ? new Doubles(new double[n], dt.order()) : new Longs(new long[n], dt.order());
        default:
          return null;
      }
    }
    return null;
  }

  static final class Bytes extends Output {
    final byte[] b;

    Bytes(byte[] b) {
      this.b = b;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      System.arraycopy(src, srcOff, b, dst, len);
    }

    @Override
    byte[] bytes() {
      return b;
    }

    @Override
    Object storage() {
      return b;
    }
  }

  static final class Shorts extends Output {
    final short[] a;
    final ByteOrder o;

    Shorts(short[] a, ByteOrder o) {
      this.a = a;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asShortBuffer().get(a, dst >> 1, len >> 1);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Ints extends Output {
    final int[] a;
    final ByteOrder o;

    Ints(int[] a, ByteOrder o) {
      this.a = a;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asIntBuffer().get(a, dst >> 2, len >> 2);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Longs extends Output {
    final long[] a;
    final ByteOrder o;

    Longs(long[] a, ByteOrder o) {
      this.a = a;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asLongBuffer().get(a, dst >> 3, len >> 3);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Floats extends Output {
    final float[] a;
    final ByteOrder o;

    Floats(float[] a, ByteOrder o) {
      this.a = a;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asFloatBuffer().get(a, dst >> 2, len >> 2);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Doubles extends Output {
    final double[] a;
    final ByteOrder o;

    Doubles(double[] a, ByteOrder o) {
      this.a = a;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asDoubleBuffer().get(a, dst >> 3, len >> 3);
    }

    @Override
    Object storage() {
      return a;
    }
  }
}
