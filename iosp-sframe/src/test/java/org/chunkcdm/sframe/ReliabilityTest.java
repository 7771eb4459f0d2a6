package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/** Sparse frames on hostile files: a FIFO chunk file is refused (no hang); errors name file and chunk. */
class ReliabilityTest {
  @TempDir
  Path tmp;

  Path copy() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("sframe/sf_lz4_noshuffle_u1.b2frame");
    return TestFiles.copy(d.file(), tmp.resolve("sf.b2frame"));
  }

  @Test
  void fifoChunkFileIsRefusedNotHung() throws Exception {
    Path f = copy();
    Path chunk = f.resolve("00000002.chunk");
    Files.delete(chunk);
    assertEquals(0, new ProcessBuilder("mkfifo", chunk.toString()).inheritIO().start().waitFor());
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      IOException e = assertThrows(IOException.class, () -> {
        try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
          nc.getVariables().get(0).read();
        }
      });
      NetcdfChecks.assertMentions(e, "00000002.chunk", "not a regular file");
      assertTrue(FormatException.isFormatError(e), String.valueOf(e));
    });
  }

  @Test
  void corruptChunkNamesFileAndChunkAndIsAFormatError() throws Exception {
    Path f = copy();
    Path chunk = f.resolve("00000001.chunk");
    byte[] b = Files.readAllBytes(chunk);
    b[32] = (byte) 0xf0; // offset of block 0 (after the 32-byte extended header) far past the chunk
    b[33] = (byte) 0xff;
    b[34] = (byte) 0xff;
    b[35] = (byte) 0x7f;
    Files.write(chunk, b);
    IOException e = assertThrows(IOException.class, () -> {
      try (ChunkedDataset d = Datasets.open(f)) {
        d.variables().get(0).array().chunk(1).readAll();
      }
    });
    NetcdfChecks.assertMentions(e, f.toString(), "chunk 1", "00000001.chunk", "block 0 offset");
    assertTrue(FormatException.isFormatError(e), String.valueOf(e));
  }

  @Test
  void missingChunkFileIsAnIoErrorNotAFormatError() throws Exception {
    Path f = copy();
    Files.delete(f.resolve("00000003.chunk"));
    IOException e = assertThrows(IOException.class, () -> {
      try (ChunkedDataset d = Datasets.open(f)) {
        d.variables().get(0).array().chunk(3).readAll();
      }
    });
    NetcdfChecks.assertMentions(e, "00000003.chunk", "missing");
    assertTrue(!FormatException.isFormatError(e), String.valueOf(e));
  }
}
