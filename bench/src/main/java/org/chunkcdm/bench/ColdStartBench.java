package org.chunkcdm.bench;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamWriter;

/**
 * What a fresh JVM pays (bench/run-coldstart.sh): run once per process, with the JVM options under test.
 *
 * <ul>
 *   <li>{@code read FILE [WARM]}: the first whole read of the first variable of FILE ({@code NetcdfFiles.open} +
 *       {@code Variable.read()} + close, as python-blosc2's {@code blosc2.open(p)[:]} opens in its timed part), then
 *       WARM more reads; prints {@code first S warm S main S cpu S open S}: the first read, the best of the warm ones (0
 *       without), the JVM's uptime when main started, the process CPU time after the first read and the first open's share of the first read.</li>
 *   <li>{@code ncstreamwriter IN OUT}: netcdf-java's {@code new NcStreamWriter(nc, location).streamAll} of IN into OUT
 *       (written through a temporary file and moved, as {@code chunkcdm convert} does); prints its own seconds. The
 *       whole process is timed by the script.</li>
 *   <li>{@code varname FILE}: prints the name of FILE's first variable.</li>
 *   <li>{@code alloc}: the seconds of {@code new double[1 << 27]} (1 GiB, zeroed by the JVM) in this JVM.</li>
 *   <li>{@code slabs FILE K}: FILE's first variable read in K equal slabs along its first dimension, the
 *       milliseconds of each (how long the decoders take to reach compiled speed).</li>
 * </ul>
 * Never run by {@code mvn verify}.
 */
public final class ColdStartBench {
  private ColdStartBench() {}

  public static void main(String[] args) throws Exception {
    double main = ManagementFactory.getRuntimeMXBean().getUptime() / 1e3;
    if (args.length >= 2 && args[0].equals("read")) {
      Path file = Paths.get(args[1]);
      int warm = args.length > 2 ? Integer.parseInt(args[2]) : 0;
      double first = read(file);
      double cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
          .getProcessCpuTime() / 1e9;
      double best = warm > 0 ? Double.MAX_VALUE : 0;
      for (int i = 0; i < warm; i++) {
        best = Math.min(best, read(file));
      }
      System.out.printf(Locale.ROOT, "first %.3f warm %.3f main %.3f cpu %.3f open %.3f%n", first, best, main, cpu, firstOpen);
    } else if (args.length == 3 && args[0].equals("ncstreamwriter")) {
      long t = System.nanoTime();
      Path out = Paths.get(args[2]);
      Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
      try (NetcdfFile nc = NetcdfFiles.open(args[1]);
          OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
        new NcStreamWriter(nc, out.getFileName().toString()).streamAll(o);
      }
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
      System.out.printf(Locale.ROOT, "ncstreamwriter %.3f main %.3f%n", (System.nanoTime() - t) / 1e9, main);
    } else if (args.length == 1 && args[0].equals("alloc")) { // what the 1 GiB result costs a fresh JVM
      long t = System.nanoTime();
      double[] a = new double[1 << 27];
      long t1 = System.nanoTime();
      a[a.length - 1] = 1;
      System.out.printf(Locale.ROOT, "new double[1 << 27] %.3f s%n", (t1 - t) / 1e9);
    } else if (args.length == 3 && args[0].equals("slabs")) { // the JIT's warm-up, slab by slab
      try (NetcdfFile nc = NetcdfFiles.open(args[1])) {
        Variable v = nc.getVariables().get(0);
        v.setCaching(false);
        int n = v.getShape()[0];
        int k = Integer.parseInt(args[2]);
        StringBuilder b = new StringBuilder("ms per slab:");
        for (int i = 0; i < k; i++) {
          long t = System.nanoTime();
          v.read(new ucar.ma2.Section(new int[] {i * (n / k)}, new int[] {n / k}));
          b.append(String.format(Locale.ROOT, " %.0f", (System.nanoTime() - t) / 1e6));
        }
        System.out.println(b);
      }
    } else if (args.length == 2 && args[0].equals("varname")) {
      try (NetcdfFile nc = NetcdfFiles.open(args[1])) {
        System.out.println(nc.getVariables().get(0).getFullNameEscaped());
      }
    } else {
      throw new IllegalArgumentException("usage: read FILE [WARM] | ncstreamwriter IN OUT | varname FILE | alloc"
          + " | slabs FILE K");
    }
  }

  static double firstOpen = -1;

  /** Seconds of one open + whole read of the first variable + close. */
  static double read(Path file) throws Exception {
    long t = System.nanoTime();
    long n;
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      if (firstOpen < 0) {
        firstOpen = (System.nanoTime() - t) / 1e9;
      }
      Variable v = nc.getVariables().get(0);
      v.setCaching(false);
      Array a = v.read();
      n = a.getSize();
    }
    double s = (System.nanoTime() - t) / 1e9;
    if (n * 8 != 1L << 30) {
      throw new IllegalStateException(file + ": read " + n + " values, not 1 GiB of float64");
    }
    return s;
  }
}
