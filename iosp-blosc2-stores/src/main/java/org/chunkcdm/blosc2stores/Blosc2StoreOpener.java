package org.chunkcdm.blosc2stores;

import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens python-blosc2's containers without netcdf-java: a DictStore or TreeStore directory ({@code .b2d}, also by
 * its {@code embed.b2e}) or zip ({@code .b2z}), an EmbedStore ({@code .b2e}), a CTable in either form
 * ({@link Blosc2Stores}). Variable names are key paths ({@code dir/arr}); {@link StoreDataset#groupAttributes()}
 * gives the groups' attributes.
 */
public final class Blosc2StoreOpener implements DatasetOpener {
  @Override
  public String format() {
    return Blosc2Stores.FORMAT;
  }

  @Override
  public boolean canOpen(Path path) {
    return Blosc2Stores.kind(path) != null;
  }

  @Override
  public StoreDataset open(Path path, OpenOptions options) throws IOException {
    if (Blosc2Stores.kind(path) == null) {
      throw new IOException(path + ": not a python-blosc2 DictStore, TreeStore, EmbedStore or CTable");
    }
    FileHandles files = new FileHandles(Blosc2Stores.datasetRoot(path));
    try {
      return Blosc2Stores.read(files, options).withOptions(options);
    } catch (IOException | RuntimeException e) {
      files.close();
      throw e;
    }
  }
}
