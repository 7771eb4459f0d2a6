package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** dist/target/release after `mvn package`: every artifact, SHA256SUMS over all of them, licenses and versions. */
class ReleaseDirIT {
  static final String VERSION = System.getProperty("chunkcdm.test.version");
  static final Path RELEASE = Paths.get("target", "release").toAbsolutePath();

  @Test
  void holdsEveryArtifact() {
    for (String f : List.of("chunkcdm-thredds-" + VERSION + ".jar", "chunkcdm-" + VERSION + ".tar.gz",
        "chunkcdm-" + VERSION + ".zip", "chunkcdm-imagej-" + VERSION + ".zip",
        "fiji-update-site/plugins/chunkcdm_fiji-" + VERSION + ".jar", "fiji-update-site/jars/chunkcdm-chunk-" + VERSION + ".jar",
        "fiji-update-site/jars/chunkcdm-codec-" + VERSION + ".jar",
        "maven/org/chunkcdm/chunkcdm-iosp-bcolz/" + VERSION + "/chunkcdm-iosp-bcolz-" + VERSION + ".jar",
        "maven/org/chunkcdm/chunkcdm-codec/" + VERSION + "/chunkcdm-codec-" + VERSION + ".jar",
        "LICENSE", "CHANGELOG.md", "SHA256SUMS")) {
      assertTrue(Files.isRegularFile(RELEASE.resolve(f)), f);
    }
  }

  @Test
  void sha256sumsCoversEveryFileAndMatches() throws Exception {
    Map<String, String> listed = new TreeMap<>();
    for (String line : Files.readAllLines(RELEASE.resolve("SHA256SUMS"))) {
      assertTrue(line.matches("[0-9a-f]{64}  \\S.*"), "sha256sum format: " + line);
      listed.put(line.substring(66), line.substring(0, 64));
    }
    Set<String> files = new TreeSet<>();
    try (var s = Files.walk(RELEASE)) {
      s.filter(Files::isRegularFile).forEach(f -> files.add(RELEASE.relativize(f).toString().replace('\\', '/')));
    }
    files.remove("SHA256SUMS");
    assertEquals(files, listed.keySet());
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (Map.Entry<String, String> e : listed.entrySet()) {
      md.reset();
      try (InputStream in = Files.newInputStream(RELEASE.resolve(e.getKey()))) {
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
          md.update(buf, 0, n);
        }
      }
      assertEquals(e.getValue(), HexFormat.of().formatHex(md.digest()), e.getKey());
    }
  }

  @Test
  void everyChunkcdmJarHasLicenseAndVersion() throws Exception {
    List<Path> jars;
    try (var s = Files.walk(RELEASE)) {
      jars = s.filter(p -> p.getFileName().toString().endsWith(".jar")).toList();
    }
    int checked = 0;
    for (Path j : jars) {
      String n = j.getFileName().toString();
      if (!n.startsWith("chunkcdm") || n.endsWith("-sources.jar") || n.endsWith("-javadoc.jar")) {
        continue;
      }
      try (JarFile jar = new JarFile(j.toFile())) {
        assertEquals(VERSION, jar.getManifest().getMainAttributes().getValue("Implementation-Version"), n);
        assertTrue(jar.getEntry("META-INF/LICENSE") != null, n + ": META-INF/LICENSE");
        String lic = new String(jar.getInputStream(jar.getEntry("META-INF/LICENSE")).readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(lic.contains("Redistribution and use in source and binary forms"), n + ": chunkcdm's BSD-3-Clause");
        checked++;
      }
    }
    assertTrue(checked >= 10, "chunkcdm jars checked: " + checked);
  }

  @Test
  void dropInJarListsEveryBundledLibrary() throws Exception {
    try (JarFile jar = new JarFile(RELEASE.resolve("chunkcdm-thredds-" + VERSION + ".jar").toFile())) {
      String third = new String(jar.getInputStream(jar.getEntry("META-INF/THIRD-PARTY.txt")).readAllBytes(), StandardCharsets.UTF_8);
      // each library the jar bundles (its own pom.properties inside the jar) is listed with version and license
      int libs = 0;
      for (var e : jar.stream().filter(e -> e.getName().startsWith("META-INF/maven/") && e.getName().endsWith("/pom.properties")).toList()) {
        java.util.Properties p = new java.util.Properties();
        p.load(jar.getInputStream(e));
        if (p.getProperty("groupId").equals("org.chunkcdm")) {
          continue;
        }
        String gav = p.getProperty("groupId") + ":" + p.getProperty("artifactId") + ":" + p.getProperty("version");
        assertTrue(third.contains("(Apache-2.0)") && third.contains(gav + " "), gav + " missing:\n" + third);
        libs++;
      }
      assertTrue(libs >= 4, "bundled libraries with pom.properties: " + libs);
      for (String lib : List.of("net.java.dev.jna:jna:", "org.msgpack:msgpack-core:", "io.airlift:aircompressor:")) {
        assertTrue(third.contains(lib), lib + ":\n" + third);
      }
      assertFalse(third.contains("edu.ucar") || third.contains("guava"), "host libraries are not bundled:\n" + third);
      assertTrue(jar.getEntry("META-INF/NOTICE") != null, "the bundled Apache libraries' NOTICE");
    }
  }

  @Test
  void imagejZipAndUpdateSiteCarryTheVersion() throws Exception {
    try (ZipFile z = new ZipFile(RELEASE.resolve("chunkcdm-imagej-" + VERSION + ".zip").toFile())) {
      assertTrue(z.getEntry("plugins/chunkcdm_fiji-" + VERSION + ".jar") != null);
      assertTrue(new String(z.getInputStream(z.getEntry("plugins/chunkcdm/LICENSE.txt")).readAllBytes(), StandardCharsets.UTF_8)
          .contains("Redistribution and use in source and binary forms"));
      String third = new String(z.getInputStream(z.getEntry("plugins/chunkcdm/THIRD-PARTY.txt")).readAllBytes(),
          StandardCharsets.UTF_8);
      // every bundled third-party jar (netcdf-java and imglib2 included) is listed with its version and a license
      int listed = 0;
      for (var e : z.stream().filter(e -> e.getName().startsWith("plugins/chunkcdm/") && e.getName().endsWith(".jar")).toList()) {
        String n = e.getName().substring("plugins/chunkcdm/".length());
        if (n.startsWith("chunkcdm-")) {
          continue;
        }
        String base = n.substring(0, n.length() - 4);
        boolean found = third.lines().anyMatch(l -> {
          int open = l.lastIndexOf(" (");
          if (open < 0 || l.contains("Unknown license")) {
            return false;
          }
          String[] gav = l.substring(open + 2).split(" ")[0].split(":");
          return gav.length >= 3 && base.equals(gav[1] + "-" + gav[2]);
        });
        assertTrue(found, n + " not in the ImageJ zip's THIRD-PARTY.txt:\n" + third);
        listed++;
      }
      assertTrue(listed >= 10, "third-party jars in the zip: " + listed);
    }
  }
}
