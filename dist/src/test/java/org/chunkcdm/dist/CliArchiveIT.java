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
  static final List<String> TOOLS = List.of("sed", "ls", "dirname", "cut", "mkdir", "mv", "rm");

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
    // a one-shot command runs without the Vector API module (its kernels would still be unoptimised when it ends)
    assertTrue(lines.get(2).contains("scalar unshuffle (no jdk.incubator.vector)"), "the launcher leaves the module out: "
        + lines.get(2));
    if (DistJarIT.nativeRequired()) { // c-blosc loads: without the Vector API 'auto' decodes Blosc1 chunks with it
      assertTrue(lines.get(2).startsWith("Blosc: native c-blosc 1.") && lines.get(2).contains("for Blosc1 chunks"),
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

  /**
   * The first command makes the class-data archive of this Java runtime in cds/ (a training run), the next ones use
   * it; none of them prints anything more than without it, and CHUNKCDM_CDS=off runs without it.
   */
  @Test
  void classDataArchiveMadeOnFirstRunAndQuiet() throws Exception {
    String runtime = Files.readAllLines(Paths.get(System.getProperty("java.home"), "release")).stream()
        .filter(l -> l.startsWith("JAVA_RUNTIME_VERSION=")).findFirst().orElseThrow()
        .replaceAll("^JAVA_RUNTIME_VERSION=\"(.*)\"$", "$1").replaceAll("[^A-Za-z0-9._+-]", "_");
    // Java 25 and later: an ahead-of-time cache (classes and method profiles); before: a static class-data archive
    Path jsa = home.resolve("cds/chunkcdm-" + runtime + (Runtime.version().feature() >= 25 ? ".aot" : ".jsa"));
    Run off = run(javaPath(), Map.of("CHUNKCDM_CDS", "off"), "--version");
    assertEquals(0, off.rc(), off.err());
    Run first = run(javaPath(), Map.of(), "--version");
    assertTrue(Files.size(jsa) > 1 << 20, jsa + " made by the first run");
    Run second = run(javaPath(), Map.of(), "--version");
    for (Run r : List.of(off, first, second)) {
      assertEquals(0, r.rc(), r.err());
      assertEquals("", r.err());
      assertEquals(off.out(), r.out());
    }
    // and the JVM maps it: chunkcdm's classes come from the archive, not from the jars; on Java 17 picocli's Java 5
    // class files too (later runtimes leave such classes out of a static archive)
    Path log = tmp.resolve("class-load.txt");
    Run logged = run(javaPath(), Map.of("CHUNKCDM_JAVA_OPTS", "-Xlog:class+load:file=" + log), "--version");
    assertEquals(0, logged.rc(), logged.err());
    String loaded = Files.readString(log);
    List<String> archived = Runtime.version().feature() == 17 ? List.of("org.chunkcdm.cli.Main", "picocli.CommandLine")
        : List.of("org.chunkcdm.cli.Main");
    for (String c : archived) {
      assertTrue(loaded.lines().anyMatch(l -> l.contains(" " + c + " source: shared objects file")),
          c + " from the archive:\n" + loaded.lines().filter(l -> l.contains(c)).toList());
    }
    // the training ran convert too: a convert's ncstream writer and the bcolz reader come from the archive
    Path ctable = home.resolve("samples/ctable_small_zstd");
    assertTrue(Files.isDirectory(ctable), ctable + " in the archive");
    Path convLog = tmp.resolve("class-load-convert.txt");
    Run conv = run(javaPath(), Map.of("CHUNKCDM_JAVA_OPTS", "-Xlog:class+load:file=" + convLog), "convert",
        ctable.toString(), tmp.resolve("trained.ncs").toString());
    assertEquals(0, conv.rc(), conv.err());
    String convLoaded = Files.readString(convLog);
    for (String c : List.of("org.chunkcdm.ncstream.NcStreamOut", "org.chunkcdm.bcolz.CArray")) {
      assertTrue(convLoaded.lines().anyMatch(l -> l.contains(" " + c + " source: shared objects file")),
          c + " from the archive:\n" + convLoaded.lines().filter(l -> l.contains(c)).toList());
    }
    Path sample = home.resolve("samples/b2nd_3d_i2_cframe.b2nd");
    if (Files.isRegularFile(sample)) { // a training run's dataset: the archive holds the classes of a dump
      Run dump = run(javaPath(), Map.of(), "dump", "-H", sample.toString());
      assertEquals(0, dump.rc(), dump.err());
      assertEquals("", dump.err());
      assertTrue(dump.out().startsWith("netcdf b2nd_3d_i2_cframe.b2nd {"), dump.out());
    }
  }

  /**
   * The lines of {@code err} a person should see: all of them, except the JVM's notice of the Vector API
   * module while the launcher adds that module (whether it does is decided with the launcher's other options).
   */
  static List<String> userLines(String err) throws Exception {
    boolean addsModule = Files.readString(home.resolve("bin/chunkcdm")).contains("--add-modules jdk.incubator.vector");
    return err.lines().filter(l -> !(addsModule && l.equals("WARNING: Using incubator modules: jdk.incubator.vector"))).toList();
  }

  static Path sample(String name) {
    return Paths.get(System.getProperty("chunkcdm.root", ".."), "samples", name).toAbsolutePath();
  }

  /** Every command prints what was asked and nothing else: no JVM or library warning, no escape codes. */
  @Test
  void commandsPrintWhatWasAskedAndNothingElse() throws Exception {
    Fixtures.Dataset chunk = Fixtures.manifest("blosc2").datasets("chunk-blosc1").get(0);
    Path ncs = tmp.resolve("quiet.ncs");
    Path ncs2 = tmp.resolve("quiet-b2nd.ncs");
    List<List<String>> cases = List.of(List.of("--version"), List.of("--help"), List.of("serve", "--help"),
        List.of("dump", "-H", sample("nd_shared_dims.ds").toString()),
        List.of("dump", sample("b2nd_3d_i2_cframe.b2nd").toString()),
        List.of("dump", sample("multidim_float32_100x3x4.blp").toString()),
        List.of("convert", sample("nd_shared_dims.ds").toString(), ncs.toString()),
        List.of("convert", sample("b2nd_3d_i2_cframe.b2nd").toString(), ncs2.toString()),
        List.of("dump", "-H", ncs2.toString()),
        List.of("blosc", "info", chunk.file().toString()),
        List.of("blosc", "decompress", chunk.file().toString(), tmp.resolve("quiet.bin").toString()));
    for (List<String> args : cases) {
      Run r = run(javaPath(), Map.of(), args.toArray(new String[0]));
      String what = String.join(" ", args) + " (Java " + Runtime.version().feature() + ")";
      assertEquals(0, r.rc(), what + ": " + r.err());
      assertEquals(List.of(), userLines(r.err()), what);
      assertEquals(args.contains("decompress"), r.out().isBlank(), what + ": " + r.out()); // decompress writes a file
      assertFalse(r.out().contains("\u001b") || r.out().contains("WARNING"), what + ": " + r.out());
    }
    Files.delete(ncs);
    Files.delete(ncs2);
  }

  /** A started server says where it listens on stdout, nothing on stderr, and lists only datasets. */
  @Test
  void serveStartsQuietly() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("serve-root"));
    Files.copy(sample("nd_shared_dims.ds"), root.resolve("a.ds"));
    Files.writeString(root.resolve("serve.log"), "not a dataset\n");
    List<String> cmd = List.of(home.resolve("bin/chunkcdm").toString(), "serve", "--port", "0", root.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
    pb.environment().clear();
    pb.environment().put("PATH", javaPath());
    pb.environment().put("HOME", tmp.toString());
    Path err = tmp.resolve("serve.err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    try {
      java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8));
      String first = out.readLine();
      assertTrue(first != null && first.startsWith("chunkcdm serve: " + root + " at http://127.0.0.1:"), first);
      String url = first.replaceAll("^.* at (http://[^ ]+/) .*$", "$1");
      java.net.HttpURLConnection c = (java.net.HttpURLConnection) new java.net.URL(url).openConnection();
      c.setRequestProperty("Accept", "application/json");
      String listing = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(listing.contains("\"a.ds\"") && !listing.contains("serve.log"), listing);
    } finally {
      p.destroy(); // SIGTERM: the shutdown hook stops the server
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
    }
    assertEquals(List.of(), userLines(Files.readString(err)), "serve's stderr");
  }

  /** A command line that must fail, and what its one line of stderr says. */
  record Bad(List<String> args, String... says) {}

  /**
   * Each bad input: exactly one line on stderr, exit 1, the file named, no Java class name or library wording.
   * {@code dump} of a ctable with one truncated chunk file also prints the rest of the CDL on stdout.
   */
  @Test
  void badInputIsOneLineOnStderr() throws Exception {
    Path text = tmp.resolve("notes.md");
    Files.writeString(text, "# notes\n");
    Path dir = Files.createDirectories(tmp.resolve("plain-dir"));
    Path empty = tmp.resolve("empty.ds");
    Files.write(empty, new byte[0]);
    Path ct = tmp.resolve("ctable_truncated");
    if (!Files.exists(ct)) {
      org.chunkcdm.testkit.TestFiles.copy(sample("ctable_small_zstd"), ct);
      org.chunkcdm.testkit.TestFiles.truncate(ct.resolve("b/data/__1.blp"), 20);
    }
    String ds = sample("nd_shared_dims.ds").toString();
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      String port = String.valueOf(taken.getLocalPort());
      List<Bad> cases = List.of(
          new Bad(List.of("dump", tmp.resolve("missing.ds").toString()), "missing.ds: no such file or directory"),
          new Bad(List.of("dump", text.toString()), "notes.md: not a dataset chunkcdm opens; it opens bcolz"),
          new Bad(List.of("dump", dir.toString()), "plain-dir: a directory that is not a dataset"),
          new Bad(List.of("dump", empty.toString()), "empty.ds: the file is empty"),
          new Bad(List.of("dump", "-v", "nope", ds), "no variable 'nope'; its variables: count, lat, lon"),
          new Bad(List.of("convert", "-v", "nope", ds, tmp.resolve("n.ncs").toString()), "no variable 'nope'; its variables"),
          new Bad(List.of("convert", text.toString(), tmp.resolve("n.ncs").toString()), "notes.md: not a dataset chunkcdm opens"),
          new Bad(List.of("dump", ct.toString()), "__1.blp: chunk 1 of b: ", "the CDL above lacks the values of b"),
          new Bad(List.of("convert", ct.toString(), tmp.resolve("n.ncs").toString()), "__1.blp: chunk 1 of b: "),
          new Bad(List.of("blosc", "info", dir.toString()), "plain-dir: a directory; give a file that holds one Blosc chunk"),
          new Bad(List.of("blosc", "info", text.toString()), "notes.md: Blosc chunk of 8 bytes is shorter than the 16-byte header"),
          new Bad(List.of("serve", tmp.resolve("no-root").toString()), "no-root: no such directory; give the directory"),
          new Bad(List.of("serve", text.toString()), "notes.md: not a directory; give the directory"),
          new Bad(List.of("serve", "--port", port, dir.toString()), "port " + port + " on 127.0.0.1 is already in use", "--port"),
          new Bad(List.of("dump"), "Missing required parameter: 'PATH'"),
          new Bad(List.of("frobnicate"), "Unmatched argument at index 0: 'frobnicate'"));
      for (Bad c : cases) {
        Run r = run(javaPath(), Map.of(), c.args().toArray(new String[0]));
        String what = String.join(" ", c.args()) + " (Java " + Runtime.version().feature() + "): " + r.err();
        List<String> lines = userLines(r.err());
        assertEquals(1, r.rc(), what);
        assertEquals(1, lines.size(), what);
        String line = lines.get(0);
        assertTrue(line.startsWith("chunkcdm: "), what);
        assertFalse(line.contains("Exception") || line.contains("java.") || line.contains("Cant read") || line.contains("ucar."),
            what);
        for (String part : c.says()) {
          assertTrue(line.contains(part), "'" + part + "' missing: " + what);
        }
        if (c.args().equals(List.of("dump", ct.toString()))) {
          assertTrue(r.out().startsWith("netcdf ctable_truncated {") && r.out().endsWith("}\n") && r.out().contains("    a = ")
              && !r.out().contains("    b = "), r.out());
        }
      }
    }
    assertFalse(Files.exists(tmp.resolve("n.ncs")));
  }

  @Test
  void zipHoldsTheSameFilesWithWindowsLauncher() throws Exception {
    Set<String> tarFiles = new TreeSet<>();
    try (var s = Files.walk(home)) { // less cds/, which the launcher writes on its first run
      s.filter(Files::isRegularFile).filter(f -> !home.relativize(f).startsWith("cds"))
          .forEach(f -> tarFiles.add("chunkcdm-" + VERSION + "/" + home.relativize(f).toString().replace('\\', '/')));
    }
    Set<String> zipFiles = new TreeSet<>();
    try (ZipFile z = new ZipFile(RELEASE.resolve("chunkcdm-" + VERSION + ".zip").toFile())) {
      z.stream().filter(e -> !e.isDirectory()).forEach(e -> zipFiles.add(e.getName()));
      assertEquals(tarFiles, zipFiles);
      ZipEntry bat = z.getEntry("chunkcdm-" + VERSION + "/bin/chunkcdm.bat");
      String text = new String(z.getInputStream(bat).readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(text.contains("\r\n") && !text.replace("\r\n", "").contains("\n"), "CRLF line ends");
      assertTrue(text.contains("\"%JAVA_EXE%\" --enable-native-access=ALL-UNNAMED %CHUNKCDM_JAVA_OPTS%")
          && !text.contains("--add-modules") && text.contains("org.chunkcdm.cli.Main") && text.contains("lib\\*") && text.contains("GEQ 17"), text);
    }
    // a one-shot command runs with its collector and compilation options, serve (a server) on the JVM's defaults
    Map<String, String> flags = Map.of("CHUNKCDM_JAVA_OPTS", "-XX:+PrintCommandLineFlags");
    Run oneShot = run(javaPath(), flags, "--version");
    assertEquals(0, oneShot.rc(), oneShot.err());
    assertTrue(oneShot.out().contains("-XX:+UseSerialGC") && oneShot.out().contains("-XX:CompileThresholdScaling=5")
        && oneShot.out().contains("-XX:-UsePerfData"), oneShot.out());
    Run serveHelp = run(javaPath(), flags, "serve", "--help");
    assertEquals(0, serveHelp.rc(), serveHelp.err());
    assertTrue(serveHelp.out().contains("Usage: chunkcdm serve") && !serveHelp.out().contains("UseSerialGC")
        && !serveHelp.out().contains("CompileThresholdScaling"), serveHelp.out());
    String sh = Files.readString(home.resolve("bin/chunkcdm"));
    assertFalse(sh.contains("\r"), "LF line ends in the sh launcher");
    assertTrue(sh.startsWith("#!/bin/sh\n"));
    // JNA loads c-blosc: Java 22 and later warn about restricted methods unless native access is enabled
    assertTrue(sh.contains("jvm_opts=\"--enable-native-access=ALL-UNNAMED\"") && !sh.contains("--add-modules"), sh);
  }
}
