package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NativeAccess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line user's recipe: the release's chunkcdm-VERSION.tar.gz unpacked into a temporary directory and
 * run by its bin/chunkcdm with only a Java runtime and a few POSIX tools on PATH (no Maven, no source tree); also
 * what it says when Java is missing or too old, and the .zip's contents.
 */
class CliArchiveIT {
  static final String VERSION = System.getProperty("chunkcdm.test.version");
  static final Path RELEASE = Paths.get("target", "release").toAbsolutePath();
  /** the tools the launcher uses (besides the shell it starts with) */
  static final List<String> TOOLS = List.of("sed", "ls", "dirname", "cut");

  @TempDir
  static Path tmp;
  static Path home;
  static Path tools;

  @BeforeAll
  static void unpack() throws Exception {
    Path tgz = RELEASE.resolve("chunkcdm-" + VERSION + ".tar.gz");
    assertTrue(Files.isRegularFile(tgz), tgz + " after mvn package");
    Process p = new ProcessBuilder("tar", "xzf", tgz.toString(), "-C", tmp.toString()).inheritIO().start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "tar xzf");
    home = tmp.resolve("chunkcdm-" + VERSION);
    tools = Files.createDirectories(tmp.resolve("tools"));
    for (String t : TOOLS) {
      Path where = null;
      for (String d : List.of("/bin", "/usr/bin")) {
        if (Files.isExecutable(Paths.get(d, t))) {
          where = Paths.get(d, t);
          break;
        }
      }
      assertTrue(where != null, t);
      Files.createSymbolicLink(tools.resolve(t), where);
    }
  }

  record Run(int rc, String out, String err) {}

  static Run run(String path, Map<String, String> extraEnv, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/chunkcdm").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", path);
    pb.environment().put("HOME", tmp.toString());
    pb.environment().putAll(extraEnv);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bin/chunkcdm timed out");
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** PATH = the JRE's bin and the tool links: no mvn anywhere on it */
  static String javaPath() {
    String path = Paths.get(System.getProperty("java.home"), "bin") + File.pathSeparator + tools;
    for (String d : path.split(File.pathSeparator)) {
      assertFalse(Files.exists(Paths.get(d, "mvn")), "mvn on " + d);
    }
    return path;
  }

  @Test
  void layout() throws Exception {
    assertTrue(Files.getPosixFilePermissions(home.resolve("bin/chunkcdm")).contains(PosixFilePermission.OWNER_EXECUTE));
    assertTrue(Files.isRegularFile(home.resolve("bin/chunkcdm.bat")));
    assertTrue(Files.readString(home.resolve("LICENSE")).contains("Redistribution and use in source and binary forms"));
    String third = Files.readString(home.resolve("THIRD-PARTY.txt"));
    Set<String> jars = new TreeSet<>();
    try (var s = Files.list(home.resolve("lib"))) {
      s.forEach(j -> jars.add(j.getFileName().toString()));
    }
    assertTrue(jars.contains("cdm-core-5.5.3.jar"), "netcdf-java in lib/: " + jars);
    assertTrue(jars.contains("chunkcdm-cli-" + VERSION + ".jar"), jars.toString());
    // every bundled third-party jar is in the generated notices, with its version and a license
    for (String j : jars) {
      if (j.startsWith("chunkcdm-")) {
        continue;
      }
      String base = j.substring(0, j.length() - 4);
      int dash = base.lastIndexOf('-');
      String artifact = base.substring(0, dash);
      String version = base.substring(dash + 1);
      if (base.startsWith("listenablefuture-")) {
        artifact = "listenablefuture";
        version = base.substring("listenablefuture-".length());
      } else if (!Character.isDigit(version.charAt(0))) { // guava-30.1-jre
        int d2 = base.lastIndexOf('-', dash - 1);
        artifact = base.substring(0, d2);
        version = base.substring(d2 + 1);
      }
      String needle = ":" + artifact + ":" + version + " ";
      String line = third.lines().filter(l -> l.contains(needle)).findFirst().orElse(null);
      assertTrue(line != null, j + " missing from THIRD-PARTY.txt:\n" + third);
      assertFalse(line.contains("Unknown license"), line);
    }
    assertFalse(third.contains("org.chunkcdm:"), "chunkcdm itself is not third-party");
  }

  @Test
  void runsWithOnlyAJavaRuntimeOnPath() throws Exception {
    Run v = run(javaPath(), Map.of(), "--version");
    assertEquals(0, v.rc(), v.err());
    List<String> lines = v.out().lines().toList();
    assertTrue(lines.get(0).matches("chunkcdm " + VERSION.replace(".", "\\.") + " \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)"),
        lines.get(0));
    assertEquals("netcdf-java 5.5.3", lines.get(1));
    assertTrue(lines.get(2).startsWith("Blosc: "), lines.get(2));
    assertTrue(lines.get(2).contains("SIMD unshuffle (jdk.incubator.vector)"), "the launcher adds the module: " + lines.get(2));
    if (DistJarIT.nativeRequired()) { // c-blosc loads, but with the Vector API 'auto' picks the faster pure Java
      assertTrue(lines.get(2).startsWith("Blosc: pure Java") && lines.get(2).contains("(auto: faster than native c-blosc 1."),
          lines.get(2));
    }
    // the launcher grants native access: on Java 22+ (Linux 6.5+ x86-64) large files are read with one copy
    boolean pread = NativeAccess.preadExpected();
    assertEquals(pread, lines.get(3).equals("File reads: one copy (pread from the page cache into the array)"), lines.get(3));
    assertTrue(pread || lines.get(3).startsWith("File reads: FileChannel (one-copy pread "), lines.get(3));
    assertEquals(NativeAccess.ffmExpected(), lines.get(4).equals("Raw copies: memmove in 128 KiB pieces"), lines.get(4));

    // real values: a Blosc1 chunk decoded by the archive's CLI equals the fixture's expected bytes
    Fixtures.Dataset d = Fixtures.manifest("blosc2").datasets("chunk-blosc1").get(0);
    Path out = tmp.resolve("chunk.bin");
    Run r = run(javaPath(), Map.of("CHUNKCDM_JAVA_OPTS", "-Dchunkcdm.blosc=java"), "blosc", "decompress",
        d.file().toString(), out.toString());
    assertEquals(0, r.rc(), r.err());
    byte[] expected = d.variables().get(0).expected();
    byte[] got = Files.readAllBytes(out);
    if (d.json().path("undefined_byte_ranges").size() == 0) {
      assertArrayEquals(expected, got);
    } else {
      assertEquals(expected.length, got.length);
    }

    Path sample = Paths.get(System.getProperty("chunkcdm.test.root", ".."), "samples", "nd_shared_dims.ds").toAbsolutePath();
    Run dump = run(javaPath(), Map.of(), "dump", "-H", sample.toString());
    assertEquals(0, dump.rc(), dump.err());
    assertTrue(dump.out().startsWith("netcdf nd_shared_dims.ds {") && dump.out().contains("time = 4;"), dump.out());

    Run bad = run(javaPath(), Map.of(), "dump", tmp.resolve("nope.ds").toString());
    assertEquals(1, bad.rc());
    assertTrue(bad.err().contains("nope.ds: no such file"), bad.err());
  }

  @Test
  void saysSoWhenJavaIsMissing() throws Exception {
    Run r = run(tools.toString(), Map.of(), "--version");
    assertEquals(1, r.rc());
    assertTrue(r.err().startsWith("chunkcdm: no Java found") && r.err().contains("Java 17 or newer"), r.err());

    Run h = run(tools.toString(), Map.of("JAVA_HOME", tmp.resolve("no-jdk").toString()), "--version");
    assertEquals(1, h.rc());
    assertTrue(h.err().contains("JAVA_HOME is set to") && h.err().contains("no bin/java"), h.err());
  }

  @Test
  void saysSoWhenJavaIsTooOld() throws Exception {
    for (String[] old : new String[][] {{"1.8.0_392", "java version \"1.8.0_392\""},
        {"11.0.21", "openjdk version \"11.0.21\" 2023-10-17"}}) {
      Path fake = Files.createDirectories(tmp.resolve("old-java-" + old[0] + "/bin"));
      Path java = fake.resolve("java");
      Files.writeString(java, "#!/bin/sh\necho '" + old[1] + "' >&2\necho 'OpenJDK Runtime Environment' >&2\nexit 0\n");
      java.toFile().setExecutable(true);
      Run r = run(fake + File.pathSeparator + tools, Map.of(), "--version");
      assertEquals(1, r.rc(), r.out() + r.err());
      assertTrue(r.err().contains("needs Java 17 or newer") && r.err().contains("Java " + old[0]), r.err());
      // the same through JAVA_HOME
      Run h = run(tools.toString(), Map.of("JAVA_HOME", fake.getParent().toString()), "--version");
      assertEquals(1, h.rc());
      assertTrue(h.err().contains("needs Java 17 or newer"), h.err());
    }
  }

  @Test
  void zipHoldsTheSameFilesWithWindowsLauncher() throws Exception {
    Set<String> tarFiles = new TreeSet<>();
    try (var s = Files.walk(home)) {
      s.filter(Files::isRegularFile).forEach(f -> tarFiles.add("chunkcdm-" + VERSION + "/" + home.relativize(f).toString().replace('\\', '/')));
    }
    Set<String> zipFiles = new TreeSet<>();
    try (ZipFile z = new ZipFile(RELEASE.resolve("chunkcdm-" + VERSION + ".zip").toFile())) {
      z.stream().filter(e -> !e.isDirectory()).forEach(e -> zipFiles.add(e.getName()));
      assertEquals(tarFiles, zipFiles);
      ZipEntry bat = z.getEntry("chunkcdm-" + VERSION + "/bin/chunkcdm.bat");
      String text = new String(z.getInputStream(bat).readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(text.contains("\r\n") && !text.replace("\r\n", "").contains("\n"), "CRLF line ends");
      assertTrue(text.contains("--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED")
          && text.contains("org.chunkcdm.cli.Main") && text.contains("lib\\*") && text.contains("GEQ 17"), text);
    }
    String sh = Files.readString(home.resolve("bin/chunkcdm"));
    assertFalse(sh.contains("\r"), "LF line ends in the sh launcher");
    assertTrue(sh.startsWith("#!/bin/sh\n"));
    // JNA loads c-blosc: Java 22 and later warn about restricted methods unless native access is enabled
    assertTrue(sh.contains("--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED"), sh);
  }
}
