package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chunkcdm.chunk.ScatterChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Whole chunks scattered straight into a large read's result give what the path through the cache
 * gives, for every N-d variable of every bcolz and Bloscpack fixture: see {@link ScatterChecks}.
 */
class ScatterFixtureTest {
  @Test
  void everyNdFixtureReadsTheSameScatteredAndThroughTheCache() throws Exception {
    int n = 0;
    for (String family : new String[] {"bcolz", "bloscpack"}) {
      for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
        n += ScatterChecks.check(d.file());
      }
    }
    assertTrue(n >= 1, n + " N-d variables of several chunks checked");
  }
}
