package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;

/**
 * The frame parser reading from a byte array ({@link ContiguousFrame}) gives the same chunks, byte for byte, as
 * the same frame read as a file (whose values the fixture tests check against the manifest), whole and by byte
 * range; sparse frames and damaged arrays are IOExceptions naming the frame, never runtime exceptions.
 */
class ContiguousFrameTest {
  private static Stream<Path> contiguousFrames() throws IOException {
    Path root = Fixtures.family("blosc2");
    return Stream.concat(Files.list(root.resolve("cframe")), Files.list(root.resolve("b2nd")))
        .filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().contains("sframe")).sorted();
  }

  @Test
  void sameChunksAsTheFrameFile() throws Exception {
    int frames = 0;
    int b2nd = 0;
    for (Path p : (Iterable<Path>) contiguousFrames()::iterator) {
      ContiguousFrame cf = ContiguousFrame.parse(Files.readAllBytes(p), p.getFileName().toString());
      try (ChunkedDataset d = Datasets.open(p)) {
        ChunkedArray a = d.variables().get(0).array();
        assertEquals(a.grid().chunkCount(), cf.chunks(), p.toString());
        for (int k = 0; k < cf.chunks(); k++) {
          ChunkData want = a.chunk(k);
          ChunkData got = cf.chunk(k);
          byte[] w = want == null ? new byte[(int) got.size()] : want.readAll();
          assertArrayEquals(w, got.readAll(), p + " chunk " + k);
          // a range in the middle, read by blocks
          int off = w.length / 3;
          int len = Math.min(w.length - off, 37);
          byte[] part = new byte[len];
          cf.chunk(k).read(off, part, 0, len);
          assertArrayEquals(Arrays.copyOfRange(w, off, off + len), part, p + " chunk " + k + " range");
        }
      }
      if (cf.isB2nd()) {
        b2nd++;
        assertEquals(cf.shape().length, cf.chunkShape().length);
        assertEquals(cf.shape().length, cf.blockShape().length);
      }
      frames++;
    }
    assertTrue(frames >= 10 && b2nd >= 4, frames + " frames, " + b2nd + " b2nd");
  }

  @Test
  void sparseFrameIsRefusedFromMemory() throws Exception {
    Path p = Fixtures.family("blosc2").resolve("sframe");
    Path index;
    try (Stream<Path> s = Files.walk(p)) {
      index = s.filter(q -> q.getFileName().toString().equals("chunks.b2frame")).findFirst().orElseThrow();
    }
    IOException e = assertThrows(IOException.class, () -> ContiguousFrame.parse(Files.readAllBytes(index), "in memory"));
    NetcdfChecks.assertMentions(e, "in memory", "sparse");
  }

  /** Every truncation and many single-byte changes of a b2nd frame: an IOException naming it, or a correct parse. */
  @Test
  void damagedArraysAreIOExceptions() throws Exception {
    Path p = Fixtures.family("blosc2").resolve("b2nd/b2nd_2d_f8_cframe.b2nd");
    byte[] good = Files.readAllBytes(p);
    for (int len = 0; len < good.length; len += Math.max(1, len / 8)) {
      byte[] cut = Arrays.copyOf(good, len);
      IOException e = assertThrows(IOException.class, () -> ContiguousFrame.parse(cut, "cut frame"), "length " + len);
      NetcdfChecks.assertMentions(e, "cut frame");
    }
    for (int i = 0; i < Math.min(good.length, 400); i++) {
      byte[] bad = good.clone();
      bad[i] ^= (byte) 0x5a;
      try {
        ContiguousFrame cf = ContiguousFrame.parse(bad, "changed frame");
        for (int k = 0; k < cf.chunks(); k++) {
          cf.chunk(k).readAll();
        }
      } catch (IOException e) {
        NetcdfChecks.assertMentions(e, "changed frame");
      }
    }
  }
}
