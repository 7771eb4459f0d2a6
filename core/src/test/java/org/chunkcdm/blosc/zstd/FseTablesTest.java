package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The code tables and predefined distributions typed in from RFC 8878 are consistent. */
class FseTablesTest {
  @Test
  void lengthCodesCoverEveryValueOnce() {
    check(Fse.LL_BASE, Fse.LL_BITS, 0, 65536 + 65535);
    check(Fse.ML_BASE, Fse.ML_BITS, 3, 65539 + 65535);
    for (int c = 0; c < 32; c++) {
      assertEquals(1L << c, Fse.OF_BASE[c] & 0xFFFFFFFFL);
      assertEquals(c, Fse.OF_BITS[c]);
    }
  }

  private static void check(int[] base, int[] bits, int first, int last) {
    assertEquals(first, base[0]);
    for (int c = 1; c < base.length; c++) {
      assertEquals(base[c - 1] + (1 << bits[c - 1]), base[c], "code " + c);
    }
    assertEquals(last, base[base.length - 1] + (1 << bits[bits.length - 1]) - 1);
  }

  @Test
  void predefinedDistributionsAddUp() {
    assertEquals(36, Fse.LL_DEFAULT.length);
    assertEquals(53, Fse.ML_DEFAULT.length);
    assertEquals(29, Fse.OF_DEFAULT.length);
    assertEquals(1 << Fse.LL_DEFAULT_LOG, sum(Fse.LL_DEFAULT));
    assertEquals(1 << Fse.ML_DEFAULT_LOG, sum(Fse.ML_DEFAULT));
    assertEquals(1 << Fse.OF_DEFAULT_LOG, sum(Fse.OF_DEFAULT));
  }

  private static int sum(short[] d) {
    int s = 0;
    for (short v : d) {
      s += v == -1 ? 1 : v;
    }
    return s;
  }

  /** In a decoding table every state leads to a state of the table, and each symbol has as many states as its count. */
  @Test
  void predefinedTablesAreWellFormed() {
    wellFormed(Fse.LL_PREDEFINED, Fse.LL_DEFAULT_LOG);
    wellFormed(Fse.ML_PREDEFINED, Fse.ML_DEFAULT_LOG);
    wellFormed(Fse.OF_PREDEFINED, Fse.OF_DEFAULT_LOG);
  }

  private static void wellFormed(long[] t, int log) {
    assertEquals(1 << log, t.length);
    for (long e : t) {
      int nb = (int) (e >>> 40) & 0xFF;
      int baseline = (int) (e >>> 48);
      assertTrue(nb <= log && baseline + (1 << nb) <= t.length, "entry " + Long.toHexString(e));
    }
  }
}
