package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Blosc2 chunks compressed by c-blosc2 with zstd and a trained dictionary (fixture sf_zstd_dict_i4) decode in
 * pure Java, and the main code no longer refers to zstd-jni at all (it is a test-only dependency).
 */
class ZstdDictionaryChunkTest {
  private static final Fixtures.Dataset DATASET = Fixtures.manifest("blosc2").dataset("sframe/sf_zstd_dict_i4.b2frame");

  private static List<byte[]> chunks() throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) { // index entries 0, 1, 2: the chunk files in order
      out.add(Files.readAllBytes(DATASET.file().resolve(String.format("%08X.chunk", i))));
    }
    return out;
  }

  @Test
  void chunksWithADictionaryDecodeInPureJava() throws IOException {
    byte[] expected = DATASET.variables().get(0).expected();
    int at = 0;
    int withDict = 0;
    for (byte[] c : chunks()) {
      BloscHeader h = BloscHeader.parse(c, 0, c.length);
      assertEquals(BloscCompressor.ZSTD, h.compressor());
      if (h.hasDictionary()) {
        withDict++;
      }
      byte[] out = new byte[h.nbytes()];
      Blosc.decompress(c, 0, c.length, out, 0, Blosc.Impl.JAVA);
      assertArrayEquals(Arrays.copyOfRange(expected, at, at + h.nbytes()), out, "chunk at byte " + at);
      // range by range through one parsed chunk (the dictionary is parsed once for all of them)
      BloscChunk data = BloscChunk.parse(c, 0, c.length);
      byte[] blocks = new byte[h.nbytes()];
      for (int off = 0; off < h.nbytes(); off += 1000) {
        int n = Math.min(1000, h.nbytes() - off);
        data.decodeRange(off, n, blocks, off);
      }
      assertArrayEquals(out, blocks);
      byte[] range = new byte[77];
      Blosc.decompressRange(c, 0, c.length, 5000, 77, range, 0);
      assertArrayEquals(Arrays.copyOfRange(out, 5000, 5077), range);
      at += h.nbytes();
    }
    assertEquals(expected.length, at);
    assertEquals(3, withDict, "every chunk carries a dictionary");
  }

  @Test
  void aDamagedDictionaryIsAnIOException() throws IOException {
    byte[] c = chunks().get(0);
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    int dictAt = h.headerLength() + 4 * h.nblocks() + 4;
    byte[] bad = c.clone();
    bad[dictAt + 4] ^= 0x55; // the dictionary ID: frames name another one
    IOException e = assertThrows(IOException.class,
        () -> Blosc.decompress(bad, 0, bad.length, new byte[h.nbytes()], 0, Blosc.Impl.JAVA));
    assertTrue(e.getMessage().contains("dictionary"), e.getMessage());
    byte[] bad2 = c.clone();
    bad2[dictAt + 8] = (byte) 0x7F; // the Huffman table header: more weight bytes than the dictionary holds
    assertThrows(IOException.class, () -> BloscChunk.parse(bad2, 0, bad2.length).decode());
  }

  /** No class of the main code names zstd-jni's package: the dictionary path is pure Java. */
  @Test
  void mainCodeDoesNotReferToZstdJni() throws IOException, URISyntaxException {
    Path classes = Paths.get(Blosc.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(Files.isDirectory(classes), classes + " (core's main classes)");
    byte[] needle = "com/github/luben".getBytes(StandardCharsets.US_ASCII);
    List<String> offenders = new ArrayList<>();
    int n;
    try (Stream<Path> files = Files.walk(classes)) {
      List<Path> all = files.filter(p -> p.toString().endsWith(".class")).collect(java.util.stream.Collectors.toList());
      n = all.size();
      for (Path p : all) {
        if (org.chunkcdm.testkit.TestFiles.indexOf(Files.readAllBytes(p), needle) >= 0) {
          offenders.add(classes.relativize(p).toString());
        }
      }
    }
    assertTrue(n > 30, n + " classes scanned");
    assertTrue(offenders.isEmpty(), "main classes referring to zstd-jni: " + offenders);
    assertTrue(Files.isRegularFile(classes.resolve("org/chunkcdm/blosc/zstd/ZstdDecoder.class")));
  }

  /** The frame header and dictionary IDs agree (a sanity check that the fixture really uses its dictionary). */
  @Test
  void theFixtureFramesNameTheirDictionary() throws IOException {
    byte[] c = chunks().get(1);
    BloscHeader h = BloscHeader.parse(c, 0, c.length);
    int dictAt = h.headerLength() + 4 * h.nblocks() + 4;
    long dictId = BloscHeader.le32(c, dictAt + 4) & 0xFFFFFFFFL;
    assertEquals(0xEC30A437, BloscHeader.le32(c, dictAt), "a formatted (trained) dictionary");
    assertFalse(dictId == 0);
  }
}
