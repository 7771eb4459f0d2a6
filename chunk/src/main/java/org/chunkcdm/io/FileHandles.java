package org.chunkcdm.io;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Positional, thread-safe reads of the files of one dataset. Channels open lazily and stay open until
 * {@link #close()} (an IOSP's {@code release()}); the next read reopens them, so TDS's release/reacquire
 * cycle needs nothing else. No read uses a shared file pointer.
 *
 * <p>Every path must lie inside the dataset root given at construction (after resolving symbolic links):
 * a chunk or column name from a header never makes a read leave the dataset directory.
 *
 * <p><b>Memory-mapped reads.</b> {@link #readFully} of at least 64 KiB from a file of at
 * least 64 MiB can copy straight out of a read-only mapping of the file (one copy: page cache
 * → the caller's array) instead of {@code FileChannel.read} into a heap array (the kernel's copy into the JDK's
 * temporary direct buffer, then the JDK's copy into the array). A fresh mapping costs a page fault per 64 KiB or so,
 * which eats that gain on a file read once (measured with {@code bench/run-blosc2-whole.sh}), so by default
 * ({@link MapMode#REREAD}) a file is mapped only once the reads through its channel have added up to more than its
 * size: a dataset that stays open and is read again. The mapping is made lazily in windows of 1 GiB
 * bytes (1 GiB by default; a read crossing a window boundary is copied in parts), held by these handles and
 * dropped by {@link #close()}; the JVM unmaps it when the garbage collector has reclaimed it (Java 17 has no unmap
 * call), so until then the file stays in the process's address space (a deleted file's blocks are freed only
 * then). Reads use absolute indexes only: any number of threads share one mapping. A read past the size the file
 * had when it was mapped goes through the channel (which reports a short file), and so does one past the file's
 * current size (checked before every copy); a copy that faults anyway (truncated in between, a device error)
 * gives an IOException naming the file and the range, never an {@link InternalError}.
 * {@code -Dchunkcdm.mmap=false} turns the mapping off, {@code =true} maps from the first read, {@code auto} (the
 * default) as above; files of at least 64 MiB, reads of at least 64 KiB.
 *
 * <p><b>One-copy reads (Java 22+).</b> Where {@link NativeReads} can run (Java 22 or later on Linux 6.5+, native
 * access granted), a read of the same sizes that the mapping does not serve goes through {@code pread} straight into
 * the caller's array when the page cache holds the whole range, and through the channel otherwise; one descriptor per
 * such file, opened next to its channel and closed with it. {@link #nativeReadsOff()} says why it is off.
 *
 * <p><b>Remote datasets.</b> A root from {@link Locations#path(String)} ({@code s3://}, {@code cdms3:},
 * {@code http(s)://}) reads objects instead of files, through the same methods: every read is a ranged GET (or
 * is served from bytes the open already fetched), each object is pinned to the version it had when first read
 * (a replaced object is an IOException saying so), a missing object is a {@link java.nio.file.NoSuchFileException}
 * naming its URL, and {@link #prefetch} lets a read announce the chunk ranges it needs so they come with few,
 * coalesced, parallel requests. {@link #close()} drops staged bytes; connections belong to the client's pool.
 */
public final class FileHandles implements Closeable {
  private final Path root;
  private volatile Path realRoot; // resolved on first need: a one-file dataset never needs it
  private final ConcurrentHashMap<Path, FileChannel> open = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Path, Closeable> owners = new ConcurrentHashMap<>();
  private final FileMaps maps = new FileMaps(this);
  private final ConcurrentHashMap<Path, NativeReads.Fd> fds = new ConcurrentHashMap<>();
  /** The remote side, or null for local files. */
  private final RemoteFiles remote;

  /** When reads copy out of a file's mapping ({@code -Dchunkcdm.mmap=auto|true|false}). */
  public enum MapMode {
    /** Never: every read through the file's channel ({@code false}). */
    OFF,
    /**
     * Once the reads through the file's channel (of mappable size) add up to more than the file: it is read again
     * ({@code auto}, the default).
     */
    REREAD,
    /** From the first read ({@code true}). */
    ALWAYS
  }

  /** The mapping mode reads use now. */
  public static MapMode mapMode() {
    return FileMaps.mode();
  }

  /** Handles for files inside {@code root} (a directory, or a single file that is the whole dataset). */
  public FileHandles(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    if (root.getFileSystem() instanceof org.chunkcdm.io.remote.RemoteFileSystem) {
      // no request here: an HTTP "directory" cannot be asked about, and the opener has read the entry object
      remote = new RemoteFiles((org.chunkcdm.io.remote.RemoteFileSystem) root.getFileSystem());
      return;
    }
    remote = null;
    if (!Files.exists(this.root)) {
      throw new NoSuchFileException(this.root.toString());
    }
  }

  /**
   * Handles for a one-file dataset whose file is already open ({@code channel}, owned by {@code owner}, e.g. the
   * RandomAccessFile netcdf-java opened it with): as {@link #FileHandles(Path)} followed by {@link #adopt}, without
   * asking the file system whether the open file exists (one system call less per open of a small file).
   */
  public FileHandles(Path file, FileChannel channel, Closeable owner) {
    this.root = file.toAbsolutePath().normalize();
    this.remote = null;
    open.put(root, channel);
    owners.put(root, owner);
  }

  private Path realRoot() throws IOException {
    Path r = realRoot;
    if (r == null) {
      r = root.toRealPath();
      realRoot = r;
    }
    return r;
  }

  /**
   * Uses an already open channel for {@code p} (e.g. of the RandomAccessFile netcdf-java opened the dataset
   * with) instead of opening the file again. {@link #close()} then closes {@code owner}, not the channel
   * itself (the owner may be a cached file that netcdf-java hands out again).
   */
  public void adopt(Path p, FileChannel channel, Closeable owner) {
    Path key = p.toAbsolutePath().normalize();
    open.put(key, channel);
    owners.put(key, owner);
  }

  public Path root() {
    return root;
  }

  /** True when this dataset's files are objects of a remote store ({@link Locations#isRemote(Path)}). */
  public boolean isRemote() {
    return remote != null;
  }

  /**
   * Resolves a relative name from a header inside the root; rejects absolute names, {@code ..} segments and
   * symbolic links leading out of the root with an IOException naming the dataset and the name.
   */
  public Path resolve(String relative) throws IOException {
    if (relative == null || relative.isEmpty() || relative.indexOf('\0') >= 0) {
      throw new IOException(root + ": invalid file name '" + relative + "'");
    }
    Path rel = root.getFileSystem().getPath(relative);
    if (rel.isAbsolute()) {
      throw new IOException(root + ": file name '" + relative + "' is absolute; it must stay inside the dataset");
    }
    for (Path part : rel) {
      if (part.toString().equals("..")) {
        throw new IOException(root + ": file name '" + relative + "' escapes the dataset directory");
      }
    }
    Path p = root.resolve(rel).normalize();
    checkInside(p);
    return p;
  }

  /** Throws unless {@code p} (resolving links when it exists) lies inside the root. */
  public void checkInside(Path p) throws IOException {
    Path abs = p.toAbsolutePath().normalize();
    if (abs.equals(root)) {
      return;
    }
    if (!abs.startsWith(root)) {
      throw new IOException(root + ": '" + p + "' is outside the dataset directory");
    }
    if (remote == null && Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) { // objects have no links
      Path real = abs.toRealPath();
      if (!real.startsWith(realRoot())) {
        throw new IOException(root + ": '" + p + "' links to '" + real + "', outside the dataset directory");
      }
    }
  }

  /**
   * Throws unless {@code p} is a regular file (following links, which {@link #checkInside} has vetted): a FIFO
   * would block the opening thread forever, a device or directory is never part of a dataset.
   */
  public static void checkRegular(Path p) throws IOException {
    if (Locations.isRemote(p)) {
      return; // an object is never a FIFO or a device; a missing one fails its read, naming its URL
    }
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(p, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new IOException(p + ": file is missing", e);
    }
    if (!a.isRegularFile()) {
      String kind = a.isDirectory() ? "a directory" : a.isOther() ? "a FIFO, socket or device" : "not a regular file";
      throw new FormatException(p + ": is " + kind + ", not a regular file of the dataset; refusing to open it");
    }
  }

  FileChannel channel(Path p) throws IOException {
    FileChannel ch = open.get(p);
    if (ch != null && ch.isOpen()) {
      return ch;
    }
    // a regular file (not a link) in a directory found inside the root before needs one lstat, and is opened
    // without following links (so a link put there meanwhile is not opened); anything else takes the full check
    boolean quick = quickCheck(p);
    if (!quick) {
      checkInside(p);
      checkRegular(p);
    }
    // one opener at a time: two threads opening the same file at once must not close each other's channel
    // (the loser's channel would be closed while its thread reads: AsynchronousCloseException)
    synchronized (open) {
      ch = open.get(p);
      if (ch != null && ch.isOpen()) {
        return ch;
      }
      FileChannel fresh;
      try {
        fresh = quick ? FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
            : FileChannel.open(p, StandardOpenOption.READ);
      } catch (NoSuchFileException e) {
        throw new IOException(p + ": file is missing", e);
      } catch (IOException e) {
        if (!quick) {
          throw e;
        }
        checkInside(p); // became a link between the check and the open: the full check decides
        checkRegular(p);
        try {
          fresh = FileChannel.open(p, StandardOpenOption.READ);
        } catch (NoSuchFileException e2) {
          throw new IOException(p + ": file is missing", e2);
        }
      }
      open.put(p, fresh);
      if (!quick) {
        vetDirectory(p);
      }
      return fresh;
    }
  }

  /** Directories whose real path lies inside the root: files in them that are no links need no realpath. */
  private final java.util.Set<Path> insideDirs = ConcurrentHashMap.newKeySet();

  /** True when p is a regular file, not a link, in a directory of {@link #insideDirs}. */
  private boolean quickCheck(Path p) {
    Path dir = p.getParent();
    if (dir == null || insideDirs.isEmpty() || !insideDirs.contains(dir) || !p.equals(p.normalize())) {
      return false;
    }
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile();
    } catch (IOException e) {
      return false; // missing or unreadable: the full check reports it
    }
  }

  /** After a full check of p: remembers p's directory when its real path lies inside the root. */
  private void vetDirectory(Path p) {
    Path dir = p.getParent();
    if (dir == null || !p.isAbsolute() || insideDirs.contains(dir) || insideDirs.size() > 4096) {
      return;
    }
    try {
      if (dir.toRealPath().startsWith(realRoot())) {
        insideDirs.add(dir);
      }
    } catch (IOException e) {
      // not remembered: every file there keeps taking the full check
    }
  }

  /** Size of a file in bytes. */
  public long size(Path p) throws IOException {
    if (remote != null) {
      return remote.info(p).size();
    }
    try {
      return channel(p).size();
    } catch (ClosedChannelException e) { // released by another thread between lookup and use: reopen once
      return channel(p).size();
    }
  }

  /** Reads exactly {@code len} bytes at {@code pos}; a short file is an IOException naming it. */
  public void readFully(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    if (pos < 0 || len < 0) {
      throw new IOException(p + ": bad read of " + len + " bytes at " + pos);
    }
    if (remote != null) {
      remote.readFully(p, pos, dst, off, len);
      return;
    }
    boolean mapped;
    try {
      mapped = maps.read(p, pos, dst, off, len);
    } catch (InternalError e) { // a fault that came out of the copy block's range (see FileMaps.read)
      throw maps.fault(p, pos, len, e);
    }
    if (mapped) {
      return;
    }
    if (FileMaps.largeRead(len) && nativeReads && NativeReads.on()) {
      int n = nativeRead(p, pos, dst, off, len);
      if (n == len) {
        return;
      }
      pos += n; // the rest (a short file, an error, pages not in memory) through the channel
      off += n;
      len -= n;
    }
    ByteBuffer bb = ByteBuffer.wrap(dst, off, len);
    for (int attempt = 0; ; attempt++) {
      try {
        FileChannel ch = channel(p);
        long at = pos + bb.position() - off;
        while (bb.hasRemaining()) {
          int n = ch.read(bb, at);
          if (n < 0) {
            throw new EOFException(p + ": file ends at " + ch.size() + " but " + len + " bytes at " + pos + " are needed");
          }
          at += n;
        }
        return;
      } catch (java.nio.channels.ClosedByInterruptException e) {
        throw e;
      } catch (ClosedChannelException e) {
        // released by another thread between lookup and read (a server's cache releasing the dataset): reopen, a
        // few times, since a busy machine can take longer over one read than a release cycle
        if (attempt >= 4) {
          throw e;
        }
      } catch (EOFException | FormatException e) {
        throw e;
      } catch (IOException e) { // an I/O failure (EIO, a network share gone): say which file and where
        String m = String.valueOf(e.getMessage());
        throw m.contains(p.toString()) ? e
            : new IOException(p + ": read of " + len + " bytes at offset " + pos + " failed: " + e, e);
      }
    }
  }

  private static volatile boolean nativeReads = true;
  private volatile boolean fdCleaner;

  /** Its thread starts only once a descriptor is opened for {@link NativeReads}. */
  private static final class FdCleaner {
    static final java.lang.ref.Cleaner CLEANER = java.lang.ref.Cleaner.create();
  }

  /** Tests: turns the one-copy reads of {@link NativeReads} off or on again (where they can run at all). */
  static void setNativeReads(boolean on) {
    nativeReads = on;
  }

  /** Why reads of large files do not copy straight from the page cache ({@link NativeReads}), or null when they do. */
  public static String nativeReadsOff() {
    return NativeReads.OFF;
  }

  /** Bytes read at the start of the range through {@link NativeReads}: 0 when none (the channel reads them). */
  private int nativeRead(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    NativeReads.Fd f = fds.get(p);
    if (f == null) {
      // the same size limit as the mapping: its lookup for this read (unless mappings are off) has the answer
      long size = maps.mappedSize(p);
      if (size == Long.MIN_VALUE) {
        try {
          size = channel(p).size(); // after the channel's checks of the path
        } catch (ClosedChannelException e) {
          return 0;
        }
      }
      f = FileMaps.largeFile(size) ? NativeReads.open(p, realRoot()) : null;
      if (f != null && !fdCleaner) {
        synchronized (fds) {
          if (!fdCleaner) { // handles dropped without close(): their descriptors are closed when they are collected
            ConcurrentHashMap<Path, NativeReads.Fd> m = fds;
            FdCleaner.CLEANER.register(this, () -> m.values().forEach(NativeReads.Fd::close));
            fdCleaner = true;
          }
        }
      }
      f = f != null ? f : NativeReads.Fd.NONE;
      NativeReads.Fd had = fds.putIfAbsent(p, f);
      if (had != null) {
        f.close();
        f = had;
      }
    }
    return f == NativeReads.Fd.NONE ? 0 : NativeReads.read(f, pos, dst, off, len);
  }

  /** Number of files read through {@link NativeReads} until {@link #close()} (tests). */
  public int nativeCount() {
    int n = 0;
    for (NativeReads.Fd f : fds.values()) {
      n += f != NativeReads.Fd.NONE ? 1 : 0;
    }
    return n;
  }

  /**
   * Reads exactly {@code len} bytes at {@code pos} like {@link #readFully}, but an object is asked for exactly this
   * range (one ranged GET unless announced by {@link #prefetch} or already cached), never the block around it: for
   * reads that know their bytes are all they need (a shard's index, one inner chunk of a shard).
   */
  public void readExact(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    if (remote != null && pos >= 0 && len >= 0) {
      remote.readExact(p, pos, dst, off, len);
      return;
    }
    readFully(p, pos, dst, off, len);
  }

  /** Reads {@code len} bytes at {@code pos} into a new array, checking the file size first. */
  public byte[] read(Path p, long pos, long len) throws IOException {
    if (remote != null && remote.pinned(p) == null) { // no request just for the size: a short object fails the read
      if (pos < 0 || len < 0) {
        throw new FormatException(p + ": bad read of " + len + " bytes at offset " + pos);
      }
      Bounds.checkAllocation(len, p + ": read of " + len + " bytes at offset " + pos);
      byte[] b = new byte[(int) len];
      readFully(p, pos, b, 0, b.length);
      return b;
    }
    long size = size(p);
    if (pos < 0 || len < 0 || pos > size || len > size - pos) {
      throw new FormatException(p + ": " + len + " bytes at offset " + pos + " lie past the end of the file (" + size + " bytes)");
    }
    Bounds.checkAllocation(len, p + ": read of " + len + " bytes at offset " + pos);
    byte[] b = new byte[(int) len];
    readFully(p, pos, b, 0, b.length);
    return b;
  }

  /** The whole file, refusing files larger than {@code maxBytes}. */
  public byte[] readAll(Path p, long maxBytes) throws IOException {
    if (remote != null) { // one GET, refused by its size before the body is read
      org.chunkcdm.io.remote.ObjectStore.Whole w = remote.readStart(p, Math.min(maxBytes, Long.MAX_VALUE - 1) + 1);
      if (w.info().size() > maxBytes) {
        throw new FormatException(p + ": " + w.info().size() + " bytes, more than the " + maxBytes + " expected for this file");
      }
      return w.bytes();
    }
    long size = size(p);
    if (size > maxBytes) {
      throw new FormatException(p + ": " + size + " bytes, more than the " + maxBytes + " expected for this file");
    }
    return read(p, 0, size);
  }

  /**
   * Reads up to {@code maxPrefix} bytes from the start of a file (all of it when the file is shorter) through
   * a channel that is closed again at once: for datasets made of very many small files (one per chunk), whose
   * channels must not all stay open until {@link #close()}. The file size is checked against {@code maxBytes}
   * before anything is allocated.
   */
  public byte[] readOnce(Path p, long maxPrefix, long maxBytes) throws IOException {
    if (remote != null) {
      checkInside(p);
      org.chunkcdm.io.remote.ObjectStore.Whole w = remote.readStart(p, Math.min(maxPrefix, Math.min(Math.max(0, maxBytes), Long.MAX_VALUE - 1) + 1));
      if (w.bytes().length > maxBytes) {
        throw new FormatException(p + ": " + w.info().size() + " bytes, more than the " + maxBytes + " expected for this file");
      }
      return w.bytes();
    }
    checkInside(p);
    checkRegular(p);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      long size = ch.size();
      long n = Math.min(size, maxPrefix);
      if (n > maxBytes) {
        throw new FormatException(p + ": " + size + " bytes, more than the " + maxBytes + " expected for this file");
      }
      Bounds.checkAllocation(n, p.toString());
      ByteBuffer bb = ByteBuffer.allocate((int) n);
      while (bb.hasRemaining()) {
        if (ch.read(bb, bb.position()) < 0) {
          throw new EOFException(p + ": file shrank to " + bb.position() + " bytes while being read");
        }
      }
      return bb.array();
    } catch (NoSuchFileException e) {
      throw new IOException(p + ": file is missing", e);
    }
  }


  /** Number of files currently mapped (tests). */
  public int mappedCount() {
    return maps.count();
  }

  /** Closes every open channel; later reads reopen them (and check their directories again). */
  @Override
  public void close() throws IOException {
    if (remote != null) {
      remote.close();
      return;
    }
    insideDirs.clear();
    maps.clear();
    for (Path p : fds.keySet()) {
      NativeReads.Fd f = fds.remove(p);
      if (f != null) {
        f.close(); // closed once the reads still using it are done
      }
    }
    IOException first = null;
    for (Path p : open.keySet()) {
      FileChannel ch = open.remove(p);
      Closeable owner = owners.remove(p);
      if (ch != null || owner != null) {
        try {
          if (owner != null) {
            owner.close();
          } else {
            ch.close();
          }
        } catch (IOException e) {
          first = first == null ? e : first;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Number of currently open channels (for tests of release()). */
  public int openCount() {
    return remote != null ? remote.touchedCount() : open.size();
  }

  /**
   * The whole file, or null when it does not exist (a format where a missing chunk file means "fill value"):
   * refusing files larger than {@code maxBytes}; one GET for an object.
   */
  public byte[] readAllIfExists(Path p, long maxBytes) throws IOException {
    try {
      return readAll(p, maxBytes);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (e.getCause() instanceof NoSuchFileException) {
        return null;
      }
      throw e;
    }
  }

  /**
   * The newest modification time of the dataset: for local files the newest of any file under the root
   * (directories walked); for objects, the version ({@link org.chunkcdm.io.remote.ObjectInfo#version()}) of the
   * first objects the dataset read (its metadata), asked of the server now. 0 when unknown.
   */
  public long lastModified() {
    return remote != null ? remote.lastModified() : newestModification(root);
  }

  /** A byte range of a dataset file a read will need: {@code len} -1 means the whole file. */
  public record Range(Path file, long pos, long len) {}

  /** Staged ranges of one read; {@link #close()} drops what the read did not use. */
  public interface Prefetch extends Closeable {
    /** Nothing staged (local files). */
    Prefetch NONE = () -> {};

    @Override
    void close();
  }

  /**
   * Announces the byte ranges a read will need (e.g. every chunk a section touches). Local files: nothing
   * happens (the page cache and read-ahead serve them). Objects: adjacent ranges are coalesced into few
   * ranged GETs fetched in parallel ahead of the reads, which then take their bytes from them; close the result
   * when the read is done.
   */
  public Prefetch prefetch(java.util.List<Range> ranges) throws IOException {
    if (remote == null || ranges.size() < 2) {
      return Prefetch.NONE;
    }
    for (Range r : ranges) {
      checkInside(r.file());
    }
    return remote.staging.plan(ranges);
  }

  /** The newest modification time of any file under {@code root} (0 when none can be read, or for objects). */
  public static long newestModification(Path root) {
    if (root == null || Locations.isRemote(root)) {
      return 0; // objects: lastModified() of the dataset's handles asks the server about the ones it read
    }
    try (java.util.stream.Stream<Path> s = Files.walk(root)) {
      return s.mapToLong(p -> {
        try {
          return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
          return 0;
        }
      }).max().orElse(0);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
