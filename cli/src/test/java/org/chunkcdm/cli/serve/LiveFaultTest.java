package org.chunkcdm.cli.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.DatasetUrl;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * Faults under a live reader: a chunk file replaced (same size and different size, different
 * content), deleted, truncated or turned into a directory under an open dataset, (a) through netcdf-java's file
 * cache as THREDDS uses it (close = release, acquire = getLastModified check, then reacquire or reopen) and (b)
 * through {@code chunkcdm serve}. Affected reads give an IOException naming the file, or the new data once the
 * dataset is reopened; a chunk's values are never a mix of old and new bytes; the server keeps serving others.
 *
 * <p>The replaced chunk k gets the bytes of chunk j of the same array (a valid chunk of the same shape), so the
 * new values are known: elements of chunk k equal the old elements of chunk j.
 */
class LiveFaultTest {
  @TempDir
  Path tmp;

  static int[] ints(Array a) {
    Object o = a.copyTo1DJavaArray();
    return (int[]) o;
  }

  static int[] expectedInts(Fixtures.Variable v) {
    ByteBuffer b = ByteBuffer.wrap(v.expected()).order(ByteOrder.LITTLE_ENDIAN);
    int[] out = new int[b.remaining() / 4];
    b.asIntBuffer().get(out);
    return out;
  }

  /** {@code old} with chunk k's elements replaced by chunk j's (chunks of {@code len} elements). */
  static int[] swapped(int[] old, int k, int j, int len) {
    int[] out = old.clone();
    System.arraycopy(old, j * len, out, k * len, len);
    return out;
  }

  static void copyTree(Path from, Path to, long mtime) throws IOException {
    List<Path> dirs = new ArrayList<>();
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
          dirs.add(t);
        } else {
          Files.copy(p, t);
          t.toFile().setWritable(true);
          Files.setLastModifiedTime(t, FileTime.fromMillis(mtime));
        }
      }
    }
    for (Path d : dirs) {
      d.toFile().setWritable(true);
      Files.setLastModifiedTime(d, FileTime.fromMillis(mtime));
    }
  }

  /** Replaces {@code f} by {@code bytes} in one rename, as a copy tool or a writer finishing a file does. */
  void replace(Path f, byte[] bytes) throws IOException {
    Path t = Files.createTempFile(tmp, "replacement", ".tmp");
    Files.write(t, bytes);
    Files.move(t, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis()));
  }

  static Variable only(NetcdfFile nc) {
    Variable v = nc.getVariables().get(0);
    v.setCaching(false);
    return v;
  }

  static void assertNames(IOException e, String file) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append(" | ");
    }
    assertTrue(all.toString().contains(file), "the error names " + file + ": " + all);
  }

  /** Waits a little so that the next change has a later modification time than the last (millisecond clocks). */
  static void tick() throws InterruptedException {
    Thread.sleep(15);
  }

  // ------------------------------------------------------------------ (a) netcdf-java's file cache (THREDDS)

  @ParameterizedTest(name = "{0}: chunk {1} replaced by chunk {2}")
  @CsvSource({
      "sframe/sf_blosclz_clevel0_u4.b2frame, 0, 1, 4000, true", // memcpy chunks: same size, different content
      "sframe/sf_blosclz_shuffle_i4.b2frame, 0, 2, 10000, false" // compressed: different size
  })
  void fileCacheReopensAChangedDatasetAndNeverMixesOldAndNewChunkBytes(String path, int k, int j, int len, boolean sameSize)
      throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    int[] orig = expectedInts(d.variables().get(0));
    Path copy = tmp.resolve("x.b2frame");
    copyTree(d.file(), copy, System.currentTimeMillis() - 3_600_000);
    Path chunkK = copy.resolve(String.format("%08d.chunk", k));
    byte[] bytesK = Files.readAllBytes(chunkK);
    byte[] bytesJ = Files.readAllBytes(copy.resolve(String.format("%08d.chunk", j)));
    assertEquals(sameSize, bytesK.length == bytesJ.length, "the case this row is about");
    int[] changed = swapped(orig, k, j, len);
    assertFalse(Arrays.equals(orig, changed), "chunks " + k + " and " + j + " hold different values");

    NetcdfDatasets.initNetcdfFileCache(1, 10, 0);
    try {
      DatasetUrl url = DatasetUrl.findDatasetUrl("file:" + copy.toAbsolutePath());
      NetcdfFile first = NetcdfDatasets.acquireFile(url, null);
      assertArrayEquals(orig, ints(only(first).read()));
      first.close(); // back into the cache: release()

      // replaced while released: the next acquire sees the newer modification time and reopens
      replace(chunkK, bytesJ);
      NetcdfFile second = NetcdfDatasets.acquireFile(url, null);
      assertNotSame(first, second, "a changed dataset is opened again, not reacquired");
      assertArrayEquals(changed, ints(only(second).read()), "the new data after the reopen");

      // replaced while in use (no release in between): every chunk reads as its old or its new bytes, never a mix
      tick();
      replace(chunkK, bytesK);
      int[] during = ints(only(second).read());
      for (int c = 0; c * len < orig.length; c++) {
        int from = c * len;
        int to = Math.min(orig.length, from + len);
        boolean asBefore = Arrays.equals(during, from, to, changed, from, to);
        boolean asAfter = Arrays.equals(during, from, to, orig, from, to);
        assertTrue(asBefore || asAfter, "chunk " + c + " read while its file was replaced is old or new data, not mixed");
      }
      second.close();
      NetcdfFile third = NetcdfDatasets.acquireFile(url, null);
      assertNotSame(second, third);
      assertArrayEquals(orig, ints(only(third).read()), "after the reopen: exactly the restored data");
      third.close();

      // deleted: reads that need the chunk fail naming its file; the other chunks still read
      tick();
      Files.delete(chunkK);
      NetcdfFile fourth = NetcdfDatasets.acquireFile(url, null);
      assertNotSame(third, fourth, "a deleted chunk file changes the dataset (its directory's time)");
      Variable v = only(fourth);
      IOException gone = assertThrows(IOException.class, v::read);
      assertNames(gone, chunkK.getFileName().toString());
      assertFalse(FormatException.isFormatError(gone), "a missing file is an I/O error, not a format error: " + gone);
      int other = k == 0 ? 1 : 0;
      Section inOther = new Section(new int[] {other * len}, new int[] {Math.min(len, orig.length - other * len)});
      assertArrayEquals(Arrays.copyOfRange(orig, other * len, other * len + inOther.getShape(0)), ints(v.read(inOther)));
      fourth.close();

      // simulated read errors: a directory where the chunk file was, then a truncated chunk file
      tick();
      Files.createDirectory(chunkK);
      NetcdfFile fifth = NetcdfDatasets.acquireFile(url, null);
      IOException dir = assertThrows(IOException.class, () -> only(fifth).read());
      assertNames(dir, chunkK.getFileName().toString());
      assertTrue(FormatException.isFormatError(dir), "a directory where a chunk file must be: " + dir);
      fifth.close();
      tick();
      Files.delete(chunkK);
      Files.write(chunkK, Arrays.copyOf(bytesK, bytesK.length / 2));
      NetcdfFile sixth = NetcdfDatasets.acquireFile(url, null);
      IOException cut = assertThrows(IOException.class, () -> only(sixth).read());
      assertNames(cut, chunkK.getFileName().toString());
      assertArrayEquals(Arrays.copyOfRange(orig, other * len, other * len + inOther.getShape(0)),
          ints(only(sixth).read(inOther)), "intact chunks of a damaged dataset still read");
      sixth.close();

      // repaired: the cache serves the original again
      tick();
      replace(chunkK, bytesK);
      NetcdfFile seventh = NetcdfDatasets.acquireFile(url, null);
      assertArrayEquals(orig, ints(only(seventh).read()));
      seventh.close();
      NetcdfFile eighth = NetcdfDatasets.acquireFile(url, null);
      assertSame(seventh, eighth, "unchanged: reacquired from the cache");
      assertArrayEquals(orig, ints(only(eighth).read()));
      eighth.close();
    } finally {
      NetcdfDatasets.shutdown();
    }
  }

  // ------------------------------------------------------------------ (b) chunkcdm serve

  @Test
  void serverServesTheNewDataAfterAChunkFileChangesAndKeepsServingOthers() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset("carray/codec_int32_blosclz_c5_byteshuf");
    int[] orig = expectedInts(d.variables().get(0));
    int len = 4096; // chunklen of the fixture
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path copy = root.resolve("a.bcolz");
    long past = System.currentTimeMillis() - 3_600_000;
    copyTree(d.file(), copy, past);
    Path other = root.resolve("other.ds");
    Files.copy(Fixtures.manifest("ds").dataset("small.ds").file(), other);
    Path chunk0 = copy.resolve("data/__0.blp");
    byte[] bytes0 = Files.readAllBytes(chunk0);
    byte[] bytes1 = Files.readAllBytes(copy.resolve("data/__1.blp"));
    assertTrue(bytes0.length != bytes1.length, "this case replaces a chunk file by one of another size");
    int[] changed = swapped(orig, 0, 1, len);

    Object otherData;
    try (NetcdfFile local = NetcdfFiles.open(other.toString())) {
      otherData = local.getVariables().get(0).read().copyTo1DJavaArray();
    }

    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 4)) {
      // another client reads another dataset all along
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong otherReads = new AtomicLong();
      ExecutorService pool = Executors.newSingleThreadExecutor();
      Future<?> bystander = pool.submit(() -> {
        try (NetcdfFile r = NetcdfDatasets.openFile(CdmRemoteServerTest.remote(s, "other.ds"), null)) {
          Variable v = only(r);
          while (!stop.get() || otherReads.get() < 3) {
            assertTrue(java.util.Objects.deepEquals(otherData, v.read().copyTo1DJavaArray()), "the other dataset reads right");
            otherReads.incrementAndGet();
          }
        }
        return null;
      });
      try (NetcdfFile remote = NetcdfDatasets.openFile(CdmRemoteServerTest.remote(s, "a.bcolz"), null)) {
        Variable v = only(remote);
        assertArrayEquals(orig, ints(v.read()));
        long opens = s.cache().opens();

        replace(chunk0, bytes1);
        assertArrayEquals(changed, ints(v.read()), "the next request after the change gets the new data");
        assertTrue(s.cache().opens() > opens, "the changed dataset was opened again");

        tick();
        Files.delete(chunk0);
        IOException gone = assertThrows(IOException.class, () -> v.read(new Section(new int[] {10}, new int[] {20})));
        assertNames(gone, "__0.blp");
        assertArrayEquals(Arrays.copyOfRange(orig, len + 5, len + 25), ints(v.read(new Section(new int[] {len + 5}, new int[] {20}))),
            "sections in intact chunks still read");

        tick();
        replace(chunk0, bytes0);
        assertArrayEquals(orig, ints(v.read()), "repaired: the original data again");
      } finally {
        stop.set(true);
        bystander.get();
        pool.shutdown();
      }
      assertTrue(otherReads.get() >= 3, "the bystander kept reading: " + otherReads.get());
    }
  }
}
