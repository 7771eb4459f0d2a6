package org.chunkcdm.io.remote;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NIO provider behind {@link RemoteFileSystem}: read-only access to objects. One instance per URL scheme
 * ({@code s3}, {@code cdms3}, {@code http}, {@code https}); not installed in the JDK's list of providers (paths come
 * from {@link org.chunkcdm.io.Locations#path(String)}), so it changes nothing for other code in the process.
 */
public final class RemoteFileSystemProvider extends FileSystemProvider {
  private static final ConcurrentHashMap<String, RemoteFileSystemProvider> PROVIDERS = new ConcurrentHashMap<>();
  private final String scheme;
  private final ConcurrentHashMap<RemoteLocation.Root, RemoteFileSystem> systems = new ConcurrentHashMap<>();

  private RemoteFileSystemProvider(String scheme) {
    this.scheme = scheme;
  }

  /** The absolute path of a remote location (parsed with {@link RemoteLocation#parse}). */
  public static RemotePath path(String location) {
    RemoteLocation l = RemoteLocation.parse(location);
    String scheme = location.trim().substring(0, location.trim().indexOf(':')).toLowerCase(Locale.ROOT);
    RemoteFileSystemProvider p = PROVIDERS.computeIfAbsent(scheme, RemoteFileSystemProvider::new);
    RemoteFileSystem fs = p.systems.computeIfAbsent(l.root(), r -> new RemoteFileSystem(p, r));
    fs.rememberQuery(l.key(), l.query());
    return fs.pathOf(l.key());
  }

  /** Forgets every cached object of every remote file system (tests). */
  static void forgetAll() {
    for (RemoteFileSystemProvider p : PROVIDERS.values()) {
      for (RemoteFileSystem fs : p.systems.values()) {
        fs.reset();
      }
    }
  }

  private static RemotePath remote(Path p) {
    if (!(p instanceof RemotePath)) {
      throw new ProviderMismatchException("not a remote path: " + p);
    }
    return (RemotePath) p;
  }

  @Override
  public String getScheme() {
    return scheme;
  }

  @Override
  public RemoteFileSystem newFileSystem(URI uri, Map<String, ?> env) {
    return getFileSystem(uri);
  }

  @Override
  public RemoteFileSystem getFileSystem(URI uri) {
    return path(uri.toString()).getFileSystem();
  }

  @Override
  public Path getPath(URI uri) {
    return path(uri.toString());
  }

  // ------------------------------------------------------------------ reading

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    for (OpenOption o : options) {
      if (o == StandardOpenOption.WRITE || o == StandardOpenOption.APPEND || o == StandardOpenOption.CREATE
          || o == StandardOpenOption.CREATE_NEW || o == StandardOpenOption.DELETE_ON_CLOSE) {
        throw new ReadOnlyFileSystemException();
      }
    }
    RemotePath p = remote(path);
    RemoteFileSystem fs = p.getFileSystem();
    RemoteObjects.Entry e = fs.objects().stat(p.key());
    if (!e.exists()) {
      throw e.directory ? new IOException(p + ": is a directory") : new NoSuchFileException(p.toString());
    }
    return new Channel(fs, p.key(), e.info);
  }

  /** A read-only channel over one object version (its ETag when it was opened): reads of a replaced object fail. */
  private static final class Channel implements SeekableByteChannel {
    private final RemoteFileSystem fs;
    private final String key;
    private final ObjectInfo info;
    private long position;
    private volatile boolean open = true;

    Channel(RemoteFileSystem fs, String key, ObjectInfo info) {
      this.fs = fs;
      this.key = key;
      this.info = info;
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
      if (!open) {
        throw new java.nio.channels.ClosedChannelException();
      }
      if (position >= info.size()) {
        return -1;
      }
      int n = (int) Math.min(dst.remaining(), info.size() - position);
      if (n == 0) {
        return 0;
      }
      byte[] b;
      int off;
      if (dst.hasArray()) {
        b = dst.array();
        off = dst.arrayOffset() + dst.position();
      } else {
        b = new byte[n];
        off = 0;
      }
      fs.objects().read(key, position, b, off, n, info.etag());
      if (!dst.hasArray()) {
        dst.put(b, 0, n);
      } else {
        dst.position(dst.position() + n);
      }
      position += n;
      return n;
    }

    @Override
    public int write(ByteBuffer src) {
      throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() {
      return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) {
      if (newPosition < 0) {
        throw new IllegalArgumentException("negative position " + newPosition);
      }
      position = newPosition;
      return this;
    }

    @Override
    public long size() {
      return info.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
      throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    RemotePath p = remote(dir);
    RemoteFileSystem fs = p.getFileSystem();
    if (!fs.canList()) {
      throw new IOException(p + ": cannot list the contents over HTTP; give the dataset's own URL");
    }
    String prefix = p.key().isEmpty() ? "" : p.key() + "/";
    List<Path> out = new ArrayList<>();
    String next = null;
    do {
      ObjectStore.Listing l = fs.store().list(prefix, next, 1000);
      for (ObjectStore.Child c : l.objects()) {
        out.add(p.resolve(c.name()));
      }
      for (String d : l.prefixes()) {
        out.add(p.resolve(d));
      }
      next = l.next();
    } while (next != null);
    if (out.isEmpty() && !p.key().isEmpty() && fs.objects().stat(p.key()).exists()) {
      throw new NotDirectoryException(p.toString());
    }
    List<Path> kept = new ArrayList<>();
    for (Path x : out) {
      if (filter == null || filter.accept(x)) {
        kept.add(x);
      }
    }
    return new DirectoryStream<>() {
      @Override
      public Iterator<Path> iterator() {
        return kept.iterator();
      }

      @Override
      public void close() {}
    };
  }

  // ------------------------------------------------------------------ attributes

  /** What {@link java.nio.file.Files} sees of a remote path. */
  static final class Attributes implements BasicFileAttributes {
    private final ObjectInfo info; // null for a directory
    private final String location;

    Attributes(ObjectInfo info, String location) {
      this.info = info;
      this.location = location;
    }

    @Override
    public FileTime lastModifiedTime() {
      return FileTime.fromMillis(info == null ? 0 : info.lastModified());
    }

    @Override
    public FileTime lastAccessTime() {
      return lastModifiedTime();
    }

    @Override
    public FileTime creationTime() {
      return lastModifiedTime();
    }

    @Override
    public boolean isRegularFile() {
      return info != null;
    }

    @Override
    public boolean isDirectory() {
      return info == null;
    }

    @Override
    public boolean isSymbolicLink() {
      return false;
    }

    @Override
    public boolean isOther() {
      return false;
    }

    @Override
    public long size() {
      return info == null ? 0 : info.size();
    }

    /** The object's location and ETag: equal for the same version of the same object. */
    @Override
    public Object fileKey() {
      return info == null ? location : location + "#" + info.etag();
    }
  }

  Attributes attributes(RemotePath p) throws IOException {
    RemoteFileSystem fs = p.getFileSystem();
    RemoteObjects.Entry e = fs.objects().stat(p.key());
    if (e.exists()) {
      return new Attributes(e.info, p.toString());
    }
    if (e.directory || p.key().isEmpty()) {
      return new Attributes(null, p.toString());
    }
    if (fs.canList() && !e.listed) {
      RemoteObjects.Listed l = fs.objects().listing(p.key());
      if (l != null && !l.isEmpty()) {
        return new Attributes(null, p.toString());
      }
    }
    throw new NoSuchFileException(p.toString());
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    if (type != BasicFileAttributes.class) {
      throw new UnsupportedOperationException(type.getSimpleName() + " of a remote object");
    }
    return (A) attributes(remote(path));
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
    Attributes a = attributes(remote(path));
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("lastModifiedTime", a.lastModifiedTime());
    all.put("lastAccessTime", a.lastAccessTime());
    all.put("creationTime", a.creationTime());
    all.put("size", a.size());
    all.put("isRegularFile", a.isRegularFile());
    all.put("isDirectory", a.isDirectory());
    all.put("isSymbolicLink", false);
    all.put("isOther", false);
    all.put("fileKey", a.fileKey());
    String want = attributes.startsWith("basic:") ? attributes.substring(6) : attributes;
    if (want.equals("*")) {
      return all;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (String n : want.split(",")) {
      if (all.containsKey(n)) {
        out.put(n, all.get(n));
      }
    }
    return out;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    if (type != BasicFileAttributeView.class) {
      return null;
    }
    RemotePath p = remote(path);
    return (V) new BasicFileAttributeView() {
      @Override
      public String name() {
        return "basic";
      }

      @Override
      public BasicFileAttributes readAttributes() throws IOException {
        return attributes(p);
      }

      @Override
      public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
        throw new ReadOnlyFileSystemException();
      }
    };
  }

  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    RemotePath p = remote(path);
    for (AccessMode m : modes) {
      if (m != AccessMode.READ) {
        throw new AccessDeniedException(p.toString(), null, "remote objects are read-only");
      }
    }
    attributes(p); // NoSuchFileException when neither an object nor (S3) a prefix with objects
  }

  @Override
  public boolean isSameFile(Path path, Path path2) {
    return path.equals(path2);
  }

  @Override
  public boolean isHidden(Path path) {
    return false;
  }

  @Override
  public FileStore getFileStore(Path path) {
    throw new UnsupportedOperationException("remote objects have no file store");
  }

  // ------------------------------------------------------------------ writing: none

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
    throw new ReadOnlyFileSystemException();
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) {
    throw new ReadOnlyFileSystemException();
  }

  @Override
  public void delete(Path path) {
    throw new ReadOnlyFileSystemException();
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) {
    throw new ReadOnlyFileSystemException();
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) {
    throw new ReadOnlyFileSystemException();
  }
}
