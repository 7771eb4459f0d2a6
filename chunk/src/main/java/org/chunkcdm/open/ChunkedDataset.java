package org.chunkcdm.open;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An open dataset as a format describes it: named chunked arrays with dimension names and attributes.
 * Thread-safe for reads; {@link #close()} frees file handles (reads after close may reopen them, as a TDS
 * release/reacquire cycle does, or fail with an IOException).
 */
public interface ChunkedDataset extends Closeable {
  /** The format name of the opener that opened it. */
  String format();

  /** The dataset root: the file of a one-file dataset, the directory of a directory dataset. */
  Path root();

  /** Variables in file order. */
  List<ChunkedVariable> variables();

  /** The variable of that name, or null. */
  default ChunkedVariable variable(String name) {
    for (ChunkedVariable v : variables()) {
      if (v.name().equals(name)) {
        return v;
      }
    }
    return null;
  }

  /** Global attributes, see {@link ChunkedVariable#attributes()} for value types. */
  Map<String, Object> attributes();

  /** Names of {@link #attributes()} whose integer values are unsigned. */
  default java.util.Set<String> unsigned() {
    return java.util.Set.of();
  }

  /** Newest modification time (ms) of any file of the dataset. */
  long lastModified() throws IOException;

  @Override
  void close() throws IOException;
}
