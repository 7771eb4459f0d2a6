package org.chunkcdm.bcolz;

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
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/** bcolz on hostile files: FIFOs refused (no hang), Jackson encoding errors and chunk decode errors named. */
class ReliabilityTest {
  static final String CARRAY = "carray/dtype_uint32_blosclz_c9_byteshuf_n1234_cl300";

  @TempDir
  Path tmp;

  Path carray() throws IOException {
    return MalformedTest.copy(CARRAY, tmp.resolve("c"));
  }

  static void mkfifo(Path p) throws Exception {
    Files.delete(p);
    assertEquals(0, new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor());
  }

  @Test
  void fifoAsAttrsIsRefusedNotHung() throws Exception {
    Path c = carray();
    mkfifo(c.resolve("__attrs__"));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      IOException e = assertThrows(IOException.class, () -> NetcdfFiles.open(c.toString()).close());
      NetcdfChecks.assertMentions(e, "__attrs__", "not a regular file");
      assertTrue(FormatException.isFormatError(e), String.valueOf(e));
      assertThrows(FormatException.class, () -> Datasets.open(c).close());
    });
  }

  @Test
  void fifoAsChunkFileIsRefusedNotHung() throws Exception {
    Path c = carray();
    mkfifo(c.resolve("data/__1.blp"));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
        IOException e = assertThrows(IOException.class, () -> nc.getVariables().get(0).read());
        NetcdfChecks.assertMentions(e, "__1.blp", "not a regular file");
      }
    });
  }

  /** Bytes Jackson takes for UTF-32 fail with a CharConversionException: it must name the file too. */
  @Test
  void utf32LookingJsonNamesTheFile() throws Exception {
    Path c = carray();
    Files.write(c.resolve("meta/storage"), new byte[] {0, 0, 0, '{', (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    IOException e = assertThrows(IOException.class, () -> NetcdfFiles.open(c.toString()).close());
    NetcdfChecks.assertMentions(e, "meta/storage", "invalid JSON");
    FormatException f = assertThrows(FormatException.class, () -> Datasets.open(c).close());
    assertTrue(f.getMessage().contains("meta/storage"), f.getMessage());
  }

  /** Corrupt Blosc streams in a chunk file: the read error names the file, the chunk and the variable. */
  @Test
  void corruptChunkErrorNamesFileChunkAndVariable() throws Exception {
    Path c = carray();
    Path chunk = c.resolve("data/__0.blp");
    byte[] b = Files.readAllBytes(chunk);
    // the offset of block 0 (after the 16-byte bcolz and 16-byte Blosc headers) points past the chunk
    b[32] = (byte) 0xf0;
    b[33] = (byte) 0xff;
    b[34] = (byte) 0xff;
    b[35] = (byte) 0x7f;
    Files.write(chunk, b);
    for (String impl : new String[] {"java", "auto"}) {
      System.setProperty("chunkcdm.blosc", impl);
      try (ChunkedDataset d = Datasets.open(c)) {
        String var = d.variables().get(0).name();
        IOException e = assertThrows(IOException.class, () -> d.variables().get(0).array().chunk(0).readAll());
        NetcdfChecks.assertMentions(e, "__0.blp", "chunk 0 of", var);
        assertTrue(FormatException.isFormatError(e), impl + ": " + e);
      } finally {
        System.clearProperty("chunkcdm.blosc");
      }
    }
  }

  /** Chunk files truncated or deleted under an open dataset: the affected chunks fail, naming the file. */
  @Test
  void chunkFilesTruncatedOrDeletedUnderAnOpenDataset() throws Exception {
    Path c = carray();
    try (ChunkedDataset d = Datasets.open(c)) {
      org.chunkcdm.chunk.ChunkedArray a = d.variables().get(0).array();
      byte[] first = a.chunk(0).readAll().clone();
      a.chunk(1).readAll();
      try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(c.resolve("data/__1.blp").toFile(), "rw")) {
        raf.setLength(raf.length() / 2);
      }
      Files.delete(c.resolve("data/__2.blp"));
      IOException t = assertThrows(IOException.class, () -> a.chunk(1).readAll());
      NetcdfChecks.assertMentions(t, "__1.blp", "chunk 1");
      IOException m = assertThrows(IOException.class, () -> a.chunk(2).readAll());
      NetcdfChecks.assertMentions(m, "__2.blp", "missing");
      org.junit.jupiter.api.Assertions.assertArrayEquals(first, a.chunk(0).readAll(), "untouched chunks still read");
    }
  }
}
