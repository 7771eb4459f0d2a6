package org.chunkcdm.fiji;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenOptions;

/**
 * An open dataset for the viewer. chunkcdm formats (bcolz, Bloscpack, Blosc2 frames, b2nd, .ds, Zarr) open through
 * the core opener SPI ({@link Datasets}), with their real chunk grid and without netcdf-java; any other file
 * opens through netcdf-java when it is on the class path ({@code org.chunkcdm.fiji.netcdf.NetcdfSources},
 * loaded only then).
 */
public final class ImageDataset implements Closeable {
  private final Path path;
  private final String format;
  private final List<ImageVariable> variables = new ArrayList<>();
  private final Map<String, Object> attributes;
  private final Closeable closer;

  /** For openers: builds the variable list with {@link #add}. */
  public ImageDataset(Path path, String format, Map<String, Object> attributes, Closeable closer) {
    this.path = path;
    this.format = format;
    this.attributes = new LinkedHashMap<>(attributes == null ? Map.of() : attributes);
    this.closer = closer;
  }

  public void add(ImageVariable v) {
    variables.add(v);
  }

  /** Opens a location: a path, a {@code file:} URL, or a remote one ({@code s3://}, {@code cdms3:}, {@code https://}). */
  public static ImageDataset open(String location) throws IOException {
    try {
      return open(org.chunkcdm.io.Locations.path(location));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** Opens {@code path}: a chunkcdm format through its opener, else through netcdf-java when present. */
  public static ImageDataset open(Path path) throws IOException {
    return open(path, OpenOptions.defaults());
  }

  public static ImageDataset open(Path path, OpenOptions options) throws IOException {
    if (!org.chunkcdm.io.Locations.isRemote(path) && !Files.exists(path)) {
      throw new NoSuchFileException(path.toString(), null, "no such file or directory");
    }
    DatasetOpener o = Datasets.find(path);
    if (o != null) {
      ChunkedDataset cd = o.open(path, options);
      ImageDataset ds = new ImageDataset(cd.root(), cd.format(), cd.attributes(), cd);
      for (ChunkedVariable v : cd.variables()) {
        ds.add(new ImageVariable(ds, v.name(), v.dimensions(), v.array(), v.attributes()));
      }
      OmeZarr.apply(ds); // an OME-Zarr image: its resolution levels first, full resolution first, with OME axes
      return ds;
    }
    if (!netcdfAvailable()) {
      throw new IOException(Files.isDirectory(path) ? org.chunkcdm.io.UserMessages.isDirectory(path.toString())
          : path + ": not a dataset chunkcdm opens without netcdf-java (" + org.chunkcdm.io.UserMessages.OPENER_FORMATS
              + "); NetCDF and HDF5 files need netcdf-java, which Fiji and chunkcdm-imagej.zip include");
    }
    return openWithNetcdf(path);
  }

  /**
   * {@code org.chunkcdm.fiji.netcdf.NetcdfSources.open(path)}, found by name: that package builds on this one (and on
   * netcdf-java, which may be missing), so this one does not import it.
   */
  private static ImageDataset openWithNetcdf(Path path) throws IOException {
    try {
      return (ImageDataset) Class.forName("org.chunkcdm.fiji.netcdf.NetcdfSources", true, ImageDataset.class.getClassLoader())
          .getMethod("open", Path.class).invoke(null, path);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(path + ": " + c.getMessage(), c);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the plugin's netcdf-java source is missing from its jar", e);
    }
  }

  /** True when netcdf-java's {@code NetcdfFiles} can be loaded. */
  public static boolean netcdfAvailable() {
    try {
      Class.forName("ucar.nc2.NetcdfFiles", false, ImageDataset.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  public Path path() {
    return path;
  }

  public String format() {
    return format;
  }

  public List<ImageVariable> variables() {
    return variables;
  }

  /** Variables that can be shown as images (numeric or bool, rank &ge; 1, not empty). */
  public List<ImageVariable> imageVariables(int minRank) {
    List<ImageVariable> out = new ArrayList<>();
    for (ImageVariable v : variables) {
      if (v.whyNotAnImage() == null && v.rank() >= minRank) {
        out.add(v);
      }
    }
    return out;
  }

  public ImageVariable variable(String name) throws IOException {
    for (ImageVariable v : variables) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    List<String> names = new ArrayList<>();
    for (ImageVariable v : variables) {
      names.add(v.name());
    }
    throw new IOException(org.chunkcdm.io.UserMessages.noVariable(path.toString(), name, names));
  }

  public Map<String, Object> attributes() {
    return attributes;
  }

  @Override
  public void close() throws IOException {
    if (closer != null) {
      closer.close();
    }
  }
}
