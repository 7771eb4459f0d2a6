package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launchers' class-data training run: every bundled sample dumps and converts, and nothing is left behind. */
class CdsTrainingTest {
  @TempDir
  Path tmp;

  @Test
  void everySampleDumpsAndConvertsAndTheOutputsAreRemoved() throws Exception {
    Path samples = Fixtures.root().resolve("samples");
    List<Path> before = trainingDirs();
    assertEquals(0, CdsTraining.train(samples));
    assertEquals(before, trainingDirs(), "the training run's temporary directory is removed");
  }

  @Test
  void aFailingCommandFailsTheRun() throws Exception {
    Files.writeString(tmp.resolve("not-a-dataset.b2nd"), "no Blosc2 frame here");
    assertEquals(1, CdsTraining.train(tmp));
  }

  @Test
  void noSamplesRunsVersionOnly() throws Exception {
    assertEquals(0, CdsTraining.train(tmp.resolve("missing")));
    assertEquals(0, CdsTraining.train(null));
  }

  private static List<Path> trainingDirs() throws Exception {
    Path t = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> s = Files.list(t)) {
      return s.filter(p -> p.getFileName().toString().startsWith("chunkcdm-cds-training")).sorted().toList();
    }
  }
}
