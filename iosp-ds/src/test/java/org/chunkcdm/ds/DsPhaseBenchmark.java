package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.cdm.CdmReader;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.io.FileHandles;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Splits the {@code .ds} reader's own per-file work of {@link DsBenchmark} into its steps, with the file bytes
 * in memory (no netcdf-java open, no system call): header, dataset variables, CDM builders, NetcdfFile build,
 * reads of every variable. Each step is timed cumulatively (step k = steps 1..k) over all files, CPU time of
 * this thread, best and median of the rounds. Never run by {@code mvn verify}.
 *
 * <p>Usage: {@code DsPhaseBenchmark <dir with small/f<i>.ds> [files=5000] [rounds=15]}
 */
public final class DsPhaseBenchmark {
  private DsPhaseBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    List<Path> paths = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Path p = dir.resolve("small").resolve("f" + i + ".ds").toAbsolutePath();
      paths.add(p);
      bytes.add(Files.readAllBytes(p));
    }
    FileHandles fh = new FileHandles(paths.get(0).getParent());
    String[] names = {"header", "+variables", "+CDM builders", "+NetcdfFile build", "+read all"};
    double[][] t = new double[names.length][rounds];
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    double sink = 0;
    for (int r = -10; r < rounds; r++) {
      for (int step = 0; step < names.length; step++) {
        long c0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < files; i++) {
          sink += run(step, fh, paths.get(i), bytes.get(i));
        }
        if (r >= 0) {
          t[step][r] = (mx.getCurrentThreadCpuTime() - c0) / 1e3 / files;
        }
      }
    }
    double prev = 0;
    for (int step = 0; step < names.length; step++) {
      double med = DsBenchmark.median(t[step]);
      double min = Arrays.stream(t[step]).min().getAsDouble();
      System.out.printf("%-18s cumulative median %.2f µs/file (best %.2f), this step %.2f µs%n", names[step], med, min,
          med - prev);
      prev = med;
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  private static double run(int step, FileHandles fh, Path p, byte[] b) throws IOException {
    DsHeader.Opening o = new DsHeader.Opening() {
      @Override
      public long length() {
        return b.length;
      }

      @Override
      public void readFully(byte[] buf) {
        System.arraycopy(b, 0, buf, 0, buf.length);
      }
    };
    if (step == 0) {
      DsHeader h = DsHeader.read(fh, p, o);
      return h.spans != null ? h.spans.size() : h.parse().members.size();
    }
    DsDatasets.Opened ds = DsDatasets.open(fh, p, o);
    if (step == 1) {
      return ds.vars.size();
    }
    Group.Builder root = Group.builder().setName("");
    DsIosp.addAll(root, ds, p);
    if (step == 2) {
      return root.vbuilders.size();
    }
    NetcdfFile nc = NetcdfFile.builder().setRootGroup(root).setLocation(p.toString()).build();
    if (step == 3) {
      return nc.getVariables().size();
    }
    double s = 0;
    for (Variable v : nc.getVariables()) {
      ucar.ma2.Array a = CdmReader.read((ChunkedArray) v.getSPobject(), null);
      s += a.getSize();
    }
    return s;
  }
}
