package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenerChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bcolz opener over every bcolz (carray, ctable, Blaze chunked) and Bloscpack fixture: the same variables,
 * dimension names and attributes as the IOSP's view, values by typed read equal to the CDM read and the
 * manifest.
 */
class OpenerTest {
  static List<Fixtures.Dataset> datasets() {
    List<Fixtures.Dataset> out = new ArrayList<>(Fixtures.manifest("bcolz").datasets());
    out.addAll(Fixtures.manifest("bloscpack").datasets());
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void opensLikeTheIosp(Fixtures.Dataset d) throws Exception {
    assertTrue(OpenerChecks.check(d, "bcolz") >= 0, d.toString());
  }

  @Test
  void entryFilesOpenTheSameDataset() throws Exception {
    for (Fixtures.Dataset d : Fixtures.manifest("bcolz").datasets()) {
      Path dir = d.file();
      Path entry = d.kind().equals("bcolz-ctable") ? dir.resolve("__rootdirs__") : dir.resolve("meta").resolve("sizes");
      OpenerChecks.check(entry, "bcolz", d);
    }
  }

  @Test
  void everyFixtureIsCovered() {
    assertEquals(Fixtures.manifest("bcolz").datasets().size() + Fixtures.manifest("bloscpack").datasets().size(),
        datasets().size());
    assertTrue(datasets().size() >= 100, "fixtures: " + datasets().size());
  }

  @Test
  void ctableColumnsShareTheRowDimension() throws Exception {
    for (Fixtures.Dataset d : Fixtures.manifest("bcolz").datasets("bcolz-ctable")) {
      try (ChunkedDataset ds = Datasets.open(d.file())) {
        for (ChunkedVariable v : ds.variables()) {
          assertEquals(Bcolz.ROW_DIM, v.dimensions().get(0), d + ":" + v.name());
          if (v.array() == null) { // a pickled-object column: no chunked array, reads refused in the CDM view
            assertTrue(v.attributes().containsKey("unreadable"));
          }
        }
        assertEquals("bcolz ctable", ds.attributes().get("bcolz_layout"));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void privateCacheAndOneThread(Fixtures.Dataset d) throws Exception {
    OpenerChecks.checkPrivateSettings(d.file(), 512 << 10);
  }

  @Test
  void foreignFilesAreNotClaimed(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("x.blp");
    Files.write(f, new byte[] {'b', 'l', 'p', 'k'});
    assertFalse(new BcolzOpener().canOpen(f));
    assertFalse(new BcolzOpener().canOpen(tmp));
    assertNull(Datasets.find(tmp));
    IOException e = assertThrows(IOException.class, () -> Datasets.open(f));
    assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
  }

  /** Every fixture opens and reads without netcdf-java on the class path; no class on that path refers to it. */
  @Test
  void opensWithoutNetcdfJava() throws Exception {
    List<Path> paths = datasets().stream().map(Fixtures.Dataset::file).toList();
    assertTrue(OpenerChecks.checkWithoutNetcdfJava(paths, "bcolz") >= 10);
  }

  /** Four threads read random boxes of one opened dataset at once. */
  @Test
  void concurrentTypedReads() throws Exception {
    for (Fixtures.Dataset d : Fixtures.manifest("bcolz").datasets()) {
      OpenerChecks.checkConcurrentTypedReads(d.file(), 4, 25);
    }
  }
}
