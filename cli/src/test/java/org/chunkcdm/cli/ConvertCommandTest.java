package org.chunkcdm.cli;

import static org.chunkcdm.cli.CliRuns.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.chunkcdm.cli.CliRuns.Result;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * {@code chunkcdm convert}: every fixture dataset to .ncs (read back by netcdf-java's NcStreamIosp for variables
 * up to 1 MB) and to NetCDF-3 classic and 64-bit offset (read back by netcdf-java, every variable NetCDF-3 holds,
 * with the documented mapping; the others refused by name); overwrite protection, format selection, progress
 * display, and no file left behind on failure or on SIGTERM/SIGINT.
 */
class ConvertCommandTest {
  static final Set<String> DATASET_KINDS = Set.of("bcolz-carray", "bcolz-ctable", "bloscpack-bytes", "bloscpack-ndarray",
      "sframe", "cframe", "b2nd-sframe", "b2nd-cframe", "ds", "blosc2-store", "blosc2-ctable");

  static Stream<Arguments> datasets() {
    List<Arguments> out = new ArrayList<>();
    for (String fam : new String[] {"bcolz", "bloscpack", "blosc2", "ds", "blosc2-stores"}) {
      for (Fixtures.Dataset d : Fixtures.manifest(fam).datasets()) {
        if (DATASET_KINDS.contains(d.kind())) {
          out.add(Arguments.of(fam + "/" + d.path(), d.file()));
        }
      }
    }
    return out.stream();
  }

  static List<Variable> vars(NetcdfFile nc) {
    return nc.getVariables().stream().filter(v -> v.getParentStructure() == null).collect(Collectors.toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void toNcstream(String name, Path p, @TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("x.ncs");
    Result r = run("convert", p.toString(), out.toString());
    assertEquals(0, r.rc(), r.err());
    assertEquals(1, r.out().lines().count(), r.out());
    assertEquals("", r.err(), "no progress display when not on a terminal");
    assertTrue(r.out().contains(" -> ") && r.out().contains("ncs"), r.out());
    try (NetcdfFile src = NetcdfFiles.open(p.toString()); NetcdfFile back = NetcdfFiles.open(out.toString())) {
      assertEquals("ncstream", back.getFileTypeId());
      assertEquals(vars(src).size(), vars(back).size());
      for (Variable v : vars(src)) {
        String full = NetcdfFiles.makeFullName(v);
        Variable b = back.findVariable(full);
        assertNotNull(b, name + ": " + full);
        assertEquals(v.getDataType(), b.getDataType(), name + ": " + full);
        assertEquals(List.of(v.getDimensionsString()), List.of(b.getDimensionsString()), name + ": " + full);
        if (v.getSize() > 0 && !v.getDataType().isString() && v.getSize() * v.getElementSize() <= 1_000_000
            && full.indexOf('\\') < 0) {
          NetcdfChecks.assertSameArray(v.read(), b.read(), name + ": " + full + " via NcStreamIosp");
        }
      }
    }
    // the whole file through chunkcdm's own ncstream reader: every variable, whole and in strided sections
    try (NetcdfFile src = NetcdfFiles.open(p.toString());
        NetcdfFile back = org.chunkcdm.ncstream.iosp.NcStreamFileIosp.open(out.toString())) {
      java.util.Random rnd = new java.util.Random(name.hashCode());
      for (Variable v : vars(src)) {
        String full = NetcdfFiles.makeFullName(v);
        Variable b = back.findVariable(full);
        assertNotNull(b, name + ": " + full + " via chunkcdm's reader");
        if (v.getDataType() == DataType.STRUCTURE) {
          continue; // the record structure's members are compared as variables of their own below
        }
        NetcdfChecks.assertSameArray(v.read(), b.read(), name + ": " + full + " whole via chunkcdm's reader");
        for (int k = 0; k < 4 && v.getSize() > 0; k++) {
          ucar.ma2.Section s = stridedSection(v.getShape(), rnd);
          NetcdfChecks.assertSameArray(v.read(s), b.read(s), name + ": " + full + " " + s + " via chunkcdm's reader");
        }
      }
    }
  }

  /** A random section with strides 1..3 in every dimension. */
  static ucar.ma2.Section stridedSection(int[] shape, java.util.Random r) throws Exception {
    List<ucar.ma2.Range> ranges = new ArrayList<>();
    for (int len : shape) {
      int first = r.nextInt(len);
      int last = first + r.nextInt(len - first);
      ranges.add(new ucar.ma2.Range(first, last, 1 + r.nextInt(3)));
    }
    return new ucar.ma2.Section(ranges);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void toNetcdf3(String name, Path p, @TempDir Path tmp) throws Exception {
    List<String> refused = new ArrayList<>();
    List<String> held = new ArrayList<>();
    try (NetcdfFile src = NetcdfFiles.open(p.toString())) {
      for (Variable v : vars(src)) {
        DataType t = v.getDataType();
        boolean ok = (t.isNumeric() && t != DataType.LONG && t != DataType.ULONG || t == DataType.CHAR || t == DataType.STRING)
            && v.getParentGroup().isRoot()
            && ucar.nc2.iosp.netcdf3.N3iosp.isValidNetcdf3ObjectName(v.getShortName())
            && v.getDimensions().stream().allMatch(d -> ucar.nc2.iosp.netcdf3.N3iosp.isValidNetcdf3ObjectName(d.getShortName()))
            && v.getDimensions().stream().skip(1).allMatch(d -> d.getLength() > 0);
        (ok ? held : refused).add(v.getFullName());
      }
    }
    String fmt = name.hashCode() % 2 == 0 ? "nc3" : "nc3-64";
    Path out = tmp.resolve("x.nc");
    if (!refused.isEmpty()) {
      Result r = run("convert", "--format", fmt, p.toString(), out.toString());
      assertEquals(1, r.rc(), name + ": refused " + refused + " " + r.out());
      for (String v : refused) {
        assertTrue(r.err().contains(v + " ("), name + ": the error names " + v + ": " + r.err());
      }
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertEquals(List.of(), listDir(tmp), "nothing left behind");
      if (held.isEmpty()) {
        return;
      }
    }
    List<String> args = new ArrayList<>(List.of("convert", "--format", fmt, p.toString(), out.toString()));
    if (!refused.isEmpty()) {
      args.add("-v");
      args.add(String.join(",", held));
    }
    Result r = run(args.toArray(new String[0]));
    assertEquals(0, r.rc(), name + ": " + r.err());
    try (NetcdfFile src = NetcdfFiles.open(p.toString()); NetcdfFile back = NetcdfFiles.open(out.toString())) {
      assertEquals(fmt.equals("nc3") ? "NetCDF" : "NetCDF", back.getFileTypeId());
      assertEquals(held.size(), vars(back).size());
      for (String n : held) {
        Variable v = src.findVariable(n);
        Variable b = back.findVariable(NetcdfFiles.makeFullName(v));
        assertNotNull(b, name + ": " + n);
        if (v.getDataType() == DataType.STRING) {
          assertEquals(DataType.CHAR, b.getDataType());
          assertSameStrings(v.read(), b.read(), name + ": " + n);
        } else if (v.getDataType().isUnsigned()) {
          // the documented mapping: the signed type of the same size plus _Unsigned = "true"
          assertEquals(v.getDataType().withSignedness(DataType.Signedness.SIGNED), b.getDataType(), name + ": " + n);
          assertEquals("true", b.findAttributeString("_Unsigned", null), name + ": " + n);
          Array got = b.read();
          NetcdfChecks.assertSameArray(v.read(), Array.factory(v.getDataType(), got.getShape(), got.getStorage()), name + ": " + n);
        } else {
          assertEquals(v.getDataType(), b.getDataType(), name + ": " + n + " type");
          NetcdfChecks.assertSameArray(v.read(), b.read(), name + ": " + n);
        }
        assertNull(b.findAttribute("_ChunkSizes"), name + ": " + n + ": NetCDF-3 is not chunked");
        for (Attribute a : v.attributes()) {
          if (a.getShortName().equals("_ChunkSizes")) {
            continue;
          }
          Attribute c = b.findAttribute(a.getShortName());
          assertNotNull(c, name + ": " + n + "@" + a.getShortName());
          if (a.isString()) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < a.getLength(); i++) {
              parts.add(a.getStringValue(i));
            }
            assertEquals(String.join("\n", parts), c.getStringValue(), name + ": " + n + "@" + a.getShortName());
          } else {
            for (int i = 0; i < a.getLength(); i++) {
              assertEquals(a.getDataType().isUnsigned() ? ucar.ma2.DataType.widenNumberIfNegative(a.getNumericValue(i)).doubleValue()
                  : a.getNumericValue(i).doubleValue(), c.getNumericValue(i).doubleValue(), 0.0, name + ": " + n + "@" + a.getShortName());
            }
          }
        }
      }
    }
  }

  /** NetCDF-3 char rows hold the strings' UTF-8 bytes. */
  static void assertSameStrings(Array strings, Array chars, String what) {
    int len = chars.getShape()[chars.getRank() - 1];
    IndexIterator it = strings.getIndexIterator();
    char[] c = (char[]) chars.get1DJavaArray(DataType.CHAR);
    for (int i = 0; it.hasNext(); i++) {
      String want = (String) it.getObjectNext();
      byte[] b = new byte[len];
      int n = 0;
      for (int j = 0; j < len; j++) {
        b[j] = (byte) c[i * len + j];
        if (b[j] != 0) {
          n = j + 1;
        }
      }
      assertEquals(want.replaceAll("\u0000+$", ""), new String(b, 0, n, StandardCharsets.UTF_8), what + " [" + i + "]");
    }
  }

  static List<Path> listDir(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().collect(Collectors.toList());
    }
  }

  static Path fixture(String fam, String path) {
    return Fixtures.family(fam).resolve(path);
  }

  @Test
  void existingOutputNeedsForce(@TempDir Path tmp) throws Exception {
    Path in = fixture("ds", "small.ds");
    Path out = tmp.resolve("x.ncs");
    Files.writeString(out, "precious");
    Result r = run("convert", in.toString(), out.toString());
    assertEquals(1, r.rc());
    assertTrue(r.err().contains("exists") && r.err().contains("--force"), r.err());
    assertEquals("precious", Files.readString(out));
    r = run("convert", "--force", in.toString(), out.toString());
    assertEquals(0, r.rc(), r.err());
    try (NetcdfFile back = NetcdfFiles.open(out.toString())) {
      assertEquals("ncstream", back.getFileTypeId());
    }
    assertEquals(List.of(out), listDir(tmp));
  }

  @Test
  void formatSelection(@TempDir Path tmp) throws Exception {
    Path in = fixture("ds", "nd_shared_dims.ds");
    Result r = run("convert", in.toString(), tmp.resolve("x.bin").toString());
    assertEquals(1, r.rc());
    assertTrue(r.err().contains("--format"), r.err());
    r = run("convert", "--format", "ncs", in.toString(), tmp.resolve("x.bin").toString());
    assertEquals(0, r.rc(), r.err());
    r = run("convert", "--format", "nc3-64", in.toString(), tmp.resolve("y.ncs").toString());
    assertEquals(0, r.rc(), r.err());
    try (NetcdfFile a = NetcdfFiles.open(tmp.resolve("x.bin").toString());
        NetcdfFile b = NetcdfFiles.open(tmp.resolve("y.ncs").toString())) {
      assertEquals("ncstream", a.getFileTypeId());
      assertEquals("NetCDF", b.getFileTypeId());
      assertTrue(b.getFileTypeVersion().contains("64") || b.getFileTypeDescription().toLowerCase().contains("64")
          || Files.readAllBytes(tmp.resolve("y.ncs"))[3] == 2, "64-bit offset format");
    }
    r = run("convert", "--format", "hdf5", in.toString(), tmp.resolve("z.nc").toString());
    assertEquals(1, r.rc());
    assertTrue(r.err().contains("unknown format"), r.err());
    r = run("convert", "--deflate", "5", in.toString(), tmp.resolve("z.nc").toString());
    assertEquals(1, r.rc());
    assertTrue(r.err().contains("--deflate"), r.err());
    r = run("convert", "-v", "nope", in.toString(), tmp.resolve("z.ncs").toString());
    assertEquals(1, r.rc());
    assertTrue(r.err().contains("'nope'"), r.err());
    assertFalse(Files.exists(tmp.resolve("z.ncs")));
    assertFalse(Files.exists(tmp.resolve("z.nc")));
  }

  @Test
  void deflateAndSubset(@TempDir Path tmp) throws Exception {
    Path in = fixture("ds", "large.ds");
    Path plain = tmp.resolve("plain.ncs");
    Path z = tmp.resolve("z.ncs");
    assertEquals(0, run("convert", in.toString(), plain.toString()).rc());
    Result r = run("convert", "--deflate", "6", in.toString(), z.toString());
    assertEquals(0, r.rc(), r.err());
    assertTrue(Files.size(z) < Files.size(plain) / 10, "ones compress: " + Files.size(z) + " vs " + Files.size(plain));
    Path sub = tmp.resolve("sub.nc");
    Path nd = fixture("ds", "nd_shared_dims.ds");
    try (NetcdfFile src = NetcdfFiles.open(nd.toString())) {
      String first = vars(src).stream().filter(v -> !v.getDataType().isUnsigned()).findFirst().get().getFullName();
      assertEquals(0, run("convert", "-v", first, nd.toString(), sub.toString()).rc());
      try (NetcdfFile back = NetcdfFiles.open(sub.toString())) {
        assertEquals(1, back.getVariables().size());
        NetcdfChecks.assertSameArray(src.findVariable(first).read(), back.getVariables().get(0).read(), first);
      }
    }
  }

  @Test
  void progressBarOnATerminal(@TempDir Path tmp) throws Exception {
    System.setProperty(ConvertCommand.PROGRESS_PROPERTY, "bar");
    try {
      Result r = run("convert", fixture("ds", "large.ds").toString(), tmp.resolve("x.ncs").toString());
      assertEquals(0, r.rc(), r.err());
      assertTrue(r.err().startsWith("\r["), r.err());
      String last = r.err().substring(r.err().lastIndexOf('\r') + 1);
      assertTrue(last.contains("100%") && last.contains("4.0 MB / 4.0 MB") && last.contains("/s") && last.contains("ETA"), last);
      assertEquals(1, r.out().lines().count(), r.out());
    } finally {
      System.clearProperty(ConvertCommand.PROGRESS_PROPERTY);
    }
  }

  @Test
  void readFailureLeavesNothing(@TempDir Path tmp) throws Exception {
    Path copy = TestFiles.copy(fixture("bcolz", "carray/clevel_float64_lz4_c1_byteshuf"), tmp.resolve("in.bcolz"));
    TestFiles.truncate(copy.resolve("data/__1.blp"), 20);
    Path outDir = Files.createDirectory(tmp.resolve("out"));
    for (String name : new String[] {"x.ncs", "x.nc"}) {
      Result r = run("convert", copy.toString(), outDir.resolve(name).toString());
      assertEquals(1, r.rc(), r.out());
      assertTrue(r.err().contains("__1.blp"), r.err());
      assertEquals(List.of(), listDir(outDir), name + ": nothing left behind");
    }
  }

  /** A carray of 1024 x 32768 float64 (256 MiB), 8 chunk files of one special-zeros Blosc2 chunk each. */
  static Path bigCarray(Path dir) throws IOException {
    int rows = 1024;
    int cols = 32768;
    int chunklen = 128;
    Files.createDirectories(dir.resolve("meta"));
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("meta/sizes"), "{\"shape\": [" + rows + ", " + cols + "], \"nbytes\": "
        + (long) rows * cols * 8 + ", \"cbytes\": 0}");
    Files.writeString(dir.resolve("meta/storage"), "{\"dtype\": \"float64\", \"cparams\": {\"clevel\": 5, \"shuffle\": 1,"
        + " \"cname\": \"lz4\", \"quantize\": 0}, \"chunklen\": " + chunklen + ", \"expectedlen\": " + rows + ", \"dflt\": 0.0}");
    int chunkBytes = chunklen * cols * 8;
    byte[] f = new byte[48];
    f[0] = 'b';
    f[1] = 'l';
    f[2] = 'p';
    f[3] = 'k';
    f[4] = 1;
    f[8] = 1;
    f[16] = 5;
    f[17] = 1;
    f[18] = 0x05;
    f[19] = 8;
    for (int i = 0; i < 4; i++) {
      f[20 + i] = (byte) (chunkBytes >>> (8 * i));
      f[24 + i] = (byte) (chunkBytes >>> (8 * i));
      f[28 + i] = (byte) (32 >>> (8 * i));
    }
    f[47] = 0x10; // special zeros
    for (int i = 0; i < rows / chunklen; i++) {
      Files.write(dir.resolve("data/__" + i + ".blp"), f);
    }
    return dir;
  }

  /** SIGTERM and SIGINT (Ctrl-C) during a conversion: the temporary file is removed, OUT never appears. */
  @Test
  void interruptLeavesNothing(@TempDir Path tmp) throws Exception {
    Path in = bigCarray(tmp.resolve("big.bcolz"));
    for (String sig : new String[] {"TERM", "INT"}) {
      Path outDir = Files.createDirectories(tmp.resolve("out-" + sig));
      Path out = outDir.resolve("x.ncs");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // 50 ms after each 4 MiB message: the conversion takes about 3 s
      Process p = new ProcessBuilder(java, "-Xmx256m", "-Dchunkcdm.test.pauseMillis=50", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
          "convert", in.toString(), out.toString()).redirectErrorStream(true).start();
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (listDir(outDir).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertTrue(p.isAlive(), "still converting when signalled");
        Thread.sleep(300);
        assertEquals(1, listDir(outDir).size());
        assertTrue(listDir(outDir).get(0).getFileName().toString().endsWith(".part"), "a temporary file while converting");
        assertTrue(p.isAlive(), "still converting when signalled");
        assertEquals(0, new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).start().waitFor());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exits after SIG" + sig);
        assertTrue(p.exitValue() != 0, "SIG" + sig + " ends the conversion");
      } finally {
        p.destroyForcibly();
      }
      assertEquals(List.of(), listDir(outDir), "SIG" + sig + ": nothing left behind");
    }
  }
}
