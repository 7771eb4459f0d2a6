package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenerChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Blosc2 opener over every frame fixture (sframe, cframe, b2nd in both): the same variables, dimension
 * names and attributes as the IOSP's view, values by typed read equal to the CDM read and the manifest.
 */
class OpenerTest {
  static List<Fixtures.Dataset> datasets() {
    return Fixtures.manifest("blosc2").datasets(Check.KINDS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void opensLikeTheIosp(Fixtures.Dataset d) throws Exception {
    assertTrue(OpenerChecks.check(d, "blosc2") > 0, d.toString());
    if (Check.sparse(d)) { // the index file opens the same dataset
      OpenerChecks.check(d.file().resolve(Blosc2FrameIosp.INDEX_FILE), "blosc2", d);
    }
  }

  @Test
  void everyKindIsCovered() {
    assertTrue(datasets().size() >= 40, "frame fixtures: " + datasets().size());
  }

  @Test
  void privateCacheAndOneThread() throws Exception {
    for (Fixtures.Dataset d : datasets()) {
      OpenerChecks.checkPrivateSettings(d.file(), 256 << 10);
    }
  }

  @Test
  void foreignFilesAreNotClaimed(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("x.b2frame");
    Files.write(f, new byte[] {1, 2, 3});
    assertFalse(new Blosc2Opener().canOpen(f));
    assertFalse(new Blosc2Opener().canOpen(tmp));
    assertFalse(new Blosc2Opener().canOpen(tmp.resolve("missing")));
    IOException e = assertThrows(IOException.class, () -> Datasets.open(f));
    assertTrue(e.getMessage().contains(f.toString()), e.getMessage());
    assertEquals("blosc2", new Blosc2Opener().format());
  }

  /** Every fixture opens and reads without netcdf-java on the class path; no class on that path refers to it. */
  @Test
  void opensWithoutNetcdfJava() throws Exception {
    List<Path> paths = new java.util.ArrayList<>();
    for (Fixtures.Dataset d : datasets()) {
      paths.add(d.file());
    }
    assertTrue(OpenerChecks.checkWithoutNetcdfJava(paths, "blosc2") >= 10);
  }

  /** Four threads read random boxes of one opened dataset at once. */
  @Test
  void concurrentTypedReads() throws Exception {
    for (Fixtures.Dataset d : datasets()) {
      OpenerChecks.checkConcurrentTypedReads(d.file(), 4, 25);
    }
  }
}
