package org.chunkcdm.bench;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.blosc.zstd.ZstdDecoder;

/**
 * Differential zstd campaign for longer runs than the unit tests (bench only; docs/RELIABILITY.md). For
 * SECONDS from SEED on, one seed a case: the reference zstd (zstd-jni) encodes {@link FuzzData} with random level
 * (-5..22), strategy, min match, window, target length, checksum and content-size flag. {@link ZstdDecoder} must
 * give the input exactly and leave 64 bytes on either side of the output untouched. Three damaged copies of each
 * frame (a bit flipped, 4 bytes replaced, truncated) must decode or give an IOException, never another exception
 * or a write outside the output; where libzstd decodes a damaged copy too, both must agree. Damaged copies libzstd
 * decodes and ZstdDecoder refuses are counted (the first 20 printed). Prints one summary line; exit status 1 on any
 * failure. {@code -Dchunkcdm.fuzz.selfCheck=true} flips one byte of every expected output, so that every case is
 * reported as a mismatch.
 *
 * <p>usage: {@code java -cp bench/target/benchmarks.jar org.chunkcdm.blosc.zstd.ZstdFuzz SECONDS SEED}
 */
public final class ZstdFuzz {
  private static long failures;

  private ZstdFuzz() {}

  private static void fail(String what) {
    System.out.println(what);
    failures++;
  }

  private static byte[] encode(Random r, byte[] src) {
    try (ZstdCompressCtx c = new ZstdCompressCtx()) {
      c.setLevel(r.nextInt(28) - 5);
      c.setChecksum(r.nextBoolean());
      c.setContentSize(r.nextInt(4) != 0);
      if (r.nextInt(3) == 0) {
        c.setStrategy(1 + r.nextInt(9));
      }
      if (r.nextInt(3) == 0) {
        c.setMinMatch(3 + r.nextInt(5));
      }
      if (r.nextInt(4) == 0) {
        c.setWindowLog(10 + r.nextInt(12));
      }
      if (r.nextInt(4) == 0) {
        c.setTargetLength(r.nextInt(1000));
      }
      return c.compress(src);
    }
  }

  /** libzstd's decoding of {@code bad[0..len)} into n bytes: its size, or -1 when it refuses. */
  private static int reference(byte[] bad, int len, byte[] lib, int n) {
    try (ZstdDecompressCtx dc = new ZstdDecompressCtx()) {
      return dc.decompressByteArray(lib, 0, n, bad, 0, len);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  public static void main(String[] a) {
    long seconds = Long.parseLong(a[0]);
    long seed0 = Long.parseLong(a[1]);
    boolean selfCheck = Boolean.getBoolean("chunkcdm.fuzz.selfCheck");
    long t0 = System.nanoTime();
    ZstdDecoder dec = new ZstdDecoder();
    long cases = 0;
    long damagedOk = 0;
    long damagedRefused = 0;
    long libAccepts = 0;
    long bytes = 0;
    for (long seed = seed0; System.nanoTime() - t0 < seconds * 1_000_000_000L; seed++) {
      Random r = new Random(seed);
      byte[] src = FuzzData.input(r);
      int n = src.length;
      byte[] comp = encode(r, src);
      cases++;
      bytes += n;
      if (selfCheck && n > 0) {
        src[r.nextInt(n)] ^= 1;
      }
      byte[] out = FuzzData.guarded(n);
      String what = "seed " + seed + " (" + n + " bytes)";
      try {
        int got = dec.decompress(comp, 0, comp.length, out, FuzzData.PAD, n);
        if (got != n || !Arrays.equals(out, FuzzData.PAD, FuzzData.PAD + n, src, 0, n)) {
          fail("MISMATCH " + what);
        }
      } catch (Throwable e) {
        fail("THROWS " + what + ": " + e);
        dec = new ZstdDecoder();
      }
      if (!FuzzData.canariesKept(out, n)) {
        fail("WRITES OUTSIDE THE OUTPUT " + what);
      }
      for (int d = 0; d < 3 && comp.length > 0; d++) {
        byte[] bad = comp.clone();
        int len = bad.length;
        switch (r.nextInt(3)) {
          case 0:
            bad[r.nextInt(len)] ^= (byte) (1 << r.nextInt(8));
            break;
          case 1:
            for (int k = 0; k < 4; k++) {
              bad[r.nextInt(len)] = (byte) r.nextInt(256);
            }
            break;
          default:
            len = r.nextInt(len);
        }
        byte[] lib = new byte[n];
        int libN = reference(bad, len, lib, n);
        String damaged = what + ", damaged copy " + d;
        FuzzData.rearm(out);
        try {
          dec.decompress(bad, 0, len, out, FuzzData.PAD, n);
          damagedOk++;
          if (libN == n && !Arrays.equals(out, FuzzData.PAD, FuzzData.PAD + n, lib, 0, n)) {
            fail("DIFFERS FROM LIBZSTD " + damaged);
          }
        } catch (IOException e) {
          damagedRefused++;
          if (libN == n && ++libAccepts <= 20) {
            System.out.println("libzstd decodes, refused here: " + damaged + ": " + e.getMessage());
          }
        } catch (Throwable e) {
          fail("THROWS " + damaged + ": " + e);
          dec = new ZstdDecoder();
        }
        if (!FuzzData.canariesKept(out, n)) {
          fail("WRITES OUTSIDE THE OUTPUT " + damaged);
        }
      }
    }
    System.out.printf("seeds %d..%d: %d frames of %d bytes in all, damaged copies decoded %d, refused %d (libzstd "
        + "decoded %d of those), failures %d%n", seed0, seed0 + cases - 1, cases, bytes, damagedOk, damagedRefused,
        libAccepts, failures);
    if (failures > 0) {
      System.exit(1);
    }
  }
}
