package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The codec's own frame reader ({@link BloscFrame}) on every contiguous and sparse frame of the Blosc2 fixtures
 * (c-blosc2 and python-blosc2): header fields, metalayer names and every chunk's decoded bytes against the manifest's
 * expected values.
 */
class BloscFrameTest {
  static List<Fixtures.Dataset> frames() {
    return Fixtures.manifest("blosc2").datasets("cframe", "sframe");
  }

  static Path frameFile(Fixtures.Dataset d) {
    return d.kind().equals("sframe") ? d.file().resolve("chunks.b2frame") : d.file();
  }

  @ParameterizedTest
  @MethodSource("frames")
  void everyChunkDecodesToTheExpectedBytes(Fixtures.Dataset d) throws IOException {
    try (BloscFrame f = BloscFrame.open(frameFile(d))) {
      assertEquals(d.json().path("nchunks").asInt(), f.chunkCount(), d.path());
      assertEquals(d.kind().equals("sframe"), f.isSparse());
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 0; i < f.chunkCount(); i++) {
        all.write(f.decodeChunk(i));
      }
      byte[] want = d.variables().get(0).expected();
      assertEquals(f.nbytes(), want.length, d.path());
      assertArrayEquals(BloscFixtureTest.maskUndefined(d.json(), want),
          BloscFixtureTest.maskUndefined(d.json(), all.toByteArray()), d.path());
      for (Iterator<String> it = d.json().path("metalayers").fieldNames(); it.hasNext(); ) {
        String m = it.next();
        assertTrue(f.metalayers().containsKey(m), d.path() + " metalayer " + m);
      }
      for (Iterator<String> it = d.json().path("vlmetalayers").fieldNames(); it.hasNext(); ) {
        String m = it.next();
        assertTrue(f.vlmetalayers().containsKey(m), d.path() + " vlmetalayer " + m);
      }
    }
  }

  @Test
  void aFrameInMemoryReadsAsTheFile() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("cframe/cf_zstd_shuffle_f8.b2frame");
    BloscFrame f = BloscFrame.read(Files.readAllBytes(d.file()));
    ByteBuffer out = ByteBuffer.allocate((int) f.nbytes());
    for (int i = 0; i < f.chunkCount(); i++) {
      ByteBuffer src = ByteBuffer.allocateDirect(f.storedChunk(i).length).put(f.storedChunk(i)).flip();
      Blosc.decompress(src, out);
      assertEquals(0, src.remaining(), "the source position moves past the chunk");
    }
    assertArrayEquals(d.variables().get(0).expected(), out.array());
  }

  @Test
  void damagedFramesAreCodecExceptionsNamingWhatIsWrong() throws IOException {
    byte[] good = Files.readAllBytes(Fixtures.manifest("blosc2").dataset("cframe/cf_blosclz_shuffle_i4.b2frame").file());
    byte[] b = good.clone();
    b[3] = 'X';
    assertMessage(b, "no Blosc2 frame magic");
    assertMessage(java.util.Arrays.copyOf(good, good.length - 10), "frame_len");
    b = good.clone();
    b[good.length - 23] = 0;
    assertMessage(b, "trailer length field");
    assertMessage(java.util.Arrays.copyOf(good, 50), "less than a Blosc2 frame header");
  }

  private static void assertMessage(byte[] frame, String says) {
    CodecException e = assertThrows(CodecException.class, () -> BloscFrame.read(frame));
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }
}
