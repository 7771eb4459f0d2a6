package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.process.ImageProcessor;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import net.imglib2.RandomAccess;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.integer.UnsignedShortType;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.fiji.ChunkImgs;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.SyntheticVolume;
import org.junit.jupiter.api.Test;

/**
 * Laziness on a synthetic 4096 x 4096 x 1000 uint16 volume (32 GiB, chunks 2 x 512 x 512 generated on request
 * and counted): opening the virtual hyperstack decodes exactly plane 1's 64 chunks, a slice change inside the
 * same chunk slab decodes none, one into the next slab exactly its 64; the ImgLib2 image decodes nothing on
 * opening and one chunk per cell; the shared chunk cache stays within its byte bound throughout.
 */
class LazinessTest {
  static ImageVariable variable(SyntheticVolume a) {
    ImageDataset ds = new ImageDataset(Paths.get("/synthetic"), "synthetic", Map.of(), null);
    ImageVariable v = new ImageVariable(ds, "volume", List.of("z", "y", "x"), a, Map.of("units", "counts"));
    ds.add(v);
    return v;
  }

  @Test
  void virtualStackDecodesOnlyThePlanesChunks() throws IOException {
    ChunkCache cache = ChunkCache.shared();
    assertTrue(cache.maxBytes() >= 64L << 20, "the test needs a cache of at least 64 MiB (one slab), has " + cache.maxBytes());
    SyntheticVolume a = new SyntheticVolume(1000, 4096, 4096, 2, 512, 512);
    ImageVariable v = variable(a);
    ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
    assertEquals(1000, imp.getStackSize());
    assertEquals(4096, imp.getWidth());
    assertEquals(64, a.decoded.get(), "opening decodes plane 1's chunks (8 x 8) and nothing else");
    assertPlane(imp, 1);

    long before = a.decoded.get();
    imp.setSlice(2); // same slab of chunks (z 0..1)
    assertPlane(imp, 2);
    assertEquals(before, a.decoded.get(), "slice 2 lies in the cached slab of slice 1");

    imp.setSlice(3); // next slab
    assertPlane(imp, 3);
    assertEquals(before + 64, a.decoded.get(), "slice 3 decodes its own 64 chunks only");

    imp.setSlice(1000);
    assertPlane(imp, 1000);
    assertEquals(before + 128, a.decoded.get());
    assertTrue(cache.bytes() <= cache.maxBytes(), "cache " + cache.bytes() + " within " + cache.maxBytes());

    for (int s = 5; s < 43; s += 2) { // a walk through many slabs: the cache evicts, never grows past its bound
      imp.setSlice(s);
      assertTrue(cache.bytes() <= cache.maxBytes(), "cache " + cache.bytes() + " within " + cache.maxBytes());
    }
    assertEquals(before + 128 + 19 * 64, a.decoded.get(), "each new slab decodes exactly its 64 chunks");
  }

  static void assertPlane(ImagePlus imp, int slice) {
    ImageProcessor ip = imp.getProcessor();
    int z = slice - 1;
    for (int[] p : new int[][] {{0, 0}, {4095, 4095}, {511, 512}, {1234, 3210}, {4095, 0}}) {
      assertEquals(SyntheticVolume.value(z, p[1], p[0]), ip.get(p[0], p[1]), "slice " + slice + " at " + p[0] + "," + p[1]);
    }
  }

  @Test
  void imglib2CellIsOneChunk() throws IOException {
    SyntheticVolume a = new SyntheticVolume(1000, 4096, 4096, 2, 512, 512);
    @SuppressWarnings("unchecked")
    LazyCellImg<UnsignedShortType, ?> img = (LazyCellImg<UnsignedShortType, ?>) ChunkImgs.open(a, "synthetic");
    assertEquals(0, a.decoded.get(), "opening decodes nothing");
    assertEquals(4096, img.dimension(0));
    assertEquals(1000, img.dimension(2));
    assertEquals(512, img.getCellGrid().cellDimension(0));
    assertEquals(2, img.getCellGrid().cellDimension(2));
    RandomAccess<UnsignedShortType> ra = img.randomAccess();
    ra.setPosition(new long[] {1000, 2000, 777});
    assertEquals(SyntheticVolume.value(777, 2000, 1000), ra.get().get());
    assertEquals(1, a.decoded.get(), "one cell = one chunk");
    ra.setPosition(new long[] {1001, 2001, 776}); // same cell, fresh access: served from the shared cache
    assertEquals(SyntheticVolume.value(776, 2001, 1001), img.randomAccess().setPositionAndGet(new long[] {1001, 2001, 776}).get());
    assertEquals(1, a.decoded.get());
  }
}
