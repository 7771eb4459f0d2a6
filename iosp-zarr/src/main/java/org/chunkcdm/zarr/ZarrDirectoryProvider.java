package org.chunkcdm.zarr;

import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;

/**
 * Lets {@code NetcdfFiles.open(dir)} open a Zarr store directory: its root metadata file ({@code zarr.json},
 * {@code .zmetadata}, {@code .zgroup} or {@code .zarray}) is the entry file {@link ZarrIosp} recognises.
 */
public class ZarrDirectoryProvider extends DatasetDirectoryProvider {
  @Override
  protected Path entryFile(Path dir) {
    return Zarr.entryOfDirectory(dir);
  }

  /** A Zarr zip store (a remote one: local zips are {@link ZarrZipProvider}'s) is read in place. */
  @Override
  protected boolean readsInPlace(Path p) {
    return Zarr.isZipName(p) && Zarr.isZipStore(p);
  }
}
