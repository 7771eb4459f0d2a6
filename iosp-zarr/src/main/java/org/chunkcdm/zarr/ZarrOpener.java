package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Locations;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.FormatOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens Zarr v2 and v3 stores without netcdf-java: a store directory, its root metadata file, or a zip store. Each
 * array is one variable named by its path inside the store ({@code model/run1/u}; a root array by the store's name),
 * with the dimensions and attributes the CDM view shows; global attributes are the root group's.
 */
public final class ZarrOpener extends FormatOpener {
  public ZarrOpener() {
    super(Zarr.FORMAT);
  }

  @Override
  protected boolean claims(Path path) {
    Path p = path.toAbsolutePath().normalize();
    if (Zarr.isZipName(p) && !Files.isDirectory(p)) {
      return Zarr.isZipStore(p);
    }
    if (Zarr.isEntryFile(p)) {
      return true;
    }
    return Locations.mayBeDirectory(p) && Zarr.entryOfDirectory(p) != null;
  }

  @Override
  public ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    Path p = path.toAbsolutePath().normalize();
    if (!canOpen(p)) {
      throw new IOException(path + ": not a Zarr store (a directory with zarr.json, .zgroup, .zarray or .zmetadata, "
          + "one of those files, or a zip store)");
    }
    Path root = Zarr.storeRoot(p);
    return DatasetOpener.open(root, files -> read(files, root), options);
  }

  /** The dataset of the store at {@code root} read through {@code files}. */
  static BasicDataset read(FileHandles files, Path root) throws IOException {
    ZarrTree t = ZarrTree.read(Zarr.store(files, root), Zarr.storeName(root));
    List<DatasetVariable> vars = new ArrayList<>();
    for (var e : t.arrayDims.entrySet()) {
      Node a = e.getKey();
      List<String> dims = new ArrayList<>();
      for (String[] d : e.getValue()) {
        dims.add(d[1]);
      }
      vars.add(new DatasetVariable(ZarrTree.pathName(a), dims, a.array, t.arrayAttrs.get(a), a));
    }
    Attributes global = t.root.isArray ? new Attributes() : ZarrTree.userAttributes(t.root.attrs);
    return new BasicDataset(Zarr.FORMAT, root, vars, global, files);
  }
}
