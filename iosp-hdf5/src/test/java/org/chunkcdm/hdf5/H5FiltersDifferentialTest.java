package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The pure-Java filter decoders against the C filters (the HDF5 plugins Debian packages, called through JNA as HDF5
 * calls them; libzstd for Zstd, which Debian packages no plugin for): chunks the C filters encode, from data of
 * every element size with leftovers and every parameter (LZ4 block sizes, BZip2 levels, Bitshuffle blocks and LZ4
 * compression, LZF, Zstd levels), decode to the original bytes in Java; and damaged chunks (bytes changed, cut
 * short) get the same outcome from Java as from the C decoder under the filter, where that decoder checks its input
 * (libbz2's {@code BZ2_bzBuffToBuffDecompress}, liblzf's {@code lzf_decompress}, libzstd's
 * {@code ZSTD_decompress}): the same bytes, or both refuse. Java alone refuses bytes after the end of a BZip2 stream
 * (C ignores them; no HDF5 writer leaves any). The plugins themselves see only their own output: the LZ4 and
 * Bitshuffle ones decode with {@code LZ4_decompress_fast}, which trusts its input, and Debian's BZip2 plugin loops
 * forever on a stream cut short.
 *
 * <p>Needs Debian's hdf5-filter-plugin (LZ4, BZip2), bitshuffle (Bitshuffle, LZF), libbz2, liblzf1 and libzstd1.
 * Without them the tests skip, except with {@code CHUNKCDM_REQUIRE_NATIVE=1} (CI installs them): then a missing
 * library fails.
 */
class H5FiltersDifferentialTest {
  static boolean required() {
    return "1".equals(System.getenv("CHUNKCDM_REQUIRE_NATIVE")) || Boolean.getBoolean("chunkcdm.requireNative");
  }

  static CFilter plugin(String file, int id) {
    CFilter f = CFilter.load(file);
    if (required()) {
      assertNotNull(f, "CHUNKCDM_REQUIRE_NATIVE=1 but " + CFilter.PLUGINS + "/" + file + " does not load");
    } else {
      assumeTrue(f != null, file + " not installed");
    }
    assertEquals(id, f.id, file);
    return f;
  }

  /** Data of {@code n} bytes: smooth doubles, small integers, random bytes, zeros, a repeated pattern. */
  static byte[] data(int kind, int n, Random rnd) {
    byte[] b = new byte[n];
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    switch (kind % 5) {
      case 0:
        for (int i = 0; i + 8 <= n; i += 8) {
          bb.putDouble(i, Math.round(Math.sin(i * 0.001) * 1e4) / 100.0);
        }
        break;
      case 1:
        for (int i = 0; i + 4 <= n; i += 4) {
          bb.putInt(i, rnd.nextInt(50) - 25);
        }
        break;
      case 2:
        rnd.nextBytes(b);
        break;
      case 3:
        break;
      default:
        for (int i = 0; i < n; i++) {
          b[i] = (byte) ("chunkcdm-".charAt(i % 9) + i / 997);
        }
    }
    return b;
  }

  static final int[] SIZES = {1, 7, 64, 999, 4096, 10_000, 65_537, 200_000};

  /** Damaged copies of a chunk: bytes changed here and there, cut short, one byte more. */
  static List<byte[]> damaged(byte[] c, Random rnd, int count) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < count && c.length > 0; i++) {
      byte[] d;
      switch (i % 4) {
        case 0:
          d = c.clone();
          d[rnd.nextInt(d.length)] ^= (byte) (1 + rnd.nextInt(255));
          break;
        case 1:
          d = Arrays.copyOf(c, 1 + rnd.nextInt(Math.max(1, c.length - 1)));
          break;
        case 2:
          d = Arrays.copyOf(c, c.length + 1);
          d[c.length] = (byte) rnd.nextInt(256);
          break;
        default:
          d = c.clone();
          int p = rnd.nextInt(d.length);
          for (int k = p; k < Math.min(d.length, p + 8); k++) {
            d[k] = (byte) rnd.nextInt(256);
          }
      }
      out.add(d);
    }
    return out;
  }

  /** Decoded bytes, or null when the decoder refuses (an IOException; anything else fails the test). */
  interface JavaDecoder {
    byte[] decode(byte[] c) throws IOException;
  }

  static byte[] java(JavaDecoder d, byte[] c) {
    try {
      return d.decode(c);
    } catch (IOException e) {
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), "an IOException without a message");
      return null;
    }
  }

  @Test
  void lz4FilterDecodesThePluginsChunks() {
    CFilter c = plugin("libh5lz4.so", FilterPipeline.LZ4);
    Random rnd = new Random(38);
    int n = 0;
    for (int block : new int[] {0, 7, 999, 1024, 65_536}) {
      for (int size : SIZES) {
        for (int kind = 0; kind < 5; kind++) {
          byte[] data = data(kind, size, rnd);
          byte[] enc = c.run(0, new int[] {block}, data);
          assertNotNull(enc, "the LZ4 plugin encodes");
          byte[] got = java(x -> {
            long total = Lz4Filter.decodedSize(x, 0, x.length);
            byte[] out = new byte[(int) total];
            Lz4Filter.decode(x, 0, x.length, out, 0, out.length);
            return out;
          }, enc);
          assertArrayEquals(data, got, "block " + block + " size " + size + " kind " + kind);
          assertArrayEquals(data, c.run(CFilter.REVERSE, new int[] {block}, enc), "the plugin decodes its own chunk");
          n++;
        }
      }
    }
    assertEquals(200, n);
  }

  @Test
  void bitshuffleDecodesThePluginsChunks() {
    CFilter c = plugin("libh5bshuf.so", FilterPipeline.BITSHUFFLE);
    Random rnd = new Random(3808);
    int n = 0;
    for (int elem : new int[] {1, 2, 3, 4, 8, 16}) {
      for (int block : new int[] {0, 8, 64, 256}) {
        for (int comp : new int[] {Bitshuffle.NONE, Bitshuffle.LZ4}) {
          for (int elems : new int[] {1, 7, 8, 1001, 4099}) {
            byte[] data = data(elems % 5, elems * elem, rnd);
            int[] cd = {0, 3, elem, block, comp};
            byte[] enc = c.run(0, cd, data);
            assertNotNull(enc, "the Bitshuffle plugin encodes");
            byte[] got = java(x -> {
              long total = comp == Bitshuffle.NONE ? x.length : Bitshuffle.decodedSize(x, 0, x.length);
              byte[] out = new byte[(int) total];
              Bitshuffle.decode(x, 0, x.length, out, 0, out.length, elem, block, comp);
              return out;
            }, enc);
            assertArrayEquals(data, got, "element " + elem + " block " + block + " compression " + comp + " n " + elems);
            n++;
          }
        }
      }
    }
    assertEquals(240, n);
  }

  /** A C decoder of damaged chunks: the bytes, or null when it refuses. */
  interface CDecoder {
    byte[] decode(byte[] c);
  }

  /**
   * The outcomes of damaged chunks: whenever both decode, the same bytes; whenever C refuses, Java refuses too. Java
   * may refuse a chunk C decodes (its checks are stricter in places: e.g. a zstd Huffman stream that ends before its
   * symbols, which libzstd lets through); returns {decoded by both, refused by Java only}.
   */
  static int[] sameOutcomes(String what, CDecoder c, JavaDecoder j, List<byte[]> chunks, Random rnd) {
    int[] n = new int[2];
    for (byte[] good : chunks) {
      for (byte[] bad : damaged(good, rnd, 40)) {
        if (bad.length > good.length) {
          continue; // bytes after the end: see the class comment
        }
        byte[] cOut = c.decode(bad);
        byte[] jOut = java(j, bad);
        if (jOut != null) {
          assertArrayEquals(cOut, jOut, what + ": Java decodes a damaged chunk of " + bad.length
              + " bytes differently from C (null = C refused)");
          n[0]++;
        } else if (cOut != null) {
          n[1]++;
        }
      }
    }
    return n;
  }

  static NativeLibrary library(String name) {
    try {
      return NativeLibrary.getInstance(name);
    } catch (UnsatisfiedLinkError e) {
      if (required()) {
        throw new AssertionError("CHUNKCDM_REQUIRE_NATIVE=1 but lib" + name + " does not load: " + e.getMessage(), e);
      }
      assumeTrue(false, "lib" + name + " not installed: " + e.getMessage());
      return null;
    }
  }

  /** {@code decode(src, srcLen, dst, dstLen)}-style C call into a {@code cap}-byte buffer; the decoded bytes or null. */
  static byte[] callDecoder(Function f, byte[] c, int cap, boolean sizeByReference) {
    Memory src = new Memory(Math.max(1, c.length));
    src.write(0, c, 0, c.length);
    Memory dst = new Memory(cap);
    if (sizeByReference) { // int BZ2_bzBuffToBuffDecompress(char* dest, unsigned* destLen, char* source, unsigned len, int small, int verbosity)
      com.sun.jna.ptr.IntByReference len = new com.sun.jna.ptr.IntByReference(cap);
      int rc = f.invokeInt(new Object[] {dst, len, src, c.length, 0, 0});
      return rc != 0 ? null : dst.getByteArray(0, len.getValue());
    }
    // unsigned int lzf_decompress(const void *in, unsigned in_len, void *out, unsigned out_len): 0 = error
    int n = f.invokeInt(new Object[] {src, c.length, dst, cap});
    return n == 0 ? null : dst.getByteArray(0, n);
  }

  @Test
  void bzip2AgreesWithThePlugin() {
    CFilter c = plugin("libh5bz2.so", FilterPipeline.BZIP2);
    Random rnd = new Random(307);
    List<byte[]> chunks = new ArrayList<>();
    for (int level = 1; level <= 9; level += 2) {
      for (int size : new int[] {1, 999, 70_000}) {
        for (int kind = 0; kind < 5; kind++) {
          byte[] data = data(kind, size, rnd);
          byte[] enc = c.run(0, new int[] {level}, data);
          assertNotNull(enc, "the BZip2 plugin encodes");
          assertArrayEquals(data, java(x -> Bzip2.decode(x, 0, x.length, -1, 1 << 24), enc), "level " + level);
          assertArrayEquals(data, java(x -> Bzip2.decode(x, 0, x.length, data.length, 1 << 24), enc));
          if (size == 999) {
            chunks.add(enc);
          }
        }
      }
    }
    Function bz = library("bz2").getFunction("BZ2_bzBuffToBuffDecompress");
    int cap = 1 << 20;
    sameOutcomes("bzip2", x -> callDecoder(bz, x, cap, true), x -> Bzip2.decode(x, 0, x.length, -1, cap), chunks, rnd);
    byte[] grown = Arrays.copyOf(chunks.get(0), chunks.get(0).length + 1);
    assertArrayEquals(null, java(x -> Bzip2.decode(x, 0, x.length, -1, cap), grown), "bytes after the stream");
  }

  @Test
  void lzfAgreesWithThePlugin() {
    CFilter c = plugin("libh5LZF.so", FilterPipeline.LZF);
    Random rnd = new Random(32000);
    List<byte[]> chunks = new ArrayList<>();
    int encoded = 0;
    for (int size : SIZES) {
      for (int kind = 0; kind < 5; kind++) {
        byte[] data = data(kind, size, rnd);
        int[] cd = {4, 261, size};
        byte[] enc = c.run(0, cd, data);
        if (enc == null) {
          continue; // LZF cannot shrink it: HDF5 stores the chunk raw (filter mask bit set)
        }
        encoded++;
        assertArrayEquals(data, java(x -> Lzf.decode(x, 0, x.length, size, 1 << 24), enc), "size " + size);
        if (size == 999 || size == 4096) {
          chunks.add(enc);
        }
      }
    }
    assertTrue(encoded >= 20, encoded + " chunks encoded");
    Function lzf = library("lzf").getFunction("lzf_decompress");
    int cap = 16384;
    sameOutcomes("lzf", x -> callDecoder(lzf, x, cap, false), x -> Lzf.decode(x, 0, x.length, cap, cap), chunks, rnd);
  }

  /** libzstd: ZSTD_compress, ZSTD_decompress. */
  static final class Zstd {
    final Function bound;
    final Function compress;
    final Function decompress;
    final Function isError;

    Zstd(NativeLibrary lib) {
      bound = lib.getFunction("ZSTD_compressBound");
      compress = lib.getFunction("ZSTD_compress");
      decompress = lib.getFunction("ZSTD_decompress");
      isError = lib.getFunction("ZSTD_isError");
    }

    byte[] compress(byte[] data, int level) {
      long cap = bound.invokeLong(new Object[] {(long) data.length});
      Memory src = new Memory(Math.max(1, data.length));
      src.write(0, data, 0, data.length);
      Memory dst = new Memory(cap);
      long n = compress.invokeLong(new Object[] {dst, cap, src, (long) data.length, level});
      assertEquals(0, isError.invokeInt(new Object[] {n}), "ZSTD_compress");
      return dst.getByteArray(0, (int) n);
    }

    /** Decodes into exactly {@code size} bytes, as the HDF5 Zstd filters do; null when libzstd refuses. */
    byte[] decompress(byte[] c, int size) {
      Memory src = new Memory(Math.max(1, c.length));
      src.write(0, c, 0, c.length);
      Memory dst = new Memory(Math.max(1, size));
      long n = decompress.invokeLong(new Object[] {dst, (long) size, src, (long) c.length});
      return isError.invokeInt(new Object[] {n}) != 0 || n != size ? null : dst.getByteArray(0, size);
    }
  }

  static Zstd zstd() {
    return new Zstd(library("zstd"));
  }

  /** The Zstd filter's chunk decoded by chunkcdm's pipeline, into the chunk size the dataset declares. */
  static byte[] zstdFilter(byte[] c, int chunkBytes) throws IOException {
    FilterPipeline p = new FilterPipeline(new H5Internals.Filter[] {
      new H5Internals.Filter(FilterPipeline.ZSTD, 1, new int[] {3}, "zstd")}, 1, new int[] {chunkBytes}, chunkBytes);
    byte[] out = new byte[chunkBytes];
    p.decodeInto(c, c.length, 0, out, 0);
    return out;
  }

  @Test
  void zstdAgreesWithLibzstd() {
    Zstd z = zstd();
    Random rnd = new Random(32015);
    List<byte[]> chunks = new ArrayList<>();
    for (int level : new int[] {1, 3, 9, 19, 22}) {
      for (int size : SIZES) {
        for (int kind = 0; kind < 5; kind++) {
          byte[] data = data(kind, size, rnd);
          byte[] enc = z.compress(data, level);
          assertArrayEquals(data, java(x -> zstdFilter(x, size), enc), "level " + level + " size " + size);
          if (size == 4096 && level != 22) {
            chunks.add(enc);
          }
        }
      }
    }
    int[] n = sameOutcomes("zstd", x -> z.decompress(x, 4096), x -> zstdFilter(x, 4096), chunks, rnd);
    assertTrue(n[0] > 0, "some damaged frames still decode in both");
  }
}
