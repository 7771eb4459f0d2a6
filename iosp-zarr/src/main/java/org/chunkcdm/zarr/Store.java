package org.chunkcdm.zarr;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The keys of one Zarr store and their bytes: a directory (key = relative path) or a zip archive (key = member
 * name). Every read goes through the dataset's {@code FileHandles} (or {@code ZipIndex} over them). A key that is not
 * there reads as {@code null}: Zarr stores leave never-written chunks out, and a store that cannot be listed (HTTP)
 * finds a missing chunk only by asking for its key. Thread-safe.
 */
abstract class Store implements Closeable {
  /** Metadata documents larger than this are not Zarr metadata. */
  static final long MAX_METADATA = 64L << 20;

  /** The store's root: its directory or its zip file. */
  abstract Path root();

  /** Where a key lives, for messages: its file, or {@code archive.zip!member}. */
  abstract String describe(String key);

  /** The whole value of a key (at most {@code maxBytes}), or null when the store has no such key. */
  abstract byte[] get(String key, long maxBytes) throws IOException;

  /** The size of a key's value in bytes, or -1 when the store has no such key. */
  abstract long size(String key) throws IOException;

  /**
   * {@code len} bytes of a key's value at {@code offset} (a ranged read: a shard index, an inner chunk), or null when
   * the store has no such key. A range past the value's end is a FormatException naming the key.
   */
  abstract byte[] getRange(String key, long offset, int len) throws IOException;

  /**
   * The last {@code len} bytes of a key's value (a shard index at its end) and the value's size, or null when the
   * store has no such key. A value shorter than {@code len} is a FormatException naming the key.
   */
  Suffix getSuffix(String key, int len) throws IOException {
    long size = size(key);
    if (size < 0) {
      return null;
    }
    if (size < len) {
      throw new org.chunkcdm.io.FormatException(describe(key) + ": " + size + " bytes, too short for its " + len
          + "-byte shard index");
    }
    byte[] b = getRange(key, size - len, len);
    return b == null ? null : new Suffix(b, size);
  }

  /** The end of a value and the value's size. */
  record Suffix(byte[] bytes, long size) {}

  /**
   * The child prefixes directly below a key prefix ({@code ""} = the root, else ending in {@code /}): the
   * subdirectories of a directory store, the next path segments of a zip's member names that have more below them.
   * Null when the store cannot list (then only consolidated metadata finds the arrays).
   */
  abstract List<String> list(String prefix) throws IOException;

  /** The newest modification time (ms) of any metadata or chunk of the store. */
  abstract long lastModified();

  /** Frees file handles; later reads reopen them. */
  @Override
  public abstract void close() throws IOException;
}
