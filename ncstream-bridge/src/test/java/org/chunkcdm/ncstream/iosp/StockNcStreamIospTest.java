package org.chunkcdm.ncstream.iosp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.chunkcdm.ncstream.NcStreamOut;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamWriter;

/**
 * chunkcdm's {@code .ncs} files read by stock netcdf-java: every plain-numeric fixture (those of
 * {@link NcStreamIospContractTest}, {@code ds/names.ds} with {@code .hidden} among them) and an in-memory dataset of
 * names with dots and backslashes (also in nested groups, every variable larger than the 100 bytes netcdf-java's
 * own writer would put in the header) are written with {@link NcStreamOut} and opened in a child JVM whose class
 * path is netcdf-java and its dependencies only ({@link StockNcsProbe}); every variable must be read by
 * {@code ucar.nc2.stream.NcStreamIosp} with the fixture's expected values. Variables of zero elements or of more
 * than one data message (over 1 MiB) are the exception: netcdf-java 5.5.3 reads those wrong from its own
 * {@code NcStreamWriter}'s file too, which the test checks, so that it notices when that changes.
 */
class StockNcStreamIospTest {
  @TempDir
  Path dir;

  /** Names netcdf-java escapes in full names ({@code NetcdfFiles.reservedFullName}: dot and backslash). */
  static final String[] EXOTIC = {"..two", ".dot", "\\back", "a.b", "a\\.b", "end.", "plain"};

  /** One expected variable: the .ncs file, its groups and name (slash-separated), CDM type and little-endian values. */
  record Want(Path file, String path, DataType type, byte[] raw) {}

  @Test
  void stockNetcdfJavaReadsEveryVariableOfChunkcdmsNcs() throws Exception {
    List<Want> wants = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    Map<Path, Path> sourceOf = new LinkedHashMap<>();
    for (String family : List.of("bcolz", "bloscpack", "blosc2", "ds")) {
      for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
        List<Expected> vars = NcStreamIospContractTest.plain(d);
        if (vars == null) {
          continue;
        }
        Path ncs = dir.resolve(family + "-" + d.path().replaceAll("[^A-Za-z0-9_.-]", "_") + ".ncs");
        try (NetcdfFile src = NetcdfFiles.open(d.file().toString()); OutputStream os = Files.newOutputStream(ncs)) {
          new NcStreamOut(os).writeAll(src, null, null);
        }
        files.add(ncs);
        sourceOf.put(ncs, d.file());
        for (Expected e : vars) {
          wants.add(new Want(ncs, e.cdmName(), e.type(), e.raw()));
        }
      }
    }
    Path exotic = dir.resolve("exotic-names.ncs");
    try (NetcdfFile src = exoticNames(wants, exotic); OutputStream os = Files.newOutputStream(exotic)) {
      new NcStreamOut(os).writeAll(src, "exotic-names.ncs", null);
    }
    files.add(exotic);

    // netcdf-java 5.5.3 reads no variable of zero elements from an .ncs file, and of a variable in several data
    // messages (more than 1 MiB) only the first: shown on its own NcStreamWriter's output of the same dataset
    List<Want> beyond = new ArrayList<>();
    List<Want> netcdfJavas = new ArrayList<>();
    for (Want w : wants) {
      if (w.raw().length == 0 || w.raw().length > NcStreamOut.DEFAULT_MESSAGE_BYTES) {
        beyond.add(w);
        Path nj = dir.resolve("netcdf-java-" + w.file().getFileName());
        if (!files.contains(nj)) {
          try (NetcdfFile src = NetcdfFiles.open(sourceOf.get(w.file()).toString());
              OutputStream os = Files.newOutputStream(nj)) {
            new NcStreamWriter(src, null).streamAll(os);
          }
          files.add(nj);
        }
        netcdfJavas.add(new Want(nj, w.path(), w.type(), w.raw()));
      }
    }
    wants.removeAll(beyond);
    assertTrue(wants.stream().anyMatch(w -> w.path().equals(".hidden")), "ds/names.ds's .hidden is tested");
    assertTrue(wants.size() > 100 && beyond.size() < 10, wants.size() + " variables tested, " + beyond.size() + " not");

    Map<String, String> got = new LinkedHashMap<>();
    List<String> lines = runStock(files);
    assertTrue(lines.contains("CHUNKCDM absent"), "the child JVM must not see chunkcdm:\n" + String.join("\n", lines));
    int opened = 0;
    for (String line : lines) {
      String[] f = line.split("\t");
      if (f[0].equals("FILE")) {
        assertEquals("ucar.nc2.stream.NcStreamIosp", f[2], line);
        opened++;
      } else if (f[0].equals("VAR")) {
        got.put(f[1] + "\t" + URLDecoder.decode(f[2], StandardCharsets.UTF_8), f[3] + "\t" + f[4] + "\t" + f[5]);
      } else if (f[0].equals("FAIL")) {
        got.put(f[1] + "\t" + URLDecoder.decode(f[2], StandardCharsets.UTF_8), "FAIL " + f[3]);
      }
    }
    assertEquals(files.size(), opened, String.join("\n", lines));
    for (Want w : wants) {
      assertEquals(expected(w), got.get(key(w)), key(w));
    }
    for (Want w : netcdfJavas) {
      assertTrue(got.containsKey(key(w)) && !expected(w).equals(got.get(key(w))),
          key(w) + ": stock netcdf-java now reads it from its own writer's file; test chunkcdm's too");
    }
  }

  static String key(Want w) {
    return w.file() + "\t" + w.path();
  }

  /** What the probe prints for a variable read with the expected values. */
  static String expected(Want w) {
    long n = w.raw().length / Math.max(1, w.type().getSize());
    return w.type() + "\t" + n + "\t" + Long.toHexString(crc(w.raw()));
  }

  static long crc(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b);
    return c.getValue();
  }

  /**
   * An in-memory dataset: each name of {@link #EXOTIC} as an int variable of 50 values in the root, and as a
   * double variable of 40 values in group {@code g.1/in\ner}; adds what each must read back to {@code wants}.
   */
  static NetcdfFile exoticNames(List<Want> wants, Path ncs) {
    Group.Builder root = Group.builder().setName("");
    root.addDimension(Dimension.builder("n", 50).build());
    Group.Builder g1 = Group.builder().setName("g.1");
    Group.Builder inner = Group.builder().setName("in\\ner");
    inner.addDimension(Dimension.builder("m", 40).build());
    for (int k = 0; k < EXOTIC.length; k++) {
      String name = EXOTIC[k];
      int[] ints = new int[50];
      ByteBuffer le = ByteBuffer.allocate(200).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < ints.length; i++) {
        ints[i] = 1000 * k - 7 * i;
        le.putInt(ints[i]);
      }
      root.addVariable(Variable.builder().setName(name).setDataType(DataType.INT).setParentGroupBuilder(root)
          .setDimensionsByName("n").setCachedData(Array.factory(DataType.INT, new int[] {50}, ints), false));
      wants.add(new Want(ncs, name, DataType.INT, le.array()));

      double[] ds = new double[40];
      ByteBuffer le2 = ByteBuffer.allocate(320).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < ds.length; i++) {
        ds[i] = k + i / 8.0;
        le2.putLong(Double.doubleToRawLongBits(ds[i]));
      }
      inner.addVariable(Variable.builder().setName(name).setDataType(DataType.DOUBLE).setParentGroupBuilder(inner)
          .setDimensionsByName("m").setCachedData(Array.factory(DataType.DOUBLE, new int[] {40}, ds), false));
      wants.add(new Want(ncs, "g.1/in\\ner/" + name, DataType.DOUBLE, le2.array()));
    }
    g1.addGroup(inner);
    root.addGroup(g1);
    return NetcdfFile.builder().setRootGroup(root).setLocation("exotic-names").build();
  }

  /**
   * Runs {@link StockNcsProbe} on {@code files} in a JVM of this JDK whose class path is the probe's class alone
   * plus the test class path's jars that are neither chunkcdm's nor test tools (netcdf-java and its dependencies).
   */
  static List<String> runStock(List<Path> files) throws Exception {
    Path probeDir = Files.createTempDirectory("chunkcdm-stock-probe");
    try {
      String cls = StockNcsProbe.class.getName().replace('.', '/') + ".class";
      Path to = probeDir.resolve(cls);
      Files.createDirectories(to.getParent());
      try (InputStream in = StockNcsProbe.class.getClassLoader().getResourceAsStream(cls)) {
        Files.copy(in, to);
      }
      List<String> cp = new ArrayList<>();
      cp.add(probeDir.toString());
      for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
        String n = e.replace('\\', '/');
        if (n.endsWith(".jar") && !n.contains("/chunkcdm") && !n.contains("/org/chunkcdm/") && !n.contains("jackson")
            && !n.contains("aircompressor") && !n.contains("msgpack") && !n.contains("/jna") && !n.contains("junit")
            && !n.contains("opentest4j") && !n.contains("apiguardian") && !n.contains("zstd")) {
          cp.add(e);
        }
      }
      List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", String.join(File.pathSeparator, cp), StockNcsProbe.class.getName()));
      for (Path f : files) {
        cmd.add(f.toString());
      }
      Path out = probeDir.resolve("out.txt");
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the stock netcdf-java JVM did not finish in 120 s");
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      assertEquals(0, p.exitValue(), String.join("\n", lines));
      return lines;
    } finally {
      deleteTree(probeDir);
    }
  }

  static void deleteTree(Path p) throws IOException {
    try (var s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(q);
      }
    }
  }
}
