package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The slabs of a selection: bounded, C-order-contiguous, in order, covering it once, on chunk boundaries. */
class SlabsTest {
  /** Random shapes and bounds: the slabs' elements are the selection's in C order, each slab within the bound. */
  @Test
  void plainSlabsAreBoundedAndConcatenateToTheSelection() {
    Random r = new Random(5);
    for (int t = 0; t < 500; t++) {
      int[] shape = new int[1 + r.nextInt(4)];
      long n = 1;
      for (int d = 0; d < shape.length; d++) {
        shape[d] = 1 + r.nextInt(9);
        n *= shape[d];
      }
      long elem = 1L << r.nextInt(4);
      long max = 1 + r.nextInt(300);
      String what = java.util.Arrays.toString(shape) + " elem " + elem + " max " + max;
      List<Long> got = new ArrayList<>();
      Slabs s = new Slabs(shape, elem, max);
      for (int[][] slab = s.next(); slab != null; slab = s.next()) {
        long count = 1;
        for (int c : slab[1]) {
          count *= c;
        }
        assertTrue(count * elem <= max || count == 1, what + ": slab of " + count + " elements");
        got.addAll(flat(shape, slab[0], slab[1]));
      }
      assertEquals(n, got.size(), what);
      for (int i = 0; i < got.size(); i++) {
        assertEquals(i, got.get(i), what + ": element " + i);
      }
      assertEquals(n * elem <= max, new Slabs(shape, elem, max).single(), what + ": single");
    }
  }

  /** Regular chunks: whole chunks per slab, or even pieces of one chunk, never across a chunk boundary. */
  @Test
  void regularChunkBoundaries() {
    int[] shape = {10, 6};
    int[] chunk = {4, 6};
    long row = 6 * 8;
    assertEquals(List.of(0, 4, 8, 10), ends(new Slabs(shape, 8, 5 * row, chunk, null, 1)));
    assertEquals(List.of(0, 2, 4, 6, 8, 10), ends(new Slabs(shape, 8, 2 * row, chunk, null, 1)));
    assertEquals(List.of(0, 2, 4, 6, 8, 10), ends(new Slabs(shape, 8, 3 * row, chunk, null, 1)));
    assertEquals(List.of(0, 5, 10), ends(new Slabs(shape, 8, 5 * row)));
  }

  /** A selection within the bound is one slab; an empty one has none. */
  @Test
  void singleAndEmpty() {
    Slabs one = new Slabs(new int[] {3, 4}, 4, 48);
    assertTrue(one.single());
    int[][] s = one.next();
    assertArrayEquals(new int[] {0, 0}, s[0]);
    assertArrayEquals(new int[] {3, 4}, s[1]);
    assertNull(one.next());
    assertNull(new Slabs(new int[] {3, 0}, 4, 48).next());
  }

  /** Slab ends along the first dimension (rank-2 selections ranged along it). */
  private static List<Integer> ends(Slabs s) {
    List<Integer> out = new ArrayList<>();
    out.add(0);
    for (int[][] slab = s.next(); slab != null; slab = s.next()) {
      out.add(slab[0][0] + slab[1][0]);
    }
    return out;
  }

  /** C-order flat indices of the box {@code origin, count} in {@code shape}. */
  private static List<Long> flat(int[] shape, int[] origin, int[] count) {
    List<Long> out = new ArrayList<>();
    int rank = shape.length;
    int[] idx = new int[rank];
    while (true) {
      long f = 0;
      for (int d = 0; d < rank; d++) {
        f = f * shape[d] + origin[d] + idx[d];
      }
      out.add(f);
      int d = rank - 1;
      while (d >= 0 && ++idx[d] == count[d]) {
        idx[d] = 0;
        d--;
      }
      if (d < 0) {
        return out;
      }
    }
  }
}
