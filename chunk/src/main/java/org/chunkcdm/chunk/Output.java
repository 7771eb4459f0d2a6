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
  /** The element of the array where the section starts. */
  final int base;

  Output(int base) {
    this.base = base;
  }

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

  /**
   * The output when it is a byte buffer in storage order (callers may decode a whole chunk into it, at
   * {@link #bytesOffset()} plus the section's byte offset), else null.
   */
  ByteBuffer buffer() {
    return null;
  }

  /** Where the section starts in {@link #bytes()} or {@link #buffer()}. */
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
        return dt.itemSize() == 2 ? new Halfs((float[]) dst, off, dt.order()) : new Numbers(dst, off, dt);
      default:
        return dt.itemSize() == 1 ? new Bytes((byte[]) dst, off) : new Numbers(dst, off, dt);
    }
  }

  static final class Bytes extends Output {
    final byte[] b;

    Bytes(byte[] b) {
      this(b, 0);
    }

    Bytes(byte[] b, int base) {
      super(base);
      this.b = b;
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

  /** Bytes in storage order into a buffer, from its position at the start on (which stays where it is). */
  static final class Buffer extends Output {
    final ByteBuffer b;

    Buffer(ByteBuffer b) {
      super(b.position());
      this.b = b;
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      b.put(base + dst, src, srcOff, len);
    }

    @Override
    ByteBuffer buffer() {
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

    Bools(byte[] b, int base) {
      super(base);
      this.b = b;
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

  /** IEEE half precision to float. */
  static final class Halfs extends Output {
    final float[] a;
    final ByteOrder o;

    Halfs(float[] a, int base, ByteOrder o) {
      super(base);
      this.a = a;
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

  /**
   * Elements of 2, 4 or 8 bytes into the {@code short[]}, {@code int[]}, {@code long[]}, {@code float[]} or
   * {@code double[]} {@link #javaType} names, converted from the stored byte order.
   */
  static final class Numbers extends Output {
    /** Copies {@code n} elements from a byte buffer into the array from element {@code at}. */
    private interface Copy {
      void get(ByteBuffer bb, Object a, int at, int n);
    }

    private static final java.util.Map<Class<?>, Copy> COPIES = java.util.Map.of(
        short[].class, (bb, a, at, n) -> bb.asShortBuffer().get((short[]) a, at, n),
        int[].class, (bb, a, at, n) -> bb.asIntBuffer().get((int[]) a, at, n),
        long[].class, (bb, a, at, n) -> bb.asLongBuffer().get((long[]) a, at, n),
        float[].class, (bb, a, at, n) -> bb.asFloatBuffer().get((float[]) a, at, n),
        double[].class, (bb, a, at, n) -> bb.asDoubleBuffer().get((double[]) a, at, n));

    final Object a;
    final ByteOrder o;
    final int itemSize;
    private final int shift; // log2 of the item size
    private final Copy copy;

    Numbers(Object a, int base, DType dt) {
      super(base);
      this.a = a;
      this.o = dt.order();
      this.itemSize = dt.itemSize();
      this.shift = Integer.numberOfTrailingZeros(itemSize);
      this.copy = COPIES.get(a.getClass());
    }

    @Override
    void put(byte[] src, int srcOff, int dst, int len) {
      copy.get(ByteBuffer.wrap(src, srcOff, len).order(o), a, base + (dst >> shift), len >> shift);
    }

    @Override
    TypedDestination typed(int dst) {
      return new TypedDestination(a, base + (dst >> shift), itemSize, o);
    }

    @Override
    Object storage() {
      return a;
    }
  }
}
