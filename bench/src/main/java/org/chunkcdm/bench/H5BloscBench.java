package org.chunkcdm.bench;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.hdf5blosc.H5BloscIosp;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * HDF5 / NetCDF-4 Blosc benchmark (docs/BENCHMARKS.md, "HDF5 / NetCDF-4 with Blosc"); a main class, never run by
 * {@code mvn verify}. Reads one variable whole, {@code rounds} times, from the Blosc file through
 * {@code NetcdfFiles.open} with {@link H5BloscIosp} registered, and from the deflate file through stock
 * netcdf-java ({@code H5iospNew}); prints one line per read (seconds, MB/s) and a checksum of the values so
 * both readers are seen to return the same data.
 *
 * <p>Arguments: blosc file, deflate file, variable name, rounds (default 3).
 */
public final class H5BloscBench {
  private static final String STOCK = "ucar.nc2.internal.iosp.hdf5.H5iospNew";

  private H5BloscBench() {}

  public static void main(String[] args) throws Exception {
    Path blosc = Paths.get(args[0]);
    Path deflate = Paths.get(args[1]);
    String var = args[2];
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    H5BloscIosp.register();
    System.out.println("# java " + System.getProperty("java.version") + ", codec " + Blosc.configured()
        + ", decode threads " + Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors())
        + ", cache bytes " + Long.getLong("chunkcdm.cache.bytes", 64L << 20));
    for (int r = 0; r < rounds; r++) {
      read("chunkcdm-blosc", blosc, var, null, r);
    }
    for (int r = 0; r < rounds; r++) {
      read("netcdf-java-deflate1", deflate, var, STOCK, r);
    }
  }

  private static void read(String what, Path file, String var, String iosp, int round) throws Exception {
    long t0 = System.nanoTime();
    try (NetcdfFile nc = iosp == null ? NetcdfFiles.open(file.toString()) : NetcdfFiles.open(file.toString(), iosp, -1, null, null)) {
      Variable v = nc.findVariable(var);
      if (v == null) {
        throw new IllegalArgumentException(file + ": no variable " + var);
      }
      Array a = v.read();
      double s = 0;
      double[] d = (double[]) a.getStorage();
      for (int i = 0; i < d.length; i += 4099) {
        s += d[i];
      }
      double sec = (System.nanoTime() - t0) / 1e9;
      long bytes = a.getSize() * 8;
      System.out.printf("%s round %d: %s %s %.3f s %.0f MB/s checksum %.6e iosp %s%n", what, round, file.getFileName(),
          Arrays.toString(v.getShape()), sec, bytes / sec / 1e6, s, nc.getIosp().getClass().getSimpleName());
    }
    System.gc();
  }
}
