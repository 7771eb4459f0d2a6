package org.chunkcdm.open;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A format module's opener: path → {@link ChunkedDataset}, without netcdf-java. Registered through
 * {@code META-INF/services/org.chunkcdm.open.DatasetOpener}; found by {@link Datasets#open(Path, OpenOptions)}.
 * The format's IOSP is the CDM adapter over the same opener; the Fiji plugin is the ImgLib2 adapter.
 *
 * <p>Implementations must not load any {@code ucar.*} class (Fiji may run them without netcdf-java).
 */
public interface DatasetOpener {
  /** Short format name, e.g. {@code bcolz}, {@code bloscpack}, {@code blosc2}, {@code ds}. */
  String format();

  /**
   * True when this opener claims {@code path}: a file, a dataset directory, or a file inside a dataset
   * directory (as the IOSPs accept). Cheap: reads at most a few header bytes; never throws for foreign files.
   */
  boolean canOpen(Path path);

  /** Opens the dataset; bad input is an IOException naming the file and what is wrong. */
  ChunkedDataset open(Path path, OpenOptions options) throws IOException;
}
