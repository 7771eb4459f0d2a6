package org.chunkcdm.io.remote;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one file system knows about its objects, so that opening a dataset costs few requests: an object's
 * info and first bytes come from one GET of its start ({@link #HEAD_BYTES}), which also answers "does it
 * exist" and "how large is it"; small reads near an object's end fetch its last {@link #TAIL_BYTES} once (a
 * Blosc2 frame's index and trailer, an HDF5 file's end); an S3 listing of a prefix answers which of its direct
 * children exist. Entries not tied to a version expire after {@code -Dchunkcdm.remote.statSeconds} (default 5);
 * bytes cached for an object's version (its ETag) serve reads pinned to that version whatever their age. The
 * cached bytes are bounded (64 MiB per file system), oldest dropped first.
 * Concurrent stats of one key share one request.
 */
final class RemoteObjects {
  static final int HEAD_BYTES = 64 << 10;
  static final int TAIL_BYTES = 64 << 10;
  /** Reads up to this size near the end of an object are served from its cached tail. */
  static final int SMALL_READ = 64 << 10;
  /** Names one listing of a dataset directory returns at most (its entry objects, not all its chunk objects). */
  private static final int LIST_KEYS = 100;

  static long ttlNanos() {
    return org.chunkcdm.blosc.internal.Settings.REMOTE_STAT_SECONDS.number() * 1_000_000_000L;
  }

  /** Bytes of cached object starts and ends, at most. */
  static long maxBytes() {
    return 64L << 20;
  }

  /** One object as last seen: info (null = missing), whether it is a prefix, and cached bytes of this version. */
  static final class Entry {
    final long at = System.nanoTime();
    final ObjectInfo info;
    final boolean directory;
    /** Whether {@link #directory} is known (from a listing), not only "no object". */
    final boolean listed;
    final byte[] head; // the object's first head.length bytes, or null
    volatile byte[] tail; // bytes [tailPos, size), or null
    volatile long tailPos;

    Entry(ObjectInfo info, boolean directory, byte[] head) {
      this(info, directory, false, head);
    }

    Entry(ObjectInfo info, boolean directory, boolean listed, byte[] head) {
      this.info = info;
      this.directory = directory;
      this.listed = listed;
      this.head = head;
    }

    boolean exists() {
      return info != null;
    }

    long bytes() {
      byte[] t = tail;
      return 64 + (head == null ? 0 : head.length) + (t == null ? 0 : t.length);
    }

    boolean fresh() {
      return System.nanoTime() - at < ttlNanos();
    }

    boolean sameVersion(String etag) {
      return info != null && etag != null && etag.equals(info.etag());
    }

    /** Copies [pos, pos+len) from the cached head or tail when they hold it. */
    boolean copy(long pos, byte[] dst, int off, int len) {
      if (head != null && pos >= 0 && pos + len <= head.length) {
        System.arraycopy(head, (int) pos, dst, off, len);
        return true;
      }
      byte[] t = tail;
      long tp = tailPos;
      if (t != null && pos >= tp && pos + len <= tp + t.length) {
        System.arraycopy(t, (int) (pos - tp), dst, off, len);
        return true;
      }
      return false;
    }
  }

  /** A listing of a prefix's direct children. */
  static final class Listed {
    final long at = System.nanoTime();
    final Map<String, ObjectInfo> objects = new HashMap<>();
    final Set<String> prefixes = new HashSet<>();
    final boolean complete;
    final String last; // the greatest name listed, for an incomplete listing

    Listed(ObjectStore.Listing l) {
      String max = "";
      for (ObjectStore.Child c : l.objects()) {
        objects.put(c.name(), c.info());
        max = c.name().compareTo(max) > 0 ? c.name() : max;
      }
      for (String p : l.prefixes()) {
        prefixes.add(p);
        max = p.compareTo(max) > 0 ? p : max;
      }
      complete = l.complete();
      last = max;
    }

    boolean fresh() {
      return System.nanoTime() - at < ttlNanos();
    }

    boolean isEmpty() {
      return objects.isEmpty() && prefixes.isEmpty();
    }

    /** What the listing says about child {@code name}: TRUE object, FALSE absent, null unknown. */
    Boolean object(String name) {
      if (objects.containsKey(name)) {
        return Boolean.TRUE;
      }
      if (prefixes.contains(name)) {
        return Boolean.FALSE;
      }
      return complete || name.compareTo(last) < 0 ? Boolean.FALSE : null;
    }
  }

  private final RemoteFileSystem fs;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Listed> listings = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, CompletableFuture<Entry>> pending = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();

  RemoteObjects(RemoteFileSystem fs) {
    this.fs = fs;
  }

  /** Forgets everything (tests). */
  void clear() {
    entries.clear();
    listings.clear();
    bytes.set(0);
  }

  /** Forgets what is known about one object (it changed). */
  void forget(String key) {
    Entry e = entries.remove(key);
    if (e != null) {
      bytes.addAndGet(-e.bytes());
    }
    int slash = key.lastIndexOf('/');
    listings.remove(slash < 0 ? "" : key.substring(0, slash + 1));
  }

  /** The cached entry of {@code key} whatever its age, or null. */
  Entry cached(String key) {
    return entries.get(key);
  }

  /** The entry of {@code key}: cached when fresh, from the parent's listing, else one GET of the object's start. */
  Entry stat(String key) throws IOException {
    Entry e = entries.get(key);
    if (e != null && e.fresh()) {
      return e;
    }
    Entry fromListing = fromParentListing(key);
    if (fromListing != null) {
      put(key, fromListing);
      return fromListing;
    }
    CompletableFuture<Entry> mine = new CompletableFuture<>();
    CompletableFuture<Entry> f = pending.putIfAbsent(key, mine);
    if (f != null) {
      return await(f);
    }
    try {
      Entry now = entries.get(key); // another thread may have finished its fetch meanwhile
      Entry fetched = now != null && now.fresh() ? now : fetch(key);
      if (fetched != now) {
        put(key, fetched);
      }
      mine.complete(fetched);
      return fetched;
    } catch (IOException | RuntimeException ex) {
      mine.completeExceptionally(ex);
      throw ex;
    } finally {
      pending.remove(key, mine);
    }
  }

  private static Entry await(CompletableFuture<Entry> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while waiting for a request");
    } catch (ExecutionException ex) {
      Throwable c = ex.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException(c);
    }
  }

  private Entry fromParentListing(String key) {
    if (key.isEmpty()) {
      return null;
    }
    int slash = key.lastIndexOf('/');
    String parent = slash < 0 ? "" : key.substring(0, slash + 1);
    String name = key.substring(slash + 1);
    Listed l = listings.get(parent);
    if (l == null || !l.fresh()) {
      // an ancestor's listing that shows no prefix on the way to key: key does not exist either
      for (int s = slash; s > 0; s = key.lastIndexOf('/', s - 1)) {
        int up = key.lastIndexOf('/', s - 1);
        Listed a = listings.get(up < 0 ? "" : key.substring(0, up + 1));
        if (a != null && a.fresh()) {
          String step = key.substring(up + 1, s);
          boolean known = a.prefixes.contains(step) || !a.complete && step.compareTo(a.last) >= 0;
          return known ? null : new Entry(null, false, true, null);
        }
      }
      return null;
    }
    Boolean obj = l.object(name);
    if (obj == null) {
      return null;
    }
    if (obj) {
      return new Entry(l.objects.get(name), false, true, null); // exists: its bytes come with the first read
    }
    return new Entry(null, l.prefixes.contains(name), true, null);
  }

  private Entry fetch(String key) throws IOException {
    ObjectStore store = fs.store();
    if (listsFirst(key)) {
      Listed l = listing(key);
      if (l != null && !l.isEmpty()) {
        return new Entry(null, true, true, null);
      }
    }
    try {
      ObjectStore.Whole w = store.readStart(fs.requestKey(key), HEAD_BYTES, null);
      return new Entry(w.info(), false, w.bytes());
    } catch (NoSuchFileException ex) {
      return new Entry(null, false, null);
    }
  }

  /**
   * Whether a stat of {@code key} lists its children before reading the object: on a store that lists, for the
   * first look into a part of the store (no ancestor listed yet: the dataset's own location) whose name looks
   * like a dataset directory (no extension, or one of the directory formats'), so that opening a directory
   * dataset learns in one request which of its entry objects exist. Entries below a listed directory are read.
   */
  private boolean listsFirst(String key) {
    if (!fs.canList()) {
      return false;
    }
    if (key.isEmpty()) {
      return true;
    }
    for (int slash = key.lastIndexOf('/'); slash > 0; slash = key.lastIndexOf('/', slash - 1)) {
      Listed l = listings.get(key.substring(0, slash + 1));
      if (l != null && l.fresh()) {
        return false;
      }
    }
    if (listings.containsKey("")) {
      return false;
    }
    String name = key.substring(key.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    if (dot <= 0) {
      return true;
    }
    String ext = name.substring(dot + 1).toLowerCase(java.util.Locale.ROOT);
    return DIRECTORY_SUFFIXES.contains(ext);
  }

  private static final Set<String> DIRECTORY_SUFFIXES = Set.of("bcolz", "zarr", "zr", "n5", "b2frame", "b2z", "b2d");

  /** The listing of {@code key}'s direct children (cached while fresh), or null when the store cannot list. */
  Listed listing(String key) throws IOException {
    String prefix = key.isEmpty() ? "" : key + "/";
    Listed l = listings.get(prefix);
    if (l != null && l.fresh()) {
      return l;
    }
    ObjectStore.Listing got = fs.store().list(prefix, null, LIST_KEYS);
    if (got == null) {
      return null;
    }
    l = new Listed(got);
    listings.put(prefix, l);
    return l;
  }

  private void put(String key, Entry e) {
    Entry old = entries.put(key, e);
    bytes.addAndGet(e.bytes() - (old == null ? 0 : old.bytes()));
    trim();
  }

  private void trim() {
    long max = maxBytes();
    if (bytes.get() <= max) {
      return;
    }
    synchronized (this) {
      if (bytes.get() <= max) {
        return;
      }
      List<Map.Entry<String, Entry>> all = new ArrayList<>(entries.entrySet());
      all.sort(Comparator.comparingLong(x -> x.getValue().at));
      for (Map.Entry<String, Entry> x : all) {
        if (bytes.get() <= max * 3 / 4) {
          break;
        }
        if (entries.remove(x.getKey(), x.getValue())) {
          bytes.addAndGet(-x.getValue().bytes());
        }
      }
    }
  }

  /**
   * Reads [pos, pos+len) of {@code key} pinned to version {@code etag} (null: the current one): from the cached
   * head or tail when they hold it, a small read near the end by fetching the tail once, anything else by one
   * ranged GET. Returns the object's info as the store gave it.
   */
  ObjectInfo read(String key, long pos, byte[] dst, int off, int len, String etag) throws IOException {
    Entry e = entries.get(key);
    if ((e == null || !e.fresh()) && etag == null && len < SMALL_READ && pos >= 0 && pos + len <= HEAD_BYTES) {
      e = stat(key); // the object's start comes with it
    }
    boolean usable = e != null && e.exists() && (etag == null ? e.fresh() : e.sameVersion(etag));
    if (usable && e.head == null && len < SMALL_READ && pos >= 0 && pos + len <= HEAD_BYTES && e.info.size() > 0) {
      // known from a listing, not read yet: its start once, for this and the open's next small reads
      ObjectStore.Whole w = fs.store().readStart(fs.requestKey(key), HEAD_BYTES, e.info.etag());
      Entry withHead = new Entry(w.info(), false, e.listed, w.bytes());
      put(key, withHead);
      e = withHead;
    }
    if (usable && e.copy(pos, dst, off, len)) {
      return e.info;
    }
    if (usable && len <= SMALL_READ && e.info.size() > HEAD_BYTES && pos >= e.info.size() - TAIL_BYTES
        && pos + len <= e.info.size()) {
      long tp = Math.max(0, e.info.size() - TAIL_BYTES);
      byte[] t = new byte[(int) (e.info.size() - tp)];
      ObjectStore.Read r = fs.store().read(fs.requestKey(key), tp, t, 0, t.length, e.info.etag());
      if (r.count() == t.length && sameEtag(r.info(), e.info)) {
        if (e.tail == null) {
          e.tailPos = tp;
          e.tail = t;
          bytes.addAndGet(t.length);
          trim();
        }
        System.arraycopy(t, (int) (pos - tp), dst, off, len);
        return e.info;
      }
      forget(key); // changed meanwhile: the read below reports it
    }
    return readExact(key, pos, dst, off, len, etag);
  }

  /** One ranged GET of exactly [pos, pos+len) of {@code key}; an object ending earlier is an EOFException. */
  ObjectInfo readExact(String key, long pos, byte[] dst, int off, int len, String etag) throws IOException {
    ObjectStore.Read r = fs.store().read(fs.requestKey(key), pos, dst, off, len, etag);
    if (r.count() < len) {
      throw new java.io.EOFException(fs.describe(key) + ": object ends at " + r.info().size() + " but " + len
          + " bytes at offset " + pos + " are needed");
    }
    return r.info();
  }

  private static boolean sameEtag(ObjectInfo a, ObjectInfo b) {
    return a.etag() == null || b.etag() == null || a.etag().equals(b.etag());
  }
}
