package org.chunkcdm.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
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
    assertTrue(names.contains("org/chunkcdm/shaded/awssdk/services/s3/S3Client.class"), "AWS SDK relocated");
    assertFalse(names.stream().anyMatch(n -> n.startsWith("software/amazon/") || n.startsWith("org/reactivestreams/")),
        "no AWS SDK class where TDS's copy lives");
    for (String host : List.of("ucar/", "com/google/common/", "com/google/protobuf/", "org/slf4j/")) {
      assertFalse(names.stream().anyMatch(n -> n.startsWith(host)), host + " must come from the host, not the jar");
    }
    assertFalse(names.stream().anyMatch(n -> n.startsWith("org/chunkcdm/testkit/")), "no test helpers");
    assertTrue(names.contains("org/chunkcdm/blosc/zstd/ZstdDecoder.class"), "pure-Java zstd decoder");
    assertFalse(names.stream().anyMatch(n -> n.startsWith("com/github/luben/") || n.contains("libzstd-jni")),
        "no zstd-jni: zstd dictionaries are decoded in pure Java");
    assertTrue(names.contains("META-INF/services/ucar.nc2.iosp.IOServiceProvider"));
    assertTrue(names.contains("META-INF/services/org.chunkcdm.blosc.NativeBlosc"));
    // the ncstream bridge: reader IOSP and writer, listed in the merged services file
    assertTrue(names.contains("org/chunkcdm/ncstream/iosp/NcStreamFileIosp.class"), "ncstream reader");
    assertTrue(names.contains("org/chunkcdm/ncstream/NcStreamOut.class"), "ncstream writer");
    try (JarFile jar = new JarFile(JAR.toFile())) {
      String services = new String(jar.getInputStream(jar.getEntry("META-INF/services/ucar.nc2.iosp.IOServiceProvider"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(services.contains("org.chunkcdm.ncstream.iosp.NcStreamFileIosp"), services);
    }
    assertFalse(names.stream().anyMatch(n -> n.startsWith("org/eclipse/jetty/")), "no HTTP server in the drop-in jar");
    assertTrue(names.contains("org/chunkcdm/hdf5/H5Iosp.class"), "HDF5 IOSP");
    assertTrue(names.contains("org/chunkcdm/hdf5blosc/H5BloscIosp.class"), "HDF5 IOSP under its former name");
    assertTrue(names.contains("org/chunkcdm/shaded/compress/compressors/bzip2/BZip2CompressorInputStream.class"),
        "BZip2 decoder (relocated)");
    try (JarFile jar = new JarFile(JAR.toFile())) {
      String services = new String(jar.getInputStream(jar.getEntry("META-INF/services/ucar.nc2.iosp.IOServiceProvider"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(services.contains("org.chunkcdm.hdf5.H5Iosp"), services);
      assertTrue(services.contains("org.chunkcdm.blosc2stores.Blosc2StoreIosp"), services);
      String providers = new String(jar.getInputStream(
          jar.getEntry("META-INF/services/ucar.unidata.io.spi.RandomAccessFileProvider")).readAllBytes(),
          StandardCharsets.UTF_8);
      assertTrue(providers.contains("org.chunkcdm.blosc2stores.Blosc2StoreDirectoryProvider"), providers);
    }
  }

  /**
   * A host with only netcdf-java plus the jar, chunkcdm's ncstream reader registered as threddsConfig.xml does:
   * a multi-message .ncs written by netcdf-java's NcStreamWriter, and one written by the jar's own writer, read
   * back equal to the source.
   */
  @Test
  void aHostReadsNcstreamThroughTheJarsReaderRegisteredLikeThreddsConfig() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    Path ncs = Files.createTempFile("chunkcdm-dist", ".ncs");
    Path ours = Files.createTempFile("chunkcdm-dist-ours", ".ncs");
    try {
      long crc;
      try (ucar.nc2.NetcdfFile src = ucar.nc2.NetcdfFiles.open(d.file().toString());
          java.io.OutputStream o = Files.newOutputStream(ncs)) {
        new ucar.nc2.stream.NcStreamWriter(src, null).streamAll(o);
        crc = NcsHostProbe.crc(src);
      }
      Files.delete(ours);
      List<String> out = runOnHost(List.of(), JAR, NcsHostProbe.class.getName(),
          List.of(ncs.toString(), d.file().toString(), ours.toString()));
      String joined = String.join("\n", out);
      assertTrue(out.contains(String.format("NCS %s org.chunkcdm.ncstream.iosp.NcStreamFileIosp %08x", ncs, crc)), joined);
      assertTrue(out.contains(String.format("NCS %s org.chunkcdm.ncstream.iosp.NcStreamFileIosp %08x", ours, crc)), joined);
    } finally {
      Files.deleteIfExists(ncs);
      Files.deleteIfExists(ours);
    }
  }

  @Test
  void aHostWithOnlyNetcdfJavaOpensChunkcdmFormatsThroughTheJar() throws Exception {
    List<String> out = probe(List.of(), JAR);
    List<String> ok = okLines(out);
    assertEquals(HostProbe.TARGETS.length, ok.size(), String.join("\n", out));
    String nat = nativeLine(out);
    if (nativeRequired()) { // CI installs libblosc1: the bcolz carray's Blosc1 chunks went through c-blosc
      assertTrue(nat.startsWith("NATIVE true ") && !nat.startsWith("NATIVE true 0 "), nat);
    }
  }

  /**
   * Remote datasets through the jar (the relocated AWS SDK for s3:// and cdms3:, the JDK's client for http://),
   * registered as threddsConfig.xml does: the same values as the local files.
   */
  @Test
  void aHostReadsRemoteDatasetsThroughTheJar() throws Exception {
    List<String> local = okLines(probe(List.of(), JAR));
    try (RangeServer server = new RangeServer(Fixtures.testdata())) {
      List<String> args = new ArrayList<>();
      List<String> want = new ArrayList<>();
      for (int i = 0; i < HostProbe.TARGETS.length; i++) {
        String[] t = HostProbe.TARGETS[i];
        String key = t[0] + "/" + t[1];
        boolean directory = Files.isDirectory(Fixtures.family(t[0]).resolve(t[1]));
        // directories over plain HTTP (no listing); files over S3, as s3:// and as netcdf-java's cdms3:
        args.add(directory ? server.endpoint() + "/fixtures/" + key : i % 2 == 0 ? "s3://fixtures/" + key : "cdms3:fixtures?" + key);
        want.add(local.get(i).split(" ", 4)[3]); // the same type, element count and crc32
      }
      List<String> out = runOnHost(List.of("-Daws.endpointUrl=" + server.endpoint(), "-Daws.region=us-east-1",
          "-Daws.disableEc2Metadata=true", "-Dchunkcdm.s3.anonymous=true"), JAR, HostProbe.class.getName(), args);
      List<String> ok = okLines(out);
      assertEquals(args.size(), ok.size(), String.join("\n", out));
      for (int i = 0; i < ok.size(); i++) {
        assertEquals(want.get(i), ok.get(i).split(" ", 4)[3], args.get(i));
      }
    }
  }

  /**
   * The JVM must start and read everything when JNA is missing or cannot load its native part (so the library
   * cannot be loaded either): the same values as with the whole jar, all decoded in pure Java.
   */
  @Test
  void withoutJnaOrWithJnaUnableToLoadTheSameValuesAreReadInPureJava() throws Exception {
    List<String> whole = okLines(probe(List.of(), JAR));
    assertEquals(HostProbe.TARGETS.length, whole.size());

    Path noJna = Files.createTempFile("chunkcdm-thredds-nojna", ".jar");
    try {
      int dropped = 0;
      try (JarFile in = new JarFile(JAR.toFile());
          JarOutputStream jo = new JarOutputStream(Files.newOutputStream(noJna))) {
        for (JarEntry e : Collections.list(in.entries())) {
          if (e.getName().startsWith("com/sun/jna/")) {
            dropped++;
            continue;
          }
          jo.putNextEntry(new JarEntry(e.getName()));
          try (InputStream is = in.getInputStream(e)) {
            is.transferTo(jo);
          }
          jo.closeEntry();
        }
      }
      assertTrue(dropped > 10, "JNA classes removed: " + dropped);
      List<String> out = probe(List.of(), noJna);
      assertEquals(whole, okLines(out), String.join("\n", out));
      assertTrue(nativeLine(out).startsWith("NATIVE false 0 native Blosc binding failed to load: ")
          && nativeLine(out).contains("com.sun.jna."), nativeLine(out));
    } finally {
      Files.deleteIfExists(noJna);
    }

    // JNA present, but its native dispatch library cannot be found: no native library can be loaded through it
    List<String> out = probe(List.of("-Djna.boot.library.path=/nonexistent", "-Djna.nosys=true",
        "-Djna.noclasspath=true"), JAR);
    assertEquals(whole, okLines(out), String.join("\n", out));
    assertTrue(nativeLine(out).startsWith("NATIVE false 0 c-blosc 1.x not found (")
        && nativeLine(out).contains("JNA"), nativeLine(out));
  }

  static boolean nativeRequired() {
    return "1".equals(System.getenv("CHUNKCDM_REQUIRE_NATIVE")) || Boolean.getBoolean("chunkcdm.requireNative");
  }

  static List<String> okLines(List<String> out) {
    return out.stream().filter(l -> l.startsWith("OK ")).collect(Collectors.toList());
  }

  static String nativeLine(List<String> out) {
    return out.stream().filter(l -> l.startsWith("NATIVE ")).findFirst().orElse("no NATIVE line");
  }

  /**
   * Runs {@link HostProbe} on one fixture per format in a JVM whose class path is the host's (every test class
   * path entry except chunkcdm's own modules and what the jar bundles) plus {@code jar}; returns its output lines.
   */
  static List<String> probe(List<String> jvmArgs, Path jar) throws Exception {
    List<String> args = new ArrayList<>();
    for (String[] t : HostProbe.TARGETS) {
      args.add(Fixtures.family(t[0]).resolve(t[1]).toString());
    }
    return runOnHost(jvmArgs, jar, HostProbe.class.getName(), args);
  }

  /** Runs {@code mainClass} with {@code args} in a JVM whose class path is the host's plus {@code jar}. */
  static List<String> runOnHost(List<String> jvmArgs, Path jar, String mainClass, List<String> args) throws Exception {
    List<String> host = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String n = e.replace('\\', '/');
      boolean bundled = n.endsWith("/target/classes") || n.contains("/chunkcdm-") || n.contains("/org/chunkcdm/") || n.contains("/jna/")
          || n.contains("jackson") || n.contains("aircompressor") || n.contains("msgpack")
          || n.contains("/software/amazon/awssdk/") || n.contains("reactive-streams")
          || n.contains("junit") || n.contains("opentest4j") || n.contains("apiguardian");
      if (n.endsWith("/target/test-classes") || !bundled) {
        host.add(e);
      }
    }
    host.add(jar.toString());
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, host), mainClass));
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe JVM timed out"); // its output fits the pipe buffer
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    return out.lines().collect(Collectors.toList());
  }
}
