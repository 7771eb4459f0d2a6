package org.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.ForkJoinPool;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BlockExecutor;
import org.chunkcdm.blosc.BloscChunk;
import org.chunkcdm.blosc.BloscFrame;
import org.junit.jupiter.api.Test;

/** Decodes the Blosc fixtures with chunkcdm-codec alone (CodecConsumerIT writes cases.properties and the files). */
class CodecTest {
  @Test
  void onlyTheCodecOfChunkcdmIsOnTheClassPath() {
    String cp = System.getProperty("java.class.path");
    assertTrue(cp.contains("chunkcdm-codec-"), cp);
    for (String e : cp.split(java.io.File.pathSeparator)) {
      String n = Path.of(e).getFileName().toString();
      assertFalse(n.startsWith("chunkcdm-") && !n.startsWith("chunkcdm-codec-"), "another chunkcdm jar: " + e);
      assertFalse(n.startsWith("cdm-core") || n.startsWith("jna"), "not the codec's dependency: " + e);
    }
  }

  @Test
  void everyChunkAndFrameDecodesToTheExpectedBytes() throws Exception {
    Properties p = new Properties();
    try (var in = Files.newInputStream(Path.of("cases.properties"))) {
      p.load(in);
    }
    int chunks = 0;
    int frames = 0;
    for (String k : p.stringPropertyNames()) {
      String[] v = p.getProperty(k).split("\\|");
      byte[] want = Files.readAllBytes(Path.of(v[1]));
      if (k.startsWith("chunk.")) {
        BloscChunk c = BloscChunk.parse(Files.readAllBytes(Path.of(v[0])));
        assertArrayEquals(want, c.decode(), v[0]);
        byte[] parallel = new byte[c.size()];
        c.decode(parallel, 0, BlockExecutor.of(ForkJoinPool.commonPool(), 4), Blosc.Impl.JAVA);
        assertArrayEquals(want, parallel, v[0] + " on 4 threads");
        chunks++;
      } else {
        try (BloscFrame f = BloscFrame.open(Path.of(v[0]))) {
          ByteArrayOutputStream all = new ByteArrayOutputStream();
          for (int i = 0; i < f.chunkCount(); i++) {
            all.write(f.decodeChunk(i));
          }
          assertArrayEquals(want, all.toByteArray(), v[0]);
        }
        frames++;
      }
    }
    assertTrue(chunks >= 20 && frames >= 5, chunks + " chunks, " + frames + " frames");
    Files.writeString(Path.of("target", "codec-consumer-ok.txt"), chunks + " chunks " + frames + " frames");
  }

  @Test
  void theReadmeExampleRuns() throws Exception {
    // README_EXAMPLE
    assertEquals(true, Files.exists(Path.of("data.blosc")));
  }
}
