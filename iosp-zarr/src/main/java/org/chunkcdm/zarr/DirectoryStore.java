package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.Locations;

/**
 * A directory store: key {@code a/b/0.1} is the file {@code <root>/a/b/0.1}. Bytes are read through
 * {@link FileHandles} (positional reads, paths checked against the root); a missing file is an absent key.
 */
final class DirectoryStore extends Store {
  private final FileHandles files;
  private final Path root;

  DirectoryStore(FileHandles files) {
    this.files = files;
    this.root = files.root();
  }

  /**
   * Chunk files whose channels may stay open for later reads (beyond it each chunk file is opened, read and closed
   * again: a store of millions of chunks must not run a server out of file descriptors).
   */
  static final int KEEP_OPEN = 512;

  FileHandles files() {
    return files;
  }

  /**
   * True while reading a chunk may leave its file open for the next read of it (local files only: an object is read
   * whole by one GET instead).
   */
  boolean keepOpen() {
    return !files.isRemote() && files.openCount() < KEEP_OPEN;
  }

  @Override
  Path root() {
    return root;
  }

  /** The file of a key (keys come from {@link Keys}: validated segments, no {@code ..}, never absolute). */
  Path path(String key) {
    return key.isEmpty() ? root : root.resolve(key);
  }

  @Override
  String describe(String key) {
    return path(key).toString();
  }

  /** True when the failure says the file is not there (then the key is absent). */
  static boolean missing(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NoSuchFileException) {
        return true;
      }
    }
    return false;
  }

  @Override
  long size(String key) throws IOException {
    try {
      return files.size(path(key));
    } catch (IOException e) {
      if (missing(e)) {
        return -1;
      }
      throw e;
    }
  }

  /** The names of Zarr metadata documents (a store asks for several that are not there). */
  private static final java.util.Set<String> METADATA = java.util.Set.of("zarr.json", ".zarray", ".zgroup", ".zattrs",
      ".zmetadata");

  @Override
  byte[] get(String key, long maxBytes) throws IOException {
    Path p = path(key);
    if (files.isRemote() && METADATA.contains(p.getFileName().toString()) && !Locations.isObject(p)) {
      return null; // on S3 the listing of the directory answers without a request for each absent document
    }
    try {
      // read and closed at once: a store has many small metadata files, which must not all stay open
      return files.readOnce(p, Long.MAX_VALUE, maxBytes);
    } catch (IOException e) {
      if (missing(e)) {
        return null;
      }
      throw e;
    }
  }

  /** Reads a whole chunk file into {@code dst} (of at least {@code size} bytes). */
  void readFully(String key, byte[] dst, int len) throws IOException {
    files.readFully(path(key), 0, dst, 0, len);
  }

  @Override
  byte[] getRange(String key, long offset, int len) throws IOException {
    Path p = path(key);
    long size = size(key);
    if (size < 0) {
      return null;
    }
    if (offset < 0 || len < 0 || offset > size - len) {
      throw new FormatException(p + ": " + len + " bytes at offset " + offset + " lie past the end of the file ("
          + size + " bytes)");
    }
    byte[] b = new byte[len];
    files.readExact(p, offset, b, 0, len);
    return b;
  }

  @Override
  List<String> list(String prefix) throws IOException {
    Path dir = path(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    if (!prefix.isEmpty()) {
      files.checkInside(dir);
    }
    if (!Locations.canList(dir)) {
      return null; // a plain HTTP server: only metadata documents name the children
    }
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        if (Files.isDirectory(p)) {
          out.add(p.getFileName().toString());
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of();
    }
    Collections.sort(out);
    return out;
  }

  @Override
  long lastModified() {
    return files.lastModified();
  }

  @Override
  public void close() throws IOException {
    files.close();
  }
}
