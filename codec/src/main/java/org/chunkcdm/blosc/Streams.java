package org.chunkcdm.blosc;

import java.io.IOException;
import java.util.Objects;

/**
 * The codecs and filters inside Blosc, for formats that use them on their own (Zarr compressors, HDF5 filters): one
 * compressed stream decoded to exactly the expected number of bytes, and the byte and bit unshuffles. Every call
 * checks its ranges and the stream strictly; a stream that decodes to more or fewer bytes, or breaks its format, is a
 * {@link CodecException}. Thread-safe (per-thread decoder state).
 */
public final class Streams {
  private Streams() {}

  /**
   * Decodes {@code in[ip..ip+inLen)} into exactly {@code outLen} bytes at {@code out[op..]}: for {@link
   * BloscCompressor#LZ4} one LZ4 block (no frame), for {@link BloscCompressor#ZSTD} one or more Zstandard frames
   * (skippable frames allowed), for {@link BloscCompressor#ZLIB} one zlib stream (RFC 1950), for {@link
   * BloscCompressor#SNAPPY} one raw Snappy block, for {@link BloscCompressor#BLOSCLZ} one BloscLZ stream.
   */
  public static void decode(BloscCompressor codec, byte[] in, int ip, int inLen, byte[] out, int op, int outLen)
      throws IOException {
    Objects.requireNonNull(codec, "codec");
    Objects.checkFromIndexSize(ip, inLen, in.length);
    Objects.checkFromIndexSize(op, outLen, out.length);
    Codecs.decode(codec, in, ip, inLen, out, op, outLen, null);
  }

  /**
   * The decoded size a Zstandard frame at {@code in[ip..ip+inLen)} declares in its header, or -1 when it declares
   * none (a streaming frame). A header that is not a Zstandard frame's is a {@link CodecException}.
   */
  public static long zstdContentSize(byte[] in, int ip, int inLen) throws IOException {
    Objects.checkFromIndexSize(ip, inLen, in.length);
    if (inLen < 6 || (in[ip] & 0xFF | (in[ip + 1] & 0xFF) << 8 | (in[ip + 2] & 0xFF) << 16 | (in[ip + 3] & 0xFF) << 24)
        != org.chunkcdm.blosc.zstd.ZstdDecoder.MAGIC) {
      throw new CodecException("zstd: no frame magic at the start of a " + inLen + "-byte stream");
    }
    int fhd = in[ip + 4] & 0xFF;
    int fcsFlag = fhd >>> 6;
    boolean single = (fhd & 0x20) != 0;
    int didFlag = fhd & 0x03;
    int didSize = didFlag == 3 ? 4 : didFlag;
    int fcsSize = fcsFlag == 0 ? (single ? 1 : 0) : 1 << fcsFlag;
    if (fcsSize == 0) {
      return -1;
    }
    int p = ip + 5 + (single ? 0 : 1) + didSize;
    if (p + fcsSize > ip + inLen) {
      throw new CodecException("zstd: frame header of a " + inLen + "-byte stream is truncated");
    }
    long v = 0;
    for (int i = fcsSize - 1; i >= 0; i--) {
      v = v << 8 | (in[p + i] & 0xFF);
    }
    return fcsSize == 2 ? v + 256 : v;
  }

  /**
   * Blosc's and numcodecs' byte unshuffle: {@code len} bytes of {@code typesize}-byte items stored as
   * {@code typesize} planes (first bytes of every item, then second bytes, ...) at {@code src[sp..]} back to items
   * at {@code dst[dp..]}. The {@code len % typesize} trailing bytes are copied as they are.
   */
  public static void unshuffle(int typesize, byte[] src, int sp, byte[] dst, int dp, int len) {
    checkArgs(typesize, src, sp, dst, dp, len);
    Filters.unshuffle(typesize, src, sp, dst, dp, len);
  }

  /**
   * Blosc's bit unshuffle (the bitshuffle algorithm over one block): the items of {@code len} bytes are stored as
   * {@code 8 * typesize} bit planes of {@code len / typesize / 8} items each; the bytes after the largest multiple of
   * {@code 8 * typesize} are copied as they are.
   */
  public static void bitUnshuffle(int typesize, byte[] src, int sp, byte[] dst, int dp, int len) {
    checkArgs(typesize, src, sp, dst, dp, len);
    Filters.bitunshuffle(typesize, src, sp, dst, dp, len);
  }

  private static void checkArgs(int typesize, byte[] src, int sp, byte[] dst, int dp, int len) {
    Objects.checkFromIndexSize(sp, len, src.length);
    Objects.checkFromIndexSize(dp, len, dst.length);
    if (typesize < 1) {
      throw new IllegalArgumentException("typesize " + typesize);
    }
  }
}
