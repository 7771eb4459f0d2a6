package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.chunkcdm.testkit.CdmArrays;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.write.NetcdfFormatWriter;

/**
 * Benchmark of docs/BENCHMARKS.md (section ".ds"); never run by {@code mvn verify}. Writes N small datasets
 * as .ds (the test's DsWriter), NetCDF-3 (netcdf-java's NetcdfFormatWriter) and NetCDF-4 ({@code nccopy -k nc4}
 * of the NetCDF-3 file), registers DsIosp the way threddsConfig.xml does (RuntimeConfigParser), and times
 * "open + read every variable + close" over all files per format; then one large variable read through
 * netcdf-java versus a plain FileChannel read of the same bytes. Two more sets: "null" (the same bytes under a
 * name only {@link NullIosp} claims: netcdf-java's own per-open cost) and "dsu" (the .ds files with one header
 * change each, so no two share a variable definition: the worst case of the reader's member templates).
 * {@code bench/run-ds.sh} builds and runs it.
 *
 * <p>Usage: {@code DsBenchmark <work dir> [files=5000] [rounds=5] [large MB=512]}
 */
public final class DsBenchmark {
  private DsBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args.length > 0 ? args[0] : "bench-out/ds");
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int largeMb = args.length > 3 ? Integer.parseInt(args[3]) : 512;
    Files.createDirectories(dir);
    String errlog = org.chunkcdm.testkit.NetcdfChecks.registerLikeThreddsConfig(DsIosp.class)
        + org.chunkcdm.testkit.NetcdfChecks.registerLikeThreddsConfig(NullIosp.class);
    if (!NetcdfFile.iospRegistered(DsIosp.class) || !NetcdfFile.iospRegistered(NullIosp.class)) {
      throw new IllegalStateException("registration failed: " + errlog);
    }
    List<Path> ds = new ArrayList<>();
    List<Path> nc3 = new ArrayList<>();
    List<Path> nc4 = new ArrayList<>();
    List<Path> floor = new ArrayList<>();
    writeSmall(dir, files, ds, nc3, nc4);
    List<Path> unique = writeUnique(dir, files);
    for (Path p : ds) { // the same bytes under a name only NullIosp claims
      Path nul = p.resolveSibling(p.getFileName().toString().replace(".ds", ".nul"));
      if (!Files.exists(nul)) {
        Files.createLink(nul, p);
      }
      floor.add(nul);
    }
    System.out.printf("small datasets: %d files each; sizes: ds %d B, nc3 %d B, nc4 %d B (file 0)%n", files,
        Files.size(ds.get(0)), Files.size(nc3.get(0)), Files.size(nc4.get(0)));
    // "dsu": the same data, but every file's temp carries its own long_name, so no two files share a variable
    // definition: the .ds reader's member templates never serve a member twice (its worst case)
    String[] names = {"ds", "nc3", "nc4", "null", "dsu"};
    List<List<Path>> sets = List.of(ds, nc3, nc4, floor, unique);
    int nf = names.length;
    double[][] t = new double[nf][rounds];
    double[][] cpu = new double[nf][rounds]; // CPU time of the reading thread: steadier than wall time on a busy machine
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    for (int w = 0; w < 8; w++) { // the .ds and NetCDF code paths need several passes until the JIT is done
      for (int f = 0; f < nf; f++) {
        openReadAll(sets.get(f)); // warm-up (JIT, page cache)
      }
    }
    for (int r = 0; r < rounds; r++) {
      for (int f = 0; f < nf; f++) { // interleaved, so drift hits every format alike
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        openReadAll(sets.get(f));
        t[f][r] = (System.nanoTime() - t0) / 1e9;
        cpu[f][r] = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
      }
    }
    // the machine is shared: the median is the typical round, the minimum the round least disturbed by others
    double[] med = new double[nf];
    double[] min = new double[nf];
    for (int f = 0; f < nf; f++) {
      med[f] = median(t[f]);
      min[f] = Arrays.stream(t[f]).min().getAsDouble();
      System.out.printf("%-4s open+read all variables of %d files: median %.3f s (%.1f µs/file), min %.3f s (%.1f µs/file), "
          + "rounds %s%n", names[f], files, med[f], 1e6 * med[f] / files, min[f], 1e6 * min[f] / files,
          Arrays.toString(round3(t[f])));
    }
    double[] cmed = new double[nf];
    for (int f = 0; f < nf; f++) {
      cmed[f] = median(cpu[f]);
      System.out.printf("%-4s CPU time of the reading thread: median %.1f µs/file, rounds %s%n", names[f],
          1e6 * cmed[f] / files, Arrays.toString(round3(cpu[f])));
    }
    for (double[] m : List.of(med, min, cmed)) {
      double fl = m[3];
      System.out.printf("%s: nc3/ds = %.2f, nc4/ds = %.2f; netcdf-java's own per-open cost (NullIosp) %.1f µs/file; "
          + "above it: ds %.1f, nc3 %.1f, nc4 %.1f µs/file, nc3/ds = %.2f, nc4/ds = %.2f%n",
          m == med ? "medians" : m == min ? "minima" : "CPU-time medians",
          m[1] / m[0], m[2] / m[0], 1e6 * fl / files, 1e6 * (m[0] - fl) / files, 1e6 * (m[1] - fl) / files,
          1e6 * (m[2] - fl) / files, (m[1] - fl) / (m[0] - fl), (m[2] - fl) / (m[0] - fl));
    }
    double fl = cmed[3];
    System.out.printf("dsu (no shared member definitions), CPU-time medians: %.1f µs/file, above null %.1f µs/file, "
        + "nc3/dsu = %.2f, nc4/dsu = %.2f%n", 1e6 * cmed[4] / files, 1e6 * (cmed[4] - fl) / files, cmed[1] / cmed[4],
        cmed[2] / cmed[4]);
    try {
      System.out.printf("ds member templates made in this run: %d (by Templates)%n",
          Templates.MADE.get());
    } catch (LinkageError e) { // run with the classes of a reader without templates (a "before" measurement)
      System.out.println("ds member templates: none in these classes");
    }
    if (largeMb > 0) {
      large(dir, largeMb, rounds);
    }
  }

  /** The .ds files of {@link #writeSmall} again, each with its own long_name on temp (written once, then reused). */
  static List<Path> writeUnique(Path dir, int files) throws IOException {
    Path dd = Files.createDirectories(dir.resolve("small"));
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Path p = dd.resolve("f" + i + "u.ds");
      out.add(p);
      if (Files.exists(p)) {
        continue;
      }
      byte[] b = Files.readAllBytes(dd.resolve("f" + i + ".ds"));
      String s = new String(b, StandardCharsets.ISO_8859_1);
      String from = "\"long_name\":\"air temperature\"";
      if (!s.contains(from)) {
        throw new IOException(p + ": the writer's header changed: " + from + " not found");
      }
      // the same length, so the body offsets stay right
      String to = "\"long_name\":\"air temp " + String.format("%06d", i) + "\"";
      if (to.length() != from.length()) {
        throw new IllegalStateException(to);
      }
      Path tmp = dd.resolve("f" + i + "u.ds.tmp");
      Files.write(tmp, s.replace(from, to).getBytes(StandardCharsets.ISO_8859_1));
      Files.move(tmp, p, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    return out;
  }

  /** Opens each file, reads every variable whole, closes it; returns a checksum so nothing is optimised away. */
  static double openReadAll(List<Path> paths) throws IOException {
    double sum = 0;
    for (Path p : paths) {
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        for (Variable v : nc.getVariables()) {
          Array a = v.read();
          if (v.getDataType().isNumeric() && a.getSize() > 0) {
            sum += a.getDouble(0);
          }
        }
      }
    }
    return sum;
  }

  /**
   * One small dataset per file, like a station's day: time(24) float64, lat(10) float32, temp(24,10) float32
   * with _FillValue and about 5% missing cells, count(24) int32, station int32 scalar (NetCDF-3 has no int64), attributes.
   */
  static void writeSmall(Path dir, int files, List<Path> ds, List<Path> nc3, List<Path> nc4) throws Exception {
    Path dd = Files.createDirectories(dir.resolve("small"));
    List<Path[]> convert = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Path pd = dd.resolve("f" + i + ".ds");
      Path p3 = dd.resolve("f" + i + ".nc");
      Path p4 = dd.resolve("f" + i + ".nc4");
      ds.add(pd);
      nc3.add(p3);
      nc4.add(p4);
      if (Files.exists(pd) && Files.exists(p3) && Files.exists(p4)) {
        continue;
      }
      Random r = new Random(i);
      double[] time = new double[24];
      float[] lat = new float[10];
      float[] temp = new float[240];
      boolean[] mask = new boolean[240];
      int[] count = new int[24];
      for (int k = 0; k < 24; k++) {
        time[k] = k;
        count[k] = r.nextInt(1000);
      }
      for (int k = 0; k < 10; k++) {
        lat[k] = -45 + 10 * k;
      }
      for (int k = 0; k < 240; k++) {
        mask[k] = r.nextInt(20) == 0;
        temp[k] = mask[k] ? -9999f : 250 + 50 * r.nextFloat();
      }
      DsWriter w = new DsWriter();
      w.numeric("time", "float64", new long[] {24}, new String[] {"time"}, false, le(time), null)
          .put("units", "hours since 2020-01-01 00:00:00");
      w.numeric("lat", "float32", new long[] {10}, new String[] {"lat"}, false, le(lat), null)
          .put("units", "degrees_north");
      w.numeric("temp", "float32", new long[] {24, 10}, new String[] {"time", "lat"}, false, le(temp), mask)
          .put("units", "K").put("long_name", "air temperature").put("_FillValue", -9999.0);
      w.numeric("count", "int32", new long[] {24}, new String[] {"time"}, false, le(count), null);
      w.numeric("station", "int32", new long[0], new String[0], false, le(new int[] {i}), null);
      w.dataset().put("title", "benchmark file " + i);
      w.write(pd);

      NetcdfFormatWriter.Builder b = NetcdfFormatWriter.createNewNetcdf3(p3.toString());
      Dimension dt = b.addDimension("time", 24);
      Dimension dl = b.addDimension("lat", 10);
      b.addVariable("time", DataType.DOUBLE, List.of(dt)).addAttribute(new Attribute("units", "hours since 2020-01-01 00:00:00"));
      b.addVariable("lat", DataType.FLOAT, List.of(dl)).addAttribute(new Attribute("units", "degrees_north"));
      b.addVariable("temp", DataType.FLOAT, List.of(dt, dl)).addAttribute(new Attribute("units", "K"))
          .addAttribute(new Attribute("long_name", "air temperature")).addAttribute(new Attribute("_FillValue", -9999f));
      b.addVariable("count", DataType.INT, List.of(dt));
      b.addVariable("station", DataType.INT, List.of()); // NetCDF-3 has no int64
      b.addAttribute(new Attribute("title", "benchmark file " + i));
      try (NetcdfFormatWriter nw = b.build()) {
        nw.write("time", Array.factory(DataType.DOUBLE, new int[] {24}, time));
        nw.write("lat", Array.factory(DataType.FLOAT, new int[] {10}, lat));
        nw.write("temp", Array.factory(DataType.FLOAT, new int[] {24, 10}, temp));
        nw.write("count", Array.factory(DataType.INT, new int[] {24}, count));
        nw.write("station", Array.factory(DataType.INT, new int[0], new int[] {i}));
      }
      convert.add(new Path[] {p3, p4});
    }
    if (!convert.isEmpty() && !onPath("nccopy")) {
      toNetcdf4WithPython(dir, convert);
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> fs = new ArrayList<>();
    for (Path[] c : convert) {
      fs.add(pool.submit(() -> {
        Process p = new ProcessBuilder("nccopy", "-k", "nc4", c[0].toString(), c[1].toString()).inheritIO().start();
        if (p.waitFor() != 0) {
          throw new IOException("nccopy failed for " + c[0]);
        }
        return null;
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
  }

  private static boolean onPath(String exe) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Paths.get(d, exe))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Without {@code nccopy}: NetCDF-3 → NetCDF-4 (classic data model, no compression, as {@code nccopy -k nc4})
   * by netCDF4-python (Debian's python3-netcdf4, the same netCDF-C library) in one process for all files.
   */
  static void toNetcdf4WithPython(Path dir, List<Path[]> convert) throws Exception {
    Path list = dir.resolve("convert.txt");
    StringBuilder sb = new StringBuilder();
    for (Path[] c : convert) {
      sb.append(c[0]).append('\t').append(c[1]).append('\n');
    }
    Files.writeString(list, sb);
    String script = String.join("\n",
        "import sys, os, netCDF4",
        "for line in open(sys.argv[1]):",
        "    src, dst = line.rstrip('\\n').split('\\t')",
        "    tmp = dst + '.tmp'",
        "    with netCDF4.Dataset(src) as i, netCDF4.Dataset(tmp, 'w', format='NETCDF4') as o:",
        "        o.setncatts({a: i.getncattr(a) for a in i.ncattrs()})",
        "        for d in i.dimensions.values():",
        "            o.createDimension(d.name, None if d.isunlimited() else len(d))",
        "        for v in i.variables.values():",
        "            fill = v.getncattr('_FillValue') if '_FillValue' in v.ncattrs() else None",
        "            w = o.createVariable(v.name, v.dtype, v.dimensions, fill_value=fill)",
        "            w.setncatts({a: v.getncattr(a) for a in v.ncattrs() if a != '_FillValue'})",
        "            v.set_auto_maskandscale(False); w.set_auto_maskandscale(False)",
        "            w[...] = v[...]",
        "    os.replace(tmp, dst)",
        "");
    Path py = dir.resolve("to_nc4.py");
    Files.writeString(py, script);
    String exe = Files.isExecutable(Paths.get("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    Process p = new ProcessBuilder(exe, py.toString(), list.toString()).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException("netCDF4-python conversion failed (needs nccopy or Debian's python3-netcdf4)");
    }
  }

  /** One large float64 variable: netcdf-java read through DsIosp versus FileChannel reading the same bytes. */
  static void large(Path dir, int mb, int rounds) throws Exception {
    long n = (long) mb * (1 << 20) / 8;
    int rows = (int) (n / 1_000_000L);
    long[] shape = {rows, 1000, 1000};
    Path p = dir.resolve("large_" + mb + "MB.ds");
    long bodyStart;
    if (!Files.exists(p)) {
      String header = "ds-1.0\n{\"x\": {\".dims\": [\"a\", \"b\", \"c\"], \".size\": [" + rows + ", 1000, 1000], "
          + "\".offset\": 0, \".len\": " + (8L * rows * 1_000_000) + ", \".type\": \"float64\", \".missing\": false, "
          + "\".endian\": \"l\"}, \".\": {}}\n";
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(header.getBytes(StandardCharsets.US_ASCII)));
        ByteBuffer row = ByteBuffer.allocate(8_000_000).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
          row.clear();
          for (int k = 0; k < 1_000_000; k++) {
            row.putDouble(r + k * 1e-6);
          }
          row.flip();
          while (row.hasRemaining()) {
            ch.write(row);
          }
        }
      }
    }
    try (FileChannel ch = FileChannel.open(p)) {
      ByteBuffer head = ByteBuffer.allocate(4096);
      ch.read(head, 0);
      String h = new String(head.array(), StandardCharsets.US_ASCII);
      bodyStart = h.indexOf('\n', h.indexOf('\n') + 1) + 1;
    }
    long bytes = 8L * rows * 1_000_000;
    double[] tj = new double[rounds];
    double[] tc = new double[rounds];
    ByteBuffer buf = ByteBuffer.allocate((int) bytes);
    for (int r = -1; r < rounds; r++) { // round -1 warms up
      long t0 = System.nanoTime();
      double check;
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        Variable v = nc.findVariable("x");
        Array a = v.read();
        check = a.getDouble((int) (a.getSize() - 1));
      }
      long t1 = System.nanoTime();
      try (FileChannel ch = FileChannel.open(p)) {
        buf.clear();
        long at = bodyStart;
        while (buf.hasRemaining()) {
          int k = ch.read(buf, at);
          if (k < 0) {
            throw new IOException("short file");
          }
          at += k;
        }
      }
      long t2 = System.nanoTime();
      if (check != buf.order(ByteOrder.LITTLE_ENDIAN).getDouble((int) bytes - 8)) {
        throw new IllegalStateException("values differ");
      }
      if (r >= 0) {
        tj[r] = (t1 - t0) / 1e9;
        tc[r] = (t2 - t1) / 1e9;
      }
    }
    double mj = median(tj);
    double mc = median(tc);
    System.out.printf("large float64 %s (%d MB): netcdf-java+DsIosp median %.3f s (%.0f MB/s), FileChannel median %.3f s "
        + "(%.0f MB/s), ratio %.2f%n", Arrays.toString(shape), bytes >> 20, mj, bytes / 1e6 / mj, mc, bytes / 1e6 / mc, mj / mc);
  }

  /**
   * An IOSP that claims files named {@code *.nul} and builds an empty dataset: what {@code NetcdfFiles.open} +
   * {@code close} cost with no format work at all (finding a RandomAccessFile provider, opening the file, asking
   * the registered IOSPs, building the NetcdfFile). Every format pays this; it bounds any achievable ratio.
   */
  public static final class NullIosp extends ucar.nc2.iosp.AbstractIOServiceProvider {
    @Override
    public boolean isValidFile(ucar.unidata.io.RandomAccessFile raf) {
      return raf.getLocation().endsWith(".nul");
    }

    @Override
    public boolean isBuilder() {
      return true;
    }

    @Override
    public void build(ucar.unidata.io.RandomAccessFile raf, ucar.nc2.Group.Builder root, ucar.nc2.util.CancelTask c) {
      this.raf = raf; // closed by close()
    }

    @Override
    public Array readData(Variable v, ucar.ma2.Section s) throws IOException {
      throw new IOException("no variables");
    }

    @Override
    public String getFileTypeId() {
      return "null";
    }

    @Override
    public String getFileTypeDescription() {
      return "benchmark floor";
    }
  }

  /** The values of a Java array of numbers as little-endian bytes. */
  static byte[] le(Object javaArray) {
    return CdmArrays.littleEndian(Array.makeFromJavaArray(javaArray));
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  static double[] round3(double[] v) {
    double[] o = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      o[i] = Math.round(v[i] * 1000) / 1000.0;
    }
    return o;
  }
}
