package org.chunkcdm.bcolz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.Locations;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.FormatOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens the bcolz family without netcdf-java ({@link Bcolz}): carray, ctable and Blaze chunked directories
 * (or their entry files {@code meta/sizes}, {@code meta/storage}, {@code __attrs__}, {@code __rootdirs__},
 * {@code meta/attributes}) and Bloscpack format-3 files.
 */
public final class BcolzOpener extends FormatOpener {
  public BcolzOpener() {
    super(Bcolz.FORMAT);
  }

  @Override
  protected boolean claims(Path path) throws IOException {
    Path p = path.toAbsolutePath().normalize();
    if (Locations.mayBeDirectory(p)) {
      return Bcolz.entryOfDirectory(p) != null;
    }
    if (!Files.isRegularFile(p)) {
      return false;
    }
    if (Bcolz.classify(p) != null) {
      return true;
    }
    byte[] head = DatasetOpener.head(p, 5);
    return head.length == 5 && Bloscpack.isBloscpack(head, 5) && Files.size(p) >= Bloscpack.HEADER;
  }

  @Override
  public ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    Path p = path.toAbsolutePath().normalize();
    Path entry = p;
    if (Locations.mayBeDirectory(p)) {
      entry = Bcolz.entryOfDirectory(p);
      if (entry == null) {
        throw new IOException(path + ": not a bcolz carray or ctable directory (no __rootdirs__, no meta/sizes)");
      }
    } else if (Bcolz.classify(p) == null && !canOpen(p)) {
      throw new IOException(path + ": not a bcolz dataset or Bloscpack file");
    }
    Path found = entry;
    return DatasetOpener.open(Bcolz.datasetRoot(entry), files -> Bcolz.read(files, found), options);
  }
}
