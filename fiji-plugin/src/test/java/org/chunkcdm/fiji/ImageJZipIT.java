package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.imageio.ImageIO;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A real ImageJ 1.54p (ij.jar from Maven Central, copied by the build) in a fresh folder with
 * {@code chunkcdm-imagej.zip} unzipped into it, started under {@code xvfb-run} with a macro that runs the menu
 * command exactly as a user's macro would ({@code run("Chunked Dataset (chunkcdm)...", "path=[...]
 * variable=[...]")}), moves through slices, writes pixel values and saves a screenshot and the displayed plane
 * as PNG. Asserts the macro's output and both PNGs against the fixture's expected values. Every run has a hard
 * timeout (a macro error opens a modal dialog that would wait forever). Runs in the integration-test phase,
 * after {@code package} made the zip. Fails when xvfb-run is missing and CI=true (skips otherwise).
 */
class ImageJZipIT {
  static final String DATASET = "b2nd/b2nd_3d_u1_sframe.b2frame";
  static final long TIMEOUT_S = 180;

  /** xvfb-run's path; fails under CI=true when it is missing, else skips the calling test. */
  static String xvfbRun() {
    String xvfb = onPath("xvfb-run");
    if (xvfb == null) {
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        fail("xvfb-run is not installed, but CI=true: .ci/run must install xvfb (apt-get install -y xvfb)");
      }
      Assumptions.assumeTrue(false, "xvfb-run not installed (apt-get install xvfb); the real-ImageJ tests need it");
    }
    return xvfb;
  }

  /** A fresh ImageJ folder {@code target/<run>/ImageJ}: ij.jar and the unzipped chunkcdm-imagej.zip. */
  static Path installImageJ(String run) throws IOException {
    Path target = Paths.get("target").toAbsolutePath();
    Path zip = target.resolve("chunkcdm-imagej.zip");
    Path ijJar = target.resolve("it-imagej/ij.jar");
    assertTrue(Files.isRegularFile(zip), zip + " missing: run mvn package/verify");
    assertTrue(Files.isRegularFile(ijJar), ijJar + " missing: the build copies ij.jar there");
    Path home = target.resolve(run + "/ImageJ");
    deleteTree(home.getParent());
    Files.createDirectories(home);
    Files.copy(ijJar, home.resolve("ij.jar"));
    unzip(zip, home);
    return home;
  }

  @Test
  void macroOpensTheFixtureInRealImageJ() throws Exception {
    String xvfb = xvfbRun();
    Path home = installImageJ("it-run");
    assertTrue(Files.isDirectory(home.resolve("plugins/chunkcdm")));
    assertTrue(!Files.exists(home.resolve("plugins/chunkcdm/ij-1.54p.jar")), "the zip must not carry ij.jar");

    Fixtures.Dataset ds = Fixtures.manifest("blosc2").dataset(DATASET);
    Fixtures.Variable fv = ds.variables().get(0);
    long[] shape = fv.shape(); // 45 x 50 x 55 uint8
    byte[] expected = fv.expected();
    String variable = ds.file().getFileName().toString().replaceFirst("\\.b2frame$", "");
    Path out = home.resolve("macro-output.txt");
    Path shot = home.resolve("screenshot.png");
    Path plane = home.resolve("plane23.png");
    String macro = String.join("\n",
        "run(\"Chunked Dataset (chunkcdm)...\", \"path=[" + ds.file().toAbsolutePath() + "] variable=[" + variable + "]\");",
        "out = \"title=\" + getTitle() + \"\\n\";",
        "getDimensions(w, h, c, z, t);",
        "out = out + \"dims=\" + w + \",\" + h + \",\" + c + \",\" + z + \",\" + t + \"\\n\";",
        "out = out + \"bitDepth=\" + bitDepth() + \"\\n\";",
        "out = out + \"virtual=\" + is(\"Virtual Stack\") + \"\\n\";",
        "for (s = 1; s <= nSlices; s += 11) {",
        "  setSlice(s);",
        "  out = out + \"pixel \" + s + \" \" + getPixel(0, 0) + \" \" + getPixel(17, 9) + \" \" + getPixel(w - 1, h - 1) + \"\\n\";",
        "}",
        "setSlice(23);",
        "resetMinAndMax();",
        "run(\"Set... \", \"zoom=800\");",
        "wait(1500);",
        "run(\"Capture Screen\");",
        "saveAs(\"PNG\", \"" + shot + "\");",
        "close();",
        "setSlice(23);",
        "saveAs(\"PNG\", \"" + plane + "\");",
        "run(\"Chunked Dataset (chunkcdm)...\", \"path=[" + ds.file().toAbsolutePath() + "] variable=[" + variable
            + "] subset=[0:44:2,10:49,0:54:5] load\");",
        "out = out + \"subset=\" + getWidth() + \",\" + getHeight() + \",\" + nSlices + \",\" + is(\"Virtual Stack\") + \",\" + getPixel(3, 4) + \"\\n\";",
        "close();",
        "out = out + \"done\\n\";",
        "File.saveString(out, \"" + out + "\");",
        "run(\"Quit\");");
    Path macroFile = home.resolve("check.ijm");
    Files.writeString(macroFile, macro);

    String text = runMacro(xvfb, home, macroFile, out);
    assertTrue(text.contains("done"), text);
    assertTrue(Files.readString(home.resolveSibling("user-home").resolve(".imagej/IJ_Prefs.txt")).contains("chunkcdm.path="),
        "ImageJ's preferences went to the scratch user.home");
    assertTrue(text.contains("title=b2nd_3d_u1_sframe.b2frame:" + variable), text);
    assertTrue(text.contains("dims=55,50,1,45,1"), text);
    assertTrue(text.contains("bitDepth=8"), text);
    assertTrue(text.contains("virtual=1"), text);
    int w = (int) shape[2];
    int h = (int) shape[1];
    int lines = 0;
    for (int s = 1; s <= shape[0]; s += 11) {
      int z = s - 1;
      String want = "pixel " + s + " " + u8(expected, (z * h) * w) + " " + u8(expected, (z * h + 9) * w + 17) + " "
          + u8(expected, (z * h + h - 1) * w + w - 1);
      assertTrue(text.contains(want + "\n"), "expected line '" + want + "' in:\n" + text);
      lines++;
    }
    assertEquals(5, lines);
    // subset (stride in z and x, crop in y) loaded into RAM: 11 x 40 x 23, pixel (3,4) of slice 1 = [0, 14, 15]
    assertTrue(text.contains("subset=11,40,23,0," + u8(expected, (0 * h + 14) * w + 15) + "\n"), text);

    BufferedImage pl = ImageIO.read(plane.toFile());
    assertEquals(w, pl.getWidth());
    assertEquals(h, pl.getHeight());
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        assertEquals(u8(expected, (22 * h + y) * w + x), pl.getRaster().getSample(x, y, 0), "plane 23 PNG at " + x + "," + y);
      }
    }
    BufferedImage sc = ImageIO.read(shot.toFile());
    assertTrue(sc.getWidth() >= 400 && sc.getHeight() >= 300, "screenshot " + sc.getWidth() + "x" + sc.getHeight());
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < sc.getHeight(); y += 2) {
      for (int x = 0; x < sc.getWidth(); x += 2) {
        colours.add(sc.getRGB(x, y) & 0xffffff);
      }
    }
    assertTrue(colours.size() > 50, "screenshot looks blank: " + colours.size() + " colours");
  }

  /**
   * Runs {@code macro} in the ImageJ at {@code home} under xvfb-run (hard timeout) and returns the text it saved to
   * {@code out}; no output is a failure showing ImageJ's log. ImageJ runs with a scratch user.home beside
   * {@code home} ({@code user-home}), where it saves its preferences on quitting, not in the user's ~/.imagej.
   */
  static String runMacro(String xvfb, Path home, Path macro, Path out) throws Exception {
    Path userHome = Files.createDirectories(home.resolveSibling("user-home"));
    List<String> cmd = new ArrayList<>(List.of(xvfb, "-a", "-s", "-screen 0 1280x1024x24",
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "-Duser.home=" + userHome,
        "-jar", home.resolve("ij.jar").toString(), "-ijpath", home.toString(), "-macro", macro.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true)
        .redirectOutput(home.resolve("imagej.log").toFile());
    Process p = pb.start();
    boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
    if (!exited) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    String log = Files.exists(home.resolve("imagej.log")) ? Files.readString(home.resolve("imagej.log")) : "";
    assertTrue(Files.exists(out), "ImageJ wrote no macro output within " + TIMEOUT_S + " s (exited: " + exited
        + "; a modal error dialog?). ImageJ log:\n" + log);
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  static int u8(byte[] b, int i) {
    return b[i] & 0xff;
  }

  static String onPath(String exe) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Paths.get(dir, exe);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  static void unzip(Path zip, Path dir) throws IOException {
    try (InputStream in = Files.newInputStream(zip); ZipInputStream z = new ZipInputStream(in)) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        Path to = dir.resolve(e.getName()).normalize();
        assertTrue(to.startsWith(dir), "zip entry outside: " + e.getName());
        if (e.isDirectory()) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(z, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(q);
      }
    }
  }
}
