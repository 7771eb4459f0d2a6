package org.chunkcdm.blosc;

import org.chunkcdm.io.FormatException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.chunkcdm.blosc.zstd.ZstdDecoder;

/** One stream of codec output to exactly the expected number of bytes. */
final class Codecs {
  /**
   * aircompressor's LZ4 for streams without a dictionary (faster than {@link Lz4} on poorly compressible data,
   * see the Lz4Bench numbers in docs/BENCHMARKS.md); {@link Lz4} for those with one, which it cannot decode.
   */
  private static final ThreadLocal<Lz4Decompressor> LZ4 = ThreadLocal.withInitial(Lz4Decompressor::new);
  private static final ThreadLocal<SnappyDecompressor> SNAPPY = ThreadLocal.withInitial(SnappyDecompressor::new);
  /**
   * Our own pure-Java zstd decoder, for every zstd stream: it reads frames that need the chunk's dictionary
   * (aircompressor has no dictionaries) and is as fast as aircompressor's on the rest (bench/run-zstd.sh).
   */
  private static final ThreadLocal<ZstdDecoder> ZSTD = ThreadLocal.withInitial(ZstdDecoder::new);
  private static final ThreadLocal<Inflater> INFLATER = ThreadLocal.withInitial(Inflater::new);

  private Codecs() {}

  /**
   * Decodes {@code in[ip..ip+inLen)} with {@code c} into exactly {@code outLen} bytes at {@code out[op..]}.
   * {@code dict} (may be null) is the chunk's dictionary.
   */
  static void decode(BloscCompressor c, byte[] in, int ip, int inLen, byte[] out, int op, int outLen, ChunkDictionary dict)
      throws IOException {
    int n;
    try {
      switch (c) {
        case BLOSCLZ:
          BloscLZ.decode(in, ip, inLen, out, op, outLen);
          return;
        case LZ4:
          if (dict != null) {
            Lz4.decode(in, ip, inLen, out, op, outLen, dict.prefix);
            return;
          }
          n = LZ4.get().decompress(in, ip, inLen, out, op, outLen);
          break;
        case SNAPPY:
          n = SNAPPY.get().decompress(in, ip, inLen, out, op, outLen);
          break;
        case ZSTD:
          n = ZSTD.get().decompress(in, ip, inLen, out, op, outLen, dict == null ? null : dict.zstd);
          break;
        case ZLIB:
          n = inflate(in, ip, inLen, out, op, outLen);
          break;
        default:
          throw new FormatException("unsupported codec " + c);
      }
    } catch (IOException e) {
      throw e;
    } catch (RuntimeException | LinkageError e) {
      throw new FormatException(c.cname() + " stream is corrupt: " + e.getMessage(), e);
    }
    if (n != outLen) {
      throw new FormatException(c.cname() + " stream decoded to " + n + " bytes, expected " + outLen);
    }
  }

  private static int inflate(byte[] in, int ip, int inLen, byte[] out, int op, int outLen) throws IOException {
    Inflater inf = INFLATER.get();
    inf.reset();
    inf.setInput(in, ip, inLen);
    int n = 0;
    try {
      while (n < outLen) {
        int k = inf.inflate(out, op + n, outLen - n);
        if (k == 0) {
          if (inf.finished() || inf.needsInput() || inf.needsDictionary()) {
            break;
          }
        }
        n += k;
      }
      if (!inf.finished()) {
        // the stream must end exactly at outLen bytes
        byte[] probe = new byte[1];
        if (inf.inflate(probe) > 0) {
          throw new FormatException("zlib stream holds more than the expected " + outLen + " bytes");
        }
        if (!inf.finished()) {
          throw new FormatException("zlib stream is truncated after " + n + " of " + outLen + " bytes");
        }
      }
    } catch (DataFormatException e) {
      throw new FormatException("zlib stream is corrupt: " + e.getMessage(), e);
    }
    return n;
  }
}
