package org.chunkcdm.io.remote;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The objects of one bucket or HTTP server as a read-only file system, so that formats reach remote bytes
 * through the same {@link Path} and {@link java.nio.file.Files} calls (and {@link org.chunkcdm.io.FileHandles})
 * they use for local files. Made by {@link org.chunkcdm.io.Locations#path(String)}; one instance per root
 * (store and location style), kept for the life of the process; its client comes from an
 * {@link ObjectStoreProvider} on first use. An object is a regular file; a key prefix with objects below it is
 * a directory on S3 (listed); over HTTP nothing can be listed and a path that is no object is only "not a
 * file" (see {@link org.chunkcdm.io.Locations#mayBeDirectory(Path)}).
 */
public final class RemoteFileSystem extends FileSystem {
  private final RemoteFileSystemProvider provider;
  private final RemoteLocation.Root root;
  private final RemoteObjects objects = new RemoteObjects(this);
  /** HTTP: the query string sent with requests for a key (a presigned URL's), never part of a path's text. */
  private final ConcurrentHashMap<String, String> queries = new ConcurrentHashMap<>();
  private volatile ObjectStore store;

  RemoteFileSystem(RemoteFileSystemProvider provider, RemoteLocation.Root root) {
    this.provider = provider;
    this.root = root;
  }

  public RemoteLocation.Root root() {
    return root;
  }

  /** The client of this file system's store (made on first use). */
  public ObjectStore store() throws IOException {
    ObjectStore s = store;
    if (s == null) {
      s = RemoteStores.store(root);
      store = s;
    }
    return s;
  }

  /** The key a request uses: with its query string when the location had one (HTTP). */
  String requestKey(String key) {
    String q = queries.get(key);
    return q == null ? key : key + "?" + q;
  }

  void rememberQuery(String key, String query) {
    if (query != null && !query.isEmpty()) {
      queries.put(key, query);
    }
  }

  /** The location of a key, for messages. */
  public String describe(String key) {
    return root.format(key);
  }

  boolean canList() {
    return root.kind() == RemoteLocation.Kind.S3;
  }

  RemoteObjects objects() {
    return objects;
  }

  /** Forgets every cached object info and byte (tests; a host that knows objects changed). */
  public void forgetCached() {
    objects.clear();
  }

  /** Forgets the cache and the client (the next request asks the providers for a client again). */
  void reset() {
    objects.clear();
    store = null;
  }

  /** Forgets what is cached about one object (it changed). */
  public void forget(String key) {
    objects.forget(key);
  }

  /** The info of object {@code key} (cached while fresh; one GET of its start otherwise), or null when missing. */
  public ObjectInfo stat(String key) throws IOException {
    return objects.stat(key).info;
  }

  /**
   * Reads exactly {@code len} bytes at {@code pos} of object {@code key}, of version {@code etag} (null: the
   * current one): cached bytes serve what they hold, anything else is one ranged GET. Returns the object's info.
   */
  public ObjectInfo read(String key, long pos, byte[] dst, int off, int len, String etag) throws IOException {
    return objects.read(key, pos, dst, off, len, etag);
  }

  /** Reads exactly {@code len} bytes at {@code pos} of object {@code key} by one ranged GET of them (no cache). */
  public ObjectInfo readExact(String key, long pos, byte[] dst, int off, int len, String etag) throws IOException {
    return objects.readExact(key, pos, dst, off, len, etag);
  }

  /** Copies [pos, pos+len) of object {@code key}, version {@code etag}, from cached bytes only; false when not cached. */
  public boolean readCached(String key, long pos, byte[] dst, int off, int len, String etag) {
    RemoteObjects.Entry e = objects.cached(key);
    return e != null && e.exists() && (etag == null ? e.fresh() : e.sameVersion(etag)) && e.copy(pos, dst, off, len);
  }

  /**
   * The first bytes of object {@code key}, all of it when it is at most {@code maxBytes} long: served from the
   * cache when it holds them, else one GET (not cached: chunk objects read this way stay out of the cache).
   */
  public ObjectStore.Whole readStart(String key, long maxBytes, String etag) throws IOException {
    RemoteObjects.Entry e = objects.cached(key);
    if (e != null && e.exists() && e.head != null && (etag == null ? e.fresh() : e.sameVersion(etag))
        && (e.head.length >= Math.min(maxBytes, e.info.size()))) {
      int n = (int) Math.min(maxBytes, e.info.size());
      return new ObjectStore.Whole(e.info, java.util.Arrays.copyOf(e.head, n)); // a copy: callers may keep or pool it
    }
    return store().readStart(requestKey(key), maxBytes, etag);
  }

  /** The object's info asked of the server now (a HEAD, no cache), or null when it does not exist. */
  public ObjectInfo head(String key) throws IOException {
    return store().head(requestKey(key));
  }

  @Override
  public RemoteFileSystemProvider provider() {
    return provider;
  }

  /** Shared for the life of the process: closing does nothing. */
  @Override
  public void close() {}

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public boolean isReadOnly() {
    return true;
  }

  @Override
  public String getSeparator() {
    return "/";
  }

  @Override
  public Iterable<Path> getRootDirectories() {
    return List.of(RemotePath.of(this, "/"));
  }

  @Override
  public Iterable<FileStore> getFileStores() {
    return List.of();
  }

  @Override
  public Set<String> supportedFileAttributeViews() {
    return Set.of("basic");
  }

  @Override
  public RemotePath getPath(String first, String... more) {
    StringBuilder sb = new StringBuilder(first);
    for (String m : more) {
      if (!m.isEmpty()) {
        sb.append('/').append(m);
      }
    }
    return RemotePath.of(this, sb.toString());
  }

  /** The absolute path of an object key. */
  public RemotePath pathOf(String key) {
    return RemotePath.of(this, "/" + key);
  }

  @Override
  public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
    return p -> m.matches(FileSystems.getDefault().getPath(p.toString()));
  }

  @Override
  public UserPrincipalLookupService getUserPrincipalLookupService() {
    throw new UnsupportedOperationException("remote objects have no owners");
  }

  @Override
  public WatchService newWatchService() {
    throw new UnsupportedOperationException("remote objects cannot be watched");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RemoteFileSystem && ((RemoteFileSystem) o).root.equals(root);
  }

  @Override
  public int hashCode() {
    return root.hashCode();
  }

  @Override
  public String toString() {
    return root.toString();
  }
}
