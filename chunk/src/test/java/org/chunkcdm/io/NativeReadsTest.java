package org.chunkcdm.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.chunk.Concurrently;
import org.chunkcdm.testkit.NativeAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-copy reads through {@code pread} ({@link NativeReads}): on where the JVM, the system and the grant allow it
 * (CI's second run, on Java 25 with {@code --enable-native-access}, takes them; on Java 17 the reason is asserted and
 * the same reads go through the channel), every range against the file's bytes, a short or truncated file through
 * the channel's messages, ranges the page cache does not hold go through the channel, descriptors closed after the
 * last read, links and FIFOs refused on the open descriptor, many threads with closes in between.
 */
class NativeReadsTest {
  @TempDir
  Path tmp;

  private Runnable restore;

  @BeforeEach
  void smallFilesToo() {
    restore = FileMaps.mapSettings();
    FileMaps.setMapMode(FileHandles.MapMode.OFF);
    FileMaps.setMapLimits(1 << 20, 4096, 1024);
  }

  @AfterEach
  void back() {
    restore.run();
    FileHandles.setNativeReads(true);
  }

  /** What this JVM should do: null when the reads must be on, otherwise a fragment of the reason. */
  static String expectedReason() {
    if ("false".equals(System.getProperty("chunkcdm.ffm"))) {
      return "off by";
    }
    if (!NativeAccess.ffmExpected()) {
      return "Java 22";
    }
    return NativeAccess.preadExpected() ? null : "";
  }

  @Test
  void onWhereItCanRunAndOtherwiseSaysWhy() {
    String want = expectedReason();
    if (want == null) {
      assertNull(FileHandles.nativeReadsOff(), "Java " + Runtime.version().feature() + " on Linux "
          + System.getProperty("os.version") + " with native access granted (the surefire argLine)");
      assertTrue(NativeReads.on());
    } else {
      String off = FileHandles.nativeReadsOff();
      assertTrue(off != null && off.contains(want), off + " should mention " + want);
      assertTrue(!NativeReads.on());
    }
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void everyRangeAgainstTheFile() throws IOException {
    byte[] data = random(9 * 1024 * 1024 + 777, 1); // the first read, of all of it, takes three calls of 4 MiB
    Path f = dataFile(data);
    Random r = new Random(2);
    long before = NativeReads.BYTES.sum();
    long wanted = 0;
    try (FileHandles h = new FileHandles(tmp)) {
      for (int i = 0; i < 300; i++) {
        int len = i == 0 ? data.length : i == 1 ? 0 : 1024 + r.nextInt(200_000);
        int pos = i < 2 ? 0 : r.nextInt(data.length - len + 1);
        int off = r.nextInt(9);
        byte[] dst = new byte[off + len + r.nextInt(5)];
        h.readFully(f, pos, dst, off, len);
        assertArrayEquals(Arrays.copyOfRange(data, pos, pos + len), Arrays.copyOfRange(dst, off, off + len),
            "read " + i + ": " + len + " bytes at " + pos);
        wanted += len;
      }
      assertEquals(NativeReads.on() ? 1 : 0, h.nativeCount());
    }
    // the file was just written: the page cache holds it, so every byte came the one-copy way where it is on
    assertEquals(NativeReads.on() ? wanted : 0, NativeReads.BYTES.sum() - before);
  }

  @Test
  void offTheyGoThroughTheChannel() throws IOException {
    byte[] data = random(300_000, 3);
    Path f = dataFile(data);
    FileHandles.setNativeReads(false);
    throughTheChannelOnly(h -> {
      byte[] dst = new byte[data.length];
      h.readFully(f, 0, dst, 0, dst.length);
      assertArrayEquals(data, dst);
    });
  }

  @Test
  void smallReadsAndSmallFilesTakeTheChannel() throws IOException {
    byte[] data = random(300_000, 4);
    Path f = tmp.resolve("data.bin");
    Path small = tmp.resolve("small.bin");
    Files.write(f, data);
    Files.write(small, Arrays.copyOf(data, 4000)); // below minFileBytes (4096 here)
    throughTheChannelOnly(h -> {
      byte[] dst = new byte[1023]; // below minReadBytes (1024 here)
      h.readFully(f, 5, dst, 0, dst.length);
      assertArrayEquals(Arrays.copyOfRange(data, 5, 5 + 1023), dst);
      byte[] d2 = new byte[4000];
      h.readFully(small, 0, d2, 0, d2.length);
      assertArrayEquals(Arrays.copyOf(data, 4000), d2);
    });
  }

  /** Writes {@code data} to {@code data.bin} in the temporary directory. */
  private Path dataFile(byte[] data) throws IOException {
    Path f = tmp.resolve("data.bin");
    Files.write(f, data);
    return f;
  }

  private interface Reads {
    void run(FileHandles h) throws IOException;
  }

  /** Runs {@code reads} on handles of the temporary directory and checks that none went through NativeReads. */
  private void throughTheChannelOnly(Reads reads) throws IOException {
    long before = NativeReads.BYTES.sum();
    try (FileHandles h = new FileHandles(tmp)) {
      reads.run(h);
      assertEquals(0, h.nativeCount());
    }
    assertEquals(0, NativeReads.BYTES.sum() - before);
  }

  @Test
  void aShortOrTruncatedFileIsTheChannelsEofNamingTheFile() throws IOException {
    byte[] data = random(200_000, 5);
    Path f = dataFile(data);
    try (FileHandles h = new FileHandles(tmp)) {
      byte[] dst = new byte[100_000];
      h.readFully(f, 0, dst, 0, dst.length);
      EOFException e = assertThrows(EOFException.class, () -> h.readFully(f, 150_000, dst, 0, dst.length));
      assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
      try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
        raf.setLength(120_000); // truncated while open (and its descriptor open)
      }
      e = assertThrows(EOFException.class, () -> h.readFully(f, 50_000, dst, 0, dst.length));
      assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("120000"), e.getMessage());
      h.readFully(f, 10_000, dst, 0, dst.length); // what is left still reads
      assertArrayEquals(Arrays.copyOfRange(data, 10_000, 110_000), dst);
    }
  }

  @Test
  void aRangeOutsideTheArrayIsRefusedBeforeAnyCall() throws IOException {
    byte[] data = random(200_000, 6);
    Path f = dataFile(data);
    try (FileHandles h = new FileHandles(tmp)) {
      byte[] dst = new byte[100_000];
      assertThrows(IndexOutOfBoundsException.class, () -> h.readFully(f, 0, dst, 1, dst.length));
      assertThrows(IndexOutOfBoundsException.class, () -> h.readFully(f, 0, dst, -1, 5000));
      if (NativeReads.on()) { // the kernel is never handed the range: nothing read into the array
        NativeReads.Fd fd = NativeReads.open(f, tmp.toRealPath());
        try {
          assertEquals(0, NativeReads.read(fd, 0, dst, 1, dst.length));
          assertEquals(0, NativeReads.read(fd, 0, dst, dst.length - 10, 11));
          assertEquals(11, NativeReads.read(fd, 0, dst, dst.length - 11, 11));
        } finally {
          fd.close();
        }
      }
    }
  }

  /** Holes of a sparse file are in no page until read: the first read takes the channel, the second the pread. */
  @Test
  void rangesNotInThePageCacheGoThroughTheChannel() throws IOException {
    Path f = tmp.resolve("sparse.bin");
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.setLength(8 << 20);
    }
    try (FileHandles h = new FileHandles(tmp)) {
      byte[] dst = new byte[1 << 20];
      Arrays.fill(dst, (byte) 1);
      long before = NativeReads.BYTES.sum();
      h.readFully(f, 3 << 20, dst, 0, dst.length);
      assertArrayEquals(new byte[dst.length], dst);
      assertEquals(0, NativeReads.BYTES.sum() - before, "not cached: read through the channel");
      Arrays.fill(dst, (byte) 1);
      h.readFully(f, 3 << 20, dst, 0, dst.length);
      assertArrayEquals(new byte[dst.length], dst);
      assertEquals(NativeReads.on() ? dst.length : 0, NativeReads.BYTES.sum() - before, "cached now");
    }
  }

  /**
   * Descriptors of this process open on files under this test's directory. Only those: the JVM and earlier tests'
   * background work (read-ahead, cleaners) open and close other files at any moment, and once made a whole-process
   * count one too high.
   */
  private long openDescriptors() throws IOException {
    Path dir = tmp.toRealPath();
    long n = 0;
    try (var s = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) s::iterator) {
        try {
          if (Files.readSymbolicLink(fd).startsWith(dir)) {
            n++;
          }
        } catch (IOException e) {
          // closed between the listing and the lookup: not open
        }
      }
    }
    return n;
  }

  @Test
  void descriptorsCloseWithTheHandles() throws IOException {
    byte[] data = random(100_000, 7);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Path f = tmp.resolve("f" + i);
      Files.write(f, data);
      files.add(f);
    }
    long before = openDescriptors();
    try (FileHandles h = new FileHandles(tmp)) {
      byte[] dst = new byte[data.length];
      for (Path f : files) {
        h.readFully(f, 0, dst, 0, dst.length);
        assertArrayEquals(data, dst);
      }
      assertEquals(NativeReads.on() ? 20 : 0, h.nativeCount());
      assertEquals(before + (NativeReads.on() ? 40 : 20), openDescriptors(), "a channel and a descriptor per file");
      h.close();
      assertEquals(before, openDescriptors());
      h.readFully(files.get(3), 0, dst, 0, dst.length); // reopened by the next read
      assertArrayEquals(data, dst);
      assertEquals(NativeReads.on() ? 1 : 0, h.nativeCount());
    }
    assertEquals(before, openDescriptors());
  }

  /** Handles dropped without close(): their descriptors (and channels) are closed once the handles are collected. */
  @Test
  void descriptorsOfDroppedHandlesAreClosedByTheCollector() throws Exception {
    byte[] data = random(100_000, 11);
    Path f = tmp.resolve("a.bin");
    Files.write(f, data);
    long before = openDescriptors();
    readAndDrop(f, data);
    assertTrue(openDescriptors() > before, "open while the handles live");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (openDescriptors() > before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(before, openDescriptors());
  }

  private static void readAndDrop(Path f, byte[] data) throws IOException {
    FileHandles h = new FileHandles(f.getParent());
    byte[] dst = new byte[data.length];
    h.readFully(f, 0, dst, 0, dst.length);
    assertArrayEquals(data, dst);
    assertEquals(NativeReads.on() ? 1 : 0, h.nativeCount());
  }

  @Test
  void aDescriptorOfAnotherFileThanThePathNamesIsRefused() throws Exception {
    if (!NativeReads.on()) {
      return; // nothing is opened this way here (asserted by onWhereItCanRunAndOtherwiseSaysWhy)
    }
    Path a = tmp.resolve("a.bin");
    Path b = tmp.resolve("b.bin");
    Files.write(a, random(10_000, 12));
    Files.write(b, random(10_000, 13));
    // as if a.bin had been swapped for another file between the checks of the path and the open
    assertNull(NativeReads.open(a, b, tmp.toRealPath()));
    NativeReads.Fd same = NativeReads.open(a, a, tmp.toRealPath());
    assertTrue(same != null);
    same.close();
  }

  @Test
  void linksOutsideAndFifosAreRefusedOnTheOpenDescriptor() throws Exception {
    if (!NativeReads.on()) {
      assertNull(NativeReads.open(tmp.resolve("any"), tmp.toRealPath()), "off: nothing opened");
      return;
    }
    Path root = Files.createDirectory(tmp.resolve("root"));
    Path outside = tmp.resolve("outside.bin");
    Files.write(outside, random(10_000, 8));
    Path link = Files.createSymbolicLink(root.resolve("link.bin"), outside);
    assertNull(NativeReads.open(link, root.toRealPath()), "a link to a file outside the root");
    Path inside = root.resolve("in.bin");
    Files.write(inside, random(10_000, 9));
    Path inLink = Files.createSymbolicLink(root.resolve("inlink.bin"), inside);
    NativeReads.Fd ok = NativeReads.open(inLink, root.toRealPath());
    assertTrue(ok != null, "a link to a file inside the root");
    ok.close();
    Path fifo = root.resolve("fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo");
    // a FIFO would block a plain open until a writer comes; this one returns at once and refuses it
    ExecutorService ex = Executors.newSingleThreadExecutor();
    try {
      Future<NativeReads.Fd> r = ex.submit(() -> NativeReads.open(fifo, root.toRealPath()));
      assertNull(r.get(10, TimeUnit.SECONDS), "a FIFO");
    } finally {
      ex.shutdownNow();
    }
    assertNull(NativeReads.open(root.resolve("missing"), root.toRealPath()));
    assertNull(NativeReads.open(root, root.toRealPath()), "a directory");
  }

  @Test
  void manyThreadsWithClosesInBetween() throws Exception {
    byte[] data = random(2 * 1024 * 1024, 10);
    Path f = dataFile(data);
    long before = openDescriptors();
    try (FileHandles h = new FileHandles(tmp)) {
      Concurrently.run(8, (thread, r) -> {
        for (int i = 0; i < 400; i++) {
          int len = 1024 + r.nextInt(300_000);
          int pos = r.nextInt(data.length - len);
          byte[] dst = new byte[len];
          h.readFully(f, pos, dst, 0, len);
          if (!Arrays.equals(dst, 0, len, data, pos, pos + len)) {
            throw new AssertionError("thread " + thread + " read " + i + ": " + len + " bytes at " + pos);
          }
        }
      }, done -> {
        while (!done.getAsBoolean()) {
          h.close(); // released meanwhile, as TDS does: the reads reopen
          Thread.sleep(1);
        }
      });
    }
    assertEquals(before, openDescriptors(), "every descriptor closed once its reads were done");
  }
}
