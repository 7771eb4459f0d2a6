package org.chunkcdm.chunk;

import org.chunkcdm.blosc.TypedDestination;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where {@link SectionReader} puts a section's elements: raw bytes in storage order, or straight into a
 * primitive array (converting byte order as chunks arrive, in parallel, so a large read never holds the data
 * twice). Each output starts at an element offset {@code base} of its array.
 */
abstract class Output {
  /**
   * Whether the output starts as zeros (a fresh array), so that elements of chunks that are not stored and read
   * as a zero fill value need no writes; false for a caller's buffer that may hold earlier data.
   */
  boolean zeroed = true;

  /** Copies {@code len} bytes of elements (storage order) to byte offset {@code dst} of the section. */
  abstract void put(byte[] src, int srcOff, int dst, int len);

  /**
   * The output when it is a byte array in storage order (callers may decode into it directly, at
   * {@link #bytesOffset()} plus the section's byte offset), else null.
   */
  byte[] bytes() {
    return null;
  }

  /** Where the section starts in {@link #bytes()}. */
  int bytesOffset() {
    return 0;
  }

  /** The Java array holding the result. */
  abstract Object storage();

  /**
   * The typed destination of section byte offset {@code dst} (a multiple of the item size) for decoders that
   * write elements straight into the array ({@link ChunkData.Pieces#typed()}), or null when this output converts
   * values (float16, bool) or holds bytes.
   */
  TypedDestination typed(int dst) {
    return null;
  }

  /**
   * The Java element type of a typed read of {@code dt}: {@code byte/short/int/long} for 1/2/4/8-byte
   * integers (unsigned ones as their bit pattern), {@code float} for float16/float32, {@code double} for
   * float64, {@code byte} (0/1) for bool; null for other kinds.
   */
  static Class<?> javaType(DType dt) {
    switch (dt.kind()) {
      case INT:
      case UINT:
        switch (dt.itemSize()) {
          case 1:
            return byte.class;
          case 2:
            return short.class;
          case 4:
            return int.class;
          default:
            return long.class;
        }
      case FLOAT:
        return dt.itemSize() == 8 ? double.class : float.class;
      case BOOL:
        return byte.class;
      default:
        return null;
    }
  }

  /** An output writing into {@code dst} (the array type {@link #javaType} names) from element {@code off}. */
  static Output into(DType dt, Object dst, int off) {
    switch (dt.kind()) {
      case BOOL:
        return new Bools((byte[]) dst, off);
      case FLOAT:
        if (dt.itemSize() == 2) {
          return new Halfs((float[]) dst, off, dt.order());
        }
        return dt.itemSize() == 4 ? new Floats((float[]) dst, off, dt.order()) : new Doubles((double[]) dst, off, dt.order());
      default:
        switch (dt.itemSize()) {
          case 1:
            return new Bytes((byte[]) dst, off);
          case 2:
            return new Shorts((short[]) dst, off, dt.order());
          case 4:
            return new Ints((int[]) dst, off, dt.order());
          default:
            return new Longs((long[]) dst, off, dt.order());
        }
    }
  }

  static final class Bytes extends Output {
    final byte[] b;
    final int base;

    Bytes(byte[] b) {
      this(b, 0);
    }

    Bytes(byte[] b, int base) {
      this.b = b;
      this.base = base;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      System.arraycopy(src, srcOff, b, base + dst, len);
    }

    @Override
    byte[] bytes() {
      return b;
    }

    @Override
    int bytesOffset() {
      return base;
    }

    @Override
    Object storage() {
      return b;
    }
  }

  /** numpy bool bytes as 0/1. */
  static final class Bools extends Output {
    final byte[] b;
    final int base;

    Bools(byte[] b, int base) {
      this.b = b;
      this.base = base;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      int o = base + dst;
      for (int i = 0; i < len; i++) {
        b[o + i] = src[srcOff + i] != 0 ? (byte) 1 : (byte) 0;
      }
    }

    @Override
    Object storage() {
      return b;
    }
  }

  static final class Shorts extends Output {
    final short[] a;
    final int base;
    final ByteOrder o;

    Shorts(short[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asShortBuffer().get(a, base + (dst >> 1), len >> 1);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> 1), 2, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  /** IEEE half precision to float. */
  static final class Halfs extends Output {
    final float[] a;
    final int base;
    final ByteOrder o;

    Halfs(float[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer bb = ByteBuffer.wrap(src, srcOff, len).order(o);
      int at = base + (dst >> 1);
      for (int i = 0, n = len >> 1; i < n; i++) {
        a[at + i] = DType.halfToFloat(bb.getShort(srcOff + 2 * i));
      }
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Ints extends Output {
    final int[] a;
    final int base;
    final ByteOrder o;

    Ints(int[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asIntBuffer().get(a, base + (dst >> 2), len >> 2);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> 2), 4, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Longs extends Output {
    final long[] a;
    final int base;
    final ByteOrder o;

    Longs(long[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asLongBuffer().get(a, base + (dst >> 3), len >> 3);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> 3), 8, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Floats extends Output {
    final float[] a;
    final int base;
    final ByteOrder o;

    Floats(float[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asFloatBuffer().get(a, base + (dst >> 2), len >> 2);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> 2), 4, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }

  static final class Doubles extends Output {
    final double[] a;
    final int base;
    final ByteOrder o;

    Doubles(double[] a, int base, ByteOrder o) {
      this.a = a;
      this.base = base;
      this.o = o;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      ByteBuffer.wrap(src, srcOff, len).order(o).asDoubleBuffer().get(a, base + (dst >> 3), len >> 3);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> 3), 8, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }
}
