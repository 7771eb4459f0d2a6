package org.chunkcdm.io;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.chunkcdm.io.remote.ObjectChangedException;
import org.chunkcdm.io.remote.ObjectInfo;
import org.chunkcdm.io.remote.ObjectStore;
import org.chunkcdm.io.remote.RemoteFileSystem;
import org.chunkcdm.io.remote.RemotePath;

/**
 * The remote side of one {@link FileHandles}: every object a dataset reads is pinned to the version (ETag) it
 * had when first read, and every later read of it asks for that version, so a dataset never mixes bytes of
 * two versions of an object (a replaced object gives an IOException saying so, naming the URL). Chunk reads
 * announced with {@link FileHandles#prefetch} come from {@link RemoteStaging}'s coalesced ranged GETs.
 */
final class RemoteFiles {
  /** Objects whose last-modified times {@link #lastModified()} asks the server for. */
  private static final int CHECKED_OBJECTS = 8;

  final RemoteFileSystem fs;
  private final ConcurrentHashMap<Path, ObjectInfo> versions = new ConcurrentHashMap<>();
  private final Set<Path> touched = ConcurrentHashMap.newKeySet();
  private final List<Path> firstObjects = new CopyOnWriteArrayList<>();
  /** Set by the first {@link #lastModified()}: the objects checked from then on are those the open read. */
  private volatile boolean checkedFixed;
  final RemoteStaging staging = new RemoteStaging(this);

  RemoteFiles(RemoteFileSystem fs) {
    this.fs = fs;
  }

  String key(Path p) throws IOException {
    if (!(p instanceof RemotePath) || !p.getFileSystem().equals(fs)) {
      throw new IOException(p + ": not an object of " + fs);
    }
    return ((RemotePath) p.toAbsolutePath()).key();
  }

  /** The version of p this dataset reads (pinned now if p was not read before); NoSuchFileException when missing. */
  ObjectInfo info(Path p) throws IOException {
    touched.add(p);
    ObjectInfo v = versions.get(p);
    if (v != null) {
      return v;
    }
    v = staging.info(p);
    if (v == null) {
      v = fs.stat(key(p));
    }
    if (v == null) {
      throw missing(p);
    }
    return pin(p, v);
  }

  /** The pinned version of p, or null when p was not read yet. */
  ObjectInfo pinned(Path p) {
    return versions.get(p);
  }

  ObjectInfo pin(Path p, ObjectInfo v) {
    ObjectInfo had = versions.putIfAbsent(p, v);
    if (had == null && !checkedFixed && firstObjects.size() < CHECKED_OBJECTS) {
      firstObjects.add(p);
    }
    return had != null ? had : v;
  }

  static NoSuchFileException missing(Path p) {
    return new NoSuchFileException(p.toString(), null, "object is missing");
  }

  String etag(Path p) {
    ObjectInfo v = versions.get(p);
    return v == null ? null : v.etag();
  }

  /** Reads below this size come with the aligned block around them ({@link #BLOCK} bytes), kept for the next. */
  static final int SMALL = 32 << 10;
  static final int BLOCK = 128 << 10;
  private static final int BLOCKS = 64;
  /** Blocks of small reads (a strided section of raw data reads many short runs), by object and block start. */
  private final java.util.Map<String, byte[]> blocks = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, byte[]> e) {
          return size() > BLOCKS;
        }
      });

  /** Exactly len bytes at pos: from a staged range, cached bytes, or one ranged GET of the pinned version. */
  void readFully(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    read(p, pos, dst, off, len, false);
  }

  /** Exactly len bytes at pos: from a staged range, cached bytes, or one ranged GET of exactly them. */
  void readExact(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    read(p, pos, dst, off, len, true);
  }

  /** exact: never the block around a short read, and no cached tail fetched for it. */
  private void read(Path p, long pos, byte[] dst, int off, int len, boolean exact) throws IOException {
    touched.add(p);
    if (staging.read(p, pos, dst, off, len)) {
      return;
    }
    if ((exact || len < SMALL) && fs.readCached(key(p), pos, dst, off, len, etag(p))
        || !exact && len < SMALL && smallRead(p, pos, dst, off, len)) {
      return;
    }
    try {
      ObjectInfo got = exact ? fs.readExact(key(p), pos, dst, off, len, etag(p)) : fs.read(key(p), pos, dst, off, len, etag(p));
      checkVersion(p, pin(p, got), got);
    } catch (NoSuchFileException e) {
      throw missing(p);
    } catch (ObjectChangedException e) {
      throw changedHere(p, e);
    }
  }

  /**
   * A short read through the aligned block holding it: fetched once (one GET of at most {@link #BLOCK} bytes),
   * then kept, so the many short runs of a strided section cost a request per block, not per run. False when
   * the object's size is not known yet or the read crosses a block boundary (read directly then).
   */
  private boolean smallRead(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    ObjectInfo v = versions.get(p);
    if (v == null || v.size() < 0 || pos + len > v.size()) {
      return false;
    }
    long start = pos / BLOCK * BLOCK;
    if (pos + len > start + BLOCK) {
      return false;
    }
    String id = key(p) + "@" + start;
    byte[] b = blocks.get(id);
    if (b == null) {
      b = new byte[(int) Math.min(BLOCK, v.size() - start)];
      try {
        ObjectInfo got = fs.read(key(p), start, b, 0, b.length, v.etag());
        checkVersion(p, v, got);
      } catch (NoSuchFileException e) {
        throw missing(p);
      } catch (ObjectChangedException e) {
        throw changedHere(p, e);
      }
      blocks.put(id, b);
    }
    System.arraycopy(b, (int) (pos - start), dst, off, len);
    return true;
  }

  /** The object's first bytes, all of it when it is at most maxBytes long (one GET). */
  ObjectStore.Whole readStart(Path p, long maxBytes) throws IOException {
    touched.add(p);
    ObjectStore.Whole w = staging.whole(p);
    if (w == null) {
      try {
        w = fs.readStart(key(p), maxBytes, etag(p));
      } catch (NoSuchFileException e) {
        throw missing(p);
      } catch (ObjectChangedException e) {
        throw changedHere(p, e);
      }
    }
    checkVersion(p, pin(p, w.info()), w.info());
    if (w.bytes().length > maxBytes) {
      return new ObjectStore.Whole(w.info(), java.util.Arrays.copyOf(w.bytes(), (int) maxBytes));
    }
    return w;
  }

  private void checkVersion(Path p, ObjectInfo pinned, ObjectInfo got) throws IOException {
    if (pinned.etag() != null && got.etag() != null && !pinned.etag().equals(got.etag())) {
      throw changedHere(p, null);
    }
  }

  IOException changedHere(Path p, ObjectChangedException e) {
    forgetCached();
    return changed(p, e);
  }

  static IOException changed(Path p, ObjectChangedException e) {
    IOException x = new IOException(p + ": the object changed on the server since the dataset was opened; open it again");
    if (e != null) {
      x.initCause(e);
    }
    return x;
  }

  /**
   * The newest version number ({@link ObjectInfo#version()}) of the first objects this dataset read (its
   * metadata), asked of the server now; 0 when none was read or the server cannot be reached.
   */
  long lastModified() {
    checkedFixed = true; // the same objects every time: chunk objects read later do not change the answer
    long newest = 0;
    boolean changed = false;
    for (Path p : new ArrayList<>(firstObjects)) {
      try {
        ObjectInfo now = fs.head(key(p));
        ObjectInfo then = versions.get(p);
        changed |= now == null || then == null || now.etag() != null && !now.etag().equals(then.etag())
            || now.etag() == null && now.lastModified() != then.lastModified();
        if (now != null) {
          newest = Math.max(newest, now.version());
        }
      } catch (IOException | RuntimeException e) {
        // unreachable now: the cache keeps the dataset until the server answers again
        ObjectInfo v = versions.get(p);
        newest = Math.max(newest, v == null ? 0 : v.version());
      }
    }
    if (changed) { // the next open must not reuse what the file system cached of the old versions
      forgetCached();
    }
    return newest;
  }

  /** Drops what the file system caches about every object this dataset read. */
  void forgetCached() {
    for (Path p : versions.keySet()) {
      try {
        fs.forget(key(p));
      } catch (IOException e) {
        // not one of ours
      }
    }
  }

  /** Objects read since the last {@link #close()}. */
  int touchedCount() {
    return touched.size();
  }

  /** Drops staged bytes; the pinned versions stay (they are the dataset's metadata). */
  void close() {
    touched.clear();
    staging.clear();
    blocks.clear();
  }
}
