package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;

/**
 * The netcdf-java programmer's recipe: a project whose pom holds README.md's fragment as written (the block marked
 * {@code maven-consumer}: Unidata's repository for netcdf-java, the release's maven/ directory, and only
 * {@code chunkcdm-iosp-bcolz} and {@code cdm-core} declared), built by Maven, opens a bcolz carray through
 * {@code NetcdfFiles.open} and checks its values against the fixture's expected data. Two things of the fragment are
 * filled in: the path of the release directory (the README's {@code file:///path/to/chunkcdm/} stands for the
 * clone) and, in a {@code -Prelease} build, the version.
 *
 * <p>The nested Maven never touches the network nor ~/.m2: its local repository is a fresh directory under
 * target/, every repository but the chunkcdm one (Unidata's too) is mirrored to ~/.m2 read as a file://
 * repository, where this build's netcdf-bootstrap put the same cdm-core 5.5.3.
 */
class ConsumerProjectIT {
  static final Path REPO = Paths.get(System.getProperty("chunkcdm.test.mavenRepo", "../target/maven-repo")).toAbsolutePath();
  static final String VERSION = System.getProperty("chunkcdm.test.version");

  @Test
  void publishedPomsAreCompleteAndLeakNoBuildModule() throws Exception {
    for (String a : List.of("chunkcdm-codec", "chunkcdm-chunk", "chunkcdm-cdm", "chunkcdm-native",
        "chunkcdm-iosp-bcolz", "chunkcdm-iosp-ds", "chunkcdm-iosp-sframe")) {
      Path dir = REPO.resolve("org/chunkcdm/" + a + "/" + VERSION);
      for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar", ".pom")) {
        assertTrue(Files.isRegularFile(dir.resolve(a + "-" + VERSION + suffix)), dir + ": " + a + suffix);
      }
      String pom = Files.readString(dir.resolve(a + "-" + VERSION + ".pom"));
      for (String must : List.of("<version>" + VERSION + "</version>", "<name>", "<description>", "<licenses>",
          "BSD-3-Clause", "<developers>")) {
        assertTrue(pom.contains(must), a + " pom lacks " + must + ":\n" + pom);
      }
      assertFalse(pom.contains("${"), a + " pom has an unresolved property:\n" + pom);
      assertFalse(pom.contains("<parent>"), a + " pom refers to the (unpublished) parent:\n" + pom);
      // netcdf-java (and the bootstrap module that provides it to the build) are never passed on to consumers
      String[] deps = pom.split("<dependency>");
      for (int i = 1; i < deps.length; i++) {
        String dep = deps[i];
        if (dep.contains("<artifactId>netcdf-bootstrap<") || dep.contains("<artifactId>cdm-core<")) {
          assertTrue(dep.contains("<scope>provided</scope>"), a + ": not provided: " + dep);
        }
        assertFalse(dep.contains("chunkcdm-testkit"), a + ": test helpers leak");
        // the layers stand on their own: the codec needs nothing of chunkcdm, the chunk layer no netcdf-java
        if (a.equals("chunkcdm-codec")) {
          assertFalse(dep.contains("<groupId>org.chunkcdm<") || dep.contains("<groupId>edu.ucar<"), a + " depends on " + dep);
        }
        if (a.equals("chunkcdm-chunk")) {
          assertFalse(dep.contains("<groupId>edu.ucar<") || dep.contains("netcdf-bootstrap"), a + " depends on " + dep);
        }
      }
      try (JarFile j = new JarFile(dir.resolve(a + "-" + VERSION + ".jar").toFile())) {
        assertEquals(VERSION, j.getManifest().getMainAttributes().getValue("Implementation-Version"), a);
        assertTrue(j.getEntry("META-INF/LICENSE") != null, a + ": META-INF/LICENSE");
      }
      try (JarFile j = new JarFile(dir.resolve(a + "-" + VERSION + "-sources.jar").toFile())) {
        assertTrue(j.stream().anyMatch(e -> e.getName().endsWith(".java")), a + ": sources");
      }
      try (JarFile j = new JarFile(dir.resolve(a + "-" + VERSION + "-javadoc.jar").toFile())) {
        assertTrue(j.getEntry("index.html") != null, a + ": javadoc");
      }
    }
  }

  @Test
  void aProjectDeclaringOnlyTheBcolzIospAndNetcdfJavaOpensADatasetThroughNetcdfFiles() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset("carray/dtype_float64_zlib_c9_byteshuf_n1025_cl128");
    Fixtures.Variable v = d.variables().get(0);
    assertEquals("<f8", v.dtype());

    Path work = Paths.get("target", "consumer").toAbsolutePath();
    TestFiles.deleteTree(work);
    Files.createDirectories(work.resolve("src/test/java/org/example"));
    Files.createDirectories(work.resolve("target"));
    String pom = resource("consumer/pom.xml").replace("@README_BLOCK@", readmeBlock());
    Files.writeString(work.resolve("pom.xml"), pom);
    Files.writeString(work.resolve("src/test/java/org/example/OpenTest.java"),
        resource("consumer/src/test/java/org/example/OpenTest.java"));
    Files.writeString(work.resolve("expected.properties"), "path=" + d.file().toString().replace("\\", "/") + "\n");
    Files.write(work.resolve("expected.bin"), v.expected());

    runConsumerBuild(work);

    String ok = Files.readString(work.resolve("target/consumer-ok.txt"));
    assertTrue(ok.startsWith("bcolz 1025 "), ok);
    assertTrue(ok.contains("chunkcdm-iosp-bcolz-" + VERSION + ".jar") && ok.contains("chunkcdm-codec-" + VERSION + ".jar"),
        "chunkcdm from the file repository: " + ok);
    assertFalse(ok.contains("netcdf-bootstrap"), ok);
    assertFalse(ok.contains("chunkcdm-testkit"), ok);
    assertTrue(ok.contains("cdm-core-" + System.getProperty("netcdf.version") + ".jar"), ok);
  }

  /** README's pom fragment with the clone's path and this build's version, and JUnit added for the test */
  static String readmeBlock() throws IOException {
    String block = DocBlocks.mavenConsumer().text();
    assertTrue(block.contains("<url>https://artifacts.unidata.ucar.edu/repository/unidata-all/</url>"),
        "README's recipe names Unidata's repository for cdm-core:\n" + block);
    assertTrue(block.contains("<version>" + DocBlocks.DOC_VERSION + "</version>"),
        "README's recipe names the version the default build makes (" + DocBlocks.DOC_VERSION + "):\n" + block);
    assertTrue(block.contains("<version>" + System.getProperty("netcdf.version") + "</version>"), block);
    String placeholder = "file:///path/to/chunkcdm/";
    assertTrue(block.contains(placeholder + "dist/target/release/maven/"), "README's recipe points at the release's"
        + " maven/ directory as " + placeholder + "dist/target/release/maven/:\n" + block);
    Path release = DocBlocks.ROOT.resolve("dist/target/release/maven");
    assertTrue(Files.isDirectory(release.resolve("org/chunkcdm/chunkcdm-iosp-bcolz/" + VERSION)), release.toString());
    String junit = "    <dependency>\n      <groupId>org.junit.jupiter</groupId>\n      <artifactId>junit-jupiter</artifactId>\n"
        + "      <version>" + org.junit.jupiter.api.Test.class.getPackage().getImplementationVersion() + "</version>\n"
        + "      <scope>test</scope>\n    </dependency>\n";
    int end = block.lastIndexOf("</dependencies>");
    assertTrue(end > 0, block);
    block = block.substring(0, end) + junit + block.substring(end);
    return block.replace(placeholder, DocBlocks.ROOT.toUri().toString())
        .replace(DocBlocks.DOC_VERSION, VERSION);
  }

  /**
   * Runs {@code mvn test} in the consumer project {@code work}, resolving from the build's own local repository
   * (~/.m2/repository unless -Dmaven.repo.local / settings say otherwise) as a remote, and asserts it succeeds.
   */
  static void runConsumerBuild(Path work) throws IOException, InterruptedException {
    String local = System.getProperty("chunkcdm.test.localRepo", "");
    Path m2 = local.isBlank() || local.startsWith("${") ? Paths.get(System.getProperty("user.home"), ".m2", "repository")
        : Paths.get(local);
    Files.writeString(work.resolve("settings.xml"), "<settings>\n"
        + "  <localRepository>" + work.resolve("local-repo") + "</localRepository>\n"
        + "  <mirrors><mirror><id>m2-as-remote</id><mirrorOf>*,!chunkcdm</mirrorOf>"
        + "<url>" + m2.toUri() + "</url></mirror></mirrors>\n"
        + "</settings>\n");
    List<String> cmd = List.of(mvn(), "-B", "-q", "-s", work.resolve("settings.xml").toString(), "test");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(work.resolve("mvn.log").toFile());
    pb.environment().remove("MAVEN_OPTS");
    Process p = pb.start();
    boolean done = p.waitFor(300, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
    }
    String log = Files.readString(work.resolve("mvn.log"));
    assertTrue(done, "consumer build timed out:\n" + log);
    assertEquals(0, p.exitValue(), "consumer build failed:\n" + log);
  }

  static String mvn() {
    String home = System.getProperty("maven.home");
    boolean win = System.getProperty("os.name").toLowerCase().contains("win");
    if (home != null && !home.isBlank()) {
      Path m = Paths.get(home, "bin", win ? "mvn.cmd" : "mvn");
      if (Files.isExecutable(m)) {
        return m.toString();
      }
    }
    return win ? "mvn.cmd" : "mvn";
  }

  static String resource(String name) throws IOException {
    try (InputStream in = ConsumerProjectIT.class.getClassLoader().getResourceAsStream(name)) {
      assertTrue(in != null, name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
