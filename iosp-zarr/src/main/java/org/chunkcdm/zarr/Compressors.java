package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.chunkcdm.blosc.BloscChunk;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.Streams;
import org.chunkcdm.chunk.DecodePool;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The compressors (numcodecs ids in Zarr v2, codec names in Zarr v3) and the CRC-32C checksum as decoding
 * {@link Step}s. Blosc, LZ4, Zstandard and zlib decode through chunkcdm's pure-Java codec; gzip through
 * java.util.zip; bzip2 through commons-compress; LZMA/xz through xz-java.
 */
final class Compressors {
  private Compressors() {}

  /** The step of a numcodecs compressor config (v2 {@code compressor}, v3 {@code numcodecs.*}), or null when unknown. */
  static Step of(String id, JsonNode cfg) throws IOException {
    switch (id.toLowerCase(Locale.ROOT)) {
      case "blosc":
        return new Blosc(describeBlosc(cfg));
      case "zstd":
        return new Zstd(cfg.path("level").asInt(0));
      case "gzip":
        return new Gzip(cfg.path("level").asInt(-1));
      case "zlib":
        return new Zlib(cfg.path("level").asInt(-1));
      case "lz4":
        return new Lz4(cfg.path("acceleration").asInt(1));
      case "bz2":
        return new Bz2(cfg.path("level").asInt(-1));
      case "lzma":
        return lzma(cfg);
      case "crc32c":
        return new Crc32c();
      default:
        return null;
    }
  }

  static String describeBlosc(JsonNode cfg) {
    String cname = cfg.path("cname").asText("?");
    JsonNode sh = cfg.path("shuffle");
    String shuffle;
    if (sh.isTextual()) {
      shuffle = sh.asText().equals("noshuffle") ? "no shuffle" : sh.asText().equals("bitshuffle") ? "bit shuffle" : "byte shuffle";
    } else {
      int s = sh.asInt(1);
      shuffle = s == 0 ? "no shuffle" : s == 2 ? "bit shuffle" : s == -1 ? "auto shuffle" : "byte shuffle";
    }
    return "blosc " + cname + " clevel " + cfg.path("clevel").asInt(5) + ", " + shuffle;
  }

  /** A decoded size as an array length, refused when it does not fit the heap. */
  static int alloc(long n, String what) throws IOException {
    Bounds.checkAllocation(n, what);
    return (int) n;
  }

  /** Checks the exact size of a decoded stream. */
  static void checkSize(long got, int want, String codec) throws FormatException {
    if (want >= 0 && got != want) {
      throw new FormatException(codec + " stream decodes to " + got + " bytes, the chunk needs " + want);
    }
  }

  /** One Blosc1 frame (numcodecs' Blosc, Zarr v3 {@code blosc}). */
  static final class Blosc implements Step {
    final String description;

    Blosc(String description) {
      this.description = description;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      BloscChunk c = BloscChunk.parse(in, off, len);
      int n = c.header().nbytes();
      checkSize(n, outLen, "blosc");
      byte[] out = new byte[alloc(n, "blosc chunk")];
      c.decode(out, 0, DecodePool.BLOCKS, org.chunkcdm.blosc.Blosc.configured());
      return out;
    }

    @Override
    public String describe() {
      return description;
    }
  }

  /** One or more Zstandard frames with the content size in the header (numcodecs, Zarr v3 {@code zstd}). */
  static final class Zstd implements Step {
    final int level;

    Zstd(int level) {
      this.level = level;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      byte[] out = new byte[alloc(decodedSize(in, off, len, outLen), "zstd chunk")];
      Streams.decode(BloscCompressor.ZSTD, in, off, len, out, 0, out.length);
      return out;
    }

    @Override
    public void decodeInto(byte[] in, int off, int len, byte[] out, int op, int outLen) throws IOException {
      decodedSize(in, off, len, outLen);
      Streams.decode(BloscCompressor.ZSTD, in, off, len, out, op, outLen);
    }

    /**
     * The decoded size: the frame header's content size, else {@code outLen} (the size the chunk needs, -1 when
     * unknown), checked against {@code outLen}.
     */
    private static long decodedSize(byte[] in, int off, int len, int outLen) throws IOException {
      long n = Streams.zstdContentSize(in, off, len);
      if (n < 0) {
        n = outLen;
        if (n < 0) {
          throw new FormatException("zstd frame without a content size in its header");
        }
      }
      checkSize(n, outLen, "zstd");
      return n;
    }

    @Override
    public String describe() {
      return "zstd level " + level;
    }
  }

  /** numcodecs LZ4: 4-byte little-endian decoded size, then one LZ4 block. */
  static final class Lz4 implements Step {
    final int acceleration;

    Lz4(int acceleration) {
      this.acceleration = acceleration;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      long n = declared(in, off, len);
      checkSize(n, outLen, "lz4");
      byte[] out = new byte[alloc(n, "lz4 chunk")];
      Streams.decode(BloscCompressor.LZ4, in, off + 4, len - 4, out, 0, out.length);
      return out;
    }

    @Override
    public void decodeInto(byte[] in, int off, int len, byte[] out, int op, int outLen) throws IOException {
      checkSize(declared(in, off, len), outLen, "lz4");
      Streams.decode(BloscCompressor.LZ4, in, off + 4, len - 4, out, op, outLen);
    }

    /** The decoded size in the 4-byte little-endian prefix. */
    private static long declared(byte[] in, int off, int len) throws FormatException {
      if (len < 4) {
        throw new FormatException("lz4: " + len + " bytes, too short for the 4-byte size prefix");
      }
      return (in[off] & 0xFFL) | (in[off + 1] & 0xFFL) << 8 | (in[off + 2] & 0xFFL) << 16 | (in[off + 3] & 0xFFL) << 24;
    }

    @Override
    public String describe() {
      return "lz4 acceleration " + acceleration;
    }
  }

  /** A zlib stream (RFC 1950). */
  static final class Zlib implements Step {
    final int level;

    Zlib(int level) {
      this.level = level;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      if (outLen >= 0) {
        byte[] out = new byte[alloc(outLen, "zlib chunk")];
        Streams.decode(BloscCompressor.ZLIB, in, off, len, out, 0, outLen);
        return out;
      }
      return drain(new java.util.zip.InflaterInputStream(new ByteArrayInputStream(in, off, len)), -1, "zlib");
    }

    @Override
    public void decodeInto(byte[] in, int off, int len, byte[] out, int op, int outLen) throws IOException {
      Streams.decode(BloscCompressor.ZLIB, in, off, len, out, op, outLen);
    }

    @Override
    public String describe() {
      return "zlib level " + level;
    }
  }

  /** A gzip stream (one or more members). */
  static final class Gzip implements Step {
    final int level;

    Gzip(int level) {
      this.level = level;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      try {
        return drain(new GZIPInputStream(new ByteArrayInputStream(in, off, len), 8192), outLen, "gzip");
      } catch (ZipException | java.io.EOFException e) {
        throw new FormatException("gzip: " + e.getMessage(), e);
      }
    }

    @Override
    public String describe() {
      return "gzip level " + level;
    }
  }

  /** One bzip2 stream. */
  static final class Bz2 implements Step {
    final int level;

    Bz2(int level) {
      this.level = level;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      try {
        return drain(new BZip2CompressorInputStream(new ByteArrayInputStream(in, off, len), true), outLen, "bz2");
      } catch (IOException e) {
        if (e instanceof FormatException) {
          throw e;
        }
        throw new FormatException("bz2: " + e.getMessage(), e);
      }
    }

    @Override
    public String describe() {
      return "bz2 level " + level;
    }
  }

  static Step lzma(JsonNode cfg) {
    int format = cfg.path("format").asInt(1);
    String preset = cfg.path("preset").isNull() || cfg.path("preset").isMissingNode() ? "default" : cfg.path("preset").asText();
    if (format != 1 && format != 2) {
      return null; // raw LZMA (format 3) or auto: not read
    }
    return new Lzma(format == 1, "lzma " + (format == 1 ? "xz" : "alone") + " preset " + preset);
  }

  /** numcodecs LZMA: an .xz container (format 1) or a legacy .lzma stream (format 2). */
  static final class Lzma implements Step {
    final boolean xz;
    final String description;

    Lzma(boolean xz, String description) {
      this.xz = xz;
      this.description = description;
    }

    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      try {
        InputStream s = xz ? new XZInputStream(new ByteArrayInputStream(in, off, len))
            : new LZMAInputStream(new ByteArrayInputStream(in, off, len));
        return drain(s, outLen, "lzma");
      } catch (IOException e) {
        if (e instanceof FormatException) {
          throw e;
        }
        throw new FormatException("lzma: " + e.getMessage(), e);
      }
    }

    @Override
    public String describe() {
      return description;
    }
  }

  /** Zarr v3 {@code crc32c}: the bytes, then their CRC-32C as 4 little-endian bytes (checked). */
  static final class Crc32c implements Step {
    @Override
    public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
      if (len < 4) {
        throw new FormatException("crc32c: " + len + " bytes cannot hold the 4-byte checksum");
      }
      int n = len - 4;
      checkSize(n, outLen, "crc32c");
      CRC32C crc = new CRC32C();
      crc.update(in, off, n);
      long want = (in[off + n] & 0xFFL) | (in[off + n + 1] & 0xFFL) << 8 | (in[off + n + 2] & 0xFFL) << 16
          | (in[off + n + 3] & 0xFFL) << 24;
      if (crc.getValue() != want) {
        throw new FormatException(String.format(Locale.ROOT, "CRC-32C mismatch: stored %08x, computed %08x (damaged chunk)",
            want, crc.getValue()));
      }
      byte[] out = new byte[n];
      System.arraycopy(in, off, out, 0, n);
      return out;
    }

    @Override
    public long encodedSize(long decodedLen) {
      return decodedLen < 0 ? -1 : decodedLen + 4;
    }

    @Override
    public String describe() {
      return "crc32c";
    }
  }

  /**
   * Reads a decompressing stream to its end: exactly {@code outLen} bytes when known (more or fewer is a
   * FormatException), else everything, growing within the heap bound.
   */
  static byte[] drain(InputStream s, int outLen, String codec) throws IOException {
    try (InputStream in = s) {
      if (outLen >= 0) {
        byte[] out = new byte[alloc(outLen, codec + " chunk")];
        int n = in.readNBytes(out, 0, outLen);
        if (n != outLen) {
          throw new FormatException(codec + " stream decodes to " + n + " bytes, the chunk needs " + outLen);
        }
        if (in.read() >= 0) {
          throw new FormatException(codec + " stream decodes to more than the " + outLen + " bytes the chunk needs");
        }
        return out;
      }
      java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
      byte[] buf = new byte[65536];
      long total = 0;
      int k;
      while ((k = in.read(buf)) > 0) {
        total += k;
        Bounds.checkAllocation(total, codec + " chunk");
        bos.write(buf, 0, k);
      }
      return bos.toByteArray();
    }
  }
}
