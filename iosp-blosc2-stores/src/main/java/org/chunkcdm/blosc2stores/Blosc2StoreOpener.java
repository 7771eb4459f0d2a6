package org.chunkcdm.blosc2stores;

import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.FormatOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens python-blosc2's containers without netcdf-java: a DictStore or TreeStore directory ({@code .b2d}, also by
 * its {@code embed.b2e}) or zip ({@code .b2z}), an EmbedStore ({@code .b2e}), a CTable in either form
 * ({@link Blosc2Stores}). Variable names are key paths ({@code dir/arr}); {@link StoreDataset#groupAttributes()}
 * gives the groups' attributes.
 */
public final class Blosc2StoreOpener extends FormatOpener {
  public Blosc2StoreOpener() {
    super(Blosc2Stores.FORMAT);
  }

  @Override
  protected boolean claims(Path path) {
    return Blosc2Stores.kind(path) != null;
  }

  @Override
  public StoreDataset open(Path path, OpenOptions options) throws IOException {
    if (Blosc2Stores.kind(path) == null) {
      throw new IOException(path + ": not a python-blosc2 DictStore, TreeStore, EmbedStore or CTable");
    }
    return DatasetOpener.withHandles(Blosc2Stores.datasetRoot(path),
        files -> Blosc2Stores.read(files, options).withOptions(options));
  }
}
