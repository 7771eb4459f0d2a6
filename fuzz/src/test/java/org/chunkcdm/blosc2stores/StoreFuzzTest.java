package org.chunkcdm.blosc2stores;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.fuzz.FuzzSupport;
import org.chunkcdm.testkit.Fixtures;

/**
 * python-blosc2's container index parsers through the public opener SPI: the zip central directory and local
 * headers of a {@code .b2z}, the key map ({@code estore_metadata}), object registry and {@code __vlmeta__} carriers
 * of an {@code embed.b2e}, a CTable's {@code _meta} schema and live-row mask, embedded values at offsets of the
 * key-map stream. The fuzzer's bytes become the container (or its key-map frame), which is opened and whose
 * first chunks of up to 8 variables are decoded.
 */
class StoreFuzzTest {
  /** One-time set-up outside the 1 s per-input limit (FuzzSupport#warmUp). */
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() {
    FuzzSupport.warmUp(StoreFuzzTest.class);
  }

  /** A {@code .b2z} archive: zip directory, stored members, embed.b2e, leaves, a CTable's parts. */
  @FuzzTest
  void b2zStore(byte[] data) throws Exception {
    Path p = FuzzSupport.scratch().resolve("fuzz.b2z");
    FuzzSupport.write(p, data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(p));
  }

  /**
   * The {@code embed.b2e} of a {@code .b2d} directory (key map, object registry, embedded values and vlmeta
   * carriers) beside one real leaf file, {@code grid/counts.b2nd} of the visible DictStore.
   */
  @FuzzTest
  void b2dKeyMap(byte[] data) throws Exception {
    Path dir = FuzzSupport.scratch().resolve("fuzz.b2d");
    Path leaf = dir.resolve("grid/counts.b2nd");
    if (!Files.exists(leaf)) {
      Files.createDirectories(leaf.getParent());
      Files.copy(Fixtures.manifest("blosc2-stores").dataset("dictstore/v_dict_mixed.b2d").file()
          .resolve("grid/counts.b2nd"), leaf);
    }
    FuzzSupport.write(dir.resolve("embed.b2e"), data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(dir));
  }

  /** An EmbedStore file ({@code .b2e}): one frame whose byte stream holds every value. */
  @FuzzTest
  void b2eStore(byte[] data) throws Exception {
    Path p = FuzzSupport.scratch().resolve("fuzz.b2e");
    FuzzSupport.write(p, data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(p));
  }
}
