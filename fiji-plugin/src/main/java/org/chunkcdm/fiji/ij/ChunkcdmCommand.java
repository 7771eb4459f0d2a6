package org.chunkcdm.fiji.ij;

import ij.ImagePlus;
import java.io.File;
import org.chunkcdm.fiji.ChunkImgs;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;

/**
 * The SciJava command (Fiji scripts, {@code --headless}): same parameters as the ImageJ 1 dialog. Outputs the
 * ImageJ virtual hyperstack and the lazy ImgLib2 image (axis order CDM reversed). No menu entry: the menu entry is
 * the ImageJ 1 command, so Fiji does not show it twice.
 */
@Plugin(type = Command.class, headless = true, label = "Chunked Dataset (chunkcdm)")
public class ChunkcdmCommand implements Command {
  @Parameter(label = "Path", style = "both")
  public File path;

  @Parameter(label = "Variable")
  public String variable;

  @Parameter(label = "Subset", required = false)
  public String subset = "";

  @Parameter(label = "Load into RAM", required = false)
  public boolean load = false;

  @Parameter(type = ItemIO.OUTPUT)
  public ImagePlus image;

  @Parameter(type = ItemIO.OUTPUT)
  public net.imglib2.RandomAccessibleInterval<?> img;

  @Override
  public void run() {
    try {
      ImageDataset ds = ImageDataset.open(path.toPath());
      ImageVariable v = ds.variable(variable);
      image = ChunkcdmImageJ.image(v, StackSpec.of(v, null, subset), !load);
      img = ChunkImgs.open(v);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("chunkcdm: " + org.chunkcdm.io.UserMessages.describe(e), e);
    }
  }
}
