package org.chunkcdm.io.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Locations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Files and FileHandles over objects: what each call costs in requests, versions, listings, prefetch. */
class RemoteFilesTest {
  private MemoryStore s3;
  private MemoryStore http;

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private MemoryStore s3() {
    s3 = new MemoryStore("s3://b", true).install(RemoteLocation.Kind.S3);
    return s3;
  }

  private MemoryStore http() {
    http = new MemoryStore("http://h", false).install(RemoteLocation.Kind.HTTP);
    return http;
  }

  @AfterEach
  void uninstall() {
    if (s3 != null) {
      s3.uninstall();
    }
    if (http != null) {
      http.uninstall();
    }
  }

  @Test
  void smallFileOpenCostsOneRequest() throws IOException {
    MemoryStore st = http();
    byte[] data = bytes(10_000, 1);
    st.put("d/x.ds", data);
    Path p = Locations.path("http://h:1/d/x.ds");
    assertTrue(Files.isRegularFile(p));
    assertEquals(10_000, Files.size(p));
    byte[] head = new byte[5];
    try (InputStream in = Files.newInputStream(p)) {
      assertEquals(5, in.readNBytes(head, 0, 5));
    }
    try (FileHandles f = new FileHandles(p)) {
      assertArrayEquals(data, f.read(p, 0, data.length));
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 100, 200), f.read(p, 100, 100));
    }
    assertEquals(1, st.take(), "stat, size, header and reads of a 10 kB object: one GET of its start");
  }

  @Test
  void headAndTailOfALargeObject() throws IOException {
    MemoryStore st = http();
    byte[] data = bytes(5 << 20, 2);
    st.put("x.b2nd", data);
    Path p = Locations.path("http://h:1/x.b2nd");
    try (FileHandles f = new FileHandles(p)) {
      assertEquals(data.length, f.size(p));
      byte[] h = f.read(p, 0, 87);
      byte[] t1 = f.read(p, data.length - 23, 5);
      byte[] t2 = f.read(p, data.length - 3000, 2977);
      assertArrayEquals(java.util.Arrays.copyOf(data, 87), h);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, data.length - 23, data.length - 18), t1);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, data.length - 3000, data.length - 23), t2);
      assertEquals(2, st.take(), "head and tail: two GETs");
      byte[] mid = f.read(p, 1 << 20, 1 << 20);
      assertArrayEquals(java.util.Arrays.copyOfRange(data, 1 << 20, 2 << 20), mid);
      assertEquals(List.of("GET x.b2nd 1048576+1048576"), st.log, "a chunk: exactly its range");
    }
  }

  @Test
  void missingObjectsNameTheirUrl() throws IOException {
    MemoryStore st = http();
    Path p = Locations.path("http://h:1/nope/x.b2nd");
    assertFalse(Files.exists(p));
    assertFalse(Files.isRegularFile(p));
    assertTrue(Locations.mayBeDirectory(p), "over HTTP a path that is no object may be a directory");
    try (FileHandles f = new FileHandles(p.getParent())) {
      NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> f.size(p));
      assertTrue(e.getMessage().contains("http://h:1/nope/x.b2nd"), e.getMessage());
      assertNull(f.readAllIfExists(p, 100));
    }
    st.take();
  }

  @Test
  void replacedObjectIsAnErrorNotAMix() throws IOException {
    MemoryStore st = http();
    byte[] data = bytes(1 << 20, 3);
    st.put("x.b2nd", data);
    Path p = Locations.path("http://h:1/x.b2nd");
    try (FileHandles f = new FileHandles(p)) {
      f.size(p);
      st.put("x.b2nd", bytes(1 << 20, 4));
      IOException e = assertThrows(IOException.class, () -> f.read(p, 500_000, 100_000));
      assertTrue(e.getMessage().contains("http://h:1/x.b2nd") && e.getMessage().contains("changed"), e.getMessage());
      long v1 = f.lastModified();
      assertTrue(v1 > 0);
    }
    try (FileHandles f = new FileHandles(p)) {
      RemoteStores.reset(); // a new open sees the new version
      assertArrayEquals(st.get("x.b2nd"), f.read(p, 0, 1 << 20));
    }
  }

  @Test
  void s3DirectoryOpenListsOnceAndProbesForFree() throws IOException {
    MemoryStore st = s3();
    st.put("d/x.bcolz/__attrs__", "{}\n".getBytes());
    st.put("d/x.bcolz/meta/sizes", "{\"shape\": [10]}\n".getBytes());
    st.put("d/x.bcolz/meta/storage", "{}\n".getBytes());
    for (int i = 0; i < 50; i++) {
      st.put("d/x.bcolz/data/__" + i + ".blp", bytes(100, i));
    }
    Path dir = Locations.path("s3://b/d/x.bcolz");
    assertTrue(Locations.mayBeDirectory(dir));
    assertTrue(Files.isDirectory(dir));
    assertFalse(Files.exists(dir.resolve("__rootdirs__")));
    assertFalse(Files.exists(dir.resolve("chunks.b2frame")));
    assertTrue(Files.isRegularFile(dir.resolve("__attrs__")));
    assertEquals(List.of("LIST d/x.bcolz/"), st.log, "one listing answers every probe of the directory's entries");
    st.take();
    try (FileHandles f = new FileHandles(dir)) {
      assertEquals("{\"shape\": [10]}\n", new String(f.readAll(dir.resolve("meta/sizes"), 1000)));
      assertEquals("{}\n", new String(f.readAll(dir.resolve("__attrs__"), 1000)));
    }
    assertEquals(2, st.take());
    try (Stream<Path> s = Files.list(dir.resolve("data"))) {
      assertEquals(50, s.count());
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of("__attrs__", "data", "meta"),
          s.map(x -> x.getFileName().toString()).sorted().collect(Collectors.toList()));
    }
    assertFalse(Locations.mayBeDirectory(Locations.path("s3://b/nothing/here")));
  }

  @Test
  void prefetchCoalescesAdjacentRangesIntoFewRequests() throws IOException {
    MemoryStore st = http();
    byte[] data = bytes(4 << 20, 5);
    st.put("x.b2nd", data);
    Path p = Locations.path("http://h:1/x.b2nd");
    try (FileHandles f = new FileHandles(p)) {
      List<FileHandles.Range> ranges = new ArrayList<>();
      long[] starts = new long[32];
      for (int i = 0; i < 32; i++) { // 32 chunks of 64 KiB from 1 MiB on, with a 100-byte gap after the 16th
        starts[i] = (1 << 20) + i * 65536L + (i >= 16 ? 100 : 0);
        ranges.add(new FileHandles.Range(p, starts[i], 65536));
      }
      try (FileHandles.Prefetch staged = f.prefetch(ranges)) {
        for (int i = 31; i >= 0; i--) { // any order, from any thread
          byte[] b = new byte[65536];
          f.readFully(p, starts[i], b, 0, b.length);
          assertArrayEquals(java.util.Arrays.copyOfRange(data, (int) starts[i], (int) starts[i] + 65536), b, "chunk " + i);
        }
      }
      // 2 MiB in blocks of 1 MiB (one per fetch thread, at least 1 MiB): the 100-byte gap is read with them
      assertEquals(List.of("GET x.b2nd 1048576+1048576", "GET x.b2nd 2097252+1048576"), st.log.stream().sorted().collect(Collectors.toList()));
      st.take();
      // ranges far apart are separate requests, and nothing is read that no range asked for
      List<FileHandles.Range> apart = List.of(new FileHandles.Range(p, 0, 1000), new FileHandles.Range(p, 3 << 20, 1000));
      try (FileHandles.Prefetch staged = f.prefetch(apart)) {
        f.read(p, 3 << 20, 1000);
        f.read(p, 0, 1000);
      }
      assertEquals(2, st.take());
    }
  }

  @Test
  void prefetchOfWholeObjects() throws IOException {
    MemoryStore st = s3();
    List<FileHandles.Range> ranges = new ArrayList<>();
    Path dir = Locations.path("s3://b/f.b2frame");
    for (int i = 0; i < 20; i++) {
      st.put("f.b2frame/" + String.format("%08X.chunk", i), bytes(3000 + i, i));
      ranges.add(new FileHandles.Range(dir.resolve(String.format("%08X.chunk", i)), 0, -1));
    }
    try (FileHandles f = new FileHandles(dir)) {
      try (FileHandles.Prefetch staged = f.prefetch(ranges)) {
        for (int i = 0; i < 20; i++) {
          Path c = dir.resolve(String.format("%08X.chunk", i));
          assertArrayEquals(st.get("f.b2frame/" + String.format("%08X.chunk", i)), f.readOnce(c, Long.MAX_VALUE, 1 << 20));
        }
      }
      assertEquals(20, st.take(), "one GET per chunk object, no stat before it");
      assertEquals(20, f.openCount());
      f.close();
      assertEquals(0, f.openCount(), "release() drops every object's state");
    }
  }

  @Test
  void manyThreadsShareOneStat() throws Exception {
    MemoryStore st = http();
    st.put("x.ds", bytes(1000, 9));
    Path p = Locations.path("http://h:1/x.ds");
    List<Thread> ts = new ArrayList<>();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(() -> {
        try {
          assertEquals(1000, Files.size(p));
        } catch (Throwable e) {
          errors.add(e);
        }
      });
      ts.add(t);
      t.start();
    }
    for (Thread t : ts) {
      t.join();
    }
    assertTrue(errors.isEmpty(), errors.toString());
    assertEquals(1, st.take());
  }
}
