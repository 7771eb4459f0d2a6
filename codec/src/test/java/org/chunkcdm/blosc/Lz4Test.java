package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;

/**
 * The pure-Java LZ4 block decoder against the reference LZ4 library (liblz4, which every Debian system and
 * libblosc1 carry), with and without prefix dictionaries, and on corrupt streams.
 */
class Lz4Test {
  /** liblz4 1.9 through JNA: the reference encoder. */
  static final class LibLz4 {
    static {
      Native.register(LibLz4.class, NativeLibrary.getInstance("lz4"));
    }

    static native int LZ4_compressBound(int inputSize);

    static native int LZ4_compress_default(Pointer src, Pointer dst, int srcSize, int dstCapacity);

    static native int LZ4_compress_HC(Pointer src, Pointer dst, int srcSize, int dstCapacity, int level);

    static native Pointer LZ4_createStream();

    static native int LZ4_freeStream(Pointer stream);

    static native int LZ4_loadDict(Pointer stream, Pointer dict, int dictSize);

    static native int LZ4_compress_fast_continue(Pointer stream, Pointer src, Pointer dst, int srcSize, int dstCapacity,
        int acceleration);

    /** level 0: LZ4_compress_default; 1..12: LZ4_compress_HC; the dictionary (may be null) needs level 0. */
    static byte[] compress(byte[] data, int level, byte[] dict) {
      Memory src = new Memory(Math.max(1, data.length));
      src.write(0, data, 0, data.length);
      int cap = LZ4_compressBound(data.length);
      Memory dst = new Memory(Math.max(1, cap));
      int n;
      if (dict != null) {
        Memory d = new Memory(dict.length);
        d.write(0, dict, 0, dict.length);
        Pointer s = LZ4_createStream();
        try {
          LZ4_loadDict(s, d, dict.length);
          n = LZ4_compress_fast_continue(s, src, dst, data.length, cap, 1);
        } finally {
          LZ4_freeStream(s);
        }
      } else if (level == 0) {
        n = LZ4_compress_default(src, dst, data.length, cap);
      } else {
        n = LZ4_compress_HC(src, dst, data.length, cap, level);
      }
      assertTrue(n > 0, "liblz4 failed: " + n);
      return dst.getByteArray(0, n);
    }
  }

  static List<byte[]> corpus() {
    Random r = new Random(42);
    List<byte[]> out = new ArrayList<>();
    for (int size : new int[] {0, 1, 5, 12, 13, 64, 1000, 4096, 65_536, 300_000}) {
      byte[] random = new byte[size];
      r.nextBytes(random);
      out.add(random);
      byte[] text = new byte[size];
      String words = "temperature salinity pressure depth latitude longitude time ";
      for (int i = 0; i < size; i++) {
        text[i] = (byte) words.charAt((i * 7 + r.nextInt(3)) % words.length());
      }
      out.add(text);
      for (int period : new int[] {1, 2, 3, 5, 7, 8, 13, 40}) { // runs with short periods: overlapping matches
        byte[] p = new byte[size];
        for (int i = 0; i < size; i++) {
          p[i] = (byte) (i % period == 0 && r.nextInt(500) == 0 ? r.nextInt() : 'a' + i % period);
        }
        out.add(p);
      }
      byte[] planes = new byte[size]; // the byte planes of shuffled, slowly increasing int32 counts
      int n = size / 4;
      int v = 0;
      for (int i = 0; i < n; i++) {
        v += r.nextInt(4);
        for (int b = 0; b < 4; b++) {
          planes[b * n + i] = (byte) (v >>> (8 * b));
        }
      }
      out.add(planes);
    }
    return out;
  }

  @Test
  void decodesWhatTheReferenceLibraryEncodes() throws IOException {
    int checked = 0;
    for (byte[] data : corpus()) {
      for (int level : new int[] {0, 4, 9, 12}) {
        byte[] c = LibLz4.compress(data, level, null);
        byte[] out = new byte[data.length + 16];
        Arrays.fill(out, (byte) 0x5a);
        Lz4.decode(c, 0, c.length, out, 8, data.length, null);
        assertArrayEquals(data, Arrays.copyOfRange(out, 8, 8 + data.length), "level " + level + ", " + data.length + " bytes");
        // nothing outside the output range is touched
        for (int i = 0; i < 8; i++) {
          assertEquals(0x5a, out[i]);
          assertEquals(0x5a, out[out.length - 1 - i]);
        }
        checked++;
      }
    }
    assertEquals(corpus().size() * 4, checked);
  }

  @Test
  void decodesInStepsWhatTheReferenceLibraryEncodes() throws IOException {
    int steps = 0;
    for (byte[] data : corpus()) {
      byte[] c = LibLz4.compress(data, 0, null);
      for (int step : new int[] {1, 7, 100, 4096, Integer.MAX_VALUE}) {
        byte[] out = new byte[data.length + 16];
        Arrays.fill(out, (byte) 0x5a);
        byte[] seen = new byte[data.length];
        int[] next = {0};
        List<int[]> calls = new ArrayList<>();
        Lz4.decodeInSteps(c, 0, c.length, out, 8, data.length, null, step, (from, to) -> {
          // each stretch follows the last one, and its bytes are final when it is reported
          assertEquals(next[0], from, "step " + step);
          assertTrue(to >= from && to <= data.length);
          System.arraycopy(out, 8 + from, seen, from, to - from);
          next[0] = to;
          calls.add(new int[] {from, to});
        });
        assertEquals(data.length, next[0]);
        assertArrayEquals(data, seen, "step " + step + ", " + data.length + " bytes, as reported");
        assertArrayEquals(data, Arrays.copyOfRange(out, 8, 8 + data.length), "step " + step);
        for (int i = 0; i < 8; i++) {
          assertEquals(0x5a, out[i]);
          assertEquals(0x5a, out[out.length - 1 - i]);
        }
        if (step == 4096 && data.length == 300_000 && c.length < data.length / 2) { // many sequences: a call a step
          assertTrue(calls.size() > 10, calls.size() + " calls for " + data.length + " bytes in steps of " + step);
        }
        steps += calls.size();
      }
    }
    assertTrue(steps > 1000, steps + " stretches");
    byte[] text = new byte[100_000];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) "depth latitude longitude ".charAt((i + i / 997 % 7) % 25);
    }
    byte[] c = LibLz4.compress(text, 0, null);
    byte[] cut = Arrays.copyOf(c, c.length - 3); // a stream that ends early fails after the steps before it
    int[] reported = {0};
    IOException e = assertThrows(IOException.class, () -> Lz4.decodeInSteps(cut, 0, cut.length,
        new byte[text.length], 0, text.length, null, 1000, (from, to) -> reported[0] = to));
    assertTrue(e.getMessage().startsWith("LZ4 stream:"), e.getMessage());
    assertTrue(reported[0] > 0 && reported[0] < text.length, "reported up to " + reported[0]);
  }

  @Test
  void decodesWithPrefixDictionary() throws IOException {
    Random r = new Random(3);
    int needDict = 0;
    for (int dictSize : new int[] {1, 100, 4096, 65_536, 100_000}) {
      byte[] dict = new byte[dictSize];
      for (int i = 0; i < dictSize; i++) {
        dict[i] = (byte) (r.nextInt(5) == 0 ? r.nextInt() : "abcdefghij".charAt(i % 10));
      }
      for (int size : new int[] {16, 1000, 50_000}) {
        // the data repeats stretches of the dictionary's end, so matches reach back into it
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
          data[i] = i % 97 < 80 ? dict[Math.max(0, dictSize - 1000) + i % Math.min(1000, dictSize)] : (byte) r.nextInt();
        }
        byte[] c = LibLz4.compress(data, 0, dict);
        byte[] out = new byte[size];
        Lz4.decode(c, 0, c.length, out, 0, size, dict);
        assertArrayEquals(data, out, "dictionary of " + dictSize + " bytes, " + size + " bytes of data");
        try { // a stream that uses the dictionary cannot be decoded without it
          Lz4.decode(c, 0, c.length, new byte[size], 0, size, null);
        } catch (IOException e) {
          NetcdfChecks.assertMentions(e, "before the start of the output");
          needDict++;
        }
      }
    }
    assertTrue(needDict >= 10, needDict + " of 15 streams reached into their dictionary");
  }

  @Test
  void corruptStreamsAreIoExceptions() throws IOException {
    Random r = new Random(9);
    List<byte[]> samples = corpus();
    for (int k : new int[] {3, 17, 29, 45}) {
      byte[] data = samples.get(k);
      byte[] c = LibLz4.compress(data, 9, null);
      for (int len = 0; len < c.length; len += Math.max(1, c.length / 200)) { // truncated
        byte[] t = Arrays.copyOf(c, len);
        assertThrows(IOException.class, () -> Lz4.decode(t, 0, t.length, new byte[data.length], 0, data.length, null));
      }
      for (int i = 0; i < 300; i++) { // bit flips: an IOException or some output of the right length, nothing else
        byte[] f = c.clone();
        int pos = r.nextInt(f.length);
        f[pos] ^= (byte) (1 << r.nextInt(8));
        try {
          Lz4.decode(f, 0, f.length, new byte[data.length], 0, data.length, null);
        } catch (IOException expected) {
          // fine
        } catch (Throwable t) {
          fail("bit flip at " + pos + " gave " + t, t);
        }
      }
      // the expected size lies: one byte more or less than the stream holds
      if (data.length > 0) {
        assertThrows(IOException.class, () -> Lz4.decode(c, 0, c.length, new byte[data.length + 1], 0, data.length + 1, null));
        assertThrows(IOException.class, () -> Lz4.decode(c, 0, c.length, new byte[data.length], 0, data.length - 1, null));
      }
    }
    // hand-made: offset 0, and a match before the start
    IOException zero = assertThrows(IOException.class,
        () -> Lz4.decode(new byte[] {0x10, 'a', 0, 0, 0}, 0, 5, new byte[10], 0, 10, null));
    NetcdfChecks.assertMentions(zero, "offset 0");
    IOException before = assertThrows(IOException.class,
        () -> Lz4.decode(new byte[] {0x10, 'a', 5, 0, 0}, 0, 5, new byte[10], 0, 10, null));
    NetcdfChecks.assertMentions(before, "before the start");
    // a literal length whose 255-bytes run on: must stop, not overflow
    byte[] run = new byte[100_000];
    Arrays.fill(run, (byte) 0xff);
    run[0] = (byte) 0xf0;
    assertThrows(IOException.class, () -> Lz4.decode(run, 0, run.length, new byte[100], 0, 100, null));
  }

  /**
   * A Blosc2 chunk laid out as c-blosc2 writes one with a dictionary (blosc2_flags bit 0; the dictionary after
   * the block offsets), LZ4 streams made by liblz4 with that dictionary loaded: decodes through Blosc.
   */
  @Test
  void blosc2ChunkWithLz4Dictionary() throws IOException {
    Random r = new Random(11);
    int ts = 4;
    int blocksize = 4096;
    int nbytes = 3 * blocksize + 1000; // a short last block
    byte[] data = new byte[nbytes];
    int v = 0;
    for (int i = 0; i < nbytes / ts; i++) {
      v += r.nextInt(3);
      data[i * ts] = (byte) v;
      data[i * ts + 1] = (byte) (v >>> 8);
    }
    int nblocks = 4;
    byte[][] shuffled = new byte[nblocks][];
    for (int b = 0; b < nblocks; b++) {
      int from = b * blocksize;
      int len = Math.min(blocksize, nbytes - from);
      shuffled[b] = new byte[len];
      int n = len / ts;
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < ts; j++) {
          shuffled[b][j * n + i] = data[from + i * ts + j];
        }
      }
      System.arraycopy(data, from + n * ts, shuffled[b], n * ts, len - n * ts);
    }
    byte[] dict = shuffled[0].clone(); // as if trained on this data: block 0 is one long match into it
    java.io.ByteArrayOutputStream blocks = new java.io.ByteArrayOutputStream();
    int[] bstarts = new int[nblocks];
    int dataStart = 32 + 4 * nblocks + 4 + dict.length;
    for (int b = 0; b < nblocks; b++) {
      byte[] c = LibLz4.compress(shuffled[b], 0, dict);
      if (b == 0) {
        assertTrue(c.length < 100, "block 0 refers to the dictionary: " + c.length + " bytes");
        assertThrows(IOException.class, () -> Lz4.decode(c, 0, c.length, new byte[blocksize], 0, blocksize, null));
      }
      bstarts[b] = dataStart + blocks.size();
      blocks.write(le(c.length), 0, 4);
      blocks.write(c, 0, c.length);
    }
    byte[] chunk = new byte[dataStart + blocks.size()];
    chunk[0] = 5; // format version
    chunk[1] = 1;
    chunk[2] = 0x05 | 0x10 | (1 << 5); // extended header, one stream per block, LZ4
    chunk[3] = (byte) ts;
    System.arraycopy(le(nbytes), 0, chunk, 4, 4);
    System.arraycopy(le(blocksize), 0, chunk, 8, 4);
    System.arraycopy(le(chunk.length), 0, chunk, 12, 4);
    chunk[16 + 5] = 1; // SHUFFLE in the last filter slot
    chunk[22] = 1; // codec id LZ4
    chunk[31] = 0x01; // a dictionary follows the block offsets
    for (int b = 0; b < nblocks; b++) {
      System.arraycopy(le(bstarts[b]), 0, chunk, 32 + 4 * b, 4);
    }
    System.arraycopy(le(dict.length), 0, chunk, 32 + 4 * nblocks, 4);
    System.arraycopy(dict, 0, chunk, 32 + 4 * nblocks + 4, dict.length);
    System.arraycopy(blocks.toByteArray(), 0, chunk, dataStart, blocks.size());

    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    assertTrue(h.hasDictionary());
    byte[] out = new byte[nbytes];
    Blosc.decompress(h, chunk, 0, out, 0, Blosc.Impl.JAVA);
    assertArrayEquals(data, out);
    // a block read alone (partial decode) also finds the dictionary
    byte[] part = new byte[100];
    Blosc.decompressRange(chunk, 0, chunk.length, 2 * blocksize + 50, 100, part, 0);
    assertArrayEquals(Arrays.copyOfRange(data, 2 * blocksize + 50, 2 * blocksize + 150), part);
  }

  private static byte[] le(int v) {
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }
}
