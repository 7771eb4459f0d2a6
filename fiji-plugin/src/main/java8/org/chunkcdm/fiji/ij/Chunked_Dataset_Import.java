package org.chunkcdm.fiji.ij;

import ij.IJ;
import ij.Macro;
import ij.macro.Interpreter;
import ij.plugin.PlugIn;

/**
 * File › Import › Chunked Dataset (chunkcdm)... (see plugins.config). Compiled for Java 8 so that an old Java
 * loads it and shows a clear message; the real command ({@code ImportCommand}, Java 17) is loaded only after the
 * version check.
 */
public class Chunked_Dataset_Import implements PlugIn {
  static final String TITLE = "Chunked Dataset (chunkcdm)";

  /** Java feature version of this JVM (8 for "1.8.0_x", else the first number). */
  static int javaVersion() {
    String v = System.getProperty("java.specification.version", "0");
    try {
      if (v.startsWith("1.")) {
        return Integer.parseInt(v.substring(2));
      }
      int dot = v.indexOf('.');
      return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public void run(String arg) {
    int java = javaVersion();
    if (java < 17) {
      fail("chunkcdm needs Java 17 or newer; this ImageJ runs Java " + System.getProperty("java.version")
          + ". Install a Fiji/ImageJ bundled with Java 17+ (or start ImageJ with a Java 17+ runtime).");
      return;
    }
    try {
      Class<?> c = Class.forName("org.chunkcdm.fiji.ij.ImportCommand", true, Chunked_Dataset_Import.class.getClassLoader());
      Object cmd = c.getDeclaredConstructor().newInstance();
      Object failure = c.getMethod("run", String.class).invoke(cmd, arg);
      if (failure != null) {
        fail(failure.toString());
      }
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable t = e.getCause();
      fail(t instanceof OutOfMemoryError ? "out of memory; raise ImageJ's memory limit (Edit > Options > Memory & Threads)"
          : "chunkcdm failed unexpectedly (" + (t.getMessage() != null ? t.getMessage() : "no details") + "); please report it");
    } catch (ReflectiveOperationException | LinkageError e) {
      fail("chunkcdm is not installed completely (" + e.getMessage() + "). Reinstall the chunkcdm update site or unzip "
          + "chunkcdm-imagej.zip into the ImageJ folder again.");
    }
  }

  /**
   * Reports a failure. With ImageJ's window: an error dialog (which also ends a running macro) and, for a macro,
   * the Log. Without it (a {@code -batch} or headless run) nobody could click a dialog away: the message goes to
   * the console (stderr) as one line, and a running macro ends there, so that ImageJ exits.
   */
  public static void fail(String msg) {
    if (IJ.getInstance() == null) {
      System.err.println("chunkcdm: " + msg);
      System.err.flush();
      Interpreter macro = Interpreter.getInstance();
      if (macro != null) {
        macro.setIgnoreErrors(true); // end it without the macro error dialog
        macro.abort(msg);
      }
      return;
    }
    if (Macro.getOptions() != null) {
      IJ.log("chunkcdm: " + msg);
    }
    IJ.error(TITLE, msg);
  }
}
