package org.chunkcdm.nativeblosc;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.chunkcdm.blosc.Blosc;

/**
 * Native tests skip when c-blosc is not installed, except when CHUNKCDM_REQUIRE_NATIVE=1 (CI): then a
 * missing library fails the test.
 */
final class NativeRequired {
  private NativeRequired() {}

  static boolean required() {
    return "1".equals(System.getenv("CHUNKCDM_REQUIRE_NATIVE")) || Boolean.getBoolean("chunkcdm.requireNative");
  }

  /** Returns the binding, or skips/fails as the environment demands. */
  static JnaBlosc binding() {
    JnaBlosc b = new JnaBlosc();
    if (required()) {
      assertTrue(b.isAvailable(), "CHUNKCDM_REQUIRE_NATIVE=1 but " + b.version());
      assertTrue(Blosc.nativeAvailable(), "the Blosc facade did not load the native binding: " + Blosc.nativeVersion());
    } else {
      assumeTrue(b.isAvailable(), "native c-blosc not installed: " + b.version());
    }
    return b;
  }
}
