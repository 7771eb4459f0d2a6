package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ij.ImageStack;
import ij.process.ImageProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.imglib2.RandomAccess;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.integer.UnsignedShortType;
import org.chunkcdm.fiji.ChunkImgs;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.SyntheticVolume;
import org.junit.jupiter.api.Test;

/** Many threads reading one variable through the ImageJ stack and the ImgLib2 image get the right values. */
class ConcurrencyTest {
  @Test
  void manyThreadsOneVariable() throws Exception {
    SyntheticVolume a = new SyntheticVolume(64, 300, 400, 3, 64, 96);
    ImageVariable v = LazinessTest.variable(a);
    ImageStack stack = new ChunkedVirtualStack(StackSpec.defaults(v));
    @SuppressWarnings("unchecked")
    LazyCellImg<UnsignedShortType, ?> img = (LazyCellImg<UnsignedShortType, ?>) ChunkImgs.open(v);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> fs = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        int seed = t;
        fs.add(pool.submit(() -> {
          Random r = new Random(seed);
          RandomAccess<UnsignedShortType> ra = img.randomAccess();
          int checked = 0;
          for (int i = 0; i < 12; i++) {
            int z = r.nextInt(64);
            ImageProcessor ip = stack.getProcessor(z + 1);
            for (int k = 0; k < 50; k++) {
              int x = r.nextInt(400);
              int y = r.nextInt(300);
              assertEquals(SyntheticVolume.value(z, y, x), ip.get(x, y));
              ra.setPosition(new long[] {x, y, r.nextInt(64)});
              assertEquals(SyntheticVolume.value(ra.getLongPosition(2), y, x), ra.get().get());
              checked += 2;
            }
          }
          return checked;
        }));
      }
      int total = 0;
      for (Future<Integer> f : fs) {
        total += f.get();
      }
      assertEquals(16 * 12 * 50 * 2, total);
    } finally {
      pool.shutdownNow();
    }
  }
}
