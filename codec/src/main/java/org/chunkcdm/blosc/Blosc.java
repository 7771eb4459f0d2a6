package org.chunkcdm.blosc;

import java.io.IOException;
import java.nio.ByteBuffer;

import java.util.Iterator;
import java.util.Locale;
import java.util.ServiceLoader;
import org.chunkcdm.blosc.internal.Settings;

/**
 * Decodes Blosc1 and Blosc2 chunks. Pure Java always works; a {@link NativeBlosc} (c-blosc 1.x through JNA,
 * from the {@code native} module) can decode Blosc1 chunks when it loads. The choice comes from the system
 * property {@code chunkcdm.blosc} or the environment variable {@code CHUNKCDM_BLOSC}: {@code auto} (default),
 * {@code java} or {@code native}. {@code auto} takes the faster one as measured (docs/BENCHMARKS.md): pure Java
 * when the JVM has the Vector API ({@code --add-modules jdk.incubator.vector}: SIMD unshuffle, 1.7× c-blosc 1.21
 * on one core), native c-blosc for Blosc1 chunks when it does not (scalar unshuffle lags c-blosc's SSE2/AVX2).
 */
public final class Blosc {
  /** Which decoder to use. */
  public enum Impl {
    /** pure Java with the Vector API; without it native when available and able to decode the chunk, else Java */
    AUTO,
    /** pure Java */
    JAVA,
    /** native only (an IOException when it is missing or cannot decode the chunk) */
    NATIVE
  }

  private static volatile NativeBlosc nativeImpl;
  private static volatile boolean nativeLoaded;
  private static volatile String nativeProblem = "not loaded yet";

  private Blosc() {}

  /** The configured implementation ({@code chunkcdm.blosc} property, else {@code CHUNKCDM_BLOSC}, else auto). */
  public static Impl configured() {
    return Impl.valueOf(Settings.BLOSC.choice()
        .toUpperCase(Locale.ROOT));
  }

  /** The native decoder when one loaded and is usable, else null. Never throws. */
  public static NativeBlosc nativeBlosc() {
    if (!nativeLoaded) {
      synchronized (Blosc.class) {
        if (!nativeLoaded) {
          try {
            Iterator<NativeBlosc> it = ServiceLoader.load(NativeBlosc.class, Blosc.class.getClassLoader()).iterator();
            nativeProblem = "no native Blosc binding on the class path";
            while (it.hasNext()) {
              NativeBlosc n = it.next();
              if (n.isAvailable()) {
                nativeImpl = n;
                nativeProblem = null;
                break;
              }
              String why = n.version(); // when unavailable, the binding says why
              nativeProblem = why != null && !why.isBlank() ? why : "native c-blosc library (libblosc.so.1) not found";
            }
          } catch (Throwable t) { // a broken JNA must never break reading
            Throwable root = t;
            for (int depth = 0; depth < 16 && root.getCause() != null && root.getCause() != root; depth++) {
              root = root.getCause();
            }
            nativeProblem = "native Blosc binding failed to load: " + root; // e.g. JNA missing from the class path
          }
          nativeLoaded = true;
        }
      }
    }
    return nativeImpl;
  }

  public static boolean nativeAvailable() {
    return nativeBlosc() != null;
  }

  /**
   * Whether pure Java unshuffles on the Vector API in this JVM: the module {@code jdk.incubator.vector} is present
   * ({@code --add-modules jdk.incubator.vector}) and the vector kernels passed their self-check against the scalar code on this JDK.
   */
  public static boolean vectorUnshuffle() {
    return Filters.VECTOR;
  }

  /** Why {@link #vectorUnshuffle()} is false (no module, turned off, or a failed self-check), or null when it holds. */
  public static String vectorUnshuffleOff() {
    return Filters.VECTOR_OFF;
  }

  /**
   * Why copies of data stored raw do not go through the C library's {@code memmove} (Java 22+ with native access:
   * {@code RawCopy}), or null when they do.
   */
  public static String rawCopyOff() {
    return RawCopy.OFF;
  }

  /**
   * Whether {@link Impl#AUTO} hands Blosc1 chunks to native c-blosc: only when one is available and pure Java
   * runs without the Vector API (with it, pure Java decodes faster than c-blosc 1.x).
   */
  public static boolean autoUsesNative() {
    return !Filters.VECTOR && nativeAvailable();
  }

  /** The native library's version, or a sentence saying why there is none. */
  public static String nativeVersion() {
    NativeBlosc n = nativeBlosc();
    return n != null ? n.version() : nativeProblem;
  }

  /**
   * Decodes the chunk held in {@code src}'s remaining bytes into {@code dst}'s remaining space, in pure Java, in the
   * calling thread; both positions advance (src by the chunk's stored size, dst by its decoded size), which is
   * returned. Heap or direct buffers; a chunk that does not fit {@code dst} is refused before anything is written.
   */
  public static int decompress(ByteBuffer src, ByteBuffer dst) throws IOException {
    byte[] in;
    int inOff;
    if (src.hasArray()) {
      in = src.array();
      inOff = src.arrayOffset() + src.position();
    } else {
      in = new byte[src.remaining()];
      src.duplicate().get(in);
      inOff = 0;
    }
    BloscChunk c = BloscChunk.parse(in, inOff, src.remaining());
    int n = c.size();
    if (dst.remaining() < n) {
      throw new IllegalArgumentException("the destination has " + dst.remaining() + " bytes left, the chunk decodes to "
          + n);
    }
    if (dst.hasArray()) {
      c.decode(dst.array(), dst.arrayOffset() + dst.position(), BlockExecutor.SERIAL, Impl.JAVA);
      dst.position(dst.position() + n);
    } else {
      dst.put(c.decode());
    }
    src.position(src.position() + c.header().cbytes());
    return n;
  }

  /** Decodes a whole chunk with the configured implementation. */
  public static byte[] decompress(byte[] src, int off, int len) throws IOException {
    BloscHeader h = BloscHeader.parse(src, off, len);
    MemoryLimit.check(h.nbytes(), "Blosc chunk of " + len + " bytes");
    byte[] out = new byte[h.nbytes()];
    decompress(h, src, off, out, 0, configured());
    return out;
  }

  /** Decodes a whole chunk into {@code dst[dstOff..dstOff+nbytes)}. */
  public static void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, Impl impl) throws IOException {
    decompress(BloscHeader.parse(src, off, len), src, off, dst, dstOff, impl);
  }

  /**
   * Whether {@link #decompress(BloscHeader, byte[], int, byte[], int, Impl)} with {@code impl} decodes this
   * chunk in pure Java (false when it goes to native c-blosc); the one place that decides.
   */
  static boolean decodesInJava(BloscHeader h, Impl impl) {
    Impl use = impl == null ? Impl.AUTO : impl;
    if (use == Impl.JAVA) {
      return true;
    }
    if (use == Impl.NATIVE) {
      return false; // native or an IOException saying why not
    }
    if (!Filters.VECTOR) {
      if (h.isExtended() || h.version() > 2) {
        return true; // a Blosc2 chunk, which c-blosc 1.x cannot decode: not worth loading JNA and the library for
      }
      NativeBlosc n = nativeBlosc();
      return n == null || !n.canDecode(h);
    }
    return true;
  }

  /** Decodes a whole, already validated chunk in the calling thread. */
  public static void decompress(BloscHeader h, byte[] src, int off, byte[] dst, int dstOff, Impl impl) throws IOException {
    decompress(h, src, off, dst, dstOff, impl, BlockExecutor.SERIAL);
  }

  /** Decodes a whole, already validated chunk, the blocks of a large one on {@code ex} when pure Java decodes it. */
  public static void decompress(BloscHeader h, byte[] src, int off, byte[] dst, int dstOff, Impl impl, BlockExecutor ex)
      throws IOException {
    if (dst == null || dstOff < 0 || dstOff > dst.length - h.nbytes()) {
      throw new IOException("Blosc: destination too small for " + h.nbytes() + " bytes");
    }
    if (!decodesInJava(h, impl)) { // native c-blosc can decode it, or NATIVE was asked for
      nativeFor(h).decompress(h, src, off, dst, dstOff);
      countNative(h);
      return;
    }
    JavaBlosc.decodeAll(h, src, off, dst, dstOff, ex);
  }

  /**
   * Decodes a whole, already validated chunk into {@code dst} from its position on (which stays where it is) when
   * {@code impl} hands it to native c-blosc: a direct buffer then receives c-blosc's output with no copy. False, with
   * nothing written, when pure Java would decode it.
   */
  public static boolean decompressNative(BloscHeader h, byte[] src, int off, ByteBuffer dst, Impl impl)
      throws IOException {
    if (decodesInJava(h, impl)) {
      return false;
    }
    if (dst.remaining() < h.nbytes()) {
      throw new IOException("Blosc: destination too small for " + h.nbytes() + " bytes");
    }
    nativeFor(h).decompress(h, src, off, dst);
    countNative(h);
    return true;
  }

  /** The native library for a chunk that is not decoded in Java: refused only when NATIVE was asked for. */
  private static NativeBlosc nativeFor(BloscHeader h) throws IOException {
    NativeBlosc n = nativeBlosc();
    if (n == null || !n.canDecode(h)) {
      throw new IOException(n == null ? "native Blosc requested but unavailable: " + nativeProblem
          : "native " + n.version() + " cannot decode this chunk (" + h + ")");
    }
    return n;
  }

  private static void countNative(BloscHeader h) {
    BloscStats.CHUNKS.increment();
    BloscStats.NATIVE_CHUNKS.increment();
    BloscStats.BLOCKS.add(Math.max(1, h.nblocks()));
    BloscStats.BYTES.add(h.nbytes());
  }

  /**
   * Blosc's "getitem": decodes only the blocks covering bytes {@code [start, start+count)} of the decoded
   * chunk (plus block 0 when DELTA needs it) into {@code dst[dstOff..]}. Always pure Java.
   */
  public static void decompressRange(byte[] src, int off, int len, int start, int count, byte[] dst, int dstOff)
      throws IOException {
    BloscHeader h = BloscHeader.parse(src, off, len);
    JavaBlosc.decodeRange(h, src, off, start, count, dst, dstOff, JavaBlosc.dictionary(h, src, off));
  }
}
