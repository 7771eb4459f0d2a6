package org.chunkcdm.open;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The {@link ChunkedDataset} the format openers return (a format that tells more extends it). */
public class BasicDataset implements ChunkedDataset {
  private final String format;
  private final Path root;
  private final List<ChunkedVariable> variables;
  private final Attributes attrs;
  private final Closeable resources;

  /** @param resources closed by {@link #close()} (the dataset's file handles), may be null */
  public BasicDataset(String format, Path root, List<? extends ChunkedVariable> variables, Attributes attrs,
      Closeable resources) {
    this.format = format;
    this.root = root;
    this.variables = Collections.unmodifiableList(new ArrayList<>(variables));
    this.attrs = attrs == null ? new Attributes() : attrs;
    this.resources = resources;
  }

  /** A dataset of the same variables, attributes and resources as {@code d}. */
  protected BasicDataset(BasicDataset d) {
    this.format = d.format;
    this.root = d.root;
    this.variables = d.variables;
    this.attrs = d.attrs;
    this.resources = d.resources;
  }

  @Override
  public String format() {
    return format;
  }

  @Override
  public Path root() {
    return root;
  }

  @Override
  public List<ChunkedVariable> variables() {
    return variables;
  }

  @Override
  public Map<String, Object> attributes() {
    return attrs.map();
  }

  @Override
  public Set<String> unsigned() {
    return attrs.unsigned();
  }

  /**
   * The newest modification time of any file of the dataset (directories walked recursively); for a remote
   * dataset the version of the objects its open read, asked of the server now ({@link FileHandles#lastModified()}).
   * 0 if unknown.
   */
  @Override
  public long lastModified() throws IOException {
    if (resources instanceof org.chunkcdm.io.FileHandles) {
      return ((org.chunkcdm.io.FileHandles) resources).lastModified();
    }
    return lastModified(root);
  }

  /** The newest modification time of any file under {@code root} (0 when none can be read). */
  public static long lastModified(Path root) {
    return org.chunkcdm.io.FileHandles.newestModification(root);
  }

  /**
   * This dataset reading with the cache and decode threads of {@code options} (each array wrapped with
   * {@link org.chunkcdm.chunk.ChunkedArray#withSettings}); {@code this} for default options.
   */
  public BasicDataset withOptions(OpenOptions options) {
    if (options == null || options.readSettings() == org.chunkcdm.chunk.ReadSettings.defaults()) {
      return this;
    }
    List<ChunkedVariable> vs = new ArrayList<>();
    for (ChunkedVariable v : variables) {
      if (v.array() != null && v instanceof DatasetVariable) {
        vs.add(((DatasetVariable) v).withArray(v.array().withSettings(options.readSettings())));
      } else {
        vs.add(v);
      }
    }
    return new BasicDataset(format, root, vs, attrs, resources);
  }

  @Override
  public void close() throws IOException {
    if (resources != null) {
      resources.close();
    }
  }

  @Override
  public String toString() {
    return format + " " + root + " " + variables;
  }
}
