package org.chunkcdm.cdm;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.remote.RemoteLocation;
import org.chunkcdm.io.remote.RemoteStores;
import ucar.nc2.NetcdfFiles;
import ucar.unidata.io.RandomAccessFile;
import ucar.unidata.io.spi.RandomAccessFileProvider;

/**
 * Lets netcdf-java open {@code s3://bucket/key}, {@code cdms3:bucket?key}, {@code cdms3://host:port/bucket?key}
 * and {@code http(s)://} locations through chunkcdm's clients: an object opens as a {@link RemoteRandomAccessFile}
 * (any IOSP can read it), a dataset directory as the RandomAccessFile of its format's entry object (asked of the
 * {@link DatasetDirectoryProvider}s on the class path). Found by ServiceLoader for {@code s3://} and
 * {@code cdms3:}; netcdf-java asks its own HTTP provider about {@code http(s)://} first, so {@link #register()}
 * puts this one ahead of it (chunkcdm's IOSPs do that when their class is loaded, e.g. when threddsConfig.xml
 * registers them).
 */
public class RemoteRafProvider implements RandomAccessFileProvider {
  private static volatile boolean registered;

  /** Registers this provider with netcdf-java ahead of its built-in ones (once per class loader). */
  public static synchronized void register() {
    if (registered) {
      return;
    }
    try {
      NetcdfFiles.registerRandomAccessFileProvider(RemoteRafProvider.class);
    } catch (IllegalAccessException | InstantiationException | RuntimeException e) {
      return; // netcdf-java without this entry point: ServiceLoader still finds the provider for s3 and cdms3
    }
    registered = true;
  }

  @Override
  public boolean isOwnerOf(String location) {
    if (!Locations.isRemote(location)) {
      return false;
    }
    try {
      return RemoteStores.available(RemoteLocation.parse(location).root().kind());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public RandomAccessFile open(String location) throws IOException {
    return open(location, -1);
  }

  @Override
  public RandomAccessFile open(String location, int bufferSize) throws IOException {
    Path p = Locations.parse(location);
    try {
      Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class); // a failure to ask says why
    } catch (java.nio.file.NoSuchFileException e) {
      // no object (over HTTP maybe a dataset directory): probed below
    }
    for (DatasetDirectoryProvider d : directoryProviders()) { // dataset directories, and entry files handed on
      if (d.isOwnerOf(location)) {
        return d.open(location, bufferSize);
      }
    }
    if (Files.isRegularFile(p)) {
      RemoteRandomAccessFile raf = new RemoteRandomAccessFile(p, bufferSize);
      for (DatasetDirectoryProvider d : directoryProviders()) {
        if (d.readsInPlace(p)) {
          return raf.inPlace();
        }
      }
      return raf;
    }
    throw new FileNotFoundException(p + ": no such object, and no dataset directory of a format chunkcdm reads");
  }

  /** The dataset-directory providers on the class path (this class's loader and the context class loader). */
  static List<DatasetDirectoryProvider> directoryProviders() {
    List<DatasetDirectoryProvider> out = new ArrayList<>();
    for (RandomAccessFileProvider r : org.chunkcdm.io.Services.load(RandomAccessFileProvider.class, RemoteRafProvider.class)) {
      if (r instanceof DatasetDirectoryProvider) {
        out.add((DatasetDirectoryProvider) r);
      }
    }
    return out;
  }
}
