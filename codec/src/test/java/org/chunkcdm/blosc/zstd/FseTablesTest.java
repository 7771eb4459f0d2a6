package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.blosc.CodecException;
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

  /**
   * A random distribution of {@code 1 << log} over {@code n} symbols (the last one not zero): some symbols "less
   * than 1" (-1) when {@code lowProb}, some zero, the rest of the mass dealt out at random.
   */
  static short[] distribution(Random r, int log, int n, boolean lowProb) {
    short[] d = new short[n];
    int left = 1 << log;
    for (int s = 0; s < n - 1 && left > n - s; s++) {
      int k = r.nextInt(6);
      if (k == 0 && lowProb) {
        d[s] = -1;
        left--;
      } else if (k == 1) {
        d[s] = 0;
      } else {
        int c = 1 + r.nextInt(Math.max(1, Math.min(left - (n - s), r.nextBoolean() ? 8 : left / 3)));
        d[s] = (short) c;
        left -= c;
      }
    }
    d[n - 1] = (short) left; // at least 1
    return d;
  }

  /** The table description of {@code d} (RFC 8878, 4.1.1), written the way the format reads it. */
  static byte[] describe(short[] d, int log) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long acc = log - Fse.MIN_LOG;
    int bits = 4;
    int remaining = (1 << log) + 1;
    int s = 0;
    while (remaining > 1) {
      int threshold = Integer.highestOneBit(remaining);
      int nb = 32 - Integer.numberOfLeadingZeros(remaining);
      int small = 2 * threshold - 1 - remaining;
      int value = d[s] + 1;
      if (value < small) {
        acc |= (long) value << bits;
        bits += nb - 1;
      } else {
        acc |= (long) (value < threshold ? value : value + small) << bits;
        bits += nb;
      }
      remaining -= Math.abs(d[s]);
      s++;
      if (value == 1) { // zeros that follow: 2-bit repeat counts, 3 meaning "3, and another count follows"
        int z = 0;
        while (s + z < d.length && d[s + z] == 0) {
          z++;
        }
        s += z;
        for (; ; z -= 3) {
          acc |= (long) Math.min(z, 3) << bits;
          bits += 2;
          if (z < 3) {
            break;
          }
          while (bits >= 8) {
            out.write((int) acc);
            acc >>>= 8;
            bits -= 8;
          }
        }
      }
      while (bits >= 8) {
        out.write((int) acc);
        acc >>>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) {
      out.write((int) acc);
    }
    return out.toByteArray();
  }

  /** The decoding table of {@code d}, built the plain way RFC 8878 (4.1.1) describes, as sequence table entries. */
  static long[] reference(short[] d, int log, long[] sym) {
    int size = 1 << log;
    int[] symbolAt = new int[size];
    int[] next = new int[d.length];
    int high = size - 1;
    for (int s = 0; s < d.length; s++) {
      if (d[s] == -1) {
        symbolAt[high--] = s;
      }
      next[s] = Math.abs(d[s]);
    }
    int step = (size >> 1) + (size >> 3) + 3;
    int pos = 0;
    for (int s = 0; s < d.length; s++) {
      for (int i = 0; i < d[s]; i++) {
        symbolAt[pos] = s;
        do {
          pos = (pos + step) % size;
        } while (pos > high);
      }
    }
    assertEquals(0, pos, "the distribution fills the table");
    long[] t = new long[size];
    for (int u = 0; u < size; u++) {
      int s = symbolAt[u];
      int state = next[s]++;
      int nb = log - (31 - Integer.numberOfLeadingZeros(state));
      t[u] = sym[s] | (long) nb << 40 | (long) ((state << nb) - size) << 48;
    }
    return t;
  }

  /**
   * Random descriptions read back exactly (at the very end of the input and with bytes after them), and the tables
   * built from them equal the plain RFC construction: with and without "less than 1" symbols (the fast spread takes
   * the second), every accuracy log and symbol count of the three kinds.
   */
  @Test
  void randomDescriptionsReadAndBuildAsTheRfcSays() throws IOException {
    Random r = new Random(8878);
    long[][] syms = {Fse.LL_SYM, Fse.OF_SYM, Fse.ML_SYM};
    int[] maxSym = {Fse.LL_MAX_SYMBOL, Fse.OF_MAX_SYMBOL, Fse.ML_MAX_SYMBOL};
    int[] maxLog = {Fse.LL_MAX_LOG, Fse.OF_MAX_LOG, Fse.ML_MAX_LOG};
    Fse fse = new Fse();
    int fast = 0;
    for (int t = 0; t < 3000; t++) {
      int kind = t % 3;
      int log = Fse.MIN_LOG + r.nextInt(maxLog[kind] - Fse.MIN_LOG + 1);
      int n = 2 + r.nextInt(Math.min(maxSym[kind], (1 << log) - 1));
      boolean lowProb = r.nextBoolean();
      short[] d = distribution(r, log, n, lowProb);
      byte[] desc = describe(d, log);
      String what = "distribution " + t + " " + Arrays.toString(d);
      for (int extra : new int[] {0, 9}) {
        byte[] in = new byte[3 + desc.length + extra];
        System.arraycopy(desc, 0, in, 3, desc.length);
        assertEquals(desc.length, fse.readDescription(in, 3, 3 + desc.length + extra, maxSym[kind], maxLog[kind], "t"),
            what);
        assertEquals(log, fse.log, what);
        assertEquals(n, fse.symbols, what);
        assertArrayEquals(d, Arrays.copyOf(fse.norm, n), what);
      }
      long[] table = new long[1 << log];
      fse.buildSequenceTable(table, syms[kind], "t");
      assertArrayEquals(reference(d, log, syms[kind]), table, what);
      if (!hasLessThanOne(d)) {
        fast++;
      }
    }
    assertTrue(fast > 1000, fast + " distributions without \"less than 1\" symbols");
  }

  private static boolean hasLessThanOne(short[] d) {
    for (short v : d) {
      if (v == -1) {
        return true;
      }
    }
    return false;
  }

  /** A distribution that adds up to more or less than its table is refused by the table builder, not written past. */
  @Test
  void distributionsThatDoNotFillTheTableAreRefused() {
    Fse fse = new Fse();
    for (int delta : new int[] {-1, 1, 40}) {
      short[] d = distribution(new Random(delta + 100), 6, 20, false);
      d[3] += delta;
      System.arraycopy(d, 0, fse.norm, 0, d.length);
      fse.log = 6;
      fse.symbols = d.length;
      assertThrows(CodecException.class, () -> fse.buildSequenceTable(new long[64], Fse.ML_SYM, "t"),
          "delta " + delta);
    }
  }
}
