package org.chunkcdm.cdm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import ucar.unidata.io.RandomAccessFile;
import ucar.unidata.io.spi.RandomAccessFileProvider;

/**
 * Lets {@code NetcdfFiles.open(dir)} open a dataset directory: netcdf-java asks registered
 * {@link RandomAccessFileProvider}s before its local-file fallback (which fails on directories). A subclass
 * names the dataset's entry file; the provider returns a plain RandomAccessFile over it (never a directory
 * RAF, which cdm-zarr would claim), and the format's IOSP recognises that entry file.
 */
public abstract class DatasetDirectoryProvider implements RandomAccessFileProvider {
  /** The entry file of dataset directory {@code dir}, or null when {@code dir} is not such a dataset. */
  protected abstract Path entryFile(Path dir);

  private Path entryOf(String location) {
    if (location == null || location.contains("://") && !location.startsWith("file:")) {
      return null;
    }
    try {
      Path p = Paths.get(ChunkedIosp.stripFileUrl(location));
      if (!Files.isDirectory(p)) {
        return null;
      }
      Path e = entryFile(p.toAbsolutePath().normalize());
      return e != null && Files.isRegularFile(e) ? e : null;
    } catch (InvalidPathException | SecurityException e) {
      return null;
    }
  }

  @Override
  public boolean isOwnerOf(String location) {
    return entryOf(location) != null;
  }

  @Override
  public RandomAccessFile open(String location) throws IOException {
    Path e = entryOf(location);
    if (e == null) {
      throw new IOException(location + ": not a dataset directory");
    }
    org.chunkcdm.io.FileHandles.checkRegular(e); // a FIFO would block the opening (TDS request) thread
    return new RandomAccessFile(e.toString(), "r");
  }
}
