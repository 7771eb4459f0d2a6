package org.chunkcdm.open;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Finds the registered {@link DatasetOpener}s and opens datasets through them. */
public final class Datasets {
  private Datasets() {}

  /**
   * Every opener on the class path (this class's loader and the context class loader; providers that do not
   * implement this copy of {@link DatasetOpener}, as a context loader of another host may list, are skipped).
   */
  public static List<DatasetOpener> openers() {
    return org.chunkcdm.io.Services.load(DatasetOpener.class, Datasets.class);
  }

  /**
   * The opener claiming {@code path}, or null when none does. An opener whose format is the path's suffix
   * ({@code x.zarr}: zarr) is asked first, so that a remote location is not probed for other formats' entry objects.
   */
  public static DatasetOpener find(Path path) {
    List<DatasetOpener> all = new java.util.ArrayList<>(openers());
    Path f = path.getFileName();
    String name = f == null ? "" : f.toString().toLowerCase(java.util.Locale.ROOT);
    all.sort(java.util.Comparator.comparing(o -> !name.endsWith("." + o.format())));
    for (DatasetOpener o : all) {
      if (o.canOpen(path)) {
        return o;
      }
    }
    return null;
  }

  /** Opens a location ({@link org.chunkcdm.io.Locations#path(String)}: a path, a {@code file:} URL, or a remote URL). */
  public static ChunkedDataset open(String location, OpenOptions options) throws IOException {
    Path p = org.chunkcdm.io.Locations.parse(location);
    return open(p, options);
  }

  /** Opens {@code path} with the first opener that claims it. */
  public static ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    boolean remote = org.chunkcdm.io.Locations.isRemote(path);
    if (!remote && !Files.exists(path)) {
      throw new java.nio.file.NoSuchFileException(path.toString());
    }
    if (remote) {
      try { // the first look at a remote location: a server that cannot be asked says so here, naming the URL
        Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class);
      } catch (java.nio.file.NoSuchFileException e) {
        // no object (over HTTP maybe a dataset directory): the openers probe
      }
    }
    DatasetOpener o = find(path);
    if (o == null) {
      if (remote && !org.chunkcdm.io.Locations.mayBeDirectory(path) && !Files.isRegularFile(path)) {
        throw new java.nio.file.NoSuchFileException(path.toString(), null, "no such object or prefix");
      }
      throw new IOException(path + (remote ? ": no dataset chunkcdm opens here (not an object of a known format, and no"
          + " entry object of a known directory format)" : ": not a dataset chunkcdm opens (" + org.chunkcdm.io.UserMessages.OPENER_FORMATS + ")"));
    }
    return o.open(path, options == null ? OpenOptions.defaults() : options);
  }

  public static ChunkedDataset open(Path path) throws IOException {
    return open(path, OpenOptions.defaults());
  }
}
