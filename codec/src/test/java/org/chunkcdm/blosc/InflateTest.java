package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;
import org.chunkcdm.testkit.ZlibReference;
import org.junit.jupiter.api.Test;

/**
 * The whole-buffer {@link Inflate} against java.util.zip (the system zlib): the same bytes for streams made by
 * zlib's deflate at every level and strategy (stored, fixed and dynamic blocks, codes longer than the main
 * table, distances up to 32 KiB, short periods), and on mutated streams the same verdict (Inflate refuses at least
 * what zlib refuses; it refuses more only for bytes after the stream's end).
 */
class InflateTest {
  /** Data of many kinds: random, skewed symbols (long codes), float-like, periods 1..9, long-distance repeats. */
  static List<byte[]> corpus() {
    Random r = new Random(1950);
    List<byte[]> out = new ArrayList<>();
    for (int size : new int[] {0, 1, 7, 13, 100, 1001, 4097, 65_537, 262_147}) {
      byte[] random = new byte[size];
      r.nextBytes(random);
      out.add(random);
      byte[] skewed = new byte[size];
      for (int i = 0; i < size; i++) { // geometric-like: a few very common and many rare symbols
        int v = (int) (-Math.log(1 - r.nextDouble()) * 12);
        skewed[i] = (byte) Math.min(v, 255);
      }
      out.add(skewed);
      byte[] floats = new byte[size];
      for (int i = 0; i + 8 <= size; i += 8) {
        long bits = Double.doubleToLongBits(Math.round(Math.sin(i * 1e-4) * 1000) / 1000.0);
        for (int k = 0; k < 8; k++) {
          floats[i + k] = (byte) (bits >>> (8 * k));
        }
      }
      out.add(floats);
      for (int period = 1; period <= 9; period += 2) {
        byte[] p = new byte[size];
        for (int i = 0; i < size; i++) {
          p[i] = (byte) (i % period * 37 + (r.nextInt(50) == 0 ? 1 : 0));
        }
        out.add(p);
      }
      if (size > 40_000) {
        byte[] far = new byte[size];
        byte[] block = new byte[31_000];
        r.nextBytes(block);
        for (int i = 0; i < size; i++) {
          far[i] = block[i % block.length];
        }
        out.add(far);
      }
    }
    return out;
  }

  static final int[][] MODES = {
      {0, Deflater.DEFAULT_STRATEGY}, {1, Deflater.DEFAULT_STRATEGY}, {5, Deflater.DEFAULT_STRATEGY},
      {9, Deflater.DEFAULT_STRATEGY}, {6, Deflater.FILTERED}, {6, Deflater.HUFFMAN_ONLY}};

  @Test
  void decodesWhatZlibWrites() throws IOException {
    Inflate inf = new Inflate();
    int streams = 0;
    for (byte[] data : corpus()) {
      for (int[] m : MODES) {
        byte[] c = ZlibReference.deflate(data, m[0], m[1]);
        // at an offset inside larger arrays, with guard bytes around the output that must stay untouched
        byte[] in = new byte[c.length + 10];
        System.arraycopy(c, 0, in, 3, c.length);
        byte[] out = new byte[data.length + 20];
        Arrays.fill(out, (byte) 0x5a);
        inf.decode(in, 3, c.length, out, 9, data.length);
        assertArrayEquals(data, Arrays.copyOfRange(out, 9, 9 + data.length), "level " + m[0] + " strategy " + m[1]);
        for (int i = 0; i < 9; i++) {
          assertEquals((byte) 0x5a, out[i]);
        }
        for (int i = 9 + data.length; i < out.length; i++) {
          assertEquals((byte) 0x5a, out[i]);
        }
        streams++;
      }
    }
    assertTrue(streams > 100);
  }

  @Test
  void refusesWrongSizesAndTrailingBytes() throws IOException {
    byte[] data = corpus().get(5);
    byte[] c = ZlibReference.deflate(data, 6, Deflater.DEFAULT_STRATEGY);
    Inflate inf = new Inflate();
    assertThrows(IOException.class, () -> inf.decode(c, 0, c.length, new byte[data.length + 1], 0, data.length + 1));
    assertThrows(IOException.class, () -> inf.decode(c, 0, c.length, new byte[data.length], 0, data.length - 1));
    byte[] longer = Arrays.copyOf(c, c.length + 1);
    assertThrows(IOException.class, () -> inf.decode(longer, 0, longer.length, new byte[data.length], 0, data.length));
    for (int cut = 0; cut < c.length; cut += Math.max(1, c.length / 50)) {
      int k = cut;
      assertThrows(IOException.class, () -> inf.decode(c, 0, k, new byte[data.length], 0, data.length), "cut " + k);
    }
    // a preset dictionary (FDICT) is refused
    byte[] dict = c.clone();
    dict[1] = (byte) ((dict[1] & 0xe0) | 0x20);
    dict[1] = (byte) (dict[1] + (31 - ((dict[0] & 0xff) << 8 | (dict[1] & 0xff)) % 31) % 31);
    assertThrows(IOException.class, () -> inf.decode(dict, 0, dict.length, new byte[data.length], 0, data.length));
    // still decodes good streams after refusing bad ones
    byte[] out = new byte[data.length];
    inf.decode(c, 0, c.length, out, 0, data.length);
    assertArrayEquals(data, out);
  }

  /** The old path's verdict: the bytes, or null when java.util.zip refuses; {@code trailing[0]} = bytes left over. */
  static byte[] zlib(byte[] c, int outLen, int[] trailing) {
    return ZlibReference.inflate(c, 0, c.length, outLen, trailing);
  }

  @Test
  void mutatedStreamsGetZlibsVerdict() {
    Random r = new Random(1951);
    Inflate inf = new Inflate();
    int sameBytes = 0;
    int bothRefuse = 0;
    int trailingOnly = 0;
    List<byte[]> corpus = corpus();
    for (int t = 0; t < 6000; t++) {
      byte[] data = corpus.get(r.nextInt(corpus.size()));
      if (data.length > 70_000) {
        continue;
      }
      int[] m = MODES[r.nextInt(MODES.length)];
      byte[] c = ZlibReference.deflate(data, m[0], m[1]);
      int flips = 1 + r.nextInt(3);
      for (int f = 0; f < flips; f++) {
        int pos = r.nextBoolean() ? r.nextInt(c.length) : r.nextInt(Math.min(c.length, 2 + r.nextInt(200)));
        if (r.nextBoolean()) {
          c[pos] ^= (byte) (1 << r.nextInt(8));
        } else {
          c[pos] = (byte) r.nextInt(256);
        }
      }
      int outLen = r.nextInt(10) == 0 ? Math.max(0, data.length - 1 + r.nextInt(3)) : data.length;
      int[] trailing = {0};
      byte[] want = zlib(c, outLen, trailing);
      byte[] got = new byte[outLen];
      boolean ok;
      try {
        inf.decode(c, 0, c.length, got, 0, outLen);
        ok = true;
      } catch (IOException e) {
        assertTrue(e.getMessage() != null && e.getMessage().startsWith("zlib stream"), e.getMessage());
        ok = false;
      } catch (RuntimeException e) {
        throw new AssertionError("not an IOException on mutation " + t, e);
      }
      if (ok) {
        if (want == null) {
          fail("Inflate decodes a stream zlib refuses (mutation " + t + ")");
        }
        assertArrayEquals(want, got, "mutation " + t);
        sameBytes++;
      } else if (want == null) {
        bothRefuse++;
      } else {
        assertTrue(trailing[0] > 0, "Inflate refuses a stream zlib decodes without trailing bytes (mutation " + t + ")");
        trailingOnly++;
      }
    }
    assertTrue(bothRefuse > 1000, "both refuse " + bothRefuse);
    System.out.println("[inflate] mutated streams: same bytes " + sameBytes + ", both refuse " + bothRefuse
        + ", only zlib (trailing bytes) " + trailingOnly);
  }

  @Test
  void vectorAdlerAgreesWithJavaUtilZip() {
    assertTrue(!Filters.VECTOR || !VectorUnshuffle.handlesBits() || Inflate.VECTOR_ADLER,
        "512-bit vectors but no vector Adler-32");
    if (!Filters.VECTOR) {
      return;
    }
    Random r = new Random(32);
    for (int len = 0; len < 300_000; len = len * 3 + 1 + r.nextInt(7)) {
      for (int kind = 0; kind < 3; kind++) {
        byte[] b = new byte[len + 5];
        if (kind == 0) {
          r.nextBytes(b);
        } else {
          Arrays.fill(b, (byte) (kind == 1 ? 0xff : 0));
        }
        java.util.zip.Adler32 ref = new java.util.zip.Adler32();
        ref.update(b, 2, len);
        assertEquals((int) ref.getValue(), VectorAdler.adler32(b, 2, len), "len " + len + " kind " + kind);
      }
    }
    // every remainder of the 512-byte blocks (8 steps of 64 bytes), at segment (16 KiB) edges too
    for (int base : new int[] {0, 16_384 - 1024, 2 * 16_384 - 512}) {
      for (int len = base; len < base + 1600; len++) {
        byte[] b = new byte[len + 3];
        if (len % 2 == 0) {
          r.nextBytes(b);
        } else {
          Arrays.fill(b, (byte) 0xff);
        }
        java.util.zip.Adler32 ref = new java.util.zip.Adler32();
        ref.update(b, 1, len);
        assertEquals((int) ref.getValue(), VectorAdler.adler32(b, 1, len), "len " + len);
      }
    }
  }
}
