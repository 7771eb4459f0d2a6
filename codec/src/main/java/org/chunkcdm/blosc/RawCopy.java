package org.chunkcdm.blosc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import org.chunkcdm.blosc.internal.Ffm;

/**
 * Copies of stored data of at least {@link #MIN} bytes: chunks, blocks and split streams that Blosc stored raw, and
 * deflate's stored blocks, zstd's raw blocks and zstd's runs of raw literals inside the streams. Internal to
 * chunkcdm's decoders (public only for the zstd package), not an API. On Java 22+ with native access ({@link Ffm})
 * they go through the C library's {@code memmove} in pieces of {@link #PIECE} bytes, called as a critical FFM
 * function on the two arrays (~4 µs each, so the garbage collector never waits long): below glibc's non-temporal
 * threshold that is {@code rep movsb} on CPUs with ERMS/FSRM, 25–45% faster than {@code System.arraycopy}'s vector
 * loop for the 1 MiB chunks of the benchmark, which is also how c-blosc2 copies such chunks, and 25–35% faster for
 * pieces of 8–64 KiB from a source in memory (below 4 KiB the call costs more than it saves). Everywhere else, and
 * for one array copied onto itself, {@code System.arraycopy}. Bounds are checked as {@code System.arraycopy} checks
 * them, before any call. {@code -Dchunkcdm.ffm=false} turns it off.
 */
public final class RawCopy {
  private RawCopy() {}

  /** Copies shorter than this take {@code System.arraycopy}. */
  public static final int MIN = 8 << 10;
  /** Bytes per {@code memmove} call. */
  static final int PIECE = 128 << 10;
  /** Why copies do not go through {@code memmove}, or null when they do. */
  static final String OFF;
  /** (byte[] dst, long dstOff, byte[] src, long srcOff, long n) → void. */
  private static final MethodHandle MOVE;

  static {
    String off = Ffm.off();
    MethodHandle move = null;
    if (off == null) {
      try {
        Class<?> a = Ffm.ADDRESS;
        MethodHandle m = MethodHandles.dropReturn(Ffm.downcall("memmove", true, -1, a, a, a, long.class));
        MethodHandle slice = Ffm.heapSlice(byte[].class);
        m = MethodHandles.collectArguments(m, 0, slice); // (byte[], long, long, seg, long)
        m = MethodHandles.collectArguments(m, 3, slice); // (byte[], long, long, byte[], long, long, long)
        move = MethodHandles.permuteArguments(m,
            MethodType.methodType(void.class, byte[].class, long.class, byte[].class, long.class, long.class),
            0, 1, 4, 2, 3, 4, 4);
      } catch (Throwable t) {
        off = "not available: " + t;
      }
    }
    OFF = off;
    MOVE = off == null ? move : null;
  }

  /** {@code System.arraycopy(src, so, dst, dp, n)}. */
  public static void copy(byte[] src, int so, byte[] dst, int dp, int n) {
    if (n < MIN || MOVE == null || src == dst) {
      System.arraycopy(src, so, dst, dp, n);
      return;
    }
    Objects.checkFromIndexSize(so, n, src.length);
    Objects.checkFromIndexSize(dp, n, dst.length);
    for (int p = 0; p < n; p += PIECE) {
      int k = Math.min(PIECE, n - p);
      try {
        MOVE.invokeExact(dst, (long) dp + p, src, (long) so + p, (long) k);
      } catch (Throwable t) { // cannot happen after the checks above; never hide it
        throw new IllegalStateException("memmove of " + k + " bytes failed", t);
      }
    }
    BYTES.add(n);
  }

  /** Bytes copied through {@code memmove} since the JVM started (tests). */
  static final java.util.concurrent.atomic.LongAdder BYTES = new java.util.concurrent.atomic.LongAdder();
}
