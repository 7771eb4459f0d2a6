package org.chunkcdm.testkit;

import io.airlift.compress.lz4.Lz4Compressor;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.function.IntPredicate;

/** Blosc1 chunks for tests, built by the format's layout (a 16-byte header, the block starts, the blocks' streams). */
public final class BloscChunks {
  private BloscChunks() {}

  /**
   * A chunk as numcodecs and c-blosc write one by default: LZ4, byte shuffle, every whole block of {@code bs} bytes
   * split into one stream per item byte (a short last block is one stream); the LZ4 streams come from aircompressor's
   * compressor, and a stream that does not shrink is stored raw.
   */
  public static byte[] split(byte[] data, int ts, int bs) {
    return split(data, ts, bs, s -> false);
  }

  /** As {@link #split(byte[], int, int)}; {@code raw.test(n)}: the n-th stream of the chunk (over its blocks) raw. */
  public static byte[] split(byte[] data, int ts, int bs, IntPredicate raw) {
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
    return assemble((1 << 5) | 0x01, ts, data.length, bs, starts, body); // LZ4, byte shuffle, split
  }

  /**
   * A Blosc1 chunk (format version 2) of {@code nbytes} decoded bytes in blocks of {@code bs}: header flags
   * {@code flags} (codec in bits 5-7, shuffle 0x01, bit shuffle 0x04, not split 0x10), typesize {@code ts}, then the
   * block starts and {@code body}, the blocks' streams (each a 4-byte size and its bytes), block {@code b} at
   * {@code starts[b]} (counted from the chunk's start).
   */
  public static byte[] assemble(int flags, int ts, int nbytes, int bs, int[] starts, ByteArrayOutputStream body) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    o.write(2); // Blosc1 format version
    o.write(1); // codec format version
    o.write(flags);
    o.write(ts);
    le32(o, nbytes);
    le32(o, bs);
    le32(o, 16 + 4 * starts.length + body.size());
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

  /** {@code b[off..off+len)} as one raw LZ4 block (aircompressor's compressor). */
  public static byte[] lz4(byte[] b, int off, int len) {
    Lz4Compressor c = new Lz4Compressor();
    byte[] out = new byte[c.maxCompressedLength(len)];
    return Arrays.copyOf(out, c.compress(b, off, len, out, 0, out.length));
  }

  /** {@code v} as 4 little-endian bytes. */
  public static void le32(ByteArrayOutputStream o, int v) {
    o.write(v);
    o.write(v >>> 8);
    o.write(v >>> 16);
    o.write(v >>> 24);
  }
}
