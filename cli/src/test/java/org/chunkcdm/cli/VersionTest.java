package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.chunkcdm.blosc.Blosc;
import org.junit.jupiter.api.Test;

/** {@code chunkcdm --version}: version and commit of the build, netcdf-java version, Blosc backend. */
class VersionTest {
  @Test
  void versionNamesBuildNetcdfJavaAndBloscBackend() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, Main.run(new String[] {"--version"}, new PrintWriter(out), new PrintWriter(err)), err.toString());
    List<String> lines = out.toString().lines().toList();
    String version = System.getProperty("chunkcdm.test.version");
    assertTrue(version != null && !version.isBlank(), "the build passes chunkcdm.test.version");
    assertTrue(lines.get(0).matches("chunkcdm " + version.replace(".", "\\.") + " \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)"),
        lines.get(0));
    // test class path: netcdf-java's own jar, so its manifest version
    assertEquals("netcdf-java 5.5.3", lines.get(1));
    assertTrue(lines.get(2).startsWith("Blosc: "), lines.get(2));
    // the line says what the codec does, not only whether the module is there
    assertEquals(Blosc.vectorUnshuffle(), lines.get(2).contains("SIMD unshuffle (jdk.incubator.vector)"), lines.get(2));
    if (!Blosc.vectorUnshuffle()) { // and why not
      assertTrue(lines.get(2).contains("scalar unshuffle (" + Blosc.vectorUnshuffleOff() + ")"), lines.get(2));
    }
    if (Blosc.autoUsesNative()) { // c-blosc loaded and no Vector API in this JVM
      assertTrue(lines.get(2).startsWith("Blosc: native " + Blosc.nativeVersion()), lines.get(2));
    } else if (Blosc.nativeAvailable()) { // with the Vector API pure Java is the faster one
      assertTrue(lines.get(2).startsWith("Blosc: pure Java, SIMD unshuffle")
          && lines.get(2).contains("(auto: faster than native " + Blosc.nativeVersion()), lines.get(2));
    } else {
      assertTrue(lines.get(2).startsWith("Blosc: pure Java") && lines.get(2).contains(Blosc.nativeVersion()), lines.get(2));
    }
    String off = org.chunkcdm.io.FileHandles.nativeReadsOff();
    assertEquals(off == null ? "File reads: one copy (pread from the page cache into the array)"
        : "File reads: FileChannel (one-copy pread " + off + ")", lines.get(3));
    if (Runtime.version().feature() < 22) {
      assertTrue(lines.get(3).contains("needs Java 22 or later"), lines.get(3));
    }
    String raw = Blosc.rawCopyOff();
    assertEquals(raw == null ? "Raw copies: memmove in 128 KiB pieces" : "Raw copies: System.arraycopy (memmove " + raw + ")",
        lines.get(4));
    assertEquals(Runtime.version().feature() >= 22, raw == null, lines.get(4)); // the surefire argLine grants native access
    assertTrue(lines.get(5).startsWith("Java " + Runtime.version()), lines.get(5));
  }

  @Test
  void theBackendFollowsTheConfiguration() {
    String before = System.getProperty("chunkcdm.blosc");
    try {
      System.setProperty("chunkcdm.blosc", "java");
      assertTrue(VersionInfo.bloscBackend().startsWith("pure Java") && VersionInfo.bloscBackend().endsWith("(configured: java)"),
          VersionInfo.bloscBackend());
    } finally {
      if (before == null) {
        System.clearProperty("chunkcdm.blosc");
      } else {
        System.setProperty("chunkcdm.blosc", before);
      }
    }
  }
}
