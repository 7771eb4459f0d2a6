package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * Runs after {@code package}: checks the drop-in jar's contents, then opens fixtures in a separate JVM whose
 * class path is only what a TDS host has (netcdf-java and its dependencies) plus {@code chunkcdm-thredds.jar},
 * so the IOSPs must be found through the jar's META-INF/services.
 */
class DistJarIT {
  static final Path JAR = Paths.get("target", "chunkcdm-thredds.jar").toAbsolutePath();

  @Test
  void jarHoldsChunkcdmAndWhatTdsLacksButNotTheHostLibraries() throws Exception {
    assertTrue(Files.isRegularFile(JAR), JAR + " must exist after mvn package");
    Set<String> names = new TreeSet<>();
    try (JarFile jar = new JarFile(JAR.toFile())) {
      jar.stream().forEach(e -> names.add(e.getName()));
    }
    assertTrue(names.contains("org/chunkcdm/chunk/SectionReader.class"));
    assertTrue(names.contains("org/chunkcdm/blosc/Blosc.class"));
    assertTrue(names.contains("org/chunkcdm/nativeblosc/JnaBlosc.class"), "native binding");
    assertTrue(names.contains("com/sun/jna/Native.class"), "JNA bundled");
    assertTrue(names.stream().anyMatch(n -> n.startsWith("org/chunkcdm/shaded/aircompressor/")), "aircompressor relocated");
    for (String host : List.of("ucar/", "com/google/common/", "com/google/protobuf/", "org/slf4j/")) {
      assertFalse(names.stream().anyMatch(n -> n.startsWith(host)), host + " must come from the host, not the jar");
    }
    assertFalse(names.stream().anyMatch(n -> n.startsWith("org/chunkcdm/testkit/")), "no test helpers");
    assertTrue(names.contains("org/chunkcdm/blosc/zstd/ZstdDecoder.class"), "pure-Java zstd decoder");
    assertFalse(names.stream().anyMatch(n -> n.startsWith("com/github/luben/") || n.contains("libzstd-jni")),
        "no zstd-jni: zstd dictionaries are decoded in pure Java");
    assertTrue(names.contains("META-INF/services/ucar.nc2.iosp.IOServiceProvider"));
    assertTrue(names.contains("META-INF/services/org.chunkcdm.blosc.NativeBlosc"));
  }

  @Test
  void aHostWithOnlyNetcdfJavaOpensChunkcdmFormatsThroughTheJar() throws Exception {
    // host class path: every test class path entry except chunkcdm's own modules and what the jar bundles
    List<String> host = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String n = e.replace('\\', '/');
      boolean bundled = n.endsWith("/target/classes") || n.contains("/chunkcdm-") || n.contains("/org/chunkcdm/") || n.contains("/jna/")
          || n.contains("jackson") || n.contains("aircompressor") || n.contains("msgpack")
          || n.contains("junit") || n.contains("opentest4j") || n.contains("apiguardian");
      if (n.endsWith("/target/test-classes") || !bundled) {
        host.add(e);
      }
    }
    host.add(JAR.toString());
    List<String> targets = new ArrayList<>();
    for (String[] t : HostProbe.TARGETS) {
      targets.add(Fixtures.family(t[0]).resolve(t[1]).toString());
    }
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, host), HostProbe.class.getName()));
    cmd.addAll(targets);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe JVM timed out");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    List<String> lines = out.lines().filter(l -> l.startsWith("OK ")).collect(Collectors.toList());
    assertEquals(targets.size(), lines.size(), out);
  }
}
