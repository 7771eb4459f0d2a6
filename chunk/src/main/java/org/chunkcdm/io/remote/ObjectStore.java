package org.chunkcdm.io.remote;

import java.io.IOException;
import java.util.List;

/**
 * A client of one bucket (S3) or one HTTP server: the few operations chunked formats need, each one request
 * (plus bounded retries on throttling and transient server errors; each request has a timeout). Implementations
 * are thread-safe, count their requests in {@link RemoteStats}, and name the object's location in every error
 * (never credentials). A missing object is a {@link java.nio.file.NoSuchFileException}; an object whose ETag is
 * not the one required an {@link ObjectChangedException}.
 */
public interface ObjectStore {
  /** The result of a read: what the store said about the object, and how many bytes were read. */
  record Read(ObjectInfo info, int count) {}

  /**
   * A listing of the direct children of a prefix (names below it; sub-prefixes without their trailing '/');
   * {@code next} continues it (null: nothing more).
   */
  record Listing(List<Child> objects, List<String> prefixes, String next) {
    public boolean complete() {
      return next == null;
    }
  }

  /** An object in a listing: its name below the listed prefix and its info. */
  record Child(String name, ObjectInfo info) {}

  /** The location of {@code key} for messages (never with credentials). */
  String describe(String key);

  /**
   * One ranged GET: bytes {@code [pos, pos + len)} of {@code key} into {@code dst[off..]}. Fewer than {@code len}
   * bytes are read only where the object ends (then {@code count} says how many; a position at or past the end
   * reads 0). {@code ifMatch}: the ETag the object must still have (null: any version).
   */
  Read read(String key, long pos, byte[] dst, int off, int len, String ifMatch) throws IOException;

  /**
   * The object's first bytes, whole when it is at most {@code maxBytes} long: one GET. The array holds
   * {@code min(size, maxBytes)} bytes; {@link ObjectInfo#size()} tells the object's full size.
   */
  Whole readStart(String key, long maxBytes, String ifMatch) throws IOException;

  /** The object's info (a HEAD), or null when it does not exist. */
  ObjectInfo head(String key) throws IOException;

  /**
   * The direct children of {@code prefix} (which ends with '/', or is empty for the root), at most about
   * {@code maxKeys}, continuing after {@code next} of an earlier listing (null: from the start): one request.
   * Null when this store cannot list (plain HTTP).
   */
  Listing list(String prefix, String next, int maxKeys) throws IOException;

  /** Bytes read from the start of an object, and its info. */
  record Whole(ObjectInfo info, byte[] bytes) {}
}
