package org.chunkcdm.io;

import org.chunkcdm.blosc.LimitException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.chunk.BloscChunkData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunk layer's reliability rules: regular files only, sizes bounded by the heap, typed errors. */
class ReliabilityRulesTest {
  @TempDir
  Path dir;

  @AfterEach
  void clearLimit() {
    System.clearProperty("chunkcdm.maxAllocation");
  }

  static void mkfifo(Path p) throws Exception {
    Process pr = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
    assertEquals(0, pr.waitFor(), "mkfifo failed");
    assertTrue(Files.exists(p) && !Files.isRegularFile(p));
  }

  /** A FIFO inside the dataset is refused by every read path instead of blocking the thread forever. */
  @Test
  void fifoInsideDatasetIsRefusedNotHung() throws Exception {
    Path fifo = dir.resolve("00000000.chunk");
    mkfifo(fifo);
    try (FileHandles files = new FileHandles(dir)) {
      assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
        FormatException a = assertThrows(FormatException.class, () -> files.readOnce(fifo, Long.MAX_VALUE, 1 << 20));
        assertTrue(a.getMessage().contains(fifo.toString()) && a.getMessage().contains("FIFO"), a.getMessage());
        assertThrows(FormatException.class, () -> files.size(fifo));
        assertThrows(FormatException.class, () -> files.read(fifo, 0, 1));
        assertThrows(FormatException.class, () -> files.readAll(fifo, 1 << 20));
        assertThrows(FormatException.class, () -> files.readFully(fifo, 0, new byte[1], 0, 1));
      });
      Path sub = Files.createDirectory(dir.resolve("sub"));
      assertThrows(FormatException.class, () -> files.readOnce(sub, 10, 10));
      IOException missing = assertThrows(IOException.class, () -> files.readOnce(dir.resolve("nope"), 10, 10));
      assertFalse(missing instanceof FormatException, "a missing file is an I/O failure, not bad bytes");
      assertTrue(missing.getMessage().contains("nope"), missing.getMessage());
    }
  }

  @Test
  void symlinkToFifoInsideDatasetIsRefused() throws Exception {
    Path fifo = dir.resolve("pipe");
    mkfifo(fifo);
    Path link = Files.createSymbolicLink(dir.resolve("__attrs__"), fifo.getFileName());
    try (FileHandles files = new FileHandles(dir)) {
      assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> assertThrows(FormatException.class, () -> files.readOnce(link, Long.MAX_VALUE, 1 << 20)));
    }
  }

  @Test
  void heapBoundIsHalfTheHeapAndOverridable() throws Exception {
    assertTrue(Bounds.maxAllocation() <= Runtime.getRuntime().maxMemory() / 2);
    System.setProperty("chunkcdm.maxAllocation", "1000");
    assertEquals(1000, Bounds.maxAllocation());
    Bounds.checkAllocation(1000, "x");
    LimitException e = assertThrows(LimitException.class, () -> Bounds.checkAllocation(1001, "f: chunk 3"));
    assertTrue(e.getMessage().startsWith("f: chunk 3: 1001 bytes"), e.getMessage());
    assertThrows(FormatException.class, () -> Bounds.checkAllocation(-1, "x"));
  }

  /** A read of a size taken from a file is checked against the heap bound before the array exists. */
  @Test
  void fileReadsAreBoundedByTheHeap() throws Exception {
    Path f = dir.resolve("big");
    try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(f.toFile(), "rw")) {
      raf.setLength(300L << 20); // sparse
    }
    System.setProperty("chunkcdm.maxAllocation", String.valueOf(1 << 20));
    try (FileHandles files = new FileHandles(dir)) {
      LimitException e = assertThrows(LimitException.class, () -> files.read(f, 0, 300L << 20));
      assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
      assertThrows(LimitException.class, () -> files.readOnce(f, Long.MAX_VALUE, Long.MAX_VALUE));
      assertThrows(FormatException.class, () -> files.read(f, 300L << 20, 1));
    }
  }

  /** 32-byte Blosc2 chunk: extended header, special "zeros" claiming {@code nbytes}. */
  static byte[] blosc2Zeros(int nbytes) {
    byte[] c = new byte[32];
    c[0] = 5;
    c[1] = 1;
    c[2] = 0x05; // extended header
    c[3] = 4;
    le32(c, 4, nbytes);
    le32(c, 8, 1 << 20);
    le32(c, 12, 32);
    c[31] = 0x10; // special zeros
    return c;
  }

  static void le32(byte[] b, int p, int v) {
    b[p] = (byte) v;
    b[p + 1] = (byte) (v >> 8);
    b[p + 2] = (byte) (v >> 16);
    b[p + 3] = (byte) (v >> 24);
  }

  /** A chunk whose header claims about 2 GiB is an IOException before anything is allocated. */
  @Test
  void chunkClaimingTwoGiBIsRefusedBeforeAllocating() throws Exception {
    System.setProperty("chunkcdm.maxAllocation", String.valueOf(64 << 20));
    byte[] zeros = blosc2Zeros(0x7FFF_FFF0);
    IOException e = assertThrows(LimitException.class, () -> Blosc.decompress(zeros, 0, zeros.length));
    assertTrue(e.getMessage().contains("2147483632"), e.getMessage());
    BloscChunkData d = BloscChunkData.of(zeros, 0, zeros.length, "f.blp: chunk 7 of 'x'");
    IOException e2 = assertThrows(LimitException.class, d::readAll);
    assertTrue(e2.getMessage().startsWith("f.blp: chunk 7 of 'x': "), e2.getMessage());
    // a small zeros chunk still decodes
    byte[] ok = blosc2Zeros(1000);
    byte[] out = Blosc.decompress(ok, 0, ok.length);
    assertEquals(1000, out.length);
    assertTrue(Arrays.equals(new byte[1000], out));
  }

  /** Decoding errors found later, in a read, name the file, chunk and variable; their kind is kept. */
  @Test
  void decodeErrorsNameTheChunkAndAreFormatErrors() throws Exception {
    Path p = org.chunkcdm.testkit.Fixtures.family("blosc2").resolve("chunks/chunk_cblosc1_lz4hc_noshuffle_u1.chunk");
    byte[] c = Files.readAllBytes(p);
    for (int i = c.length - 40; i < c.length; i++) {
      c[i] = (byte) 0xff; // wreck the tail of the last stream
    }
    BloscChunkData d = BloscChunkData.of(c, 0, c.length, "x.bcolz/data/__0.blp: chunk 0 of 'v'");
    FormatException e = assertThrows(FormatException.class, d::readAll);
    assertTrue(e.getMessage().startsWith("x.bcolz/data/__0.blp: chunk 0 of 'v': Blosc chunk: block"), e.getMessage());
    FormatException r = assertThrows(FormatException.class,
        () -> BloscChunkData.of(c, 0, c.length, "y: chunk 1").read(0, new byte[(int) d.size()], 0, (int) d.size()));
    assertTrue(r.getMessage().startsWith("y: chunk 1: "), r.getMessage());
    byte[] shortChunk = Arrays.copyOf(c, 10);
    FormatException h = assertThrows(FormatException.class, () -> BloscChunkData.of(shortChunk, 0, 10, "z: chunk 2"));
    assertTrue(h.getMessage().startsWith("z: chunk 2: Blosc chunk of 10 bytes"), h.getMessage());
  }

  @Test
  void contextKeepsTheKind() {
    assertInstanceOf(FormatException.class, FormatException.in("a", new FormatException("b")));
    IOException io = FormatException.in("a", new IOException("b"));
    assertFalse(io instanceof FormatException);
    assertEquals("a: b", io.getMessage());
    assertInstanceOf(LimitException.class, FormatException.in("a", new LimitException("b")));
    assertTrue(FormatException.isFormatError(new IOException("x", new FormatException("y"))));
  }

  /** A Blosc1 chunk of one block claiming ~2 GiB: a range read refuses the block before allocating it. */
  @Test
  void rangeReadOfAHugeBlockIsRefusedBeforeAllocating() throws Exception {
    System.setProperty("chunkcdm.maxAllocation", String.valueOf(64 << 20));
    byte[] c = Files.readAllBytes(org.chunkcdm.testkit.Fixtures.family("blosc2")
        .resolve("chunks/chunk_cblosc1_lz4hc_noshuffle_u1.chunk"));
    le32(c, 4, 0x7FFF_0000);
    le32(c, 8, 0x7FFF_0000);
    BloscChunkData d = BloscChunkData.of(c, 0, c.length, "x: chunk 0");
    assertThrows(LimitException.class, () -> d.read(5, new byte[10], 0, 10));
    assertThrows(LimitException.class, () -> Blosc.decompressRange(c, 0, c.length, 5, 10, new byte[10], 0));
  }
}
