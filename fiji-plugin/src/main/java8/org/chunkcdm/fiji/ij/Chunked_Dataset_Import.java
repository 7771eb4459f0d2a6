package org.chunkcdm.fiji.ij;

import ij.IJ;
import ij.plugin.PlugIn;

/**
 * File › Import › Chunked Dataset (chunkcdm)... (see plugins.config). Compiled for Java 8 so that an old Java
 * loads it and shows a clear message; the real command ({@code ImportCommand}, Java 17) is loaded only after the
 * version check.
 */
public class Chunked_Dataset_Import implements PlugIn {
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
      IJ.error("Chunked Dataset (chunkcdm)", "chunkcdm needs Java 17 or newer; this ImageJ runs Java "
          + System.getProperty("java.version") + ".\nInstall a Fiji/ImageJ bundled with Java 17+ (or start ImageJ with a "
          + "Java 17+ runtime).");
      return;
    }
    try {
      Class<?> c = Class.forName("org.chunkcdm.fiji.ij.ImportCommand", true, Chunked_Dataset_Import.class.getClassLoader());
      Object cmd = c.getDeclaredConstructor().newInstance();
      c.getMethod("run", String.class).invoke(cmd, arg);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable t = e.getCause();
      IJ.error("Chunked Dataset (chunkcdm)", "chunkcdm failed: " + t);
    } catch (ReflectiveOperationException | LinkageError e) {
      IJ.error("Chunked Dataset (chunkcdm)", "chunkcdm is not installed completely (" + e + ").\nReinstall the chunkcdm "
          + "update site or unzip chunkcdm-imagej.zip into the ImageJ folder again.");
    }
  }
}
