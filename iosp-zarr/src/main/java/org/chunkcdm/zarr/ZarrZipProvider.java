package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;
import org.chunkcdm.io.Locations;
import ucar.unidata.io.RandomAccessFile;
import ucar.unidata.io.spi.RandomAccessFileProvider;

/**
 * Lets {@code NetcdfFiles.open("x.zip")} open a Zarr zip store in place. netcdf-java unpacks every file whose name
 * ends in {@code .zip} into a cache directory before opening it, unless the RandomAccessFile a provider hands out
 * reports itself as a directory: this provider claims only zips with Zarr metadata at their top and returns the
 * archive itself, marked so, which {@link ZarrIosp} then reads member by member.
 */
public class ZarrZipProvider implements RandomAccessFileProvider {
  private static Path zipOf(String location) {
    if (location == null || Locations.isRemote(location)) { // read in place only as a local file
      return null;
    }
    Path p = DatasetDirectoryProvider.pathOf(location);
    try {
      return p != null && Zarr.isZipStore(p) ? p : null;
    } catch (SecurityException e) {
      return null;
    }
  }

  @Override
  public boolean isOwnerOf(String location) {
    return zipOf(location) != null;
  }

  @Override
  public RandomAccessFile open(String location) throws IOException {
    Path p = zipOf(location);
    if (p == null) {
      throw new IOException(location + ": not a Zarr zip store");
    }
    org.chunkcdm.io.FileHandles.checkRegular(p);
    return new InPlace(p.toString());
  }

  /** The zip archive, reporting itself as a directory so that netcdf-java does not unpack it. */
  static final class InPlace extends RandomAccessFile {
    InPlace(String path) throws IOException {
      super(path, "r");
    }

    @Override
    public boolean isDirectory() {
      return true;
    }
  }
}
