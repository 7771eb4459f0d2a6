package org.chunkcdm.nativeblosc;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.chunkcdm.blosc.CodecException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.NativeBlosc;

/**
 * {@link NativeBlosc} over c-blosc 1.x through JNA, using the thread-safe {@code blosc_decompress_ctx}. Only
 * Blosc1 chunks (16-byte header, format version 1-2) whose codec the library was built with are handed to
 * it; the header has been validated in Java first, and the buffers passed are exactly as large as the
 * header says. Each thread keeps its own native buffers.
 */
public final class JnaBlosc implements NativeBlosc {
  private static final ThreadLocal<Memory[]> BUFFERS = ThreadLocal.withInitial(() -> new Memory[2]);
  private final Set<BloscCompressor> codecs = new HashSet<>();
  private final String version;

  public JnaBlosc() {
    String v = null;
    if (CBlosc.LOADED) {
      try {
        v = CBlosc.blosc_get_version_string();
        for (String c : CBlosc.blosc_list_compressors().split(",")) {
          switch (c.trim().toLowerCase(Locale.ROOT)) {
            case "blosclz":
              codecs.add(BloscCompressor.BLOSCLZ);
              break;
            case "lz4":
              codecs.add(BloscCompressor.LZ4);
              break;
            case "snappy":
              codecs.add(BloscCompressor.SNAPPY);
              break;
            case "zlib":
              codecs.add(BloscCompressor.ZLIB);
              break;
            case "zstd":
              codecs.add(BloscCompressor.ZSTD);
              break;
            default:
              break;
          }
        }
      } catch (Throwable t) {
        v = null;
      }
    }
    version = v;
  }

  @Override
  public boolean isAvailable() {
    return CBlosc.LOADED && version != null;
  }

  @Override
  public String version() {
    return isAvailable() ? "c-blosc " + version + " (" + CBlosc.LIBRARY + ")" : CBlosc.PROBLEM;
  }

  /** Codecs this build of c-blosc has. */
  public Set<BloscCompressor> codecs() {
    return Set.copyOf(codecs);
  }

  @Override
  public boolean canDecode(BloscHeader h) {
    if (!isAvailable() || h.isExtended() || h.version() > 2) {
      return false;
    }
    return h.isMemcpyed() || h.nbytes() == 0 || codecs.contains(h.compressor());
  }

  private static Memory buffer(int slot, long size) {
    Memory[] b = BUFFERS.get();
    long want = Math.max(size, 1);
    if (b[slot] == null || b[slot].size() < want) {
      b[slot] = new Memory(Math.max(want, 1 << 16));
    }
    return b[slot];
  }

  @Override
  public void decompress(BloscHeader h, byte[] src, int off, byte[] dst, int dstOff) throws IOException {
    check(h, src, off, dstOff >= 0 && dstOff <= dst.length - h.nbytes());
    if (h.nbytes() > 0) {
      Memory out = buffer(1, h.nbytes());
      decode(h, src, off, out);
      out.read(0, dst, dstOff, h.nbytes());
    }
  }

  /** A direct {@code dst} gets c-blosc's output in place; a heap one through the thread's native buffer. */
  @Override
  public void decompress(BloscHeader h, byte[] src, int off, ByteBuffer dst) throws IOException {
    if (!dst.isDirect()) {
      NativeBlosc.super.decompress(h, src, off, dst);
      return;
    }
    check(h, src, off, dst.remaining() >= h.nbytes());
    if (h.nbytes() > 0) {
      decode(h, src, off, Native.getDirectBufferPointer(dst).share(dst.position()));
    }
  }

  private void check(BloscHeader h, byte[] src, int off, boolean roomForOutput) throws IOException {
    if (!canDecode(h)) {
      throw new IOException("native c-blosc cannot decode " + h);
    }
    if (off < 0 || off > src.length - h.cbytes() || !roomForOutput) {
      throw new IOException("native c-blosc: buffers smaller than the chunk header says");
    }
  }

  /** The chunk {@code src[off..off+cbytes)} decoded into {@code out} (room for nbytes, which is not 0). */
  private static void decode(BloscHeader h, byte[] src, int off, Pointer out) throws IOException {
    Memory in = buffer(0, h.cbytes());
    in.write(0, src, off, h.cbytes());
    int n = CBlosc.blosc_decompress_ctx(in, out, new NativeLong(h.nbytes()), 1);
    if (n != h.nbytes()) {
      throw new CodecException("native c-blosc failed to decode the chunk (return code " + n + ", expected "
          + h.nbytes() + " bytes)");
    }
  }

  /**
   * Compresses with c-blosc (for tests and benchmarks that need chunks made by the reference library).
   *
   * @param shuffle 0 none, 1 byte shuffle, 2 bit shuffle
   * @param blocksize 0 for automatic
   */
  public byte[] compress(byte[] data, int clevel, int shuffle, int typesize, String codec, int blocksize) throws IOException {
    if (!isAvailable()) {
      throw new IOException(version());
    }
    int max = data.length + 16;
    Memory in = new Memory(Math.max(1, data.length));
    Memory out = new Memory(max);
    if (data.length > 0) {
      in.write(0, data, 0, data.length);
    }
    int n = CBlosc.blosc_compress_ctx(clevel, shuffle, new NativeLong(typesize), new NativeLong(data.length), in, out,
        new NativeLong(max), codec, new NativeLong(blocksize), 1);
    if (n <= 0) {
      throw new IOException("native c-blosc compression failed (" + n + ") for codec " + codec);
    }
    return out.getByteArray(0, n);
  }
}
