package org.chunkcdm.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.io.remote.ObjectChangedException;
import org.chunkcdm.io.remote.ObjectInfo;
import org.chunkcdm.io.remote.ObjectStore;

/**
 * The byte ranges a read announced ({@link FileHandles#prefetch}), fetched with few ranged GETs: ranges of one
 * object that touch (or lie at most {@link #GAP} bytes apart, e.g. a checksum between two chunks) are coalesced
 * into blocks of at most 16 MiB (smaller when a read is small, so it still gets one request per fetch thread), whole
 * objects (one per chunk) are one GET each. Blocks are fetched in order by up to {@code -Dchunkcdm.remote.fetchThreads}
 * (default 4) fetch threads, at most 64 MiB ahead of the reads that use them; a decode thread that
 * needs a block nobody started fetches it itself. A block is dropped once its bytes were read, and every block
 * of a prefetch when it is closed, so the staged bytes never outlive the read that announced them.
 */
final class RemoteStaging {
  /** Largest gap between two ranges read with them in one request. */
  static final long GAP = 512;

  /**
   * Largest coalesced request: 16 MiB, within the 8-16 MB range object stores suggest for ranged GETs. On the
   * loopback S3 server a 1 GiB b2nd read took 1.04-1.09 s with 16 MiB blocks against 1.17-1.40 s with 8 MiB, and
   * its reader 10-30% less CPU (half as many requests); four such blocks still fit the read-ahead of 64 MiB.
   */
  static long maxRequestBytes() {
    return 16L << 20;
  }

  static int fetchThreads() {
    return (int) org.chunkcdm.blosc.internal.Settings.REMOTE_FETCH_THREADS.number();
  }

  static long aheadBytes() {
    return 64L << 20;
  }

  private static volatile ExecutorService pool;

  private static ExecutorService pool() {
    ExecutorService p = pool;
    if (p == null) {
      synchronized (RemoteStaging.class) {
        p = pool;
        if (p == null) {
          AtomicInteger n = new AtomicInteger();
          p = Executors.newFixedThreadPool(fetchThreads(), r -> {
            Thread t = new Thread(r, "chunkcdm-remote-fetch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
          pool = p;
        }
      }
    }
    return p;
  }

  private final RemoteFiles files;
  private final ConcurrentHashMap<Path, CopyOnWriteArrayList<Block>> blocks = new ConcurrentHashMap<>();

  RemoteStaging(RemoteFiles files) {
    this.files = files;
  }

  /** What a block's fetch got: the object's info and the bytes from the block's position. */
  private static final class Fetched {
    final ObjectInfo info;
    final byte[] bytes;

    Fetched(ObjectInfo info, byte[] bytes) {
      this.info = info;
      this.bytes = bytes;
    }
  }

  /** One request's worth of a plan: [pos, pos+len) of an object, or the whole object (len -1). */
  private final class Block {
    final Path file;
    final long pos;
    final long len;
    final Plan plan;
    final long need; // bytes the plan will read from it (len for whole objects: unknown, -1)
    final AtomicLong used = new AtomicLong();
    final AtomicBoolean started = new AtomicBoolean();
    final CompletableFuture<Fetched> result = new CompletableFuture<>();

    Block(Path file, long pos, long len, long need, Plan plan) {
      this.file = file;
      this.pos = pos;
      this.len = len;
      this.need = need;
      this.plan = plan;
    }

    long estimate() {
      return len >= 0 ? len : 1 << 20;
    }

    /** Fetches the block unless another thread already does; true when this call did. */
    boolean run() {
      if (!started.compareAndSet(false, true)) {
        return false;
      }
      try {
        if (len < 0) {
          ObjectStore.Whole w = files.fs.readStart(files.key(file), Bounds.MAX_ARRAY, files.etag(file));
          result.complete(new Fetched(w.info(), w.bytes()));
        } else {
          Bounds.checkAllocation(len, file + ": read of " + len + " bytes at offset " + pos);
          byte[] b = new byte[(int) len];
          ObjectInfo info = files.fs.read(files.key(file), pos, b, 0, (int) len, files.etag(file));
          result.complete(new Fetched(info, b));
        }
      } catch (NoSuchFileException e) {
        result.completeExceptionally(RemoteFiles.missing(file));
      } catch (ObjectChangedException e) {
        result.completeExceptionally(files.changedHere(file, e));
      } catch (IOException | RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
      return true;
    }

    Fetched get() throws IOException {
      run(); // not started yet: this (decode) thread fetches it
      try {
        return result.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(file + ": interrupted while waiting for a read");
      } catch (ExecutionException e) {
        drop(this);
        Throwable c = e.getCause();
        if (c instanceof IOException) {
          IOException io = (IOException) c;
          IOException copy = new IOException(io.getMessage(), io); // this thread's stack, the fetch's cause
          throw io instanceof NoSuchFileException ? RemoteFiles.missing(file) : copy;
        }
        if (c instanceof RuntimeException) {
          throw (RuntimeException) c;
        }
        throw new IOException(file + ": " + c, c);
      }
    }

    void consumed(long n, long objectSize) {
      long u = used.addAndGet(n);
      if (need >= 0 ? u >= need : u >= objectSize) {
        drop(this);
      }
    }
  }

  /** The blocks of one {@link FileHandles#prefetch}: fetched in order, a bounded amount ahead. */
  final class Plan implements FileHandles.Prefetch {
    private final ArrayDeque<Block> queue = new ArrayDeque<>();
    private final List<Block> all = new ArrayList<>();
    private int inflight;
    private long inflightBytes;
    private volatile boolean closed;

    synchronized void pump() {
      while (!closed && !queue.isEmpty() && inflight < fetchThreads() && (inflight == 0 || inflightBytes < aheadBytes())) {
        Block b = queue.poll();
        if (b.started.get()) {
          continue;
        }
        inflight++;
        long est = b.estimate();
        inflightBytes += est;
        pool().execute(() -> {
          try {
            b.run();
          } finally {
            synchronized (Plan.this) {
              inflight--;
              inflightBytes -= est;
            }
            pump();
          }
        });
      }
    }

    @Override
    public void close() {
      closed = true;
      synchronized (this) {
        queue.clear();
      }
      for (Block b : all) {
        drop(b);
      }
    }
  }

  private void drop(Block b) {
    CopyOnWriteArrayList<Block> l = blocks.get(b.file);
    if (l != null) {
      l.remove(b);
    }
  }

  /** Plans the ranges (one request per coalesced block) and starts fetching the first blocks. */
  FileHandles.Prefetch plan(List<FileHandles.Range> ranges) throws IOException {
    Plan plan = new Plan();
    List<FileHandles.Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparing((FileHandles.Range r) -> r.file().toString()).thenComparingLong(FileHandles.Range::pos));
    long total = 0;
    for (FileHandles.Range r : sorted) {
      total += Math.max(0, r.len());
    }
    long target = Math.max(1L << 20, Math.min(maxRequestBytes(), (total + fetchThreads() - 1) / fetchThreads()));
    Path file = null;
    long start = -1;
    long end = -1;
    long need = 0;
    for (FileHandles.Range r : sorted) {
      files.key(r.file()); // a path of this dataset's file system
      if (r.len() < 0) {
        add(plan, file, start, end, need);
        file = null;
        add(plan, r.file(), 0, -1, -1);
        continue;
      }
      if (r.len() == 0) {
        continue;
      }
      boolean joins = file != null && r.file().equals(file) && r.pos() >= end - 0 && r.pos() - end <= GAP
          && r.pos() + r.len() - start <= target;
      boolean inside = file != null && r.file().equals(file) && r.pos() >= start && r.pos() + r.len() <= end;
      if (inside) {
        need += r.len();
      } else if (joins) {
        end = r.pos() + r.len();
        need += r.len();
      } else {
        add(plan, file, start, end, need);
        file = r.file();
        start = r.pos();
        end = r.pos() + r.len();
        need = r.len();
      }
    }
    add(plan, file, start, end, need);
    plan.pump();
    return plan;
  }

  private void add(Plan plan, Path file, long start, long end, long need) {
    if (file == null) {
      return;
    }
    Block b = new Block(file, start, end < 0 ? -1 : end - start, need, plan);
    plan.all.add(b);
    plan.queue.add(b);
    blocks.computeIfAbsent(file, k -> new CopyOnWriteArrayList<>()).add(b);
  }

  /** Serves a read from a staged block that holds all of it; false when none does. */
  boolean read(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    CopyOnWriteArrayList<Block> l = blocks.get(p);
    if (l == null || l.isEmpty()) {
      return false;
    }
    for (Block b : l) {
      if (b.len >= 0 ? pos >= b.pos && pos + len <= b.pos + b.len : pos >= 0) {
        Fetched f = b.get();
        if (b.len < 0 && pos + len > f.bytes.length) {
          return false; // past the whole object: the direct read reports it
        }
        files.pin(p, f.info);
        System.arraycopy(f.bytes, (int) (pos - b.pos), dst, off, len);
        b.consumed(len, f.bytes.length);
        return true;
      }
    }
    return false;
  }

  /** The info of an object staged whole (fetched now if needed), or null. */
  ObjectInfo info(Path p) throws IOException {
    Block b = whole(p, false);
    return b == null ? null : b.get().info;
  }

  /** An object staged whole (its bytes handed over: the block is dropped), or null. */
  ObjectStore.Whole whole(Path p) throws IOException {
    Block b = whole(p, true);
    if (b == null) {
      return null;
    }
    Fetched f = b.get();
    drop(b);
    return new ObjectStore.Whole(f.info, f.bytes);
  }

  private Block whole(Path p, boolean any) {
    CopyOnWriteArrayList<Block> l = blocks.get(p);
    if (l != null) {
      for (Block b : l) {
        if (b.len < 0) {
          return b;
        }
      }
    }
    return null;
  }

  void clear() {
    blocks.clear();
  }
}
