package org.chunkcdm.blosc;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Service interface of a native Blosc decoder (the {@code native} module binds c-blosc 1.x through JNA and
 * registers itself in {@code META-INF/services/org.chunkcdm.blosc.NativeBlosc}). {@link Blosc} loads it
 * once; when none loads, everything is decoded in pure Java.
 *
 * <p>Callers validate the chunk with {@link BloscHeader#parse} before calling {@link #decompress}: the
 * buffer slice holds at least {@code header.cbytes()} bytes and {@code dst} has room for
 * {@code header.nbytes()} bytes at {@code dstOff}. Implementations must be thread-safe.
 */
public interface NativeBlosc {
  /** True when the native library is loaded and usable. */
  boolean isAvailable();

  /** Human-readable library version, e.g. "c-blosc 1.21.3"; when not available, why not. */
  String version();

  /** True when this library can decode the chunk (format version, codec compiled in). */
  boolean canDecode(BloscHeader header);

  /** Decodes the whole chunk {@code src[off..off+header.cbytes())} into {@code dst[dstOff..]}. */
  void decompress(BloscHeader header, byte[] src, int off, byte[] dst, int dstOff) throws IOException;

  /**
   * As {@link #decompress(BloscHeader, byte[], int, byte[], int)}, into {@code dst} from its position on (which
   * stays where it is; at least {@code header.nbytes()} bytes remain). An implementation writes a direct buffer in
   * place, with no copy out of native memory; the default goes through an array.
   */
  default void decompress(BloscHeader header, byte[] src, int off, ByteBuffer dst) throws IOException {
    byte[] out = new byte[header.nbytes()];
    decompress(header, src, off, out, 0);
    dst.put(dst.position(), out);
  }
}
