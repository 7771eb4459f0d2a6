package org.chunkcdm.blosc.zstd;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

/**
 * Differential zstd campaign for longer runs than the unit tests (bench only; docs/BENCHMARKS.md, stop 31). For
 * SECONDS from SEED on, one seed a case: the reference zstd (zstd-jni) encodes generated data (byte- and
 * bit-shuffled float series, a long incompressible run before compressible data, random bytes, mixes of runs,
 * short-offset repeats and far copies) with random level (-5..22), strategy, min match, window, target length,
 * checksum and content-size flag. {@link ZstdDecoder} must give the input exactly and leave 64 bytes on either side
 * of the output untouched. Three damaged copies of each frame (a bit flipped, 4 bytes replaced, truncated) must
 * decode or give an IOException, never another exception or a write outside the output; where libzstd decodes a
 * damaged copy too, both must agree. Damaged copies libzstd accepts and ZstdDecoder refuses are counted (the first
 * 20 printed). Prints one summary line; exit status 1 on any failure. {@code -Dchunkcdm.fuzz.selfCheck=true} flips
 * one byte of the expected data of every case, so that every case must be reported as a mismatch.
 *
 * <p>usage: {@code java -cp bench/target/benchmarks.jar org.chunkcdm.blosc.zstd.ZstdFuzz SECONDS SEED}
 */
public final class ZstdFuzz {
  private static Random r;

  private ZstdFuzz() {}

  /** n bytes of one of the generated kinds (see the class comment). */
  static byte[] data(int n) {
    byte[] b = new byte[n];
    int ts = 1 << (1 + r.nextInt(3));
    switch (r.nextInt(8)) {
      case 0: { // a float series, byte-shuffled (typesize 2, 4 or 8)
        int items = n / ts;
        byte[] raw = series(items, ts);
        for (int i = 0; i < items; i++) {
          for (int j = 0; j < ts; j++) {
            b[j * items + i] = raw[i * ts + j];
          }
        }
        break;
      }
      case 1: { // a float series, bit-shuffled
        int items = (n / ts) & ~7;
        byte[] raw = series(items, ts);
        for (int i = 0; i < items; i++) {
          for (int j = 0; j < ts * 8; j++) {
            int bit = (raw[i * ts + j / 8] >>> (j & 7)) & 1;
            int pos = j * items + i;
            b[pos >>> 3] |= (byte) (bit << (pos & 7));
          }
        }
        break;
      }
      case 2: { // up to 41 KiB of random bytes, then a mix: a block's first sequence takes a long literal run
        int pre = Math.min(n, 1024 + r.nextInt(40000));
        byte[] x = new byte[pre];
        r.nextBytes(x);
        System.arraycopy(x, 0, b, 0, pre);
        fillMix(b, pre, n);
        break;
      }
      case 3:
        r.nextBytes(b);
        break;
      default:
        fillMix(b, 0, n);
    }
    return b;
  }

  static byte[] series(int items, int ts) {
    byte[] raw = new byte[items * ts];
    double v = r.nextDouble() * 100;
    double noise = Math.pow(10, -r.nextInt(8));
    for (int i = 0; i < items; i++) {
      v += Math.sin(i * 0.001) * 0.01 + r.nextGaussian() * noise;
      long bits = ts == 8 ? Double.doubleToLongBits(v)
          : ts == 4 ? Float.floatToIntBits((float) v) : (long) (v * 100) & 0xFFFF;
      for (int j = 0; j < ts; j++) {
        raw[i * ts + j] = (byte) (bits >>> (8 * j));
      }
    }
    return raw;
  }

  static void fillMix(byte[] b, int from, int n) {
    int p = from;
    int alpha = 2 + r.nextInt(255);
    while (p < n) {
      int len = Math.min(n - p, 1 + (r.nextInt(4) == 0 ? r.nextInt(3000) : r.nextInt(40)));
      switch (r.nextInt(5)) {
        case 0:
          for (int i = 0; i < len; i++) {
            b[p + i] = (byte) r.nextInt(alpha);
          }
          break;
        case 1:
          Arrays.fill(b, p, p + len, (byte) r.nextInt(256));
          break;
        case 2:
        case 3: // a copy from earlier: offsets 1..7 half of the time
          if (p == 0) {
            b[p] = 1;
            len = 1;
            break;
          }
          int far = Math.min(p, 1 << (4 + r.nextInt(14)));
          int off = 1 + (r.nextBoolean() ? r.nextInt(Math.min(7, p)) : r.nextInt(far));
          for (int i = 0; i < len; i++) {
            b[p + i] = b[p + i - off];
          }
          break;
        default:
          for (int i = 0; i < len; i++) {
            b[p + i] = (byte) r.nextInt(256);
          }
      }
      p += len;
    }
  }

  private static final int PAD = 64;
  private static long failures;

  private static void fail(String what) {
    System.out.println(what);
    failures++;
  }

  /** True when the PAD bytes on either side of the n-byte output still hold the canary. */
  private static boolean canariesKept(byte[] out, int n) {
    for (int i = 0; i < PAD; i++) {
      if (out[i] != 0x5A || out[PAD + n + i] != 0x5A) {
        return false;
      }
    }
    return true;
  }

  private static byte[] encode(byte[] src) {
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
    long inPlace = 0;
    long cases = 0;
    long damagedOk = 0;
    long damagedRefused = 0;
    long libAccepts = 0;
    long bytes = 0;
    for (long seed = seed0; System.nanoTime() - t0 < seconds * 1_000_000_000L; seed++) {
      r = new Random(seed);
      int n = r.nextInt(4) == 0 ? r.nextInt(2000) : r.nextInt(r.nextBoolean() ? 140_000 : 600_000);
      byte[] src = data(n);
      byte[] comp = encode(src);
      cases++;
      bytes += n;
      if (selfCheck && n > 0) {
        src[r.nextInt(n)] ^= 1;
      }
      byte[] out = new byte[n + 2 * PAD];
      Arrays.fill(out, (byte) 0x5A);
      String what = "seed " + seed + " (" + n + " bytes)";
      try {
        int got = dec.decompress(comp, 0, comp.length, out, PAD, n);
        if (got != n || !Arrays.equals(out, PAD, PAD + n, src, 0, n)) {
          fail("MISMATCH " + what);
        }
      } catch (Throwable e) {
        fail("THROWS " + what + ": " + e);
        inPlace += dec.literalsInPlace;
        dec = new ZstdDecoder();
      }
      if (!canariesKept(out, n)) {
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
        Arrays.fill(out, (byte) 0x5A);
        try {
          dec.decompress(bad, 0, len, out, PAD, n);
          damagedOk++;
          if (libN == n && !Arrays.equals(out, PAD, PAD + n, lib, 0, n)) {
            fail("DIFFERS FROM LIBZSTD " + damaged);
          }
        } catch (IOException e) {
          damagedRefused++;
          if (libN == n && ++libAccepts <= 20) {
            System.out.println("libzstd decodes, refused here: " + damaged + ": " + e.getMessage());
          }
        } catch (Throwable e) {
          fail("THROWS " + damaged + ": " + e);
          inPlace += dec.literalsInPlace;
          dec = new ZstdDecoder();
        }
        if (!canariesKept(out, n)) {
          fail("WRITES OUTSIDE THE OUTPUT " + damaged);
        }
      }
    }
    inPlace += dec.literalsInPlace;
    System.out.printf("seeds %d..%d: %d frames of %d bytes in all, damaged copies decoded %d, refused %d (libzstd "
        + "decoded %d of those), literal bytes Huffman-decoded in place %d, failures %d%n", seed0, seed0 + cases - 1,
        cases, bytes, damagedOk, damagedRefused, libAccepts, inPlace, failures);
    if (failures > 0) {
      System.exit(1);
    }
  }
}
