package org.chunkcdm.blosc;

import io.airlift.compress.snappy.SnappyDecompressor;
import java.io.IOException;
import org.chunkcdm.blosc.zstd.ZstdDecoder;

/** One stream of codec output to exactly the expected number of bytes. */
final class Codecs {
  /*
   * LZ4 streams all go through our strict Lz4 decoder (with or without a dictionary): aircompressor's LZ4 accepts
   * streams the block format forbids and then gives bytes that differ from liblz4's (mutated chunks in
   * native's DifferentialTest). Strictness over speed: see docs/RELIABILITY.md.
   */
  private static final ThreadLocal<SnappyDecompressor> SNAPPY = ThreadLocal.withInitial(SnappyDecompressor::new);
  /**
   * Our own pure-Java zstd decoder, for every zstd stream: it reads frames that need the chunk's dictionary
   * (aircompressor has no dictionaries) and is as fast as aircompressor's on the rest (bench/run-zstd.sh).
   */
  private static final ThreadLocal<ZstdDecoder> ZSTD = ThreadLocal.withInitial(ZstdDecoder::new);
  /** Our whole-buffer inflate for every zlib stream. */
  private static final ThreadLocal<Inflate> INFLATE = ThreadLocal.withInitial(Inflate::new);

  private Codecs() {}

  /**
   * Decodes {@code in[ip..ip+inLen)} with {@code c} into exactly {@code outLen} bytes at {@code out[op..]}.
   * {@code dict} (may be null) is the chunk's dictionary.
   */
  static void decode(BloscCompressor c, byte[] in, int ip, int inLen, byte[] out, int op, int outLen, ChunkDictionary dict)
      throws IOException {
    decode(c, in, ip, inLen, out, op, outLen, outLen, dict);
  }

  /**
   * As {@link #decode(BloscCompressor, byte[], int, int, byte[], int, int, ChunkDictionary)}, for a read that needs
   * only the first {@code need} bytes of the stream: an LZ4 stream stops decoding once they are final ({@link
   * Lz4#decode(byte[], int, int, byte[], int, int, int, byte[])}), the other codecs decode the whole stream.
   */
  static void decode(BloscCompressor c, byte[] in, int ip, int inLen, byte[] out, int op, int outLen, int need,
      ChunkDictionary dict) throws IOException {
    int n;
    try {
      switch (c) {
        case BLOSCLZ:
          BloscLZ.decode(in, ip, inLen, out, op, outLen);
          return;
        case LZ4:
          Lz4.decode(in, ip, inLen, out, op, outLen, need, dict == null ? null : dict.prefix);
          return;
        case SNAPPY:
          checkSnappy(in, ip, inLen, outLen);
          n = SNAPPY.get().decompress(in, ip, inLen, out, op, outLen);
          break;
        case ZSTD:
          n = ZSTD.get().decompress(in, ip, inLen, out, op, outLen, dict == null ? null : dict.zstd);
          break;
        case ZLIB:
          INFLATE.get().decode(in, ip, inLen, out, op, outLen);
          return;
        default:
          throw new CodecException("unsupported codec " + c);
      }
    } catch (IOException e) {
      throw e;
    } catch (RuntimeException | LinkageError e) {
      throw new CodecException(c.cname() + " stream is corrupt: " + e.getMessage(), e);
    }
    if (n != outLen) {
      throw new CodecException(c.cname() + " stream decoded to " + n + " bytes, expected " + outLen);
    }
  }

  /**
   * Checks a Snappy stream strictly before aircompressor decodes it (which accepts some streams the format
   * forbids, e.g. a copy with offset 0, and then differs from libsnappy): the length preamble equals the block
   * size, every literal and copy stays inside the input and the output, every copy offset is at least 1 and
   * reaches only bytes already produced, and the elements end exactly at the end of the input.
   */
  static void checkSnappy(byte[] in, int ip, int inLen, int outLen) throws CodecException {
    final int end = ip + inLen;
    int p = snappyPreamble(in, ip, end, outLen);
    long produced = 0;
    while (p < end) {
      int tag = in[p++] & 0xff;
      long len;
      long offset;
      switch (tag & 3) {
        case 0: {
          int l = tag >>> 2;
          if (l >= 60) {
            int extra = l - 59;
            if (extra > end - p) {
              throw new CodecException("snappy stream: literal length passes the end of the input");
            }
            long x = 0;
            for (int i = 0; i < extra; i++) {
              x |= (long) (in[p++] & 0xff) << (8 * i);
            }
            len = x + 1;
          } else {
            len = l + 1;
          }
          if (len > end - p || produced + len > outLen) {
            throw new CodecException("snappy stream: literal of " + len + " bytes passes the end of the input or block");
          }
          p += (int) len;
          produced += len;
          continue;
        }
        case 1:
          if (p >= end) {
            throw new CodecException("snappy stream: copy offset passes the end of the input");
          }
          len = ((tag >>> 2) & 7) + 4;
          offset = (long) (tag >>> 5) << 8 | (in[p++] & 0xff);
          break;
        case 2:
          if (end - p < 2) {
            throw new CodecException("snappy stream: copy offset passes the end of the input");
          }
          len = (tag >>> 2) + 1;
          offset = (in[p] & 0xff) | (in[p + 1] & 0xff) << 8;
          p += 2;
          break;
        default:
          if (end - p < 4) {
            throw new CodecException("snappy stream: copy offset passes the end of the input");
          }
          len = (tag >>> 2) + 1;
          offset = (in[p] & 0xffL) | (in[p + 1] & 0xffL) << 8 | (in[p + 2] & 0xffL) << 16 | (in[p + 3] & 0xffL) << 24;
          p += 4;
          break;
      }
      if (offset == 0 || offset > produced) {
        throw new CodecException("snappy stream: copy offset " + offset + " at output byte " + produced + " is invalid");
      }
      if (produced + len > outLen) {
        throw new CodecException("snappy stream decodes to more than the block's " + outLen + " bytes");
      }
      produced += len;
    }
    if (produced != outLen) {
      throw new CodecException("snappy stream decodes to " + produced + " bytes, the block has " + outLen);
    }
  }

  /** Checks a Snappy stream's length preamble (a varint of at most 5 bytes) against the block size; returns its end. */
  private static int snappyPreamble(byte[] in, int ip, int end, int outLen) throws CodecException {
    int p = ip;
    long v = 0;
    for (int i = 0; ; i++) {
      if (i >= 5 || p >= end) {
        throw new CodecException("snappy stream: bad length preamble");
      }
      int b = in[p++] & 0xff;
      v |= (long) (b & 0x7f) << (7 * i);
      if (b < 0x80) {
        break;
      }
    }
    if (v != outLen) {
      throw new CodecException("snappy stream says it holds " + v + " bytes, the block has " + outLen);
    }
    return p;
  }
}
