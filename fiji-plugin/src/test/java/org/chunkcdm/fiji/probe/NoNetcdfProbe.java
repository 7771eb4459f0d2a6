package org.chunkcdm.fiji.probe;

import ij.ImagePlus;
import ij.process.ImageProcessor;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import net.imglib2.Cursor;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.RealType;
import org.chunkcdm.fiji.ChunkImgs;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.SyntheticVolume;
import org.chunkcdm.fiji.ij.ChunkcdmImageJ;
import org.chunkcdm.fiji.ij.StackSpec;

/**
 * Run by UpdateSiteWithoutNetcdfIT in a child JVM on the Fiji update-site jars plus what Fiji provides, WITHOUT
 * netcdf-java: prints whether ucar classes are visible, the pixel sums of a synthetic volume through the ImgLib2
 * adapter and the ImageJ stack, and of a fixture variable opened through the opener SPI (or the error).
 */
public final class NoNetcdfProbe {
  public static void main(String[] args) throws Exception {
    System.out.println("netcdf=" + ImageDataset.netcdfAvailable());
    SyntheticVolume a = new SyntheticVolume(3, 70, 90, 2, 32, 32);
    ImageDataset mem = new ImageDataset(Paths.get("/mem"), "memory", Map.of(), null);
    ImageVariable sv = new ImageVariable(mem, "synthetic", List.of("z", "y", "x"), a, Map.of());
    mem.add(sv);
    System.out.println("synthetic " + sums(sv));
    try (ImageDataset ds = ImageDataset.open(Paths.get(args[0]))) {
      System.out.println("fixture " + sums(ds.variable(args[1])));
    } catch (IOException e) {
      System.out.println("ioerror " + e.getMessage());
    }
  }

  static String sums(ImageVariable v) throws IOException {
    LazyCellImg<?, ?> img = ChunkImgs.open(v);
    double s1 = 0;
    for (Cursor<?> c = img.cursor(); c.hasNext(); ) {
      s1 += ((RealType<?>) c.next()).getRealDouble();
    }
    ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
    double s2 = 0;
    for (int p = 1; p <= imp.getStackSize(); p++) {
      ImageProcessor ip = imp.getStack().getProcessor(p);
      for (int i = 0; i < ip.getPixelCount(); i++) {
        s2 += ip.getf(i);
      }
    }
    return "imglib2=" + (long) s1 + " stack=" + (long) s2;
  }
}
