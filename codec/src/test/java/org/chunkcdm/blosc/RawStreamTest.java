package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import org.chunkcdm.testkit.BloscChunks;
import org.chunkcdm.testkit.ZlibReference;
import org.junit.jupiter.api.Test;

/**
 * Blocks whose streams are stored raw (a stream as long as its decoded bytes): with a byte shuffle over split
 * streams the raw planes are read straight from the chunk beside the decoded ones
 * ({@link Filters#unshufflePlanes}), and a single raw stream is read in place by its filter. Chunks are built
 * here (format version 2, zlib streams from java.util.zip, every stream raw, decoded or mixed), for typesizes
 * 1–16 and block sizes that leave a short last block and are not multiples of 8 × typesize; every decode must
 * give the original bytes.
 */
class RawStreamTest {
  static final int ZLIB = 3 << 5;

  static byte[] shuffle(int ts, byte[] b, int off, int len) {
    return KernelData.byteShuffle(ts, b, off, len, true);
  }

  /** Blosc's bit shuffle of whole groups of 8 items (the rest as it is): row 8j+k holds bit k of byte j. */
  static byte[] bitshuffle(int ts, byte[] b, int off, int len) {
    return KernelData.bitShuffle(ts, b, off, len, true);
  }

  static byte[] zlib(byte[] b, int off, int len) {
    return ZlibReference.deflate(b, off, len, 6, Deflater.DEFAULT_STRATEGY);
  }

  /**
   * A version-2 chunk: {@code bit} selects bit shuffle (one stream per block) over byte shuffle (split streams);
   * {@code raw(stream)} decides which streams are stored raw.
   */
  static byte[] chunk(byte[] data, int ts, int bs, boolean bit, java.util.function.IntPredicate raw) {
    int nbytes = data.length;
    int nb = (nbytes + bs - 1) / bs;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int[] bstarts = new int[nb];
    int base = 16 + 4 * nb;
    int streamNo = 0;
    for (int b = 0; b < nb; b++) {
      bstarts[b] = base + body.size();
      int bsize = Math.min(bs, nbytes - b * bs);
      boolean leftover = bsize < bs;
      int nstreams = !bit && !leftover && ts <= 16 && bs / ts >= 128 ? ts : 1;
      // format version 2 bit-shuffles only blocks of whole groups of 8 items (a short last block may stay as it is)
      byte[] shuffled = !bit ? shuffle(ts, data, b * bs, bsize)
          : (bsize / ts) % 8 == 0 ? bitshuffle(ts, data, b * bs, bsize) : Arrays.copyOfRange(data, b * bs, b * bs + bsize);
      int ne = bsize / nstreams;
      for (int s = 0; s < nstreams; s++) {
        byte[] c = zlib(shuffled, s * ne, ne);
        if (raw.test(streamNo++) || c.length >= ne) {
          BloscChunks.le32(body, ne);
          body.write(shuffled, s * ne, ne);
        } else {
          BloscChunks.le32(body, c.length);
          body.write(c, 0, c.length);
        }
      }
    }
    return BloscChunks.assemble(ZLIB | (bit ? BloscHeader.FLAG_BITSHUFFLE | BloscHeader.FLAG_DONT_SPLIT
        : BloscHeader.FLAG_SHUFFLE), ts, nbytes, bs, bstarts, body);
  }

  /** Items whose high bytes repeat (they compress) and whose low bytes are random (they are stored raw). */
  static byte[] data(Random r, int ts, int items) {
    byte[] d = new byte[items * ts + r.nextInt(ts)];
    for (int i = 0; i < items; i++) {
      for (int j = 0; j < ts; j++) {
        d[i * ts + j] = (byte) (j < ts / 2 ? r.nextInt(256) : (i / 1000) * 7 + j);
      }
    }
    return d;
  }

  static byte[] decode(byte[] c) throws IOException {
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    byte[] out = new byte[h.nbytes() + 7];
    Arrays.fill(out, (byte) 0x33);
    Blosc.decompress(h, c, 0, out, 3, Blosc.Impl.JAVA);
    for (int i = 0; i < 3; i++) {
      if (out[i] != 0x33 || out[out.length - 1 - i] != 0x33) {
        throw new AssertionError("decode wrote outside its destination");
      }
    }
    return Arrays.copyOfRange(out, 3, 3 + h.nbytes());
  }

  @Test
  void rawPlanesBesideDecodedOnes() throws IOException {
    Random r = new Random(17);
    for (int ts = 1; ts <= 16; ts++) {
      for (int items : new int[] {1000, 4099, 20_011}) {
        byte[] d = data(r, ts, items);
        int bs = ts * (131 + r.nextInt(700)) + (ts > 1 ? 0 : 3); // a short last block; rarely a multiple of 8 * ts
        for (int mode = 0; mode < 3; mode++) {
          int m = mode;
          byte[] c = chunk(d, ts, bs, false, s -> m == 0 || (m == 2 && s % 3 == 1));
          assertArrayEquals(d, decode(c), "ts " + ts + " items " + items + " bs " + bs + " mode " + mode);
          // a range inside one block, and one across blocks
          int from = Math.min(d.length - 1, bs / 2 + 1);
          byte[] part = new byte[Math.min(d.length - from, bs + 5)];
          Blosc.decompressRange(c, 0, c.length, from, part.length, part, 0);
          assertArrayEquals(Arrays.copyOfRange(d, from, from + part.length), part, "range ts " + ts);
        }
      }
    }
  }

  @Test
  void singleRawStreamReadInPlace() throws IOException {
    Random r = new Random(18);
    for (int ts = 1; ts <= 16; ts++) {
      byte[] d = data(r, ts, 5000 + r.nextInt(100));
      int bs = 8 * ts * (40 + r.nextInt(50)); // bit shuffle in format version 2 needs whole groups of 8 items
      for (int mode = 0; mode < 2; mode++) {
        int m = mode;
        byte[] c = chunk(d, ts, bs, true, s -> m == 0 || s % 2 == 0);
        byte[] src = c.clone();
        assertArrayEquals(d, decode(c), "bitshuffle ts " + ts + " mode " + mode);
        assertArrayEquals(src, c, "the chunk itself was changed");
      }
      byte[] c = chunk(d, ts, ts * 100, false, s -> true); // fewer than 128 items a block: one stream
      assertArrayEquals(d, decode(c), "shuffle, no split, ts " + ts);
    }
  }

  @Test
  void planesKernelsAgreeWithTheDefinition() {
    Random r = new Random(19);
    for (int ts = 2; ts <= 16; ts++) {
      for (int n : new int[] {1, 7, 8, 9, 63, 64, 65, 127, 129, 1000, 4099, 32_768 + 5}) {
        byte[] contiguous = new byte[ts * n];
        int[] po = new int[ts];
        byte[][] pa = KernelData.randomPlanes(r, ts, n, po, 13, 3);
        for (int j = 0; j < ts; j++) {
          System.arraycopy(pa[j], po[j], contiguous, j * n, n);
        }
        byte[] want = UnshuffleTest.definition(ts, contiguous, 0, ts * n);
        int dp = r.nextInt(5);
        byte[] dst = new byte[dp + ts * n + 4];
        Filters.unshufflePlanes(ts, pa, po, dst, dp, n);
        assertArrayEquals(want, Arrays.copyOfRange(dst, dp, dp + ts * n), "ts " + ts + " n " + n);
        byte[] swar = new byte[dp + ts * n];
        int done = Filters.unshuffleSwar(ts, pa, po, swar, dp, n);
        assertArrayEquals(Arrays.copyOf(want, done * ts), Arrays.copyOfRange(swar, dp, dp + done * ts), "swar ts " + ts);
        if (Filters.VECTOR && VectorUnshuffle.handles(ts)) {
          byte[] vec = new byte[dp + ts * n];
          int vd = VectorUnshuffle.unshuffle(ts, pa, po, vec, dp, n);
          assertArrayEquals(Arrays.copyOf(want, vd * ts), Arrays.copyOfRange(vec, dp, dp + vd * ts), "vector ts " + ts);
        }
      }
    }
  }
}
