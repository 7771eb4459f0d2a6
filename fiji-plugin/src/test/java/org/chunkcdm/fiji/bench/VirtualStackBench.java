package org.chunkcdm.fiji.bench;

import ij.ImagePlus;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.ij.ChunkcdmImageJ;
import org.chunkcdm.fiji.ij.StackSpec;
import org.chunkcdm.nativeblosc.JnaBlosc;

/**
 * Fiji plugin benchmark (docs/BENCHMARKS.md, "Fiji plugin"); a main class in the test sources, run by
 * {@code bench/run-fiji.sh}, never by {@code mvn verify}.
 *
 * <p>A virtual uint16 volume of 2048 planes of 4096 x 4096 (64 GiB) in chunks of 4 x 512 x 512 (2 MiB). Its chunks
 * are real Blosc1 chunks (lz4, byte shuffle, made once by the reference c-blosc from 16 distinct smooth + noise
 * blocks) served from memory, so every chunk read is a real decode through core's codec and section assembly
 * and nothing is read from disk. Measures, through the ImageJ virtual stack (headless, exactly what the display
 * calls): opening (first plane decoded, display range from its statistics), a slice change inside the cached chunk
 * slab (warm), a slice change into a new slab (cold), and the heap after opening. Reference measured in the same
 * run: decoding the 64 chunks one plane crosses with {@code BloscChunkData.readAll} on one thread (the codec
 * alone, no assembly, no parallelism).
 *
 * <p>Arguments: rounds (default 5). Run with {@code -Dchunkcdm.cache.bytes} of at least one slab (128 MiB).
 */
public final class VirtualStackBench {
  static final int NZ = 2048;
  static final int NY = 4096;
  static final int NX = 4096;
  static final int[] CHUNK = {4, 512, 512};
  static final int POOL = 16;

  private VirtualStackBench() {}

  /** Chunks from a pool of real Blosc frames; index → pool[index mod POOL]. */
  static final class PooledVolume extends BasicChunkedArray {
    final byte[][] pool;
    final AtomicLong decoded = new AtomicLong();

    PooledVolume(byte[][] pool) {
      super(DType.of(DType.Kind.UINT, 2, ByteOrder.LITTLE_ENDIAN), ChunkGrid.regular(new long[] {NZ, NY, NX}, CHUNK), null,
          "bench-volume-" + System.nanoTime());
      this.pool = pool;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      decoded.incrementAndGet();
      byte[] b = pool[(int) (index % POOL)];
      return BloscChunkData.of(b, 0, b.length);
    }
  }

  static byte[][] makePool() throws IOException {
    JnaBlosc c = new JnaBlosc();
    if (!c.isAvailable()) {
      throw new IOException("the benchmark makes its chunks with the reference c-blosc: install libblosc1 (" + c.version() + ")");
    }
    byte[][] pool = new byte[POOL][];
    Random r = new Random(42);
    int n = CHUNK[0] * CHUNK[1] * CHUNK[2];
    for (int k = 0; k < POOL; k++) {
      byte[] raw = new byte[n * 2];
      int i = 0;
      for (int z = 0; z < CHUNK[0]; z++) {
        for (int y = 0; y < CHUNK[1]; y++) {
          for (int x = 0; x < CHUNK[2]; x++) {
            int v = (int) (1000 + 400 * Math.sin((x + 37 * k) / 40.0) * Math.cos((y + z) / 55.0)) + r.nextInt(32);
            raw[i++] = (byte) v;
            raw[i++] = (byte) (v >>> 8);
          }
        }
      }
      pool[k] = c.compress(raw, 5, 1, 2, "lz4", 0);
    }
    return pool;
  }

  static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    ChunkCache cache = ChunkCache.shared();
    byte[][] pool = makePool();
    long comp = Arrays.stream(pool).mapToLong(b -> b.length).sum();
    System.out.printf(Locale.ROOT, "volume %d x %d x %d uint16 = %.1f GiB, chunks %s (%.1f MiB), pool of %d Blosc chunks "
        + "(lz4, shuffle; %.1f%% of raw); cache bound %.0f MiB; decode threads %s; blosc %s; heap max %.0f MiB%n", NZ, NY, NX,
        (double) NZ * NY * NX * 2 / (1L << 30), Arrays.toString(CHUNK), CHUNK[0] * CHUNK[1] * CHUNK[2] * 2 / 1048576.0, POOL,
        100.0 * comp / POOL / (CHUNK[0] * CHUNK[1] * CHUNK[2] * 2), cache.maxBytes() / 1048576.0,
        Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()), Blosc.configured(),
        Runtime.getRuntime().maxMemory() / 1048576.0);
    System.out.println("| round | codec alone, 64 chunks, 1 thread (ref) | open (first plane) | warm slice change | "
        + "cold slice change | open / ref | cold / ref | chunks decoded (open, warm, cold) | heap after open − before "
        + "| cache in use + 2 planes |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|");
    for (int r = 0; r < rounds; r++) {
      cache.clear();
      PooledVolume vol = new PooledVolume(pool);
      // reference: the codec alone on the 64 chunks plane 1 crosses, one thread
      long t0 = System.nanoTime();
      long sink = 0;
      for (int gy = 0; gy < NY / CHUNK[1]; gy++) {
        for (int gx = 0; gx < NX / CHUNK[2]; gx++) {
          byte[] b = pool[(gy * (NX / CHUNK[2]) + gx) % POOL];
          sink += BloscChunkData.of(b, 0, b.length).readAll()[7];
        }
      }
      double ref = ms(t0);
      long heap0 = usedHeap();
      ImageDataset ds = new ImageDataset(Paths.get("/bench"), "bench", Map.of(), null);
      ImageVariable v = new ImageVariable(ds, "volume", List.of("z", "y", "x"), vol, Map.of());
      ds.add(v);
      t0 = System.nanoTime();
      ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
      double open = ms(t0);
      long dOpen = vol.decoded.get();
      long heap1 = usedHeap();
      long inUse = cache.bytes();
      double warm = 0;
      long d0 = vol.decoded.get();
      for (int s = 2; s <= 4; s++) { // same slab as plane 1
        t0 = System.nanoTime();
        imp.setSlice(s);
        warm = Math.max(warm, ms(t0));
      }
      long dWarm = vol.decoded.get() - d0;
      double cold = 0;
      d0 = vol.decoded.get();
      int[] colds = {5, 401, 1203, 2045};
      for (int s : colds) {
        t0 = System.nanoTime();
        imp.setSlice(s);
        cold = Math.max(cold, ms(t0));
      }
      long dCold = (vol.decoded.get() - d0) / colds.length;
      sink += imp.getProcessor().get(100, 100);
      System.out.printf(Locale.ROOT, "| %d | %.0f ms | %.0f ms | %.1f ms (max of 3) | %.0f ms (max of 4) | %.2f | %.2f | %d, %d, %d "
          + "| %.0f MiB | %.0f MiB |%n", r, ref, open, warm, cold, open / ref, cold / ref, dOpen, dWarm, dCold,
          (heap1 - heap0) / 1048576.0, (inUse + 2L * NX * NY * 2) / 1048576.0);
      if (sink == 42) {
        System.out.println();
      }
      imp.close();
    }
  }
}
