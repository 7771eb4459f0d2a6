package org.chunkcdm.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.chunk.Concurrently;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileHandles}' memory-mapped reads: the same bytes as the channel, across window boundaries, from many
 * threads at once; a file truncated after it was mapped gives an IOException naming the file (never an
 * InternalError, neither then nor later in the same thread); {@code setMmap(false)} maps nothing.
 */
class FileHandlesMmapTest {
  @TempDir
  Path tmp;

  private Runnable restoreMapSettings;

  @BeforeEach
  void smallWindows() {
    restoreMapSettings = FileMaps.mapSettings();
    IoProbes.setMmap(true);
    FileMaps.setMapLimits(4096, 0, 1); // every read mapped, windows of one page
  }

  @AfterEach
  void restore() {
    FileMaps.checkSizeBeforeMappedRead(true);
    restoreMapSettings.run();
  }

  private Path randomFile(String name, int size, long seed) throws IOException {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    Path p = tmp.resolve(name);
    Files.write(p, b);
    return p;
  }

  @Test
  void sameBytesAcrossWindowBoundaries() throws IOException {
    int size = 5 * 4096 + 123; // last window short
    Path p = randomFile("a.bin", size, 1);
    byte[] want = Files.readAllBytes(p);
    try (FileHandles h = new FileHandles(p)) {
      int[][] cases = {{0, size}, {0, 1}, {4095, 2}, {4096, 4096}, {4000, 3 * 4096}, {size - 1, 1}, {size - 200, 200},
          {5 * 4096, 123}, {1, size - 1}, {8191, 1}, {8192, 0}};
      for (int[] c : cases) {
        byte[] got = new byte[c[1] + 7];
        h.readFully(p, c[0], got, 5, c[1]);
        assertArrayEquals(Arrays.copyOfRange(want, c[0], c[0] + c[1]), Arrays.copyOfRange(got, 5, 5 + c[1]),
            "read of " + c[1] + " at " + c[0]);
      }
      assertEquals(1, h.mappedCount(), "the file is read through its mapping");
      Random r = new Random(2);
      for (int i = 0; i < 300; i++) {
        int pos = r.nextInt(size);
        int len = r.nextInt(size - pos + 1);
        byte[] got = h.read(p, pos, len);
        assertArrayEquals(Arrays.copyOfRange(want, pos, pos + len), got, "read of " + len + " at " + pos);
      }
      // past the end: the channel reports it, naming the file
      IOException e = assertThrows(IOException.class, () -> h.readFully(p, size - 10, new byte[20], 0, 20));
      assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
      IOException e2 = assertThrows(IOException.class, () -> h.read(p, size + 4096, 10));
      assertTrue(e2.getMessage().contains(p.toString()), e2.getMessage());
      // close drops the mappings; the next read maps the file again
      h.close();
      assertEquals(0, h.mappedCount());
      assertArrayEquals(Arrays.copyOfRange(want, 9000, 9100), h.read(p, 9000, 100));
      assertEquals(1, h.mappedCount());
    }
  }

  @Test
  void offAndLimitsMapNothing() throws IOException {
    Path p = randomFile("b.bin", 3 * 4096, 3);
    byte[] want = Files.readAllBytes(p);
    IoProbes.setMmap(false);
    try (FileHandles h = new FileHandles(p)) {
      assertArrayEquals(want, h.read(p, 0, want.length));
      assertEquals(0, h.mappedCount());
    }
    IoProbes.setMmap(true);
    FileMaps.setMapLimits(4096, 3 * 4096 + 1, 1); // the file is below the smallest mapped size
    try (FileHandles h = new FileHandles(p)) {
      assertArrayEquals(want, h.read(p, 0, want.length));
      assertEquals(0, h.mappedCount());
    }
    FileMaps.setMapLimits(4096, 0, 4097); // reads below the smallest mapped read go through the channel
    try (FileHandles h = new FileHandles(p)) {
      assertArrayEquals(Arrays.copyOfRange(want, 10, 4106), h.read(p, 10, 4096));
      assertEquals(0, h.mappedCount());
      assertArrayEquals(Arrays.copyOfRange(want, 10, 4107 + 10), h.read(p, 10, 4107));
      assertEquals(1, h.mappedCount());
    }
    assertThrows(IllegalArgumentException.class, () -> FileMaps.setMapLimits(100, 0, 1));
  }

  /** The default mode maps a file only once it is read again (a first pass goes through the channel). */
  @Test
  void rereadModeMapsOnTheSecondPass() throws IOException {
    FileMaps.setMapMode(FileHandles.MapMode.REREAD);
    int size = 5 * 4096 + 9;
    Path p = randomFile("g.bin", size, 8);
    byte[] want = Files.readAllBytes(p);
    try (FileHandles h = new FileHandles(p)) {
      assertArrayEquals(Arrays.copyOfRange(want, 0, 10000), h.read(p, 0, 10000));
      assertArrayEquals(Arrays.copyOfRange(want, 10000, size), h.read(p, 10000, size - 10000));
      assertEquals(0, h.mappedCount(), "read once: through the channel");
      assertArrayEquals(Arrays.copyOfRange(want, 3, 8200), h.read(p, 3, 8197));
      assertEquals(1, h.mappedCount(), "read again: mapped");
      assertArrayEquals(want, h.read(p, 0, size));
      h.close(); // a fresh count after close
      assertArrayEquals(want, h.read(p, 0, size));
      assertEquals(0, h.mappedCount());
    }
  }

  @Test
  void manyThreadsShareOneMapping() throws Exception {
    int size = 64 * 4096 + 77;
    Path p = randomFile("c.bin", size, 4);
    byte[] want = Files.readAllBytes(p);
    try (FileHandles h = new FileHandles(p)) {
      Concurrently.run(8, (thread, r) -> {
        for (int i = 0; i < 400; i++) {
          int pos = r.nextInt(size);
          int len = r.nextInt(Math.min(3 * 4096, size - pos) + 1);
          byte[] got = h.read(p, pos, len);
          assertArrayEquals(Arrays.copyOfRange(want, pos, pos + len), got, "read of " + len + " at " + pos);
        }
      });
      assertEquals(1, h.mappedCount());
    }
  }

  /**
   * The file loses its end after it was mapped: every read of the lost pages is an IOException naming the file,
   * caused by the JVM's fault error, also once the read is compiled; the thread then runs on without a pending
   * error (allocations and calls into the VM that would deliver it), and another file reads fine.
   */
  @Test
  void truncatedAfterMappingIsAnIOException() throws Exception {
    int size = 16 * 4096;
    Path p = randomFile("d.bin", size, 5);
    byte[] want = Files.readAllBytes(p);
    Path q = randomFile("e.bin", size, 6);
    byte[] wantQ = Files.readAllBytes(q);
    try (FileHandles h = new FileHandles(p)) {
      byte[] buf = new byte[3 * 4096];
      assertArrayEquals(want, h.read(p, 0, size)); // every window mapped while the file is whole
      try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
        raf.setLength(4 * 4096);
      }
      // the size check before the copy sees it: no fault
      IOException first = assertThrows(IOException.class, () -> h.readFully(p, 5 * 4096, buf, 0, buf.length));
      assertTrue(first.getMessage().contains(p.toString()) && first.getMessage().contains("file ends at 16384"),
          first.getMessage());
      assertEquals(0, h.mappedCount(), "the stale mapping is dropped");
      // the truncation between that check and the copy (a race): the copy faults
      FileMaps.checkSizeBeforeMappedRead(false);
      try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
        raf.setLength(size); // whole again (zeros past 16 KiB), mapped whole, truncated again
      }
      h.readFully(p, 0, new byte[size], 0, size);
      assertEquals(1, h.mappedCount());
      try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
        raf.setLength(4 * 4096);
      }
      for (int i = 0; i < 3000; i++) { // enough to get the read path compiled
        int pos = 5 * 4096 + (i % 7) * 1000;
        IOException e = assertThrows(IOException.class, () -> h.readFully(p, pos, buf, 0, buf.length));
        assertTrue(e.getMessage().contains(p.toString()) && e.getMessage().contains("at offset " + pos)
            && e.getMessage().contains("now 16384 bytes"), e.getMessage());
        assertInstanceOf(InternalError.class, e.getCause(), "the mapped copy faulted");
        // the pages still in the file read as before
        h.readFully(p, 100, buf, 0, 3 * 4096);
        assertArrayEquals(Arrays.copyOfRange(want, 100, 100 + 3 * 4096), buf);
      }
      // nothing left pending for this thread: calls into the VM would throw it
      long sum = 0;
      for (int i = 0; i < 1000; i++) {
        byte[][] x = new byte[1 + i % 3][1 + i % 5];
        sum += x.length;
        Thread.yield();
      }
      System.gc();
      Thread.sleep(5);
      assertTrue(sum > 0);
    }
    // truncated before its windows were mapped: the channel reports the short file
    Path r = randomFile("f.bin", size, 7);
    try (FileHandles h = new FileHandles(r)) {
      byte[] buf = new byte[3 * 4096];
      h.readFully(r, 0, buf, 0, buf.length);
      try (RandomAccessFile raf = new RandomAccessFile(r.toFile(), "rw")) {
        raf.setLength(4 * 4096);
      }
      IOException e = assertThrows(IOException.class, () -> h.readFully(r, 6 * 4096, buf, 0, buf.length));
      assertTrue(e.getMessage().contains(r.toString()) && e.getMessage().contains("file ends at 16384"), e.getMessage());
      assertEquals(0, h.mappedCount(), "the stale mapping is dropped");
      h.readFully(r, 4096, buf, 0, buf.length);
      assertEquals(1, h.mappedCount(), "mapped again at the new size");
    }
    try (FileHandles h2 = new FileHandles(q)) {
      assertArrayEquals(wantQ, h2.read(q, 0, size));
      assertEquals(1, h2.mappedCount());
    }
  }
}
