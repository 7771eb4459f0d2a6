package org.chunkcdm.cli.serve;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.open.BasicDataset;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/**
 * A bounded cache of open datasets, used as THREDDS uses its file cache: a dataset handed back is
 * {@code release()}d (file handles closed, metadata kept), the next acquire {@code reacquire()}s it, and a
 * dataset whose files changed ({@code getLastModified()}) is closed and opened again once nobody uses it.
 * Datasets of chunkcdm's IOSPs are read by many requests at once; others (netcdf-java's own IOSPs share a file
 * pointer) one request at a time.
 */
final class DatasetCache implements Closeable {
  /** One open dataset. */
  static final class Entry {
    final Path path;
    final NetcdfFile nc;
    final long lastModified;
    final boolean concurrent;
    final Object lock = new Object();
    int users;

    Entry(Path path, NetcdfFile nc, long lastModified) {
      this.path = path;
      this.nc = nc;
      this.lastModified = lastModified;
      this.concurrent = nc.getIosp() instanceof ChunkedIosp;
    }
  }

  private final int max;
  private final LinkedHashMap<Path, Entry> open = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<Path, Object> opening = new java.util.HashMap<>(); // one lock per dataset being opened
  private long opens;

  DatasetCache(int max) {
    this.max = Math.max(1, max);
  }

  /** Number of datasets opened (not reused) so far. */
  synchronized long opens() {
    return opens;
  }

  synchronized int size() {
    return open.size();
  }

  /** Number of cached datasets a request is using now. */
  synchronized int inUse() {
    int n = 0;
    for (Entry e : open.values()) {
      n += e.users > 0 ? 1 : 0;
    }
    return n;
  }

  /**
   * The open dataset at {@code path} (a confined, existing path), reacquired, or opened — outside the cache's
   * lock, so a slow open holds up only the requests for the same dataset.
   */
  Entry acquire(Path path) throws IOException {
    Object pathLock;
    synchronized (this) {
      Entry e = reuse(path);
      if (e != null) {
        return e;
      }
      pathLock = opening.computeIfAbsent(path, k -> new Object());
    }
    synchronized (pathLock) {
      synchronized (this) {
        Entry e = reuse(path); // opened by another request meanwhile
        if (e != null) {
          return e;
        }
      }
      NetcdfFile nc = null;
      try {
        // ncstream files through chunkcdm's reader (netcdf-java's NcStreamIosp misreads multi-message
        // variables), without registering it for the whole JVM
        nc = Files.isRegularFile(path) && org.chunkcdm.ncstream.iosp.NcStreamFileIosp.isNcStream(path)
            ? org.chunkcdm.ncstream.iosp.NcStreamFileIosp.open(path.toString()) : NetcdfFiles.open(path.toString());
        long lm = BasicDataset.lastModified(path);
        synchronized (this) {
          Entry e = new Entry(path, nc, lm);
          e.users = 1;
          open.put(path, e);
          opens++;
          evict();
          return e;
        }
      } finally {
        synchronized (this) {
          opening.remove(path);
        }
      }
    }
  }

  /**
   * An open entry for {@code path} with one more user, or null. A dataset whose files changed since it was
   * opened is dropped from the cache: closed now when nobody uses it, else by its last {@link #release} (a
   * request still finishing on the old files must not make the next request see them).
   */
  private Entry reuse(Path path) throws IOException {
    Entry e = open.get(path);
    if (e == null) {
      return null;
    }
    if (BasicDataset.lastModified(e.path) != e.lastModified) {
      open.remove(path);
      if (e.users == 0) {
        closeQuietly(e);
      }
      return null;
    }
    if (e.users == 0) {
      e.nc.reacquire();
    }
    e.users++;
    return e;
  }

  /** Hands a dataset back: released (handles closed) when its last user is done. */
  synchronized void release(Entry e) {
    e.users--;
    if (e.users == 0) {
      try {
        e.nc.release();
      } catch (IOException ignored) {
        // the next acquire reopens what it needs
      }
      if (open.get(e.path) != e) { // evicted or replaced while in use
        closeQuietly(e);
      }
    }
    evict();
  }

  private void evict() {
    Iterator<Map.Entry<Path, Entry>> it = open.entrySet().iterator();
    while (open.size() > max && it.hasNext()) {
      Entry e = it.next().getValue();
      if (e.users == 0) {
        it.remove();
        closeQuietly(e);
      }
    }
  }


  private static void closeQuietly(Entry e) {
    try {
      e.nc.close();
    } catch (IOException ignored) {
      // nothing else to free
    }
  }

  @Override
  public synchronized void close() {
    List<Entry> all = new ArrayList<>(open.values());
    open.clear();
    for (Entry e : all) {
      closeQuietly(e);
    }
  }
}
