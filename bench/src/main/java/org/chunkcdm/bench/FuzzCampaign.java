package org.chunkcdm.bench;

import java.util.Random;

/**
 * The frame of a differential codec campaign ({@link ZstdFuzz}, {@link InflateFuzz}): for SECONDS from SEED on,
 * one seed a case, a {@link FuzzData} input compressed by the reference, decoded into a {@link FuzzData#guarded}
 * output that must hold the input exactly and keep its canaries, then damaged copies judged by the campaign.
 * {@code -Dchunkcdm.fuzz.selfCheck=true} flips one byte of every expected output, so that every case is reported.
 * Prints one summary line; exit status 1 on any failure.
 */
abstract class FuzzCampaign {
  private long failures;
  long cases;
  long bytes;

  /** Prints a failure and counts it. */
  final void fail(String what) {
    System.out.println(what);
    failures++;
  }

  final long failures() {
    return failures;
  }

  /** The reference's compressed stream of {@code src}, its settings drawn from {@code r}. */
  abstract byte[] compress(Random r, byte[] src);

  /** Bytes of room the output of an {@code n}-byte input needs. */
  int room(int n) {
    return n;
  }

  /** Decodes the intact stream into {@code out[PAD..]}: false when it does not give the {@code n} bytes of {@code src}. */
  abstract boolean decodesExactly(byte[] comp, byte[] out, int n, byte[] src) throws Exception;

  /** After a decode threw anything: a decoder in an unknown state is replaced. */
  void threw() {}

  /** Judges the damaged copies of {@code comp}, drawn from {@code r}, decoded into {@code out}. */
  abstract void damaged(Random r, byte[] comp, byte[] out, int n, String what);

  /** The summary line (with its line end) of seeds {@code first..last}. */
  abstract String summary(long first, long last);

  /** Fails {@code what} when a decode of {@code n} bytes wrote outside {@code out[PAD, PAD + n)}. */
  final void checkCanaries(byte[] out, int n, String what) {
    if (!FuzzData.canariesKept(out, n)) {
      fail("WRITES OUTSIDE THE OUTPUT " + what);
    }
  }

  /** Runs the campaign: {@code args} are SECONDS and SEED. */
  final void run(String[] args) {
    long seconds = Long.parseLong(args[0]);
    long seed0 = Long.parseLong(args[1]);
    boolean selfCheck = Boolean.getBoolean("chunkcdm.fuzz.selfCheck");
    long t0 = System.nanoTime();
    for (long seed = seed0; System.nanoTime() - t0 < seconds * 1_000_000_000L; seed++) {
      Random r = new Random(seed);
      byte[] src = FuzzData.input(r);
      int n = src.length;
      byte[] comp = compress(r, src);
      cases++;
      bytes += n;
      if (selfCheck && n > 0) {
        src[r.nextInt(n)] ^= 1;
      }
      byte[] out = FuzzData.guarded(room(n));
      String what = "seed " + seed + " (" + n + " bytes)";
      try {
        if (!decodesExactly(comp, out, n, src)) {
          fail("MISMATCH " + what);
        }
      } catch (Throwable e) {
        fail("THROWS " + what + ": " + e);
        threw();
      }
      checkCanaries(out, n, what);
      damaged(r, comp, out, n, what);
    }
    System.out.print(summary(seed0, seed0 + cases - 1));
    if (failures > 0) {
      System.exit(1);
    }
  }
}
