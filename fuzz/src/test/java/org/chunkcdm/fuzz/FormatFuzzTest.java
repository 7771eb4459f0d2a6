package org.chunkcdm.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The format parsers through the public opener SPI (as TDS, the CLI and Fiji reach them): the fuzzer's bytes
 * become a file or a dataset directory, which is opened and whose first chunks are decoded.
 */
@ExtendWith(FuzzSupport.WarmUp.class)
class FormatFuzzTest {
  /** A {@code .ds} file: version line, JSON header, body. */
  @FuzzTest
  void dsFile(byte[] data) throws Exception {
    FuzzSupport.asFile("fuzz.ds", data, FuzzSupport::openAndRead);
  }

  /** A Bloscpack file ({@code .blp}): header, offsets, metadata, chunks. */
  @FuzzTest
  void bloscpackFile(byte[] data) throws Exception {
    FuzzSupport.asFile("fuzz.blp", data, FuzzSupport::openAndRead);
  }

  /** A contiguous Blosc2 frame, b2nd metalayer and msgpack metadata included. */
  @FuzzTest
  void blosc2Frame(byte[] data) throws Exception {
    FuzzSupport.asFile("fuzz.b2frame", data, FuzzSupport::openAndRead);
  }

  /**
   * A bcolz carray directory: the first 6 bytes are the lengths (big-endian u16) of meta/sizes, meta/storage and
   * __attrs__, which follow; the rest is the chunk file data/__0.blp.
   */
  @FuzzTest
  void bcolzCarray(byte[] data) throws Exception {
    if (data.length < 6) {
      return;
    }
    int[] len = new int[3];
    int p = 6;
    byte[][] part = new byte[4][];
    for (int i = 0; i < 3; i++) {
      len[i] = Math.min((data[2 * i] & 0xff) << 8 | (data[2 * i + 1] & 0xff), data.length - p);
      part[i] = java.util.Arrays.copyOfRange(data, p, p + len[i]);
      p += len[i];
    }
    part[3] = java.util.Arrays.copyOfRange(data, p, data.length);
    Path dir = FuzzSupport.scratch().resolve("fuzz.bcolz");
    FuzzSupport.write(dir.resolve("meta/sizes"), part[0]);
    FuzzSupport.write(dir.resolve("meta/storage"), part[1]);
    FuzzSupport.write(dir.resolve("__attrs__"), part[2]);
    FuzzSupport.write(dir.resolve("data/__0.blp"), part[3]);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(dir));
  }

  /**
   * A python-blosc2 {@code .b2z} archive: zip central directory and local headers, stored members read in place,
   * the key map, object registry and vlmeta carriers of {@code embed.b2e}, a CTable's schema and live-row mask.
   */
  @FuzzTest
  void b2zStore(byte[] data) throws Exception {
    Path p = FuzzSupport.scratch().resolve("fuzz.b2z");
    FuzzSupport.write(p, data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(p));
  }

  /**
   * The {@code embed.b2e} of a python-blosc2 {@code .b2d} directory (key map {@code estore_metadata}, object
   * registry, embedded values at offsets of its byte stream, vlmeta carriers) beside one real leaf file,
   * {@code grid/counts.b2nd} of the visible DictStore.
   */
  @FuzzTest
  void b2dKeyMap(byte[] data) throws Exception {
    Path dir = FuzzSupport.scratch().resolve("fuzz.b2d");
    Path leaf = dir.resolve("grid/counts.b2nd");
    if (!java.nio.file.Files.exists(leaf)) {
      java.nio.file.Files.createDirectories(leaf.getParent());
      java.nio.file.Files.copy(org.chunkcdm.testkit.Fixtures.manifest("blosc2-stores")
          .dataset("dictstore/v_dict_mixed.b2d").file().resolve("grid/counts.b2nd"), leaf);
    }
    FuzzSupport.write(dir.resolve("embed.b2e"), data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(dir));
  }

  /** A python-blosc2 EmbedStore ({@code .b2e}): one frame whose byte stream holds every value. */
  @FuzzTest
  void b2eStore(byte[] data) throws Exception {
    Path p = FuzzSupport.scratch().resolve("fuzz.b2e");
    FuzzSupport.write(p, data);
    FuzzSupport.expectIoOnly(() -> FuzzSupport.openAndRead(p));
  }
}
