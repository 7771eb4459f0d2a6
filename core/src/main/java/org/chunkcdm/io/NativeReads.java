package org.chunkcdm.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads from the page cache straight into a heap array, one copy (Java 22 and later, Linux): {@code pread} called
 * through the FFM API as a <em>critical</em> function with heap access, so the kernel copies into the array itself.
 * {@code FileChannel.read} into a heap array makes two copies (the kernel's into the JDK's temporary direct buffer,
 * then the JDK's into the array). Built at run time through reflection and method handles: the jar stays Java 17
 * bytecode, and on Java 17–21 (or without native access) nothing here is ever used.
 *
 * <p>A critical call keeps the garbage collector waiting until it returns, so it is made only for ranges the page
 * cache holds whole, asked right before through {@code cachestat(2)} (Linux 6.5 and later; without it nothing is
 * read this way): a read that would wait for a disk goes through the channel. Every range is checked against the
 * array's bounds by {@code MemorySegment.asSlice} before the call. File descriptors are opened here, one per file,
 * after the same checks as the file's channel, and checked once more through {@code /proc/self/fd}: the open file
 * must be a regular file inside the dataset root.
 *
 * <p>On by default where it can run and the JVM grants this code native access ({@code --enable-native-access},
 * which the CLI's launchers pass): no warning is ever printed because of it. {@code -Dchunkcdm.nativeRead=false}
 * turns it off, {@code =true} uses it even without that grant (the JVM then warns once).
 */
final class NativeReads {
  private NativeReads() {}

  /** (int fd, byte[] dst, long off, long len, long pos) → bytes read, or -1 (errno not kept). */
  private static final MethodHandle PREAD;
  /** (long nr, int fd, long[] range, long[] stat, int flags) → 0 or -1. */
  private static final MethodHandle CACHESTAT;
  /** (int fd) → 0 or -1. */
  private static final MethodHandle CLOSE;
  /** Opens a NUL-terminated path with flags: (byte[] path, int flags) → fd or -1 (non-critical; see open). */
  private static final Method OPEN_INVOKE;
  private static final Object OPEN_HANDLE;
  private static final Method ARENA_OF_CONFINED;
  private static final Method ARENA_ALLOCATE;
  private static final Method ARENA_CLOSE;
  private static final Method SEGMENT_COPY;
  private static final Method SEGMENT_OF_ARRAY;
  /** Why the reads are off, or null when they are on. */
  static final String OFF;
  private static final int O_RDONLY_CLOEXEC_NONBLOCK;
  private static final long SYS_CACHESTAT = 451; // the same number on every architecture (new syscall table)

  static {
    MethodHandle pread = null;
    MethodHandle cachestat = null;
    MethodHandle close = null;
    Method openInvoke = null;
    Object openHandle = null;
    Method ofConfined = null;
    Method allocate = null;
    Method arenaClose = null;
    Method copy = null;
    Method ofArray = null;
    int flags = 0;
    String off = null;
    String mode = System.getProperty("chunkcdm.nativeRead", "auto").trim().toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "");
    if (mode.equals("false") || mode.equals("off")) {
      off = "off by -Dchunkcdm.nativeRead=" + mode;
    } else if (Runtime.version().feature() < 22) {
      off = "needs Java 22 or later (critical FFM calls)";
    } else if (!System.getProperty("os.name", "").equals("Linux")) {
      off = "Linux only";
    } else if (!arch.equals("amd64") && !arch.equals("aarch64")) {
      off = "not built for " + arch;
    } else {
      try {
        // O_RDONLY 0, O_NONBLOCK 04000, O_CLOEXEC 02000000 (the same on x86-64 and AArch64)
        flags = 04000 | 02000000;
        Class<?> seg = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> fdesc = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> linkerC = Class.forName("java.lang.foreign.Linker");
        Class<?> optionC = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> arenaC = Class.forName("java.lang.foreign.Arena");
        boolean granted = (Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(NativeReads.class.getModule());
        if (!granted && !mode.equals("true")) {
          throw new IllegalStateException("no native access granted (--enable-native-access=ALL-UNNAMED, or the module's"
              + " name; the CLI's launchers pass it)");
        }
        Object jInt = valueLayout.getField("JAVA_INT").get(null);
        Object jLong = valueLayout.getField("JAVA_LONG").get(null);
        Object addr = valueLayout.getField("ADDRESS").get(null);
        Object linker = linkerC.getMethod("nativeLinker").invoke(null);
        Object lookup = linkerC.getMethod("defaultLookup").invoke(linker);
        Method find = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class);
        Method descOf = fdesc.getMethod("of", layout, Array.newInstance(layout, 0).getClass());
        Method downcall = linkerC.getMethod("downcallHandle", seg, fdesc, Array.newInstance(optionC, 0).getClass());
        Object critical = optionC.getMethod("critical", boolean.class).invoke(null, true);
        Object[] crit = (Object[]) Array.newInstance(optionC, 1);
        crit[0] = critical;
        Object[] none = (Object[]) Array.newInstance(optionC, 0);
        ofArray = seg.getMethod("ofArray", byte[].class);
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodHandle ofBytes = l.unreflect(ofArray);
        MethodHandle ofLongs = l.unreflect(seg.getMethod("ofArray", long[].class));
        MethodHandle slice = l.unreflect(seg.getMethod("asSlice", long.class, long.class));

        // pread(int, void*, size_t, off_t): the array slice [off, off + len) is bounds-checked by asSlice
        Object preadDesc = descOf.invoke(null, jLong, layouts(layout, jInt, addr, jLong, jLong));
        MethodHandle p = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "pread"), preadDesc, crit);
        // (int fd, MemorySegment s, long count, long pos) ← (int fd, byte[] b, long off, long len, long count?, ...)
        MethodHandle sliceOf = MethodHandles.filterArguments(slice, 0, ofBytes); // (byte[], long off, long len) → seg
        // count = len: duplicate the len argument
        MethodHandle withSeg = MethodHandles.collectArguments(p, 1, sliceOf); // (int, byte[], long off, long len, long count, long pos)
        pread = MethodHandles.permuteArguments(withSeg,
            MethodType.methodType(long.class, int.class, byte[].class, long.class, long.class, long.class),
            0, 1, 2, 3, 3, 4);

        // syscall(long nr, ...) with (unsigned fd, struct cachestat_range*, struct cachestat*, unsigned flags)
        Object sysDesc = descOf.invoke(null, jLong, layouts(layout, jLong, jInt, addr, addr, jInt));
        Object[] critVariadic = (Object[]) Array.newInstance(optionC, 2);
        critVariadic[0] = critical;
        critVariadic[1] = optionC.getMethod("firstVariadicArg", int.class).invoke(null, 1);
        MethodHandle sc = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "syscall"), sysDesc, critVariadic);
        sc = MethodHandles.filterArguments(sc, 2, ofLongs, ofLongs);
        cachestat = sc.asType(MethodType.methodType(long.class, long.class, int.class, long[].class, long[].class, int.class));

        Object closeDesc = descOf.invoke(null, jInt, layouts(layout, jInt));
        close = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "close"), closeDesc, none);

        // open(const char*, int, ...): not critical (an open may wait for a network file system); the path is
        // copied into a confined arena's native memory
        Object openDesc = descOf.invoke(null, jInt, layouts(layout, addr, jInt, jInt));
        Object[] variadic = (Object[]) Array.newInstance(optionC, 1);
        variadic[0] = optionC.getMethod("firstVariadicArg", int.class).invoke(null, 2);
        MethodHandle o = (MethodHandle) downcall.invoke(linker, symbol(find, lookup, "open"), openDesc, variadic);
        openHandle = o;
        openInvoke = MethodHandle.class.getMethod("invokeWithArguments", Object[].class);
        ofConfined = arenaC.getMethod("ofConfined");
        allocate = Class.forName("java.lang.foreign.SegmentAllocator").getMethod("allocate", long.class);
        arenaClose = arenaC.getMethod("close");
        copy = seg.getMethod("copy", Object.class, int.class, seg, valueLayout, long.class, int.class);
        // probe: cachestat must exist (Linux 6.5+); fd 0 may be anything, so ask about a file we open ourselves
        probe(cachestat, close, openHandle, openInvoke, ofConfined, allocate, arenaClose, copy, valueLayout, flags);
      } catch (Throwable t) {
        Throwable c = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
        off = c instanceof IllegalStateException ? c.getMessage() : "not available: " + c;
        pread = null;
      }
    }
    PREAD = off == null ? pread : null;
    CACHESTAT = off == null ? cachestat : null;
    CLOSE = off == null ? close : null;
    OPEN_INVOKE = openInvoke;
    OPEN_HANDLE = openHandle;
    ARENA_OF_CONFINED = ofConfined;
    ARENA_ALLOCATE = allocate;
    ARENA_CLOSE = arenaClose;
    SEGMENT_COPY = copy;
    SEGMENT_OF_ARRAY = ofArray;
    O_RDONLY_CLOEXEC_NONBLOCK = flags;
    OFF = off;
  }

  private static Object layouts(Class<?> layout, Object... ls) {
    Object a = Array.newInstance(layout, ls.length);
    for (int i = 0; i < ls.length; i++) {
      Array.set(a, i, ls[i]);
    }
    return a;
  }

  private static Object symbol(Method find, Object lookup, String name) throws Exception {
    Optional<?> s = (Optional<?>) find.invoke(lookup, name);
    return s.orElseThrow(() -> new IllegalStateException("no symbol " + name + " in the C library"));
  }

  private static Object jByte;

  private static void probe(MethodHandle cachestat, MethodHandle close, Object openHandle, Method openInvoke,
      Method ofConfined, Method allocate, Method arenaClose, Method copy, Class<?> valueLayout, int flags) throws Throwable {
    jByte = valueLayout.getField("JAVA_BYTE").get(null);
    int fd = open0(openHandle, openInvoke, ofConfined, allocate, arenaClose, copy, "/proc/self/exe", flags);
    if (fd < 0) {
      throw new IllegalStateException("probe open of /proc/self/exe failed");
    }
    try {
      long[] range = {0, 4096};
      long[] stat = new long[5];
      long r = (long) cachestat.invokeExact(SYS_CACHESTAT, fd, range, stat, 0);
      if (r != 0) {
        throw new IllegalStateException("no cachestat(2) in this kernel (Linux 6.5 or later needed)");
      }
    } finally {
      int c = (int) close.invokeExact(fd);
    }
  }

  private static int open0(Object openHandle, Method openInvoke, Method ofConfined, Method allocate, Method arenaClose,
      Method copy, String path, int flags) throws Throwable {
    byte[] b = path.getBytes(jnu());
    Object arena = ofConfined.invoke(null);
    try {
      Object s = allocate.invoke(arena, (long) b.length + 1); // zeroed: the terminating NUL
      copy.invoke(null, b, 0, s, jByte, 0L, b.length);
      return (Integer) openInvoke.invoke(openHandle, (Object) new Object[] {s, flags, 0});
    } finally {
      arenaClose.invoke(arena);
    }
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
      fd = open0(OPEN_HANDLE, OPEN_INVOKE, ARENA_OF_CONFINED, ARENA_ALLOCATE, ARENA_CLOSE, SEGMENT_COPY,
          p.toAbsolutePath().toString(), O_RDONLY_CLOEXEC_NONBLOCK);
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
