package org.chunkcdm.blosc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Never run by {@code mvn verify}: where the time of a split-stream byte-shuffle chunk goes,
 * the codec's streams against the unshuffle of the block they leave behind, kernel by kernel, in the state the codec
 * leaves the caches in. Usage: {@code java -cp bench/target/benchmarks.jar org.chunkcdm.blosc.Ts8ChunkProbe
 * SET.chunks KERNEL[,KERNEL...] SECONDS}; best pass of each, nanoTime per block, two rounds. Kernels: {@code regs}
 * (the 64-bit register path), {@code words} ({@link WordTranspose#unshuffle}, with its pre-read unless
 * {@code -Dchunkcdm.blosc.touch=false}), {@code disp} (as dispatched); {@code wordsD}/{@code regsD} time a second
 * call after a first into a scratch array (planes then in cache), {@code wordsS}/{@code regsS} write the destination
 * first; {@code touch}/{@code touchS} time reading a byte per line (planes interleaved / one after another),
 * {@code touch2}/{@code touchS2} the same a second time; {@code tw} is {@code touchS} then {@code words};
 * {@code hint} reads a byte every {@code -Dhint=4096} bytes of each raw plane before the codec runs, then the dispatched
 * kernel ({@code hintnone}: no kernel), to see whether the prefetcher fetches the rest during the codec (it does not);
 * {@code disp2} times the dispatched kernel a second time (planes and destination then in cache), {@code copydisp}
 * copies the raw planes into the scratch block first (through {@link RawCopy}), as c-blosc2 does; {@code sub} /
 * {@code subnt} run the dispatched kernel in pieces of {@code -Dsub=2048} items, each piece's planes first read a byte
 * per line one plane after another ({@code subnt}: not read first). Assumes
 * every block is split into typesize streams (the b2bench.py sets with shuffle, not zlib's).
 */
public final class Ts8ChunkProbe {
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String[] kernels = args[1].split(",");
    double secs = Double.parseDouble(args[2]);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    List<byte[]> chunks = new ArrayList<>();
    while (b.hasRemaining()) {
      byte[] c = new byte[b.getInt()];
      b.get(c);
      chunks.add(c);
    }
    byte[] dst = new byte[1 << 20];
    long[] codec = new long[kernels.length];
    long[] kern = new long[kernels.length];
    long[] bytes = new long[kernels.length];
    for (int round = 0; round < 2; round++) {
      for (int k = 0; k < kernels.length; k++) {
        codec[k] = kern[k] = bytes[k] = 0;
        long end = System.nanoTime() + (long) (secs * 1e9);
        long[] best = {Long.MAX_VALUE / 4, Long.MAX_VALUE / 4};
        while (System.nanoTime() < end) {
          long[] t = new long[2];
          long by = 0;
          for (byte[] c : chunks) {
            by += chunk(kernels[k], c, dst, t);
          }
          if (t[0] + t[1] < best[0] + best[1]) {
            best = t;
          }
          bytes[k] = by;
        }
        codec[k] = best[0];
        kern[k] = best[1];
        System.out.printf("round %d %-8s codec %6.2f GB/s  kernel %6.2f GB/s  both %6.2f GB/s%n", round, kernels[k],
            bytes[k] / (double) codec[k], bytes[k] / (double) kern[k], bytes[k] / (double) (codec[k] + kern[k]));
      }
    }
  }

  static final byte[] DUMMY = new byte[1 << 20];

  static long SINK;

  static long touch(byte[][] pa, int[] po, int n) {
    long x = 0;
    for (int i = 0; i < n; i += 64) {
      for (int j = 0; j < pa.length; j++) {
        x += pa[j][po[j] + i];
      }
    }
    return x;
  }

  static final int HINT = Integer.getInteger("hint", 4096);

  static long hint(byte[] a, int o, int n, int step) {
    long x = 0;
    for (int i = 0; i < n; i += step) {
      x += a[o + i];
    }
    return x;
  }

  static long touchSeq(byte[][] pa, int[] po, int n) {
    long x = 0;
    for (int j = 0; j < pa.length; j++) {
      byte[] a = pa[j];
      int o = po[j];
      for (int i = 0; i < n; i += 64) {
        x += a[o + i];
      }
    }
    return x;
  }

  static long touchSeq2(byte[][] pa, int[] po, int n) {
    long x = 0;
    for (int j = 0; j < pa.length; j++) {
      byte[] a = pa[j];
      int o = po[j];
      for (int i = 0; i < n; i += 128) {
        x += a[o + i];
      }
    }
    return x;
  }

  static final int SUB = Integer.getInteger("sub", 2048);

  /** The kernel in pieces of SUB items: each plane's piece read a byte per line, one plane after another, first. */
  static long sub(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n, boolean touchFirst) {
    long x = 0;
    int[] q = new int[ts];
    for (int i = 0; i < n; i += SUB) {
      int m = Math.min(SUB, n - i);
      for (int j = 0; j < ts; j++) {
        q[j] = po[j] + i;
        if (touchFirst) {
          byte[] a = pa[j];
          for (int k = q[j]; k < q[j] + m; k += 64) {
            x += a[k];
          }
        }
      }
      Filters.unshufflePlanes(ts, pa, q, dst, dp + i * ts, m);
    }
    return x;
  }

  static long chunk(String kernel, byte[] src, byte[] dst, long[] t) throws Exception {
    BloscHeader h = BloscHeader.parse(src, 0, src.length);
    int ts = h.typesize();
    int bs = h.blocksize();
    int nb = h.nblocks();
    int neblock = bs / ts;
    byte[] target = JavaBlosc.scratch(0, bs);
    byte[][] pa = new byte[ts][];
    int[] po = new int[ts];
    for (int blk = 0; blk < nb; blk++) {
      long t0 = System.nanoTime();
      int pos = BloscHeader.le32(src, h.headerLength() + 4 * blk);
      for (int s = 0; s < ts; s++) {
        int csize = BloscHeader.le32(src, pos);
        pos += 4;
        if (csize == neblock) {
          pa[s] = src;
          po[s] = pos;
          if (kernel.startsWith("hint")) {
            SINK += hint(src, pos, neblock, HINT);
          }
        } else {
          pa[s] = target;
          po[s] = s * neblock;
          Codecs.decode(h.compressor(), src, pos, csize, target, s * neblock, neblock, null);
        }
        pos += csize;
      }
      long t1 = System.nanoTime();
      int dp = blk * bs;
      switch (kernel) {
        case "regs": Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); break;
        case "words": WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "disp": Filters.unshufflePlanes(ts, pa, po, dst, dp, neblock); break;
        case "none": break;
        case "sub": SINK += sub(ts, pa, po, dst, dp, neblock, true); break;
        case "subnt": SINK += sub(ts, pa, po, dst, dp, neblock, false); break;
        case "disp2": Filters.unshufflePlanes(ts, pa, po, dst, dp, neblock); t1 = System.nanoTime();
          Filters.unshufflePlanes(ts, pa, po, dst, dp, neblock); break;
        case "copydisp": // c-blosc2's way: the raw planes copied next to the decoded ones first, then the kernel
          for (int s = 0; s < ts; s++) {
            if (pa[s] == src) {
              RawCopy.copy(src, po[s], target, s * neblock, neblock);
              pa[s] = target;
              po[s] = s * neblock;
            }
          }
          Filters.unshufflePlanes(ts, pa, po, dst, dp, neblock); break;
        case "hint": Filters.unshufflePlanes(ts, pa, po, dst, dp, neblock); break;
        case "hintnone": break;
        case "tw": SINK += touchSeq(pa, po, neblock);
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "tw2": SINK += touchSeq2(pa, po, neblock);
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "touch": SINK += touch(pa, po, neblock); break;
        case "touch2": SINK += touch(pa, po, neblock); t1 = System.nanoTime(); SINK += touch(pa, po, neblock); break;
        case "touchS": SINK += touchSeq(pa, po, neblock); break;
        case "touchS2": SINK += touchSeq(pa, po, neblock); t1 = System.nanoTime(); SINK += touchSeq(pa, po, neblock); break;
        case "wordsP": SINK += touch(pa, po, neblock); t1 = System.nanoTime();
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "touchW": SINK += touch(pa, po, neblock); 
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "touchR": SINK += touch(pa, po, neblock); 
          Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); break;
        case "wordsD": WordTranspose.unshuffle(ts, pa, po, DUMMY, 0, neblock); t1 = System.nanoTime();
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "regsD": Filters.unshuffleSwar(ts, pa, po, DUMMY, 0, neblock); t1 = System.nanoTime();
          Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); break;
        case "wordsS": java.util.Arrays.fill(dst, dp, dp + bs, (byte) 1); t1 = System.nanoTime();
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "regsS": java.util.Arrays.fill(dst, dp, dp + bs, (byte) 1); t1 = System.nanoTime();
          Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); break;
        case "words2": WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); t1 = System.nanoTime();
          WordTranspose.unshuffle(ts, pa, po, dst, dp, neblock); break;
        case "regs2": Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); t1 = System.nanoTime();
          Filters.unshuffleSwar(ts, pa, po, dst, dp, neblock); break;
        default: throw new IllegalArgumentException(kernel);
      }
      long t2 = System.nanoTime();
      t[0] += t1 - t0;
      t[1] += t2 - t1;
    }
    return (long) nb * bs;
  }
}
