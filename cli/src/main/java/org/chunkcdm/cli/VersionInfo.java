package org.chunkcdm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.Manifest;
import org.chunkcdm.blosc.Blosc;
import picocli.CommandLine;

/**
 * {@code chunkcdm --version}: the version and git commit the CLI was built from (build.properties, filled in by
 * Maven), the netcdf-java version on the class path, and the Blosc backend that decodes chunks in this JVM.
 */
public final class VersionInfo implements CommandLine.IVersionProvider {
  private static final Properties BUILD = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // no build information: the values below say "unknown"
    }
    return p;
  }

  private static String build(String key) {
    String v = BUILD.getProperty(key, "");
    return v.isBlank() || v.startsWith("${") ? "unknown" : v.trim();
  }

  /** chunkcdm's version, e.g. {@code 0.1.0}. */
  public static String version() {
    return build("version");
  }

  /** The git commit of the build ({@code -dirty} when built from changed sources), or {@code unknown}. */
  public static String commit() {
    return build("commit");
  }

  /**
   * The version of the netcdf-java (cdm-core) jar on the class path, read from its manifest; when netcdf-java is
   * bundled inside another jar (the repository's shaded CLI jar) the version it was built against.
   */
  public static String netcdfVersion() {
    URL u = ucar.nc2.NetcdfFile.class.getResource("NetcdfFile.class");
    if (u != null && "jar".equals(u.getProtocol())) {
      try {
        URLConnection c = u.openConnection();
        c.setUseCaches(false);
        Manifest m = ((JarURLConnection) c).getManifest();
        if (m != null) {
          Attributes a = m.getMainAttributes();
          if ("edu.ucar".equals(a.getValue("Implementation-Vendor-Id")) && a.getValue("Implementation-Version") != null) {
            return a.getValue("Implementation-Version");
          }
        }
      } catch (IOException | ClassCastException e) {
        // fall back to the build's version
      }
    }
    return build("netcdf.version") + " (bundled)";
  }

  /** Which Blosc decoder this JVM uses, and why. */
  public static String bloscBackend() {
    Blosc.Impl impl = Blosc.configured();
    boolean nat = Blosc.nativeAvailable();
    String simd = Blosc.vectorUnshuffle() ? "SIMD unshuffle (jdk.incubator.vector)"
        : "scalar unshuffle (" + Blosc.vectorUnshuffleOff() + ")";
    String java = "pure Java, " + simd;
    switch (impl) {
      case JAVA:
        return java + " (configured: java)";
      case NATIVE:
        return nat ? "native " + Blosc.nativeVersion() + " (configured: native)"
            : "native configured but unavailable: " + Blosc.nativeVersion();
      default:
        if (Blosc.autoUsesNative()) {
          return "native " + Blosc.nativeVersion() + " for Blosc1 chunks, else " + java;
        }
        return nat ? java + " (auto: faster than native " + Blosc.nativeVersion() + " with SIMD unshuffle)"
            : java + "; native c-blosc not used: " + Blosc.nativeVersion();
    }
  }

  /** How large files are read: one copy through pread (Java 22+), or the channel's two, and why. */
  public static String fileReads() {
    String off = org.chunkcdm.io.FileHandles.nativeReadsOff();
    return off == null ? "one copy (pread from the page cache into the array)" : "FileChannel (one-copy pread " + off + ")";
  }

  /** How data stored raw is copied: memmove (Java 22+), or System.arraycopy and why. */
  public static String rawCopies() {
    String off = Blosc.rawCopyOff();
    return off == null ? "memmove in 128 KiB pieces" : "System.arraycopy (memmove " + off + ")";
  }

  @Override
  public String[] getVersion() {
    List<String> l = new ArrayList<>();
    l.add("chunkcdm " + version() + " (commit " + commit() + ")");
    l.add("netcdf-java " + netcdfVersion());
    l.add("Blosc: " + bloscBackend());
    l.add("File reads: " + fileReads());
    l.add("Raw copies: " + rawCopies());
    l.add("Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ")");
    return l.toArray(new String[0]);
  }
}
