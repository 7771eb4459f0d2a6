package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ImageJ 1.54p in batch mode ({@code -batch}, no ImageJ window) with {@code chunkcdm-imagej.zip} unzipped into
 * its folder, as a cluster job runs it: the documented macro lines open a fixture ({@code run("Chunked Dataset
 * (chunkcdm)...", ...)} with {@code -ijpath}, and from the ImageJ folder as ImageJ's launcher starts it;
 * {@code call("org.chunkcdm.fiji.ij.ChunkcdmImageJ.open", ...)} as the first line with {@code -Dplugins.dir}), with
 * pixel values checked against the fixture; a bad variable or path ends the macro with one line on the console
 * and ImageJ exits within seconds (no dialog waiting for a click). Every run has a hard timeout and a scratch
 * {@code user.home}, so the user's ImageJ preferences are never touched.
 */
class ImageJBatchIT {
  static final String DATASET = "b2nd/b2nd_3d_u1_sframe.b2frame";
  static final long TIMEOUT_S = 120;
  /** An error must end the run well before the timeout: ImageJ's start plus the open, not a wait. */
  static final double ERROR_EXIT_S = 30;

  static String xvfb;
  static Path home;
  static Path userHome;
  static Fixtures.Dataset ds;
  static String variable;

  @BeforeAll
  static void imageJFolder() throws Exception {
    xvfb = ImageJZipIT.xvfbRun();
    Path target = Paths.get("target").toAbsolutePath();
    Path run = target.resolve("it-batch");
    ImageJZipIT.deleteTree(run);
    home = Files.createDirectories(run.resolve("ImageJ"));
    userHome = Files.createDirectories(run.resolve("user-home"));
    Files.copy(target.resolve("it-imagej/ij.jar"), home.resolve("ij.jar"));
    ImageJZipIT.unzip(target.resolve("chunkcdm-imagej.zip"), home);
    ds = Fixtures.manifest("blosc2").dataset(DATASET);
    variable = ds.file().getFileName().toString().replaceFirst("\\.b2frame$", "");
  }

  record Run(int rc, double seconds, String out, String err) {}

  /** {@code xvfb-run java -Duser.home=<scratch> <jvmArgs> -jar <home>/ij.jar <ijArgs>} in {@code cwd}. */
  static Run imagej(Path cwd, List<String> jvmArgs, String... ijArgs) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(xvfb, "-a", Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-Duser.home=" + userHome));
    cmd.addAll(jvmArgs);
    cmd.add("-jar");
    cmd.add(home.resolve("ij.jar").toString());
    cmd.addAll(List.of(ijArgs));
    Path out = Files.createTempFile(userHome, "out", ".txt");
    Path err = Files.createTempFile(userHome, "err", ".txt");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
    double s = (System.nanoTime() - t0) / 1e9;
    if (!exited) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    Run r = new Run(exited ? p.exitValue() : -1, s, Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
    assertTrue(exited, "ImageJ did not exit within " + TIMEOUT_S + " s (a dialog waiting?): " + r);
    return r;
  }

  static Path macro(String name, String... lines) throws Exception {
    Path m = userHome.resolve(name);
    Files.writeString(m, String.join("\n", lines) + "\n");
    return m;
  }

  /** Macro lines printing the open image's title, dimensions, type and three pixels of slices 1, 12, 23, 34, 45. */
  static String[] describeImage(String prefix) {
    return new String[] {
        "print(\"" + prefix + "title=\" + getTitle());",
        "getDimensions(w, h, c, z, t);",
        "print(\"" + prefix + "dims=\" + w + \",\" + h + \",\" + c + \",\" + z + \",\" + t + \" bitDepth=\" + bitDepth());",
        "for (s = 1; s <= nSlices; s += 11) {",
        "  setSlice(s);",
        "  print(\"" + prefix + "pixel \" + s + \" \" + getPixel(0, 0) + \" \" + getPixel(17, 9) + \" \" + getPixel(w - 1, h - 1));",
        "}"};
  }

  /** What {@link #describeImage} prints for the fixture: its values, from the manifest's expected bytes. */
  static List<String> expectedLines(String prefix) {
    long[] shape = ds.variables().get(0).shape(); // 45 x 50 x 55 uint8
    byte[] v = ds.variables().get(0).expected();
    int h = (int) shape[1];
    int w = (int) shape[2];
    List<String> out = new ArrayList<>();
    out.add(prefix + "title=" + ds.file().getFileName() + ":" + variable);
    out.add(prefix + "dims=" + w + "," + h + ",1," + shape[0] + ",1 bitDepth=8");
    for (int s = 1; s <= shape[0]; s += 11) {
      int z = s - 1;
      out.add(prefix + "pixel " + s + " " + (v[z * h * w] & 0xff) + " " + (v[(z * h + 9) * w + 17] & 0xff) + " "
          + (v[(z * h + h - 1) * w + w - 1] & 0xff));
    }
    return out;
  }

  static void assertLines(List<String> want, Run r) {
    List<String> got = r.out().lines().toList();
    for (String line : want) {
      assertTrue(got.contains(line), "missing '" + line + "' in ImageJ's output:\n" + r.out() + "\nstderr:\n" + r.err());
    }
  }

  /** The documented run(...) line, then call(...) (ImageJ knows its plugins once a menu command ran). */
  @Test
  void runLineOpensTheDatasetWithIjpath() throws Exception {
    String[] lines = describeImage("run ");
    List<String> m = new ArrayList<>();
    m.add("run(\"Chunked Dataset (chunkcdm)...\", \"path=[" + ds.file() + "] variable=[" + variable + "]\");");
    m.addAll(List.of(lines));
    m.add("r = call(\"org.chunkcdm.fiji.ij.ChunkcdmImageJ.open\", \"" + ds.file() + "\", \"" + variable + "\");");
    m.add("print(\"call=\" + r);");
    m.add("print(\"done\");");
    Run r = imagej(userHome, List.of(), "-ijpath", home.toString(), "-batch",
        macro("run.ijm", m.toArray(new String[0])).toString());
    assertEquals(0, r.rc(), r.toString());
    List<String> want = new ArrayList<>(expectedLines("run "));
    want.add("call=" + ds.file().getFileName() + ":" + variable);
    want.add("done");
    assertLines(want, r);
    assertEquals("", r.err(), "nothing on the console but the macro's output");
    assertFalse(Files.exists(userHome.resolve(".imagej/IJ_Prefs.txt")), "a batch run saves no preferences");
  }

  /** call(...) as the macro's first line: ImageJ finds the class through -Dplugins.dir; a failure is returned. */
  @Test
  void callLineOpensTheDatasetWithPluginsDir() throws Exception {
    List<String> m = new ArrayList<>();
    m.add("r = call(\"org.chunkcdm.fiji.ij.ChunkcdmImageJ.open\", \"" + ds.file() + "\", \"" + variable + "\");");
    m.add("print(\"call=\" + r);");
    m.addAll(List.of(describeImage("call ")));
    m.add("e = call(\"org.chunkcdm.fiji.ij.ChunkcdmImageJ.open\", \"" + ds.file() + "\", \"nope\");");
    m.add("print(\"failed=\" + e);");
    m.add("print(\"done\");");
    Run r = imagej(userHome, List.of("-Dplugins.dir=" + home), "-batch", macro("call.ijm", m.toArray(new String[0])).toString());
    assertEquals(0, r.rc(), r.toString());
    List<String> want = new ArrayList<>(expectedLines("call "));
    want.add("call=" + ds.file().getFileName() + ":" + variable);
    want.add("failed=error: " + ds.file() + ": no variable 'nope'; its variables: " + variable);
    want.add("done");
    assertLines(want, r);
  }

  /**
   * A bad variable or path in the run(...) line: the message on the console (stderr, one line naming the file),
   * the rest of the macro skipped, ImageJ gone within seconds; with -ijpath, and started from the ImageJ folder.
   */
  @Test
  void anErrorEndsTheMacroAndImageJExits() throws Exception {
    Path missing = userHome.resolve("no-such.b2frame");
    String[][] cases = {
        {"nope", ds.file().toString(), ds.file() + ": no variable 'nope'; its variables: " + variable},
        {variable, missing.toString(), missing + ": no such file or directory"}};
    int n = 0;
    for (String[] c : cases) {
      Path m = macro("error" + n++ + ".ijm", "print(\"before\");",
          "run(\"Chunked Dataset (chunkcdm)...\", \"path=[" + c[1] + "] variable=[" + c[0] + "]\");", "print(\"after\");");
      for (boolean fromFolder : new boolean[] {false, true}) {
        Run r = fromFolder ? imagej(home, List.of(), "-batch", m.toString())
            : imagej(userHome, List.of(), "-ijpath", home.toString(), "-batch", m.toString());
        String what = c[0] + " / " + c[1] + (fromFolder ? " from the ImageJ folder" : " with -ijpath") + ": " + r;
        assertTrue(r.seconds() < ERROR_EXIT_S, what);
        assertTrue(r.out().contains("before") && !r.out().contains("after"), what);
        assertEquals(List.of("chunkcdm: " + c[2]), r.err().lines().toList(), what);
        assertFalse(r.err().contains("Exception") || r.out().contains("Exception"), what);
      }
    }
  }
}
