package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.chunkcdm.chunk.ChunkGrid;
import org.junit.jupiter.api.Test;

/** The ImgLib2 cell shape chosen per chunk grid (documented in {@link ChunkImgs}). */
class CellShapeTest {
  @Test
  void regularGridCellIsTheChunk() {
    assertArrayEquals(new int[] {4, 64, 128}, ChunkImgs.cellShape(ChunkGrid.regular(new long[] {100, 1000, 1000}, new int[] {4, 64, 128})));
    // chunks larger than the array are clipped to it
    assertArrayEquals(new int[] {3, 5}, ChunkImgs.cellShape(ChunkGrid.regular(new long[] {3, 5}, new int[] {10, 10})));
  }

  @Test
  void flatGridCellsAreWholeRowSlabsOfAboutOneChunk() {
    // 20000 items per chunk over [10, 100, 500]: whole rows of 500, 40 rows per cell
    assertArrayEquals(new int[] {1, 40, 500}, ChunkImgs.cellShape(ChunkGrid.flat(new long[] {10, 100, 500}, 20000, false)));
    // chunks of two planes: the cell is two whole planes
    assertArrayEquals(new int[] {2, 100, 500}, ChunkImgs.cellShape(ChunkGrid.flat(new long[] {10, 100, 500}, 100000, false)));
    // a row longer than a chunk: the row is cut
    assertArrayEquals(new int[] {1, 1, 300}, ChunkImgs.cellShape(ChunkGrid.flat(new long[] {10, 100, 500}, 300, false)));
    // a whole array in one chunk (.ds): one cell
    assertArrayEquals(new int[] {4, 3, 5}, ChunkImgs.cellShape(ChunkGrid.flat(new long[] {4, 3, 5}, 60, false)));
  }

  @Test
  void fortranFlatGridCellsFollowStorageOrder() {
    // F order: dimension 0 is fastest in storage; 20000 items over [500, 100, 10] → [500, 40, 1]
    assertArrayEquals(new int[] {500, 40, 1}, ChunkImgs.cellShape(ChunkGrid.flat(new long[] {500, 100, 10}, 20000, true)));
  }

  @Test
  void cellsAreCapped() {
    int[] c = ChunkImgs.cellShape(ChunkGrid.flat(new long[] {4, 100000, 100000}, 40_000_000_000L, false));
    long n = 1;
    for (int x : c) {
      n *= x;
    }
    org.junit.jupiter.api.Assertions.assertTrue(n <= ChunkImgs.MAX_CELL_ELEMENTS, java.util.Arrays.toString(c));
  }
}
