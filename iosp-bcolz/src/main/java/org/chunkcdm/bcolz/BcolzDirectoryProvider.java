package org.chunkcdm.bcolz;

import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;

/**
 * Lets netcdf-java open bcolz ctable and carray directories (and Blaze chunked directories) by their
 * directory path: the ctable's {@code __rootdirs__}, else the carray's {@code meta/sizes}, is the entry file.
 */
public class BcolzDirectoryProvider extends DatasetDirectoryProvider {
  @Override
  protected Path entryFile(Path dir) {
    Path rootdirs = dir.resolve("__rootdirs__");
    if (Files.isRegularFile(rootdirs)) {
      return rootdirs;
    }
    return BcolzIosp.isCarrayDir(dir) ? dir.resolve("meta").resolve("sizes") : null;
  }
}
