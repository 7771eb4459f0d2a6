package org.chunkcdm.blosc2stores;

import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;

/**
 * Lets netcdf-java open a python-blosc2 directory store ({@code .b2d}: DictStore, TreeStore, CTable) by its
 * directory path: the entry file is the directory's {@code embed.b2e}, which {@link Blosc2StoreIosp} recognises
 * by its store marker.
 */
public class Blosc2StoreDirectoryProvider extends DatasetDirectoryProvider {
  @Override
  protected Path entryFile(Path dir) {
    return Blosc2Stores.kind(dir) == Blosc2Stores.Kind.DIRECTORY ? dir.resolve(Container.EMBED) : null;
  }
}
