package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.FormatOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens ds-format {@code .ds} files without netcdf-java ({@link DsDatasets}). String variables are listed
 * (names, dimensions, attributes) but have no chunked array.
 */
public final class DsOpener extends FormatOpener {
  public DsOpener() {
    super(DsDatasets.FORMAT);
  }

  @Override
  protected boolean claims(Path path) throws IOException {
    byte[] head = DatasetOpener.head(path, 3);
    return DsDatasets.looksLikeDs(head, head.length, path.getFileName().toString());
  }

  @Override
  public ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    Path p = path.toAbsolutePath().normalize();
    if (!Files.isRegularFile(p)) {
      throw new IOException(path + ": not a .ds file");
    }
    return DatasetOpener.open(p, files -> DsDatasets.read(files, p, null), options);
  }
}
