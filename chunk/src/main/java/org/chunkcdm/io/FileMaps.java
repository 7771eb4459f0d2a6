package org.chunkcdm.io;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.chunkcdm.blosc.internal.Settings;
import org.chunkcdm.io.FileHandles.MapMode;

/**
 * The memory-mapped reads of one {@link FileHandles} (see its class comment): a read-only mapping per file, made
 * lazily in windows, and the settings of when reads use them.
 */
final class FileMaps {
  private static volatile MapMode mode =
      MapMode.values()[java.util.List.of("false", "auto", "true").indexOf(Settings.MMAP.choice())];
  private static volatile long window = 1L << 30;
  private static volatile long minFile = 64L << 20;
  private static volatile long minRead = 64L << 10;
  /** Bounds of a mapped read checked against the file's current size first (off only in tests of the fault path). */
  private static volatile boolean checkSize = true;

  private final ConcurrentHashMap<Path, Mapping> maps = new ConcurrentHashMap<>();
  /** The handles whose channels are mapped. */
  private final FileHandles files;

  FileMaps(FileHandles files) {
    this.files = files;
  }

  static MapMode mode() {
    return mode;
  }

  /** Sets when later reads use mappings (tests). */
  static void setMapMode(MapMode m) {
    mode = java.util.Objects.requireNonNull(m);
  }

  /**
   * Sets the mapping's window size (4096 .. 2^31-1 bytes), the smallest file mapped and the smallest read served
   * from a mapping, for mappings made from now on (tests: small windows so that chunks cross their boundaries).
   */
  static void setMapLimits(long windowBytes, long minFileBytes, long minReadBytes) {
    if (windowBytes < 4096 || windowBytes > Integer.MAX_VALUE || minFileBytes < 0 || minReadBytes < 1) {
      throw new IllegalArgumentException("window " + windowBytes + ", min file " + minFileBytes + ", min read " + minReadBytes);
    }
    window = windowBytes;
    minFile = minFileBytes;
    minRead = minReadBytes;
  }

  /** The current map mode and limits; {@code run()} on the result sets them back (tests). */
  static Runnable mapSettings() {
    MapMode m = mode;
    long w = window;
    long f = minFile;
    long r = minRead;
    return () -> {
      setMapMode(m);
      setMapLimits(w, f, r);
    };
  }

  /** Tests only: off, a mapped read of a file truncated after it was mapped faults in the copy (the race this check narrows). */
  static void checkSizeBeforeMappedRead(boolean on) {
    checkSize = on;
  }

  /** True when a read of {@code len} bytes is large enough for a mapping (or a one-copy read). */
  static boolean largeRead(int len) {
    return len >= minRead;
  }

  /** True when a file of {@code size} bytes is large enough for a mapping (or a one-copy read). */
  static boolean largeFile(long size) {
    return size >= Math.max(1, minFile);
  }

  /**
   * The size p had when it was mapped, -1 when it is too small to be mapped, {@link Long#MIN_VALUE} when no read
   * has looked it up yet.
   */
  long mappedSize(Path p) {
    Mapping m = maps.get(p);
    return m == null ? Long.MIN_VALUE : m == Mapping.NONE ? -1 : m.size;
  }

  /** Number of files currently mapped (tests). */
  int count() {
    int n = 0;
    for (Mapping m : maps.values()) {
      n += m != Mapping.NONE && m.active ? 1 : 0;
    }
    return n;
  }

  /** Drops every mapping; they are unmapped once the GC has reclaimed them (no unmap call in Java 17). */
  void clear() {
    maps.clear();
  }

  /**
   * A file's read-only mapping in windows of {@code window} bytes, each mapped on first use; {@code size} is the
   * file's size when the mapping was made (nothing past it is ever read from the mapping). {@code NONE}: a file
   * not mapped (smaller than the limit), read through its channel.
   */
  private static final class Mapping {
    static final Mapping NONE = new Mapping(null, -1, 1);
    final FileChannel ch;
    final long size;
    final long window;
    final AtomicReferenceArray<MappedByteBuffer> windows;
    /** Bytes read through the channel while not {@link #active} (mode REREAD). */
    final LongAdder channelBytes = new LongAdder();
    volatile boolean active;

    Mapping(FileChannel ch, long size, long window) {
      this.ch = ch;
      this.size = size;
      this.window = window;
      this.windows = new AtomicReferenceArray<>(size <= 0 ? 0 : (int) ((size - 1) / window + 1));
    }

    MappedByteBuffer window(int w) throws IOException {
      MappedByteBuffer b = windows.get(w);
      if (b == null) {
        long at = w * window;
        b = ch.map(FileChannel.MapMode.READ_ONLY, at, Math.min(window, size - at));
        if (!windows.compareAndSet(w, null, b)) {
          b = windows.get(w); // another thread mapped it first; this one's mapping goes to the GC
        }
      }
      return b;
    }
  }

  /** The mapping of p ({@link Mapping#NONE} for a file below the size limit), made on first use. */
  private Mapping mapping(Path p) throws IOException {
    Mapping m = maps.get(p);
    if (m == null) {
      FileChannel ch = files.channel(p);
      long size = ch.size();
      m = largeFile(size) ? new Mapping(ch, size, window) : Mapping.NONE;
      Mapping had = maps.putIfAbsent(p, m);
      m = had != null ? had : m;
    }
    return m;
  }

  /**
   * Copies {@code len} bytes at {@code pos} out of p's mapping; false when the channel must read them instead
   * (a file not mapped, a range past the size the file had when it was mapped, a mapping that failed or whose
   * channel was closed by {@link FileHandles#close()} meanwhile).
   *
   * <p>A page of the mapping that the file no longer holds (the file was truncated after it was mapped; or an I/O
   * error of the device behind it) makes the copy fault. HotSpot (Java 17) then finishes the copy with garbage and
   * only flags the thread: the {@link InternalError} ("a fault occurred in ... unsafe memory access operation") is
   * thrown at the thread's next call into the VM runtime (or safepoint), wherever that is. {@link Faults#faulted()}
   * makes that call here, right after the copy, so the error comes out in this method's copy block and becomes an
   * IOException naming the file and the range ({@link FileHandles#readFully} catches one that leaves the method
   * anyway, as it did through a recompiled method's return); nothing is left pending for a later, unrelated
   * operation of the thread. The size check before the copy keeps the common case (a file truncated before the
   * read) from faulting.
   */
  boolean read(Path p, long pos, byte[] dst, int off, int len) throws IOException {
    if (!largeRead(len) || mode == MapMode.OFF) {
      return false;
    }
    Mapping m;
    try {
      m = mapping(p);
    } catch (ClosedChannelException e) {
      return false; // released meanwhile: the channel path reopens
    }
    if (m == Mapping.NONE || pos > m.size - len || !activate(m, len) || !sizeStillFits(p, m, pos, len)) {
      return false;
    }
    if (off < 0 || off > dst.length - len) {
      throw new IndexOutOfBoundsException("read of " + len + " bytes into an array of " + dst.length + " at " + off);
    }
    try {
      long at = pos;
      int done = 0;
      while (done < len) {
        int w = (int) (at / m.window);
        MappedByteBuffer b;
        try {
          b = m.window(w);
        } catch (ClosedChannelException e) {
          maps.remove(p, m); // its channel was closed: the next read maps the reopened one
          return false;
        } catch (IOException e) {
          if (m.ch.size() < m.size) {
            maps.remove(p, m); // the file shrank: the channel reports it, a later read maps the file at its new size
          } else { // mmap failed (address space, limits): this file is read through its channel from now on
            maps.replace(p, m, Mapping.NONE);
          }
          return false;
        }
        int in = (int) (at - w * m.window);
        int n = Math.min(len - done, b.capacity() - in);
        b.get(in, dst, off + done, n); // absolute: no shared position
        done += n;
        at += n;
      }
      if (Faults.faulted()) {
        throw new InternalError("a fault occurred in an unsafe memory access operation");
      }
    } catch (InternalError e) {
      throw fault(p, pos, len, m, e);
    }
    return true;
  }

  /** False while a file in mode REREAD has been read through its channel no more than once over. */
  private static boolean activate(Mapping m, int len) {
    if (!m.active) {
      if (mode == MapMode.REREAD) {
        m.channelBytes.add(len);
        if (m.channelBytes.sum() <= m.size) {
          return false; // read once so far: the channel is the cheaper way
        }
      }
      m.active = true;
    }
    return true;
  }

  /** False (dropping the mapping) when the file's channel was closed or the file no longer holds the range. */
  private boolean sizeStillFits(Path p, Mapping m, long pos, int len) throws IOException {
    if (!checkSize) {
      return true;
    }
    long now;
    try {
      now = m.ch.size();
    } catch (ClosedChannelException e) {
      maps.remove(p, m); // its channel was closed: the next read maps the reopened one
      return false;
    }
    if (pos > now - len) { // shrank since it was mapped: the channel reports it (no fault)
      maps.remove(p, m); // a later read maps the file at its new size
      return false;
    }
    return true;
  }

  /** The IOException for a fault of a mapped copy that came out after {@link #read} returned. */
  IOException fault(Path p, long pos, int len, InternalError e) {
    return fault(p, pos, len, null, e);
  }

  /** The IOException for a fault of a mapped copy ({@code m} null when the mapping is unknown). */
  private IOException fault(Path p, long pos, int len, Mapping m, InternalError e) {
    String now;
    try {
      now = String.valueOf(m != null ? m.ch.size() : files.size(p));
    } catch (IOException | RuntimeException e2) {
      now = "unknown";
    }
    return new IOException(p + ": memory-mapped read of " + len + " bytes at offset " + pos + " failed: the file is now "
        + now + " bytes" + (m != null ? " (was " + m.size + " when mapped)" : "")
        + "; truncated or replaced while open, or the device failed", e);
  }

  /** Makes a pending unsafe-access fault of this thread come out as an InternalError here (see {@link #read}). */
  static final class Faults {
    private static volatile int one = 1;
    static Object sink;

    private Faults() {}

    /**
     * An array allocation whose dimensions the compiler cannot know: always a call into the VM runtime (interpreter,
     * C1 and C2 alike), on whose return the VM throws an unsafe-access error flagged on this thread.
     */
    static boolean faulted() {
      try {
        sink = new byte[one][one];
        return false;
      } catch (InternalError e) {
        return true;
      }
    }
  }
}
