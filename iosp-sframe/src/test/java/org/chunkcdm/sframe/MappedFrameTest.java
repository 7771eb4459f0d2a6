package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.Concurrently;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.IoProbes;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenOptions;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NativeAccess;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Frames read through memory mappings ({@link FileHandles}' mapped reads, forced on for these small files with
 * one-page windows, so that chunks cross window boundaries): every frame and b2nd fixture against the manifest with
 * the mapping on and off; a frame truncated after it was opened and mapped is an IOException naming the file and
 * the chunk, and the JVM reads other files afterwards; many threads read one open variable.
 */
class MappedFrameTest {
  @TempDir
  Path tmp;

  private Runnable restoreMapSettings;

  @BeforeEach
  void mapEverything() {
    restoreMapSettings = IoProbes.mapSettings();
    IoProbes.setMmap(true);
    IoProbes.setMapLimits(4096, 0, 64);
  }

  @AfterEach
  void restore() {
    restoreMapSettings.run();
  }

  /**
   * Reads every frame and b2nd fixture whole and in the contract's sections against the manifest; {@code check}
   * gets each dataset's file handles and whether it is a contiguous frame. Returns the number read.
   */
  private static int readEveryFixture(BiConsumer<Fixtures.Dataset, FileHandles> contiguous, Consumer<FileHandles> any)
      throws IOException {
    int datasets = 0;
    for (Fixtures.Dataset d : Check.datasets()) {
      Check.Expect want = Check.Expect.of(d.variables().get(0));
      try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
        Variable v = Check.find(nc, d);
        v.setCaching(false);
        Check.assertWhole(want, v);
        Check.assertSections(want, v);
        FileHandles h = ((Blosc2FrameIosp) nc.getIosp()).handles();
        any.accept(h);
        if (!Check.sparse(d)) {
          contiguous.accept(d, h);
        }
      }
      datasets++;
    }
    return datasets;
  }

  @Test
  void everyFixtureWithTheMappingOnAndOff() throws IOException {
    int[] mapped = {0};
    IoProbes.setMmap(true);
    int datasets = readEveryFixture((d, h) -> {
      assertEquals(1, h.mappedCount(), d + ": a contiguous frame is read through its mapping");
      mapped[0]++;
    }, h -> { });
    IoProbes.setMmap(false);
    datasets += readEveryFixture((d, h) -> { }, h -> assertEquals(0, h.mappedCount(), "mapped with the mapping off"));
    assertTrue(mapped[0] >= 15 && datasets >= 2 * 40, mapped[0] + " mapped, " + datasets + " read");
  }

  /**
   * The same through the one-copy reads of {@link FileHandles} (Java 22+, native access granted by the surefire
   * argLine; on Java 17 the channel reads them and nothing is counted), the mapping off.
   */
  @Test
  void everyFixtureThroughNativeReads() throws IOException {
    IoProbes.setMmap(false);
    boolean on = FileHandles.nativeReadsOff() == null;
    assertEquals(NativeAccess.preadExpected(), on, "native reads: " + FileHandles.nativeReadsOff());
    int[] through = {0};
    readEveryFixture((d, h) -> {
      assertEquals(on ? 1 : 0, h.nativeCount(), d + ": a contiguous frame's chunks come through pread");
      through[0] += on ? 1 : 0;
    }, h -> {
      assertEquals(0, h.mappedCount());
      assertTrue(on || h.nativeCount() == 0);
    });
    assertTrue(!on || through[0] >= 15, through[0] + " frames read through pread");
  }

  /** The largest chunk's offset and stored size in the contiguous frame p. */
  private static long[] bigChunk(Path p) throws IOException {
    try (FileHandles h = new FileHandles(p)) {
      Frame f = Frame.open(h, p);
      long[] best = {-1, -1, -1};
      for (int k = 0; k < f.nchunks(); k++) {
        String w = f.where(k);
        if (!w.startsWith("offset ")) {
          continue;
        }
        long pos = Long.parseLong(w.substring(7));
        byte[] head = h.read(p, pos, 16);
        long cb = (head[12] & 0xff) | (head[13] & 0xff) << 8 | (head[14] & 0xff) << 16 | (long) (head[15] & 0xff) << 24;
        if (cb > best[2]) {
          best = new long[] {k, pos, cb};
        }
      }
      return best;
    }
  }

  @Test
  void truncatedAfterOpenIsAnIOExceptionNamingFileAndChunk() throws Exception {
    Path src = Fixtures.family("blosc2").resolve("cframe/cf_zstd_shuffle_f8.b2frame");
    Path f = tmp.resolve("trunc.b2frame");
    Files.copy(src, f);
    long[] big = bigChunk(f);
    assertTrue(big[2] > 3 * 4096, "a chunk over three pages: " + big[2]);
    long[] whole;
    try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
      Variable v = nc.getVariables().get(0);
      v.setCaching(false);
      whole = (long[]) v.read().get1DJavaArray(long.class); // maps the whole file
      assertEquals(1, ((Blosc2FrameIosp) nc.getIosp()).handles().mappedCount());
      // cut the file two pages into the big chunk: its header stays, the rest of its stored bytes are gone
      long cut = (big[1] / 4096 + 2) * 4096;
      try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
        raf.setLength(cut);
      }
      int items = 40000 / 8; // chunksize 40000 bytes of typesize 8
      int from = (int) big[0] * items;
      Section s = new Section(new int[] {from}, new int[] {Math.min(items, whole.length - from)});
      IOException e = assertThrows(IOException.class, () -> v.read(s));
      NetcdfChecks.assertMentions(e, f.toString(), "chunk " + big[0]);
      // the same with the size check before the copy bypassed: the mapped copy faults, and says so
      try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
        raf.setLength(Files.size(src)); // whole length again, mapped again whole by the next read, then cut
      }
      Files.write(f, Files.readAllBytes(src));
      v.read();
      try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
        raf.setLength(cut);
      }
      IoProbes.checkSizeBeforeMappedRead(false);
      try {
        IOException e2 = assertThrows(IOException.class, () -> v.read(s));
        NetcdfChecks.assertMentions(e2, f.toString(), "chunk " + big[0], "memory-mapped read");
      } finally {
        IoProbes.checkSizeBeforeMappedRead(true);
      }
    }
    // the JVM goes on: another frame reads right, mapped
    Fixtures.Dataset d = Check.datasets().stream().filter(x -> x.file().getFileName().toString()
        .equals("cf_blosclz_shuffle_i4.b2frame")).findFirst().orElseThrow();
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      Check.assertWhole(Check.Expect.of(d.variables().get(0)), v);
      assertEquals(1, ((Blosc2FrameIosp) nc.getIosp()).handles().mappedCount());
    }
  }

  /** The default mode: a whole read of an opened frame goes through the channel, the second one through the mapping. */
  @Test
  void defaultModeMapsWhenTheFrameIsReadAgain() throws Exception {
    IoProbes.setMapMode(FileHandles.MapMode.REREAD);
    Fixtures.Dataset d = Check.datasets().stream().filter(x -> x.file().getFileName().toString()
        .equals("cf_zstd_shuffle_f8.b2frame")).findFirst().orElseThrow();
    Check.Expect want = Check.Expect.of(d.variables().get(0));
    try (FileHandles h = new FileHandles(d.file())) {
      ChunkedArray a = Blosc2Frames.read(h, d.file()).variables().get(0).array();
      long[] shape = a.grid().shape();
      for (int pass = 0; pass < 3; pass++) {
        byte[] got = SectionReader.readBytes(a, new long[1], shape, new long[] {1},
            OpenOptions.defaults().withCache(new ChunkCache(0)).readSettings());
        assertArrayEquals(want.raw(), got, "pass " + pass);
        assertEquals(pass == 0 ? 0 : 1, h.mappedCount(), "pass " + pass);
      }
    }
  }

  /** 8 threads read random sections of one opened array (no chunk cache: every read fetches from the mapping). */
  @Test
  void manyThreadsReadOneMappedArray() throws Exception {
    for (String name : new String[] {"b2nd_2d_f8_cframe.b2nd", "cf_many_chunks_i4.b2frame"}) {
      Fixtures.Dataset d = Check.datasets().stream().filter(x -> x.file().getFileName().toString().equals(name))
          .findFirst().orElseThrow();
      Check.Expect want = Check.Expect.of(d.variables().get(0));
      try (ChunkedDataset ds = Datasets.open(d.file(), OpenOptions.defaults().withCache(new ChunkCache(0)))) {
        ChunkedArray a = ds.variables().get(0).array();
        long[] shape = a.grid().shape();
        long[] ones = new long[shape.length];
        java.util.Arrays.fill(ones, 1);
        IoProbes.setMmap(false);
        byte[] ref = SectionReader.readBytes(a, new long[shape.length], shape, ones);
        IoProbes.setMmap(true);
        for (int i = 0; i < ref.length; i++) {
          if (want.defined()[i] != 0 && ref[i] != want.raw()[i]) {
            throw new AssertionError(d + ": byte " + i + " differs from the manifest");
          }
        }
        assertArrayEquals(ref, SectionReader.readBytes(a, new long[shape.length], shape, ones), d + " mapped");
        int item = a.dtype().itemSize();
        Concurrently.run(8, (t, r) -> {
          for (int i = 0; i < 100; i++) {
            long[] origin = new long[shape.length];
            long[] size = new long[shape.length];
            for (int k = 0; k < shape.length; k++) {
              origin[k] = r.nextInt((int) shape[k]);
              size[k] = 1 + r.nextInt((int) (shape[k] - origin[k]));
            }
            byte[] got = SectionReader.readBytes(a, origin, size, ones);
            // the same section cut out of the reference, C order
            byte[] exp = new byte[got.length];
            long[] idx = new long[shape.length];
            for (int e = 0; e < got.length / item; e++) {
              long flat = 0;
              for (int k = 0; k < shape.length; k++) {
                flat = flat * shape[k] + origin[k] + idx[k];
              }
              System.arraycopy(ref, (int) flat * item, exp, e * item, item);
              for (int k = shape.length - 1; k >= 0 && ++idx[k] == size[k]; k--) {
                idx[k] = 0;
              }
            }
            assertArrayEquals(exp, got, d + " section at " + java.util.Arrays.toString(origin));
          }
        });
      }
    }
  }
}
