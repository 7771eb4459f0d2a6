package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Truncated, bit-flipped and size-lying chunks give IOExceptions, never another exception or a hang. */
class BloscMalformedTest {
  static Stream<Fixtures.Dataset> chunks() {
    return Fixtures.manifest("blosc2").datasets("chunk-blosc2", "chunk-blosc1").stream();
  }

  /** Decodes whole and by ranges; only IOException may escape. */
  static void decodeAllWays(byte[] c, int len) throws IOException {
    BloscHeader h = BloscHeader.parse(c, 0, len);
    if (h.nbytes() > 64 << 20) {
      throw new IOException("test guard: refusing to allocate " + h.nbytes());
    }
    byte[] out = new byte[h.nbytes()];
    Blosc.decompress(c, 0, len, out, 0, Blosc.Impl.JAVA);
    if (h.nbytes() > 2) {
      Blosc.decompressRange(c, 0, len, h.nbytes() / 2, 1, new byte[1], 0);
    }
  }

  static void expectCleanOutcome(String what, byte[] c, int len) {
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      try {
        decodeAllWays(c, len);
      } catch (IOException e) {
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), what + ": IOException without a message");
      } catch (Throwable t) {
        throw new AssertionError(what + ": " + t, t);
      }
    });
  }

  @ParameterizedTest
  @MethodSource("chunks")
  void truncatedChunksAreIOExceptions(Fixtures.Dataset d) throws Exception {
    byte[] c = Files.readAllBytes(d.file());
    for (int len = 0; len < c.length; len += Math.max(1, c.length / 97)) {
      int l = len;
      IOException e = assertThrows(IOException.class, () -> decodeAllWays(c, l), d + " cut to " + len);
      assertTrue(e.getMessage().contains("Blosc"), e.getMessage());
    }
  }

  @ParameterizedTest
  @MethodSource("chunks")
  void bitFlipsAreIOExceptionsOrOutput(Fixtures.Dataset d) throws Exception {
    byte[] orig = Files.readAllBytes(d.file());
    Random rnd = new Random(d.path().hashCode());
    int header = Math.min(orig.length, 32);
    for (int i = 0; i < header; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] c = orig.clone();
        c[i] ^= (byte) (1 << bit);
        expectCleanOutcome(d + " header byte " + i + " bit " + bit, c, c.length);
      }
    }
    for (int k = 0; k < 300; k++) {
      byte[] c = orig.clone();
      int pos = rnd.nextInt(c.length);
      c[pos] ^= (byte) (1 << rnd.nextInt(8));
      expectCleanOutcome(d + " body byte " + pos, c, c.length);
    }
  }

  @Test
  void sizeLyingHeadersAreRejectedBeforeAllocating() throws Exception {
    byte[] c = Files.readAllBytes(Fixtures.family("blosc2").resolve("chunks/chunk_blosclz_shuffle_i4_multiblock.chunk"));
    // cbytes larger than the buffer
    byte[] a = c.clone();
    putLe32(a, 12, c.length + 1);
    assertThrows(IOException.class, () -> BloscHeader.parse(a, 0, a.length));
    // nbytes 2^31-1 with a small chunk: the offset table cannot fit
    byte[] b = c.clone();
    putLe32(b, 4, Integer.MAX_VALUE);
    IOException e = assertThrows(IOException.class, () -> BloscHeader.parse(b, 0, b.length));
    assertTrue(e.getMessage().contains("offset table"), e.getMessage());
    // blocksize 0 and negative
    for (int bs : new int[] {0, -5}) {
      byte[] x = c.clone();
      putLe32(x, 8, bs);
      assertThrows(IOException.class, () -> BloscHeader.parse(x, 0, x.length));
    }
    // negative nbytes
    byte[] n = c.clone();
    putLe32(n, 4, -1);
    assertThrows(IOException.class, () -> BloscHeader.parse(n, 0, n.length));
    // a block offset outside the chunk
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    byte[] o = c.clone();
    putLe32(o, h.headerLength() + 4, c.length + 100);
    IOException oe = assertThrows(IOException.class, () -> Blosc.decompress(o, 0, o.length, new byte[h.nbytes()], 0, Blosc.Impl.JAVA));
    assertTrue(oe.getMessage().contains("block 1"), oe.getMessage());
    // unknown format version
    byte[] v = c.clone();
    v[0] = 9;
    assertThrows(IOException.class, () -> BloscHeader.parse(v, 0, v.length));
    // destination too small
    assertThrows(IOException.class, () -> Blosc.decompress(c, 0, c.length, new byte[10], 0, Blosc.Impl.JAVA));
  }

  @Test
  void implementationChoice() throws Exception {
    String old = System.getProperty("chunkcdm.blosc");
    try {
      System.setProperty("chunkcdm.blosc", "java");
      assertEquals(Blosc.Impl.JAVA, Blosc.configured());
      System.setProperty("chunkcdm.blosc", " Native ");
      assertEquals(Blosc.Impl.NATIVE, Blosc.configured());
      System.setProperty("chunkcdm.blosc", "auto");
      assertEquals(Blosc.Impl.AUTO, Blosc.configured());
      System.setProperty("chunkcdm.blosc", "bogus");
      IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, Blosc::configured);
      assertEquals("-Dchunkcdm.blosc=bogus is not a valid setting: use auto, java or native", bad.getMessage());
    } finally {
      if (old == null) {
        System.clearProperty("chunkcdm.blosc");
      } else {
        System.setProperty("chunkcdm.blosc", old);
      }
    }
    // the codec alone has no native binding on its class path: forcing native is a clear IOException
    byte[] c = Files.readAllBytes(Fixtures.family("blosc2").resolve("chunks/chunk_cblosc1_zlib_shuffle_i8.chunk"));
    IOException e = assertThrows(IOException.class, () -> Blosc.decompress(c, 0, c.length, new byte[1 << 20], 0, Blosc.Impl.NATIVE));
    assertTrue(e.getMessage().contains("native"), e.getMessage());
    assertTrue(!Blosc.nativeAvailable());
  }

  static void putLe32(byte[] b, int p, int v) {
    b[p] = (byte) v;
    b[p + 1] = (byte) (v >> 8);
    b[p + 2] = (byte) (v >> 16);
    b[p + 3] = (byte) (v >> 24);
  }
}
