package org.chunkcdm.cdm;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.chunkcdm.io.remote.ObjectInfo;
import org.chunkcdm.io.remote.RemoteFileSystem;
import org.chunkcdm.io.remote.RemotePath;
import ucar.unidata.io.RandomAccessFile;

/**
 * A netcdf-java RandomAccessFile over one object of an object store or HTTP server (one version: its ETag when
 * opened; a replaced object fails reads with an IOException saying so). netcdf-java's own buffered reads go
 * through a small cache of 64 KiB blocks (readers of HDF5 and NetCDF headers jump between a few regions), and
 * the first and last bytes come from what the open already fetched. {@link #readAt} is a positional,
 * thread-safe read that shares nothing with the file pointer (chunk reads of IOSPs).
 */
public final class RemoteRandomAccessFile extends RandomAccessFile {
  static final int BLOCK = 64 << 10;
  private static final int BLOCKS = 32;

  private final RemoteFileSystem fs;
  private final String key;
  private final ObjectInfo info;
  private boolean inPlace;
  private final Map<Long, byte[]> blocks = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> e) {
      return size() > BLOCKS;
    }
  };

  /** Opens object {@code p} (one request unless its start is already cached); FileNotFoundException when missing. */
  public RemoteRandomAccessFile(Path p, int bufferSize) throws IOException {
    super(Math.max(bufferSize, BLOCK));
    if (!(p instanceof RemotePath)) {
      throw new IOException(p + ": not a remote location");
    }
    this.fs = ((RemotePath) p).getFileSystem();
    this.key = ((RemotePath) p).key();
    this.location = p.toString();
    ObjectInfo i;
    try {
      i = fs.stat(key);
    } catch (NoSuchFileException e) {
      i = null;
    }
    if (i == null) {
      throw new FileNotFoundException(location + ": no such object");
    }
    this.info = i;
  }

  /** The same object version, opened again (after {@link #close()}, for an IOSP's reacquire); no request. */
  public RemoteRandomAccessFile reopen() {
    return new RemoteRandomAccessFile(this);
  }

  private RemoteRandomAccessFile(RemoteRandomAccessFile o) {
    super(o.buffer.length);
    this.fs = o.fs;
    this.key = o.key;
    this.info = o.info;
    this.location = o.location;
    this.inPlace = o.inPlace;
  }

  /**
   * Marks this file as an archive an IOSP reads member by member in place: it then reports itself as a directory,
   * which keeps netcdf-java from downloading and unpacking an object named like a compressed file ({@code .zip}).
   */
  public RemoteRandomAccessFile inPlace() {
    inPlace = true;
    return this;
  }

  @Override
  public boolean isDirectory() {
    return inPlace;
  }

  /** The object this file reads. */
  public Path path() {
    return fs.pathOf(key);
  }

  @Override
  protected int read_(long pos, byte[] b, int off, int len) throws IOException {
    if (pos >= info.size()) {
      return -1;
    }
    int n = (int) Math.min(len, info.size() - pos);
    if (n >= BLOCK) {
      readAt(pos, b, off, n);
      return n;
    }
    int done = 0;
    while (done < n) { // through aligned blocks, kept for the next reads of this file
      long at = pos + done;
      long start = at / BLOCK * BLOCK;
      byte[] blk = block(start);
      int k = (int) Math.min(n - done, start + blk.length - at);
      System.arraycopy(blk, (int) (at - start), b, off + done, k);
      done += k;
    }
    return n;
  }

  private byte[] block(long start) throws IOException {
    synchronized (blocks) {
      byte[] b = blocks.get(start);
      if (b != null) {
        return b;
      }
    }
    byte[] b = new byte[(int) Math.min(BLOCK, info.size() - start)];
    readAt(start, b, 0, b.length);
    synchronized (blocks) {
      blocks.put(start, b);
    }
    return b;
  }

  /** Exactly {@code len} bytes at {@code pos}, of the version opened; thread-safe, no file pointer. */
  public void readAt(long pos, byte[] dst, int off, int len) throws IOException {
    fs.read(key, pos, dst, off, len, info.etag());
  }

  @Override
  public long length() {
    return info.size();
  }

  /**
   * The object's version number now (a HEAD request; {@link ObjectInfo#version()}: its last-modified time, changed
   * by a new ETag), or the one it had when opened if the server cannot be asked; 0 when it is gone.
   */
  public long currentVersion() {
    try {
      ObjectInfo now = fs.head(key);
      if (now == null) {
        return 0;
      }
      if (info.etag() != null && !info.etag().equals(now.etag())) {
        fs.forget(key); // the next open must not reuse what was cached of the old version
      }
      return now.version();
    } catch (IOException e) {
      return info.version();
    }
  }

  /** The object's version number when it was opened ({@link ObjectInfo#version()}). */
  @Override
  public long getLastModified() {
    return info.version();
  }

  @Override
  public synchronized void close() throws IOException {
    synchronized (blocks) {
      blocks.clear();
    }
    super.close();
  }

  @Override
  public String toString() {
    return location;
  }
}
