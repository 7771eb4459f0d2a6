package org.chunkcdm.testkit;

import io.airlift.compress.lz4.Lz4Compressor;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Blosc1 chunks as numcodecs and c-blosc write them by default, built by the format's layout: LZ4, byte shuffle, every
 * whole block split into one stream per item byte (a short last block is one stream); the LZ4 streams come from
 * aircompressor's compressor, and a stream that does not shrink (or that the caller asks for) is stored raw.
 */
public final class SplitBloscChunk {
  private SplitBloscChunk() {}

  /** {@code data} (items of {@code ts} bytes) in blocks of {@code bs} bytes, no stream forced raw. */
  public static byte[] of(byte[] data, int ts, int bs) {
    return of(data, ts, bs, s -> false);
  }

  /** As {@link #of(byte[], int, int)}; {@code raw.test(n)}: the n-th stream of the chunk (counted over its blocks) raw. */
  public static byte[] of(byte[] data, int ts, int bs, IntPredicate raw) {
    int nb = (data.length + bs - 1) / bs;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int[] starts = new int[nb];
    int no = 0;
    for (int b = 0; b < nb; b++) {
      starts[b] = 16 + 4 * nb + body.size();
      int bsize = Math.min(bs, data.length - b * bs);
      byte[] shuffled = shuffle(ts, data, b * bs, bsize);
      int streams = bsize == bs ? ts : 1;
      int ne = bsize / streams;
      for (int s = 0; s < streams; s++) {
        byte[] c = lz4(shuffled, s * ne, ne);
        boolean asIs = raw.test(no++) || c.length >= ne;
        le32(body, asIs ? ne : c.length);
        body.write(asIs ? shuffled : c, asIs ? s * ne : 0, asIs ? ne : c.length);
      }
    }
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    o.write(2); // Blosc1 format version
    o.write(1); // LZ4 format version
    o.write((1 << 5) | 0x01); // LZ4, byte shuffle, split
    o.write(ts);
    le32(o, data.length);
    le32(o, bs);
    le32(o, 16 + 4 * nb + body.size());
    for (int v : starts) {
      le32(o, v);
    }
    o.write(body.toByteArray(), 0, body.size());
    return o.toByteArray();
  }

  /** Blosc's byte shuffle of the whole items of {@code b[off..off+len)} (the rest as it is). */
  public static byte[] shuffle(int ts, byte[] b, int off, int len) {
    byte[] out = Arrays.copyOfRange(b, off, off + len);
    int items = len / ts;
    for (int i = 0; i < items; i++) {
      for (int j = 0; j < ts; j++) {
        out[j * items + i] = b[off + i * ts + j];
      }
    }
    return out;
  }

  static byte[] lz4(byte[] b, int off, int len) {
    Lz4Compressor c = new Lz4Compressor();
    byte[] out = new byte[c.maxCompressedLength(len)];
    return Arrays.copyOf(out, c.compress(b, off, len, out, 0, out.length));
  }

  private static void le32(ByteArrayOutputStream o, int v) {
    o.write(v);
    o.write(v >>> 8);
    o.write(v >>> 16);
    o.write(v >>> 24);
  }
}
