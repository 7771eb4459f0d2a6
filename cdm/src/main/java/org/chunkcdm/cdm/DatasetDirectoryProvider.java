package org.chunkcdm.cdm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.Locations;
import ucar.unidata.io.RandomAccessFile;
import ucar.unidata.io.spi.RandomAccessFileProvider;

/**
 * Lets {@code NetcdfFiles.open(dir)} open a dataset directory: netcdf-java asks registered
 * {@link RandomAccessFileProvider}s before its local-file fallback (which fails on directories). A subclass
 * names the dataset's entry file; the provider returns a plain RandomAccessFile over it (never a directory
 * RAF, which cdm-zarr would claim), and the format's IOSP recognises that entry file.
 *
 * <p>A remote dataset directory ({@code s3://}, {@code cdms3:}, {@code http(s)://}: a key prefix, which over HTTP
 * cannot be listed) opens the same way: {@link #entryFile} probes the format's well-known entry objects through
 * the remote file system, and the entry opens as a {@link RemoteRandomAccessFile}.
 */
public abstract class DatasetDirectoryProvider implements RandomAccessFileProvider {
  /** The entry file of dataset directory {@code dir}, or null when {@code dir} is not such a dataset. */
  protected abstract Path entryFile(Path dir);

  /**
   * Whether the file or object {@code p} is an archive of this format read member by member in place (a zip
   * store): netcdf-java would otherwise download and unpack an object whose name looks compressed. No by default.
   */
  protected boolean readsInPlace(Path p) {
    return false;
  }

  /** The path of a location this provider may be asked about (local, {@code file:} or remote), or null. */
  public static Path pathOf(String location) {
    if (location == null || location.contains("://") && !location.startsWith("file:") && !Locations.isRemote(location)) {
      return null;
    }
    try {
      return Locations.path(location).toAbsolutePath().normalize();
    } catch (IllegalArgumentException | SecurityException e) { // InvalidPathException too
      return null;
    }
  }

  private Path entryOf(String location) {
    Path p = pathOf(location);
    if (p == null || !Locations.mayBeDirectory(p)) {
      return null;
    }
    try {
      Path e = entryFile(p);
      return e != null && Files.isRegularFile(e) ? e : null;
    } catch (SecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public boolean isOwnerOf(String location) {
    return entryOf(location) != null;
  }

  @Override
  public RandomAccessFile open(String location) throws IOException {
    return open(location, -1);
  }

  @Override
  public RandomAccessFile open(String location, int bufferSize) throws IOException {
    Path e = entryOf(location);
    if (e == null) {
      throw new IOException(location + ": not a dataset directory");
    }
    return openEntry(e, bufferSize);
  }

  /** A RandomAccessFile over an entry file: local, or a {@link RemoteRandomAccessFile} for an object. */
  protected static RandomAccessFile openEntry(Path e, int bufferSize) throws IOException {
    if (Locations.isRemote(e)) {
      return new RemoteRandomAccessFile(e, bufferSize);
    }
    org.chunkcdm.io.FileHandles.checkRegular(e); // a FIFO would block the opening (TDS request) thread
    return bufferSize > 0 ? new RandomAccessFile(e.toString(), "r", bufferSize) : new RandomAccessFile(e.toString(), "r");
  }
}
