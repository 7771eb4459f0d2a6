package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.chunkcdm.chunk.ScatterChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Whole chunks scattered straight into a large read's result give what the path through the cache
 * gives, for every N-d variable of every frame fixture (b2nd in sparse and contiguous frames): see
 * {@link ScatterChecks}.
 */
class ScatterFixtureTest {
  @Test
  void everyNdFixtureReadsTheSameScatteredAndThroughTheCache() throws Exception {
    int n = 0;
    for (Fixtures.Dataset d : Check.datasets()) {
      n += ScatterChecks.check(d.file());
    }
    assertTrue(n >= 3, n + " N-d variables of several chunks checked");
    assertTrue(ScatterChecks.SCATTERED_IN_CHECKS.sum() >= 8, "whole reads scattered " + ScatterChecks.SCATTERED_IN_CHECKS.sum()
        + " chunks: the b2nd fixtures have N-d chunks that land in several pieces");
  }
}
