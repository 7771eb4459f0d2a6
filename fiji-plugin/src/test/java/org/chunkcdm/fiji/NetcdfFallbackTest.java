package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import net.imglib2.RandomAccess;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.RealType;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.fiji.ij.ChunkcdmImageJ;
import org.chunkcdm.fiji.ij.StackSpec;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * A file no chunkcdm opener claims (NetCDF-4 {@code ds/nc/basic.nc}) opens through the netcdf-java fallback,
 * tiled by its {@code _ChunkSizes}, and gives the values the ds manifest lists for the same data ({@code
 * nc/basic.ds}; masked cells hold {@code _FillValue} in the .nc file and are NaN on the 32-bit ImageJ plane).
 */
class NetcdfFallbackTest {
  @Test
  void netcdf4ThroughNetcdfJava() throws IOException {
    Path nc = Fixtures.family("ds").resolve("nc/basic.nc");
    Fixtures.Variable fv = Fixtures.manifest("ds").dataset("nc/basic.ds").variable("tas");
    ByteBuffer exp = ByteBuffer.wrap(fv.expected()).order(ByteOrder.LITTLE_ENDIAN);
    byte[] mask = Files.readAllBytes(Fixtures.family("ds").resolve(fv.json().path("mask").asText()));
    try (ImageDataset ds = ImageDataset.open(nc)) {
      assertTrue(ds.format().startsWith("netcdf-java"), ds.format());
      ImageVariable v = ds.variable("tas");
      assertEquals("[time, lat, lon]", v.dimensions().toString());
      assertTrue(v.array().getClass().getName().endsWith("NetcdfSources$TiledVariable"), v.array().getClass().getName());
      Object cs = v.attributes().get("_ChunkSizes");
      assertTrue(cs instanceof int[], "basic.nc is chunked (NetCDF-4 with an unlimited dimension): " + cs);
      {
        int[] want = ((int[]) cs).clone();
        int[] got = ((ChunkGrid.Regular) v.array().grid()).chunkShape();
        for (int d = 0; d < want.length; d++) {
          assertEquals(Math.min(want[d], (int) v.shape()[d]), got[d], "tiles follow _ChunkSizes");
        }
      }
      float fill = ((Number) v.attributes().get("_FillValue")).floatValue();
      LazyCellImg<?, ?> img = ChunkImgs.open(v);
      RandomAccess<?> ra = img.randomAccess();
      ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
      assertEquals(5, imp.getStackSize());
      for (int t = 0; t < 5; t++) {
        for (int y = 0; y < 3; y++) {
          for (int x = 0; x < 4; x++) {
            int i = (t * 3 + y) * 4 + x;
            float want = mask[i] != 0 ? fill : exp.getFloat(4 * i);
            ra.setPosition(new long[] {x, y, t});
            assertEquals(want, (float) ((RealType<?>) ra.get()).getRealDouble(), "imglib2 " + t + "," + y + "," + x);
            float px = imp.getStack().getProcessor(t + 1).getf(x, y);
            if (mask[i] != 0) {
              assertTrue(Float.isNaN(px), "masked cell is NaN on the plane");
            } else {
              assertEquals(want, px);
            }
          }
        }
      }
    }
  }
}
