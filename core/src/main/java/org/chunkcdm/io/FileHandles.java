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
 */
public final class FileHandles implements Closeable {
  private final Path root;
  private volatile Path realRoot; // resolved on first need: a one-file dataset never needs it
  private final ConcurrentHashMap<Path, FileChannel> open = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Path, Closeable> owners = new ConcurrentHashMap<>();

  /** Handles for files inside {@code root} (a directory, or a single file that is the whole dataset). */
  public FileHandles(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
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
    if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
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

  private FileChannel channel(Path p) throws IOException {
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
      } catch (ClosedChannelException e) {
        // released by another thread between lookup and read: reopen once
        if (attempt > 0) {
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

  /** Reads {@code len} bytes at {@code pos} into a new array, checking the file size first. */
  public byte[] read(Path p, long pos, long len) throws IOException {
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

  /** Closes every open channel; later reads reopen them (and check their directories again). */
  @Override
  public void close() throws IOException {
    insideDirs.clear();
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
    return open.size();
  }
}
