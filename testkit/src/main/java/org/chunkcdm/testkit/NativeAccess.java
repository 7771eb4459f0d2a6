package org.chunkcdm.testkit;

/**
 * What the FFM features of chunkcdm (one-copy reads, raw copies through memmove) should do in the tests' JVM, whose
 * surefire argLine grants native access: tests assert that they are on exactly where they can run, so that a
 * silent fallback fails instead of passing.
 */
public final class NativeAccess {
  private NativeAccess() {}

  /** Java 22 or later: critical FFM calls (memmove of raw copies). */
  public static boolean ffmExpected() {
    return Runtime.version().feature() >= 22;
  }

  /** Java 22+ on Linux x86-64 with cachestat(2) (kernel 6.5 or later): the one-copy pread reads. */
  public static boolean preadExpected() {
    if (!ffmExpected() || !"Linux".equals(System.getProperty("os.name"))
        || !"amd64".equals(System.getProperty("os.arch"))) {
      return false;
    }
    String[] k = System.getProperty("os.version", "0.0").split("[.-]");
    int major = Integer.parseInt(k[0]);
    int minor = k.length > 1 ? Integer.parseInt(k[1]) : 0;
    return major > 6 || major == 6 && minor >= 5;
  }
}
