package org.chunkcdm.io;

import org.chunkcdm.blosc.internal.Ffm;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads from the page cache straight into a heap array, one copy (Java 22 and later, Linux): {@code pread} called
 * through the FFM API as a <em>critical</em> function with heap access, so the kernel copies into the array itself.
 * {@code FileChannel.read} into a heap array makes two copies (the kernel's into the JDK's temporary direct buffer,
 * then the JDK's into the array). Built at run time through {@link Ffm}: the jar stays Java 17 bytecode, and on
 * Java 17–21 (or without native access) nothing here is ever used.
 *
 * <p>A critical call keeps the garbage collector waiting until it returns, so it is made only for ranges the page
 * cache holds whole, asked right before through {@code cachestat(2)} (Linux 6.5 and later; without it nothing is
 * read this way): a read that would wait for a disk goes through the channel. Every range is checked against the
 * array's bounds by {@code MemorySegment.asSlice} before the call. File descriptors are opened here, one per file,
 * after the same checks as the file's channel, and checked once more through {@code /proc/self/fd}: the open file
 * must be a regular file inside the dataset root.
 *
 * <p>On by default where it can run and the JVM grants this code native access ({@code --enable-native-access},
 * which the CLI's launchers pass): no warning is ever printed because of it. {@code -Dchunkcdm.ffm=false} turns it
 * off.
 */
final class NativeReads {
  private NativeReads() {}

  /** (int fd, byte[] dst, long off, long len, long pos) → bytes read, or -1 (errno not kept). */
  private static final MethodHandle PREAD;
  /** (long nr, int fd, long[] range, long[] stat, int flags) → 0 or -1. */
  private static final MethodHandle CACHESTAT;
  /** (int fd) → 0 or -1. */
  private static final MethodHandle CLOSE;
  /** open(const char*, int flags, int mode) → fd or -1, not critical (an open may wait for a network file system). */
  private static final MethodHandle OPEN;
  /** Why the reads are off, or null when they are on. */
  static final String OFF;
  /** O_RDONLY 0 | O_NONBLOCK 04000 | O_CLOEXEC 02000000 (the same on x86-64 and AArch64). */
  private static final int O_RDONLY_CLOEXEC_NONBLOCK = 04000 | 02000000;
  private static final long SYS_CACHESTAT = 451; // the same number on every architecture (new syscall table)

  static {
    MethodHandle pread = null;
    MethodHandle cachestat = null;
    MethodHandle close = null;
    MethodHandle open = null;
    String off = Ffm.off();
    String arch = System.getProperty("os.arch", "");
    if (off != null) {
      // as Ffm says
    } else if (!System.getProperty("os.name", "").equals("Linux")) {
      off = "Linux only";
    } else if (!arch.equals("amd64") && !arch.equals("aarch64")) {
      off = "not built for " + arch;
    } else {
      try {
        Class<?> a = Ffm.ADDRESS;
        // pread(int, void*, size_t, off_t) on the array slice [off, off + len), which asSlice checks
        MethodHandle p = Ffm.downcall("pread", true, -1, long.class, int.class, a, long.class, long.class);
        MethodHandle withSlice = MethodHandles.collectArguments(p, 1, Ffm.heapSlice(byte[].class));
        // (int fd, byte[] b, long off, long len, long count, long pos): count = len
        pread = MethodHandles.permuteArguments(withSlice,
            MethodType.methodType(long.class, int.class, byte[].class, long.class, long.class, long.class),
            0, 1, 2, 3, 3, 4);
        // syscall(long nr, ...) with (unsigned fd, struct cachestat_range*, struct cachestat*, unsigned flags)
        MethodHandle sc = Ffm.downcall("syscall", true, 1, long.class, long.class, int.class, a, a, int.class);
        MethodHandle longs = Ffm.heapSegment(long[].class);
        cachestat = MethodHandles.filterArguments(sc, 2, longs, longs)
            .asType(MethodType.methodType(long.class, long.class, int.class, long[].class, long[].class, int.class));
        close = Ffm.downcall("close", false, -1, int.class, int.class);
        open = Ffm.downcall("open", false, 2, int.class, a, int.class, int.class);
        probe(cachestat, close, open);
      } catch (Throwable t) {
        Throwable c = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
        off = c instanceof IllegalStateException ? c.getMessage() : "not available: " + c;
      }
    }
    PREAD = off == null ? pread : null;
    CACHESTAT = off == null ? cachestat : null;
    CLOSE = off == null ? close : null;
    OPEN = off == null ? open : null;
    OFF = off;
  }

  /** cachestat must exist (Linux 6.5+): asked about a file opened here (fd 0 may be anything). */
  private static void probe(MethodHandle cachestat, MethodHandle close, MethodHandle open) throws Throwable {
    int fd = open0(open, "/proc/self/exe");
    if (fd < 0) {
      throw new IllegalStateException("probe open of /proc/self/exe failed");
    }
    try {
      long[] range = {0, 4096};
      long[] stat = new long[5];
      long r = (long) cachestat.invokeExact(SYS_CACHESTAT, fd, range, stat, 0);
      if (r != 0) {
        throw new IllegalStateException("no cachestat(2) here (Linux 6.5 or later, not blocked by a seccomp filter)");
      }
    } finally {
      int c = (int) close.invokeExact(fd);
    }
  }

  private static int open0(MethodHandle open, String path) throws Throwable {
    return (Integer) Ffm.withCString(open, path.getBytes(jnu()), O_RDONLY_CLOEXEC_NONBLOCK, 0);
  }

  private static Charset jnu() {
    String e = System.getProperty("sun.jnu.encoding");
    try {
      return e != null ? Charset.forName(e) : Charset.defaultCharset();
    } catch (RuntimeException x) {
      return Charset.defaultCharset();
    }
  }

  /** True when reads go this way in this JVM (then {@link #OFF} is null). */
  static boolean on() {
    return OFF == null;
  }

  /**
   * An open file descriptor shared by reading threads: {@link #close()} closes it once the last read that has
   * {@link #acquire() acquired} it has {@link #release() released} it (a number closed under a running read could
   * be given to another file meanwhile).
   */
  static final class Fd {
    /** A file not read this way. */
    static final Fd NONE = new Fd(-1);
    final int fd;
    /** 2 × readers, + 1 once closed. */
    private final AtomicInteger state = new AtomicInteger();

    private Fd(int fd) {
      this.fd = fd;
    }

    boolean acquire() {
      for (;;) {
        int s = state.get();
        if ((s & 1) != 0) {
          return false;
        }
        if (state.compareAndSet(s, s + 2)) {
          return true;
        }
      }
    }

    void release() {
      if (state.addAndGet(-2) == 1) {
        closeNow();
      }
    }

    void close() {
      if (fd < 0) {
        return;
      }
      for (;;) {
        int s = state.get();
        if ((s & 1) != 0) {
          return;
        }
        if (state.compareAndSet(s, s + 1)) {
          if (s == 0) {
            closeNow();
          }
          return;
        }
      }
    }

    boolean closed() {
      return (state.get() & 1) != 0;
    }

    private void closeNow() {
      if (state.compareAndSet(1, -1)) {
        try {
          int r = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
          // nothing to do: the number is not used again either way
        }
      }
    }
  }

  /**
   * Opens {@code p} read-only, or null when it cannot be used: not openable, or the open file is not a regular file
   * whose real path lies inside {@code realRoot}, or not the file (device and inode) that {@code p} names (checked on
   * the open descriptor, so a file swapped for a link between the caller's checks and this open is refused).
   */
  static Fd open(Path p, Path realRoot) {
    return open(p, p, realRoot);
  }

  /** {@link #open(Path, Path)} of {@code p}, whose descriptor must be the file {@code named} names (tests). */
  static Fd open(Path p, Path named, Path realRoot) {
    if (OFF != null) {
      return null;
    }
    int fd;
    try {
      fd = open0(OPEN, p.toAbsolutePath().toString());
    } catch (Throwable t) {
      return null;
    }
    if (fd < 0) {
      return null;
    }
    Fd f = new Fd(fd);
    try {
      Path self = Path.of("/proc/self/fd/" + fd);
      BasicFileAttributes a = Files.readAttributes(self, BasicFileAttributes.class);
      Path real = self.toRealPath();
      Object key = Files.readAttributes(named, BasicFileAttributes.class).fileKey(); // the file the path names now
      if (a.isRegularFile() && real.startsWith(realRoot) && key != null && key.equals(a.fileKey())) {
        return f;
      }
    } catch (Exception e) {
      // no /proc or the file went away: not used
    }
    f.close();
    return null;
  }

  /**
   * Reads up to {@code len} bytes at {@code pos} into {@code dst[off..]} when the page cache holds all of them;
   * returns the number read (possibly short: the caller reads the rest its own way), 0 when nothing was read this
   * way.
   */
  static int read(Fd f, long pos, byte[] dst, int off, int len) {
    if (!f.acquire()) {
      return 0;
    }
    int done = 0;
    try {
      long[] range = {pos, len};
      long[] stat = new long[5];
      long r = (long) CACHESTAT.invokeExact(SYS_CACHESTAT, f.fd, range, stat, 0);
      long pages = ((pos + len + 4095) >>> 12) - (pos >>> 12);
      if (r != 0 || stat[0] < pages) {
        return 0; // not all in memory (or no answer): a read that may wait for a disk keeps the GC running
      }
      while (done < len) {
        // at most PIECE bytes per call: the garbage collector can run between two calls
        long n = (long) PREAD.invokeExact(f.fd, dst, (long) (off + done), (long) Math.min(len - done, PIECE), pos + done);
        if (n <= 0) {
          break; // end of file or an error: the caller's channel read reports it
        }
        done += (int) n;
      }
    } catch (Throwable t) {
      // a range outside the array (asSlice refuses it before the call): the caller's channel read reports it
    } finally {
      f.release();
      BYTES.add(done);
    }
    return done;
  }

  /** Most bytes per critical call (~0.3 ms of copying out of the page cache here). */
  static final int PIECE = 4 << 20;

  /** Bytes read this way since the JVM started (tests). */
  static final java.util.concurrent.atomic.LongAdder BYTES = new java.util.concurrent.atomic.LongAdder();
}
