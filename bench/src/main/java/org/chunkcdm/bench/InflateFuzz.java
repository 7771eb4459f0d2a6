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
 * <p>usage: {@code java -cp bench/target/benchmarks.jar org.chunkcdm.bench.InflateFuzz SECONDS SEED}
 */
public final class InflateFuzz extends FuzzCampaign {
  private static final int[] STRATEGIES = {Deflater.DEFAULT_STRATEGY, Deflater.FILTERED, Deflater.HUFFMAN_ONLY};
  private long sameBytes;
  private long bothRefuse;
  private long trailingOnly;

  private InflateFuzz() {}

  public static void main(String[] a) {
    new InflateFuzz().run(a);
  }

  @Override
  byte[] compress(Random r, byte[] src) {
    return ZlibReference.deflate(src, r.nextInt(10), STRATEGIES[r.nextInt(3)]);
  }

  @Override
  int room(int n) {
    return n + 1; // damaged copies ask for one byte more at times
  }

  @Override
  boolean decodesExactly(byte[] comp, byte[] out, int n, byte[] src) throws IOException {
    Streams.decode(BloscCompressor.ZLIB, comp, 0, comp.length, out, FuzzData.PAD, n);
    return Arrays.equals(out, FuzzData.PAD, FuzzData.PAD + n, src, 0, n);
  }

  @Override
  void damaged(Random r, byte[] comp, byte[] out, int n, String what) {
    for (int d = 0; d < 3; d++) {
      byte[] bad = comp.clone();
      int len = damage(r, bad);
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
      checkCanaries(out, outLen, damaged);
    }
  }

  /** Damages {@code bad} in place: truncated, or 1-3 bytes flipped or replaced; returns its length. */
  private static int damage(Random r, byte[] bad) {
    int len = bad.length;
    if (r.nextInt(4) == 0) {
      return r.nextInt(len);
    }
    for (int f = 1 + r.nextInt(3); f > 0; f--) {
      int pos = r.nextBoolean() ? r.nextInt(len) : r.nextInt(Math.min(len, 2 + r.nextInt(200)));
      if (r.nextBoolean()) {
        bad[pos] ^= (byte) (1 << r.nextInt(8));
      } else {
        bad[pos] = (byte) r.nextInt(256);
      }
    }
    return len;
  }

  @Override
  String summary(long first, long last) {
    return String.format("seeds %d..%d: %d streams of %d bytes in all; damaged copies: same bytes as java.util.zip %d, "
        + "both refuse %d, only java.util.zip decodes (bytes after the stream) %d; failures %d%n", first, last, cases,
        bytes, sameBytes, bothRefuse, trailingOnly, failures());
  }
}
