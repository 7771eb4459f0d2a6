package org.chunkcdm.bcolz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;
import ucar.unidata.io.RandomAccessFile;

/**
 * Lets netcdf-java open bcolz ctable and carray directories (and Blaze chunked directories) by their
 * directory path: the ctable's {@code __rootdirs__}, else the carray's {@code meta/sizes}, is the entry file.
 *
 * <p>It also claims a dataset's {@code __attrs__} file and hands out the dataset's main entry file instead:
 * {@code __attrs__} is often 3 bytes ({@code "{}\n"}), and netcdf-java's built-in ncstream IOSP, asked before
 * any IOSP found by ServiceLoader, fails with an EOFException on files shorter than 4 bytes.
 */
public class BcolzDirectoryProvider extends DatasetDirectoryProvider {
  @Override
  protected Path entryFile(Path dir) {
    return Bcolz.entryOfDirectory(dir);
  }

  /** For a dataset's {@code __attrs__} file: the dataset's main entry file, else null. */
  private Path attrsEntry(String location) {
    Path p = pathOf(location);
    try {
      if (p == null || p.getFileName() == null || !p.getFileName().toString().equals("__attrs__") || !Files.isRegularFile(p)
          || BcolzIosp.classify(p) == null) {
        return null;
      }
      return entryFile(p.getParent());
    } catch (SecurityException e) {
      return null;
    }
  }

  @Override
  public boolean isOwnerOf(String location) {
    return attrsEntry(location) != null || super.isOwnerOf(location);
  }

  @Override
  public RandomAccessFile open(String location, int bufferSize) throws IOException {
    Path e = attrsEntry(location);
    if (e != null) {
      return openEntry(e, bufferSize);
    }
    return super.open(location, bufferSize);
  }
}
