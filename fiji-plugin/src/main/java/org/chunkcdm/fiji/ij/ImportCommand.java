package org.chunkcdm.fiji.ij;

import ij.ImagePlus;
import ij.Prefs;
import ij.gui.GenericDialog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.io.UserMessages;

/**
 * File › Import › Chunked Dataset (chunkcdm)...: GenericDialogs whose fields are macro-recordable, e.g.
 * {@code run("Chunked Dataset (chunkcdm)...", "path=[/abs/path] variable=[name]");}. Fields: {@code path} (a
 * file, or any file inside a dataset directory), {@code folder} (a dataset directory such as {@code *.bcolz},
 * {@code *.b2frame}, a ctable; used when given), {@code variable}, {@code subset} (per CDM dimension
 * {@code first:last[:stride]}, comma separated: crop, stride and sub-range), {@code load} (load into RAM instead
 * of virtual), {@code axes} (then a second dialog with {@code x y z c t} = dimension names).
 *
 * <p>Loaded (reflectively) by the Java 8 entry class {@code Chunked_Dataset_Import} after its Java version check.
 */
public final class ImportCommand {
  static final String TITLE = "Chunked Dataset (chunkcdm)";

  /**
   * Runs the command; returns null, or the one-line message of a failure for the entry class to show (a dialog,
   * or in a {@code -batch} run the console).
   */
  public String run(String arg) {
    try {
      ImagePlus imp = dialogs();
      if (imp != null) {
        imp.show();
      }
      return null;
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      return UserMessages.describe(e);
    }
  }

  /** Runs the dialogs and opens the image (null when cancelled). */
  ImagePlus dialogs() throws IOException {
    String chosen = askLocation();
    if (chosen == null) {
      return null;
    }
    Path p = org.chunkcdm.io.Locations.parse(chosen);
    if (!org.chunkcdm.io.Locations.isRemote(p) && !Files.exists(p)) {
      throw new java.nio.file.NoSuchFileException(chosen);
    }
    Prefs.set("chunkcdm.path", chosen);
    ImageDataset ds = ImageDataset.open(p);
    List<ImageVariable> vars = ChunkcdmImageJ.choices(ds);
    if (vars.isEmpty()) {
      ds.close();
      throw new IOException(chosen + " has no variable that can be shown as an image (numbers or bool, not empty)");
    }
    String[] names = new String[vars.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = vars.get(i).name();
    }
    GenericDialog g2 = new GenericDialog(TITLE);
    g2.addChoice("Variable", names, names[bestChoice(vars)]);
    g2.addStringField("Subset", "", 30);
    g2.addMessage("Subset: per dimension first:last[:stride] (inclusive), comma separated, empty = all.\n" + estimates(vars));
    g2.addCheckbox("Load into RAM (instead of virtual)", false);
    g2.addCheckbox("Axes (choose dimension roles)", false);
    g2.showDialog();
    if (g2.wasCanceled()) {
      ds.close();
      return null;
    }
    String name = g2.getNextChoice();
    String subset = g2.getNextString().trim();
    boolean load = g2.getNextBoolean();
    boolean axes = g2.getNextBoolean();
    ImageVariable v = ds.variable(name);
    String[] roles = null;
    if (axes) {
      roles = askRoles(v);
      if (roles == null) {
        ds.close();
        return null;
      }
    }
    StackSpec spec = StackSpec.of(v, roles, subset);
    return ChunkcdmImageJ.image(v, spec, !load);
  }

  /** The first dialog: the path or folder chosen (null when cancelled). */
  private static String askLocation() throws IOException {
    GenericDialog gd = new GenericDialog(TITLE);
    gd.addFileField("Path", Prefs.get("chunkcdm.path", ""), 45);
    gd.addDirectoryField("Folder", "", 45);
    gd.addMessage("Path: a file (.ds, .blp, .b2frame/.b2nd frame, NetCDF/HDF5), or any file inside a dataset folder;\n"
        + "or a URL: s3://bucket/key, cdms3:bucket?key, https://host/path (files and dataset folders).\n"
        + "Folder: a dataset directory (*.bcolz carray/ctable, sparse *.b2frame, *.zarr, *.b2d); used instead of Path when given.");
    gd.showDialog();
    if (gd.wasCanceled()) {
      return null;
    }
    String path = gd.getNextString().trim();
    String folder = gd.getNextString().trim();
    String chosen = folder.isEmpty() ? path : folder;
    if (chosen.isEmpty()) {
      throw new IOException("no path given");
    }
    return chosen;
  }

  /** The variable offered first: the one of highest rank, or an OME-Zarr image's full resolution. */
  private static int bestChoice(List<ImageVariable> vars) {
    int best = 0;
    for (int i = 0; i < vars.size(); i++) {
      if (vars.get(i).rank() > vars.get(best).rank()) {
        best = i;
      }
    }
    if (vars.get(0).attributes().containsKey(org.chunkcdm.fiji.OmeZarr.LEVEL)) {
      best = 0; // an OME-Zarr image: its resolution levels come first, full resolution first
    }
    return best;
  }

  /** The memory each variable needs (the first twelve) and the heap. */
  private static String estimates(List<ImageVariable> vars) {
    StringBuilder est = new StringBuilder();
    for (int i = 0; i < vars.size() && i < 12; i++) {
      est.append(ChunkcdmImageJ.estimate(vars.get(i))).append('\n');
    }
    if (vars.size() > 12) {
      est.append("... ").append(vars.size() - 12).append(" more\n");
    }
    Runtime rt = Runtime.getRuntime();
    est.append(String.format(Locale.ROOT, "heap: %.0f MiB max", rt.maxMemory() / 1048576.0));
    return est.toString();
  }

  /** The axes dialog: the dimension of each of the five roles (null when cancelled). */
  private static String[] askRoles(ImageVariable v) throws IOException {
    StackSpec def = StackSpec.defaults(v);
    List<String> dimChoices = new ArrayList<>();
    dimChoices.add(StackSpec.NONE);
    dimChoices.addAll(v.dimensions());
    String[] dc = dimChoices.toArray(new String[0]);
    GenericDialog g3 = new GenericDialog(TITLE + ": axes of " + v.name());
    for (int r = 0; r < 5; r++) {
      g3.addChoice(StackSpec.ROLES[r], dc, def.roleName(r));
    }
    g3.addMessage("Dimensions without a role are fixed at one index (see Subset).");
    g3.showDialog();
    if (g3.wasCanceled()) {
      return null;
    }
    String[] roles = new String[5];
    for (int r = 0; r < 5; r++) {
      roles[r] = g3.getNextChoice();
    }
    return roles;
  }
}
