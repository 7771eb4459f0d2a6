package org.chunkcdm.open;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;

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

  /** Reads a dataset's metadata through {@code files}. */
  interface Reader {
    BasicDataset read(FileHandles files) throws IOException;
  }

  /**
   * The dataset {@code reader} reads through new handles on {@code root}, with {@code options}; the handles are
   * closed when the read fails and otherwise belong to the dataset.
   */
  static ChunkedDataset open(Path root, Reader reader, OpenOptions options) throws IOException {
    return withHandles(root, files -> reader.read(files).withOptions(options));
  }

  /** Makes a dataset from the handles on its root. */
  interface Opening<D extends ChunkedDataset> {
    D open(FileHandles files) throws IOException;
  }

  /**
   * The dataset {@code opening} makes from new handles on {@code root}; the handles are closed when that fails and
   * otherwise belong to the dataset.
   */
  static <D extends ChunkedDataset> D withHandles(Path root, Opening<D> opening) throws IOException {
    FileHandles files = new FileHandles(root);
    try {
      return opening.open(files);
    } catch (IOException | RuntimeException e) {
      files.close();
      throw e;
    }
  }

  /** The first {@code n} bytes of {@code file} (fewer when it is shorter; none when it is not a regular file). */
  static byte[] head(Path file, int n) throws IOException {
    if (!Files.isRegularFile(file)) {
      return new byte[0];
    }
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(n);
    }
  }
}
