package org.chunkcdm.blosc;

import java.nio.ByteOrder;

/**
 * Where a typed read puts a chunk's elements: chunk byte {@code at} (a multiple of {@code itemSize}) is the first byte
 * of element {@code base + at / itemSize} of {@code array}, a {@code short[]} (item size 2), {@code int[]} or
 * {@code float[]} (4), {@code long[]} or {@code double[]} (8) holding the stored items converted from {@code order}
 * (float32/float64 as their IEEE bits, integers as their bit pattern).
 */
public final class TypedDestination {
  public final Object array;
  public final int base;
  public final int itemSize;
  public final ByteOrder order;

  public TypedDestination(Object array, int base, int itemSize, ByteOrder order) {
    Class<?> c = array.getClass().getComponentType();
    int want = c == short.class ? 2 : c == int.class || c == float.class ? 4 : c == long.class || c == double.class ? 8 : 0;
    if (want == 0 || want != itemSize || base < 0) {
      throw new IllegalArgumentException("no typed destination of " + itemSize + "-byte items in a "
          + array.getClass().getSimpleName() + " at " + base);
    }
    this.array = array;
    this.base = base;
    this.itemSize = itemSize;
    this.order = order;
  }

  /** The element that chunk byte {@code at} starts. */
  public int index(long at) {
    return base + (int) (at / itemSize);
  }
}
