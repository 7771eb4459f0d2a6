package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The Fiji update-site layout without netcdf-java: a child JVM whose class path is only
 * {@code update-site/plugins} + {@code update-site/jars} + what Fiji ships (ij, imglib2, jackson, aircompressor)
 * — no cdm-core — reads a synthetic volume through the ImgLib2 adapter and the ImageJ stack (so the chunk layer
 * loads without {@code ucar.*}), and opens a b2nd fixture: with the format openers in the jars (after the seam
 * merge) it must read the right values; without them it must fail with the clear message, never a
 * NoClassDefFoundError.
 */
class UpdateSiteWithoutNetcdfIT {
  @Test
  void chunkcdmFormatsWithoutNetcdfJava() throws Exception {
    Path target = Paths.get("target").toAbsolutePath();
    Path site = target.resolve("update-site");
    List<String> cp = new ArrayList<>();
    boolean openers = false;
    for (String sub : new String[] {"plugins", "jars"}) {
      try (Stream<Path> s = Files.list(site.resolve(sub))) {
        for (Path j : (Iterable<Path>) s::iterator) {
          String n = j.getFileName().toString();
          assertFalse(n.startsWith("cdm-core") || n.startsWith("ij-") || n.startsWith("imglib2") || n.startsWith("scijava")
              || n.startsWith("udunits") || n.startsWith("httpservices"), "update site must not ship " + n);
          cp.add(j.toString());
          try (ZipFile z = new ZipFile(j.toFile())) {
            openers |= z.getEntry("META-INF/services/org.chunkcdm.open.DatasetOpener") != null;
          }
        }
      }
    }
    assertTrue(cp.stream().anyMatch(s -> s.contains("plugins" + File.separator + "chunkcdm_")), "plugin jar with '_': " + cp);
    cp.add(target.resolve("it-imagej/ij.jar").toString());
    for (String dir : new String[] {"deps/host", "deps/thirdparty"}) {
      try (Stream<Path> s = Files.list(target.resolve(dir))) {
        for (Path j : (Iterable<Path>) s::iterator) {
          String n = j.getFileName().toString();
          if (n.startsWith("imglib2") || n.startsWith("jackson") || n.startsWith("aircompressor")) {
            cp.add(j.toString());
          }
        }
      }
    }
    // the probe and the synthetic volume, copied alone (test-classes would bring the netcdf-backed test opener)
    Path probe = target.resolve("probe-classes");
    for (String c : new String[] {"org/chunkcdm/fiji/probe/NoNetcdfProbe.class", "org/chunkcdm/fiji/SyntheticVolume.class"}) {
      Path to = probe.resolve(c);
      Files.createDirectories(to.getParent());
      Files.copy(target.resolve("test-classes").resolve(c), to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    cp.add(probe.toString());

    Fixtures.Dataset ds = Fixtures.manifest("blosc2").dataset("b2nd/b2nd_3d_u1_sframe.b2frame");
    Path out = target.resolve("probe-output.txt");
    Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-Djava.awt.headless=true", "-cp", String.join(File.pathSeparator, cp), "org.chunkcdm.fiji.probe.NoNetcdfProbe",
        ds.file().toString(), "b2nd_3d_u1_sframe").redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("probe timed out");
    }
    String text = Files.readString(out);
    assertEquals(0, p.exitValue(), text);
    assertTrue(text.contains("netcdf=false"), text);

    long sum = 0;
    for (int z = 0; z < 3; z++) {
      for (int y = 0; y < 70; y++) {
        for (int x = 0; x < 90; x++) {
          sum += SyntheticVolume.value(z, y, x);
        }
      }
    }
    assertTrue(text.contains("synthetic imglib2=" + sum + " stack=" + sum), text);
    if (openers) {
      long fsum = 0;
      for (byte b : ds.variables().get(0).expected()) {
        fsum += b & 0xff;
      }
      assertTrue(text.contains("fixture imglib2=" + fsum + " stack=" + fsum), text);
    } else {
      assertTrue(text.contains("ioerror ") && text.contains("netcdf-java (ucar.nc2, cdm-core) is not on the class path"), text);
    }
    assertFalse(text.contains("NoClassDefFoundError") || text.contains("Exception in thread"), text);
  }
}
