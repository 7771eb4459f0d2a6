package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit 1 and one line saying whether the bytes are wrong, too large, or the file is missing or not a file. */
class CliErrorKindTest {
  @TempDir
  Path tmp;

  @AfterEach
  void clear() {
    System.clearProperty("chunkcdm.maxAllocation");
  }

  static void le32(byte[] b, int p, int v) {
    for (int i = 0; i < 4; i++) {
      b[p + i] = (byte) (v >> (8 * i));
    }
  }

  static void assertOneLine(CliRuns.Result r, String start) {
    assertEquals(1, r.rc(), r.err());
    assertTrue(r.err().startsWith(start), r.err());
    assertEquals(1, r.err().strip().split("\n").length, r.err());
    assertFalse(r.err().contains("\tat "), r.err());
  }

  /** A Blosc2 zeros chunk of 32 bytes claiming ~2 GiB; a Blosc1 chunk with patched nbytes and blocksize. */
  @Test
  void chunkClaimingTwoGiBIsOneLineNotOutOfMemory() throws Exception {
    System.setProperty("chunkcdm.maxAllocation", String.valueOf(64 << 20));
    byte[] c = new byte[32];
    c[0] = 5;
    c[1] = 1;
    c[2] = 0x05;
    c[3] = 4;
    le32(c, 4, 0x7FFF_FFF0);
    le32(c, 8, 1 << 20);
    le32(c, 12, 32);
    c[31] = 0x10;
    Path in = tmp.resolve("zeros.chunk");
    Files.write(in, c);
    Path out = tmp.resolve("out.bin");
    assertOneLine(CliRuns.run("blosc", "decompress", in.toString(), out.toString()), "chunkcdm: too large: " + in);
    assertFalse(Files.exists(out));

    byte[] b1 = Files.readAllBytes(Fixtures.family("blosc2").resolve("chunks/chunk_cblosc1_lz4hc_noshuffle_u1.chunk"));
    le32(b1, 4, 0x7FFF_0000); // nbytes
    le32(b1, 8, 0x7FFF_0000); // blocksize: one block, so the offset table still fits
    Files.write(in, b1);
    for (String impl : new String[] {"--java", "--native"}) {
      CliRuns.Result r = CliRuns.run("blosc", "decompress", impl, in.toString(), out.toString());
      assertOneLine(r, "chunkcdm: too large: " + in);
    }
    System.clearProperty("chunkcdm.maxAllocation");
  }

  @Test
  void corruptChunkIsAFormatErrorAndAMissingFileSaysSo() throws Exception {
    byte[] b = Files.readAllBytes(Fixtures.family("blosc2").resolve("chunks/chunk_cblosc1_lz4hc_noshuffle_u1.chunk"));
    le32(b, 16, 0x7fff_fff0); // offset of block 0
    Path in = tmp.resolve("bad.chunk");
    Files.write(in, b);
    assertOneLine(CliRuns.run("blosc", "decompress", "--java", in.toString(), tmp.resolve("o").toString()),
        "chunkcdm: format error: " + in);
    assertOneLine(CliRuns.run("blosc", "info", tmp.resolve("nope").toString()),
        "chunkcdm: " + tmp.resolve("nope") + ": no such file or directory");
  }

  @Test
  void fifoIsRefusedNotRead() throws Exception {
    Path fifo = tmp.resolve("pipe");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
    assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
        assertOneLine(CliRuns.run("blosc", "info", fifo.toString()), "chunkcdm: " + fifo + ": not a regular file"));
  }
}
