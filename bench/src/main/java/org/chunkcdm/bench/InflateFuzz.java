package org.chunkcdm.bench;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.Streams;
import org.chunkcdm.testkit.ZlibReference;

/**
 * Differential zlib campaign for longer runs than the unit tests (bench only; docs/RELIABILITY.md). For
 * SECONDS from SEED on, one seed a case: {@link java.util.zip.Deflater} writes a zlib stream of {@link FuzzData}
 * (level 0-9, default / filtered / Huffman-only strategy, up to 600 KB). chunkcdm's zlib decoder ({@code Streams.decode} with {@code ZLIB}) must give the input exactly
 * and leave 64 bytes on either side of the output untouched. Three damaged copies of each stream (1-3 bytes flipped
 * or replaced, half of them in the first 200 bytes; or truncated), some with an expected size one byte off, must get
 * java.util.zip's verdict: the same bytes where it decodes the stream to exactly that size, an IOException where it
 * refuses, and an IOException where it decodes with bytes left over after the stream (refused here); never another
 * exception or a write outside the output. Prints one summary line; exit status 1 on any failure.
 * {@code -Dchunkcdm.fuzz.selfCheck=true} flips one byte of every expected output, so that every case is reported.
 *
 * <p>usage: {@code java -cp bench/target/benchmarks.jar org.chunkcdm.blosc.InflateFuzz SECONDS SEED}
 */
public final class InflateFuzz {
  private static final int[] STRATEGIES = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
  private static long failures;

  private InflateFuzz() {}

  private static void fail(String what) {
    System.out.println(what);
    failures++;
  }

  public static void main(String[] a) {
    long seconds = Long.parseLong(a[0]);
    long seed0 = Long.parseLong(a[1]);
    boolean selfCheck = Boolean.getBoolean("chunkcdm.fuzz.selfCheck");
    long t0 = System.nanoTime();
    long cases = 0;
    long bytes = 0;
    long sameBytes = 0;
    long bothRefuse = 0;
    long trailingOnly = 0;
    for (long seed = seed0; System.nanoTime() - t0 < seconds * 1_000_000_000L; seed++) {
      Random r = new Random(seed);
      byte[] src = FuzzData.input(r);
      int n = src.length;
      byte[] comp = ZlibReference.deflate(src, r.nextInt(10), STRATEGIES[r.nextInt(3)]);
      cases++;
      bytes += n;
      if (selfCheck && n > 0) {
        src[r.nextInt(n)] ^= 1;
      }
      byte[] out = FuzzData.guarded(n + 1); // damaged copies ask for one byte more at times
      String what = "seed " + seed + " (" + n + " bytes)";
      try {
        Streams.decode(BloscCompressor.ZLIB, comp, 0, comp.length, out, FuzzData.PAD, n);
        if (!Arrays.equals(out, FuzzData.PAD, FuzzData.PAD + n, src, 0, n)) {
          fail("MISMATCH " + what);
        }
      } catch (Throwable e) {
        fail("THROWS " + what + ": " + e);
      }
      if (!FuzzData.canariesKept(out, n)) {
        fail("WRITES OUTSIDE THE OUTPUT " + what);
      }
      for (int d = 0; d < 3; d++) {
        byte[] bad = comp.clone();
        int len = bad.length;
        if (r.nextInt(4) == 0) {
          len = r.nextInt(len);
        } else {
          for (int f = 1 + r.nextInt(3); f > 0; f--) {
            int pos = r.nextBoolean() ? r.nextInt(len) : r.nextInt(Math.min(len, 2 + r.nextInt(200)));
            if (r.nextBoolean()) {
              bad[pos] ^= (byte) (1 << r.nextInt(8));
            } else {
              bad[pos] = (byte) r.nextInt(256);
            }
          }
        }
        int outLen = r.nextInt(10) == 0 ? Math.max(0, n - 1 + r.nextInt(3)) : n;
        int[] trailing = {0};
        byte[] want = ZlibReference.inflate(bad, 0, len, outLen, trailing);
        String damaged = what + ", damaged copy " + d + " for " + outLen + " bytes";
        FuzzData.rearm(out);
        try {
          Streams.decode(BloscCompressor.ZLIB, bad, 0, len, out, FuzzData.PAD, outLen);
          if (want == null) {
            fail("DECODES WHAT ZLIB REFUSES " + damaged);
          } else if (!Arrays.equals(out, FuzzData.PAD, FuzzData.PAD + outLen, want, 0, outLen)) {
            fail("DIFFERS FROM ZLIB " + damaged);
          } else {
            sameBytes++;
          }
        } catch (IOException e) {
          if (want == null) {
            bothRefuse++;
          } else if (trailing[0] > 0) {
            trailingOnly++;
          } else {
            fail("REFUSES WHAT ZLIB DECODES " + damaged + ": " + e.getMessage());
          }
        } catch (Throwable e) {
          fail("THROWS " + damaged + ": " + e);
        }
        if (!FuzzData.canariesKept(out, outLen)) {
          fail("WRITES OUTSIDE THE OUTPUT " + damaged);
        }
      }
    }
    System.out.printf("seeds %d..%d: %d streams of %d bytes in all; damaged copies: same bytes as java.util.zip %d, "
        + "both refuse %d, only java.util.zip decodes (bytes after the stream) %d; failures %d%n", seed0,
        seed0 + cases - 1, cases, bytes, sameBytes, bothRefuse, trailingOnly, failures);
    if (failures > 0) {
      System.exit(1);
    }
  }
}
