package org.chunkcdm.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.chunkcdm.cdm.CdmReader;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import ucar.ma2.Section;

/**
 * The typed read against the ways to the same {@code float[]} it replaces (docs/BENCHMARKS.md, "b2nd partial reads and typed reads");
 * a main class, never run by {@code mvn verify}. On the 1 GiB float32 b2nd frame of {@link B2ndBench} (written
 * if missing), opened through the opener SPI ({@code Datasets.open}, no netcdf-java on this path), with the
 * cache off (so every round decodes): (1) {@code SectionReader.read(a, origin, shape, null, float[], 0)};
 * (2) {@code SectionReader.readBytes} then a ByteBuffer conversion into the {@code float[]} (the raw path);
 * (3) the CDM read {@code CdmReader.read(a, section)} and its {@code float[]} storage. For 2-D planes
 * {@code [1, 512, 1024]} (16 chunks each, 2 MiB) and the whole array. Rounds interleave the three ways;
 * every result is checked against the generating formula (sampled).
 *
 * <p>Arguments: output directory (default {@code bench-out/sframe}), rounds (default 5).
 */
public final class TypedReadBench {
  private TypedReadBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args.length > 0 ? args[0] : "bench-out/sframe");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Files.createDirectories(dir);
    Path file = dir.resolve("bench_f4.b2nd");
    if (!Files.exists(file)) {
      B2ndBench.write(file);
    }
    long[] shape = B2ndBench.SHAPE;
    try (ChunkedDataset ds = Datasets.open(file)) {
      ChunkedArray a = ds.variable("bench_f4").array().withSettings(ReadSettings.of(new ChunkCache(0), 0));
      System.out.println("opened through " + ds.format() + " opener; decode threads " + a.settings().effectiveThreads());
      String[] ways = {"typed read into float[]", "readBytes + ByteBuffer into float[]", "CDM read (CdmReader)"};
      int planes = 32;
      double[][] planeMs = new double[3][rounds];
      double[][] wholeS = new double[3][rounds];
      for (int r = -1; r < rounds; r++) { // round -1: warm-up
        for (int w = 0; w < 3; w++) {
          int way = (w + Math.max(r, 0)) % 3; // rotate the order
          long t0 = System.nanoTime();
          for (int p = 0; p < planes; p++) {
            long z = (p * 37L) % shape[0];
            float[] v = read(way, a, new long[] {z, 0, 0}, new long[] {1, shape[1], shape[2]});
            check(v, z, shape, 997);
          }
          double ms = (System.nanoTime() - t0) / 1e6 / planes;
          long t1 = System.nanoTime();
          float[] all = read(way, a, new long[3], shape);
          double s = (System.nanoTime() - t1) / 1e9;
          check(all, 0, shape, 1_000_003);
          all = null;
          if (r >= 0) {
            planeMs[way][r] = ms;
            wholeS[way][r] = s;
          }
        }
      }
      double ref = median(planeMs[1]);
      double refWhole = median(wholeS[1]);
      for (int w = 0; w < 3; w++) {
        System.out.printf("%-38s plane [1,512,1024]: median %.2f ms (%.2fx the bytes path), min %.2f ms;"
            + " whole 1 GiB: median %.2f s (%.2fx), min %.2f s%n", ways[w], median(planeMs[w]), median(planeMs[w]) / ref,
            Arrays.stream(planeMs[w]).min().getAsDouble(), median(wholeS[w]), median(wholeS[w]) / refWhole,
            Arrays.stream(wholeS[w]).min().getAsDouble());
      }
    }
  }

  static float[] read(int way, ChunkedArray a, long[] origin, long[] count) throws Exception {
    int n = (int) (count[0] * count[1] * count[2]);
    switch (way) {
      case 0: {
        float[] v = new float[n];
        SectionReader.read(a, origin, count, null, v, 0);
        return v;
      }
      case 1: {
        byte[] b = SectionReader.readBytes(a, origin, count, new long[] {1, 1, 1});
        float[] v = new float[n];
        ByteBuffer.wrap(b).order(a.dtype().order()).asFloatBuffer().get(v);
        return v;
      }
      default: {
        Section s = new Section(new int[] {(int) origin[0], (int) origin[1], (int) origin[2]},
            new int[] {(int) count[0], (int) count[1], (int) count[2]});
        return (float[]) CdmReader.read(a, s).getStorage();
      }
    }
  }

  static void check(float[] v, long z0, long[] shape, int step) {
    long plane = shape[1] * shape[2];
    for (long i = 0; i < v.length; i += step) {
      long z = z0 + i / plane;
      long y = (i / shape[2]) % shape[1];
      long x = i % shape[2];
      float want = B2ndBench.value(z, y, x);
      if (Float.floatToIntBits(v[(int) i]) != Float.floatToIntBits(want)) {
        throw new AssertionError("value " + i + ": " + v[(int) i] + " != " + want);
      }
    }
  }

  static double median(double[] d) {
    double[] s = d.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
