package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every command the user documentation tells a user to type, run as written against the artifacts this build made.
 *
 * <p><b>Which blocks run.</b> A fenced block of README.md, docs/*.md or a module's README.md runs when the line
 * right above its opening fence is the HTML comment {@code <!-- doc-test: CONTEXT -->} (invisible in the rendered
 * page). CONTEXT says where the block runs, each time in a fresh temporary directory:
 * <ul>
 *   <li>{@code checkout}: a directory holding {@code chunkcdm} (a two-line script that runs the checkout's
 *       {@code ./chunkcdm} launcher, i.e. the CLI jar this build made) and a copy of {@code samples/}, as in the
 *       root of a clone;</li>
 *   <li>{@code archive}: a directory holding the release's {@code chunkcdm-VERSION.tar.gz} and {@code .zip}, as
 *       after a download;</li>
 *   <li>{@code imagej}: the block is an ImageJ macro, run by a real ImageJ 1.54p (ij.jar from Maven Central, as
 *       fiji-plugin's ImageJZipIT uses it) with the release's {@code chunkcdm-imagej-VERSION.zip} unzipped into its
 *       folder, under {@code xvfb-run}, in a directory holding a copy of {@code samples/}; the macro must run to
 *       its end (lines the test appends write the open images' titles to a file), the variable of every
 *       {@code run("Chunked Dataset (chunkcdm)...", ...)} line must be open as an image, and ImageJ must quit;</li>
 *   <li>{@code maven-consumer}: the netcdf-java programmer's pom fragment in README.md; ConsumerProjectIT builds a
 *       project from exactly that block (this class checks that there is one).</li>
 * </ul>
 * Each command of a shell block runs on its own ({@code bash -o pipefail -c}, lines ending in {@code \} joined),
 * in order, in the block's directory, with a timeout of {@value #TIMEOUT_S} s, and must exit 0. PATH holds this
 * JVM's {@code java} first (so {@code -Djvm=...} runs the documented commands on that JDK too) and a {@code mvn}
 * that fails: the commands must not need Maven. Failures name the file, the line and the command.
 *
 * <p>The CLI archive's README.txt (plain text, no markers) is checked too: its example lines on the bundled
 * samples ({@code   bin/chunkcdm ... samples/...}) run in the unpacked archive.
 *
 * <p><b>Three kinds of lines are not run as written:</b> {@code mvn ...} lines (the build that runs this test is
 * the build they describe; each must be one of {@link #BUILD_COMMANDS}); {@code ... serve ...} lines of the CLI,
 * which run until Ctrl-C: the server is started with a free port in place of the one written (or with
 * {@code --port} added), must answer {@code GET /} with 200, and is then stopped; and the version: the docs name
 * the artifacts of the default build ({@code 0.1.0-SNAPSHOT}), which a {@code -Prelease} build replaces with its
 * own version.
 *
 * <p><b>Blocks that stay unmarked</b> because no build can run them: TDS configuration ({@code threddsConfig.xml},
 * needs Tomcat and a THREDDS webapp), Fiji's GUI menus and Fiji's launcher, the Windows launcher under Wine
 * ({@code cli/src/wine/check-bat.sh} needs wine and mingw), benchmarks ({@code bench/}, minutes each, python-blosc2
 * and native libraries; never in {@code mvn verify}), Java snippets that are fragments of a program, and
 * transcripts that show a command's output.
 */
class DocsIT {
  static final long TIMEOUT_S = 180;
  /** the Maven commands the docs may show; they are what runs this test, so they are checked, not run */
  static final Set<String> BUILD_COMMANDS = Set.of("mvn -B verify", "mvn -B package", "mvn -B package -DskipTests",
      "mvn -B package -Prelease", "mvn -B verify -Prelease");
  static final Set<String> CONTEXTS = Set.of("checkout", "archive", "imagej", "maven-consumer");
  static final Path RELEASE = Paths.get("target", "release").toAbsolutePath();
  static final Pattern SERVE = Pattern.compile("(^|\\s)(\\./chunkcdm|\\S*bin/chunkcdm)\\s+serve(\\s|$)");
  static final Pattern PORT = Pattern.compile("--port[ =](\\d+)");
  /** the variable a macro's run("Chunked Dataset (chunkcdm)...", ...) opens */
  static final Pattern OPEN = Pattern.compile("run\\(\"Chunked Dataset \\(chunkcdm\\)\\.\\.\\.\", \"[^\"]*variable=\\[([^\\]]+)\\]");

  @Test
  void markersAreWellFormedAndEveryUserGroupHasRunnableBlocks() throws Exception {
    List<DocBlocks.Block> blocks = DocBlocks.all();
    for (DocBlocks.Block b : blocks) {
      assertTrue(CONTEXTS.contains(b.context()), b.where() + ": unknown doc-test context '" + b.context() + "', one of "
          + CONTEXTS);
      String want = switch (b.context()) {
        case "imagej" -> "ijm";
        case "maven-consumer" -> "xml";
        default -> "sh";
      };
      assertEquals(want, b.lang(), b.where() + ": a " + b.context() + " block is ```" + want);
    }
    for (String c : CONTEXTS) {
      assertTrue(blocks.stream().anyMatch(b -> b.context().equals(c)), "no documentation block marked " + c);
    }
    DocBlocks.mavenConsumer(); // exactly one
  }

  @TestFactory
  Stream<DynamicTest> shellBlocksRunAsWritten() throws Exception {
    List<DocBlocks.Block> blocks = DocBlocks.all().stream()
        .filter(b -> b.context().equals("checkout") || b.context().equals("archive")).toList();
    assertFalse(blocks.isEmpty());
    return blocks.stream().map(b -> DynamicTest.dynamicTest(b.where() + " [" + b.context() + "]", () -> runShell(b)));
  }

  @TestFactory
  Stream<DynamicTest> imagejMacroBlocksRunInRealImageJ() throws Exception {
    List<DocBlocks.Block> blocks = DocBlocks.all().stream().filter(b -> b.context().equals("imagej")).toList();
    assertFalse(blocks.isEmpty());
    return blocks.stream().map(b -> DynamicTest.dynamicTest(b.where() + " [imagej]", () -> runMacro(b)));
  }

  /** the CLI archive's own README.txt: its example lines on the bundled samples run in the unpacked archive */
  @Test
  void archiveReadmeExamplesRunInTheUnpackedArchive() throws Exception {
    Path dir = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "doc-test-txt-");
    try {
      Map<String, String> env = environment(dir);
      Path tgz = RELEASE.resolve("chunkcdm-" + DocBlocks.VERSION + ".tar.gz");
      run("tar xzf " + tgz, "tar xzf " + tgz, dir, env);
      Path home = dir.resolve("chunkcdm-" + DocBlocks.VERSION);
      List<String> lines = Files.readAllLines(home.resolve("README.txt"));
      int ran = 0;
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i);
        if (l.startsWith("  bin/chunkcdm ") && l.contains("samples/")) {
          run("README.txt:" + (i + 1) + ": " + l.strip(), l.strip(), home, env);
          ran++;
        }
      }
      assertTrue(ran > 0, "README.txt of the CLI archive shows no example on the samples");
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // shell blocks

  record Command(int line, String text) {}

  /** the block's commands: comment-only and blank lines dropped, backslash continuations joined */
  static List<Command> commands(DocBlocks.Block b) {
    List<Command> out = new ArrayList<>();
    StringBuilder cur = null;
    int start = 0;
    for (DocBlocks.Line l : b.lines()) {
      String t = l.text().strip();
      if (cur == null && (t.isEmpty() || t.startsWith("#"))) {
        continue;
      }
      if (cur == null) {
        cur = new StringBuilder();
        start = l.number();
      }
      if (t.endsWith("\\")) {
        cur.append(t, 0, t.length() - 1).append(' ');
        continue;
      }
      cur.append(t);
      out.add(new Command(start, cur.toString()));
      cur = null;
    }
    if (cur != null) {
      fail(b.file() + ":" + start + ": the block ends inside a continued line");
    }
    return out;
  }

  /** a command without its trailing comment (a '#' after whitespace, outside quotes: good enough for docs) */
  static String withoutComment(String cmd) {
    Matcher m = Pattern.compile("\\s+#").matcher(cmd);
    return (m.find() ? cmd.substring(0, m.start()) : cmd).strip();
  }

  void runShell(DocBlocks.Block b) throws Exception {
    Path dir = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "doc-test-");
    try {
      Map<String, String> env = environment(dir);
      if (b.context().equals("checkout")) {
        Path launcher = dir.resolve("chunkcdm");
        Files.writeString(launcher, "#!/bin/sh\nexec \"" + DocBlocks.ROOT.resolve("chunkcdm") + "\" \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        TestFiles.copy(DocBlocks.ROOT.resolve("samples"), dir.resolve("samples"));
      } else {
        for (String ext : List.of(".tar.gz", ".zip")) {
          Path a = RELEASE.resolve("chunkcdm-" + DocBlocks.VERSION + ext);
          assertTrue(Files.isRegularFile(a), a + " (after mvn package)");
          Files.createSymbolicLink(dir.resolve(a.getFileName()), a);
        }
      }
      List<Command> cmds = commands(b);
      assertFalse(cmds.isEmpty(), b.where() + ": an empty block");
      for (Command c : cmds) {
        String where = b.file() + ":" + c.line() + ": " + c.text();
        String cmd = withoutComment(c.text());
        if (cmd.startsWith("mvn ")) {
          assertTrue(BUILD_COMMANDS.contains(cmd), where + "\n  is not one of the build commands " + BUILD_COMMANDS);
          continue;
        }
        cmd = versioned(cmd);
        if (SERVE.matcher(cmd).find()) {
          runServer(where, cmd, dir, env);
        } else {
          run(where, cmd, dir, env);
        }
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /** the docs name the default build's artifacts; a -Prelease build checks them under its own version */
  static String versioned(String cmd) {
    return DocBlocks.VERSION.equals(DocBlocks.DOC_VERSION) ? cmd : cmd.replace(DocBlocks.DOC_VERSION, DocBlocks.VERSION);
  }

  /** PATH: this JVM's java, a mvn that refuses, then the system's tools; HOME: a directory of the test */
  static Map<String, String> environment(Path dir) throws IOException {
    Path fake = Files.createDirectories(dir.resolve(".doc-test-bin"));
    Path mvn = fake.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\necho \"DocsIT: a documented command ran Maven: mvn $*\" >&2\nexit 3\n");
    assertTrue(mvn.toFile().setExecutable(true));
    Path home = Files.createDirectories(dir.resolve(".doc-test-home"));
    String path = Paths.get(System.getProperty("java.home"), "bin") + File.pathSeparator + fake + File.pathSeparator
        + "/usr/local/bin:/usr/bin:/bin";
    return Map.of("PATH", path, "HOME", home.toString(), "LANG", "C.UTF-8");
  }

  static ProcessBuilder bash(String cmd, Path dir, Map<String, String> env) {
    ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", cmd).directory(dir.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb;
  }

  static void run(String where, String cmd, Path dir, Map<String, String> env) throws Exception {
    Path out = Files.createTempFile(dir, ".out", ".txt");
    Path err = Files.createTempFile(dir, ".err", ".txt");
    Process p = bash(cmd, dir, env).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    boolean done = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
    if (!done) {
      kill(p);
      fail(where + "\n  did not finish within " + TIMEOUT_S + " s; stderr:\n" + tail(err));
    }
    if (p.exitValue() != 0) {
      fail(where + "\n  exited " + p.exitValue() + "; stderr:\n" + tail(err) + "\n  stdout:\n" + tail(out));
    }
  }

  /** a serve command: on a free port, must answer GET / with 200, then stopped as Ctrl-C would */
  static void runServer(String where, String cmd, Path dir, Map<String, String> env) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Matcher m = PORT.matcher(cmd);
    String actual = m.find() ? m.replaceFirst("--port " + port) : cmd + " --port " + port;
    Path out = Files.createTempFile(dir, ".out", ".txt");
    Path err = Files.createTempFile(dir, ".err", ".txt");
    Process p = bash("exec " + actual, dir, env).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
      while (true) {
        if (!p.isAlive()) {
          fail(where + "\n  (run as: " + actual + ") exited " + p.exitValue() + " instead of serving; stderr:\n" + tail(err));
        }
        if (listening(port)) {
          break;
        }
        if (System.nanoTime() > until) {
          fail(where + "\n  (run as: " + actual + ") was not listening after " + TIMEOUT_S + " s; stderr:\n" + tail(err));
        }
        Thread.sleep(100);
      }
      HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/").toURL().openConnection();
      c.setConnectTimeout(10_000);
      c.setReadTimeout(30_000);
      int status = c.getResponseCode();
      String body;
      try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
        body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertEquals(200, status, where + "\n  (run as: " + actual + ") GET / answered " + status + ": " + body);
      assertTrue(body.contains("nd_shared_dims.ds"), where + "\n  GET / does not list the samples: " + body);
    } finally {
      p.destroy(); // SIGTERM, as Ctrl-C ends the documented command
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        kill(p);
      }
    }
  }

  static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // ImageJ macro blocks

  void runMacro(DocBlocks.Block b) throws Exception {
    String xvfb = ImageJ.xvfbRun();
    Path ijJar = DocBlocks.ROOT.resolve("fiji-plugin/target/it-imagej/ij.jar");
    Path zip = RELEASE.resolve("chunkcdm-imagej-" + DocBlocks.VERSION + ".zip");
    assertTrue(Files.isRegularFile(ijJar), ijJar + " missing: fiji-plugin's build copies ij.jar there");
    assertTrue(Files.isRegularFile(zip), zip + " (after mvn package)");
    Path dir = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "doc-test-ij-");
    try {
      Path home = Files.createDirectories(dir.resolve("ImageJ"));
      Files.copy(ijJar, home.resolve("ij.jar"));
      TestFiles.unzip(zip, home);
      TestFiles.copy(DocBlocks.ROOT.resolve("samples"), dir.resolve("samples"));
      Path done = dir.resolve(".macro-done.txt");
      Path macro = dir.resolve(".doc-test.ijm");
      Files.writeString(macro, versioned(b.text()) + "\nout = \"images=\" + nImages;\n"
          + "if (nImages > 0) out = out + \" title=\" + getTitle();\n"
          + "File.saveString(out, \"" + done + "\");\nrun(\"Quit\");\n");
      Path userHome = Files.createDirectories(dir.resolve(".doc-test-home")); // ImageJ's prefs go here, not to ~
      List<String> cmd = List.of(xvfb, "-a", "-s", "-screen 0 1280x1024x24",
          Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-Duser.home=" + userHome,
          "-jar", home.resolve("ij.jar").toString(), "-ijpath", home.toString(), "-macro", macro.toString());
      Path log = dir.resolve(".imagej.log");
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(log.toFile());
      pb.environment().put("HOME", userHome.toString());
      Process p = pb.start();
      boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
      if (!exited) {
        kill(p);
      }
      String where = b.where() + ": the ImageJ macro\n" + b.text();
      assertTrue(Files.exists(done), where + "  did not run to its end within " + TIMEOUT_S + " s (exited: " + exited
          + "; a macro error waits in a dialog). ImageJ's output:\n" + tail(log));
      assertTrue(exited, where + "  ran, but ImageJ did not quit. Output:\n" + tail(log));
      // a block that opens a dataset must leave its image open: the title names the variable
      Matcher open = OPEN.matcher(b.text());
      String result = Files.readString(done);
      while (open.find()) {
        assertTrue(result.contains(":" + open.group(1)), where + "  opened no image of variable " + open.group(1)
            + " (ImageJ: " + result + "). Output:\n" + tail(log));
      }
    } finally {
      TestFiles.deleteTree(dir);
    }
  }

  /** xvfb-run for the ImageJ blocks: required when CI=true, else the blocks are skipped without it */
  static final class ImageJ {
    static String xvfbRun() {
      for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
        Path p = Paths.get(d, "xvfb-run");
        if (Files.isExecutable(p)) {
          return p.toString();
        }
      }
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail("xvfb-run is not installed, but CI=true: .ci/run must install xvfb");
      }
      Assumptions.abort("xvfb-run not installed (apt-get install xvfb): the ImageJ macro blocks need it");
      return null;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  static String tail(Path f) throws IOException {
    if (!Files.exists(f)) {
      return "";
    }
    String s = Files.readString(f, StandardCharsets.UTF_8);
    return s.length() > 4000 ? "..." + s.substring(s.length() - 4000) : s;
  }
}
