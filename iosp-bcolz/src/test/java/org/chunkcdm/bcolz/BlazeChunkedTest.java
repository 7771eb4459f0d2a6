package org.chunkcdm.bcolz;

import org.chunkcdm.testkit.TestFiles;
import static org.chunkcdm.bcolz.MalformedTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/**
 * The Blaze "chunked" persistent format (docs/specs/blaze-persistent-formats.txt): {@code meta/sizes},
 * {@code meta/storage}, {@code meta/attributes} and {@code data/__N__.bin} superchunks in Bloscpack layout.
 * No writer of this format exists, so these tests build such directories from real Bloscpack fixture files
 * (each used whole as one superchunk; nothing is encoded here) and expect the concatenation of their
 * expected values.
 */
class BlazeChunkedTest {
  @TempDir
  Path tmp;

  static Fixtures.Dataset blp(String path) {
    return Fixtures.manifest("bloscpack").dataset(path);
  }

  /** Writes a Blaze directory whose superchunk i is a copy of fixture file {@code parts[i]}; returns its expected raw. */
  static byte[] blaze(Path dir, int base, String dtype, String shape, int chunklen, List<String> parts)
      throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    Files.createDirectories(dir.resolve("data"));
    for (int i = 0; i < parts.size(); i++) {
      Fixtures.Dataset d = blp(parts.get(i));
      Files.copy(d.file(), dir.resolve("data/__" + (i + base) + "__.bin"));
      raw.write(d.variables().get(0).expected());
    }
    TestFiles.write(dir.resolve("meta/sizes"), "{\"shape\": " + shape + ", \"nbytes\": " + raw.size()
        + ", \"cbytes\": 17316745}\n");
    TestFiles.write(dir.resolve("meta/storage"), "{\"dtype\": \"" + dtype + "\", \"cparams\": {\"shuffle\": true,"
        + " \"clevel\": 5}, \"chunklen\": " + chunklen + ", \"dflt\": 0.0, \"expectedlen\": 10000000}\n");
    TestFiles.write(dir.resolve("meta/attributes"), "{\"temperature\": 11.4, \"scale\": \"Celsius\","
        + " \"coords\": {\"lat\": 40.1, \"lon\": 0.5}}\n");
    return raw.toByteArray();
  }

  static void assertReads(Path dir, String name, Check.Expect exp) throws IOException {
    for (String loc : List.of(dir.toString(), dir.resolve("meta/sizes").toString(), dir.resolve("meta/attributes").toString())) {
      try (NetcdfFile nc = NetcdfFiles.open(loc)) {
        Variable v = nc.findVariable(name);
        exp.assertWhole(v);
        exp.assertSections(v);
        assertEquals("Celsius", v.findAttribute("scale").getStringValue());
        assertEquals(40.1, v.findAttribute("coords.lat").getNumericValue().doubleValue());
        assertEquals("Blaze chunked", nc.findGlobalAttribute("bcolz_layout").getStringValue());
        assertEquals("blosc blosclz clevel 5, byte shuffle", v.findAttribute("compression").getStringValue());
      }
    }
    try (NetcdfFile nc = NetcdfDatasets.openDataset("file:" + dir.toAbsolutePath())) {
      exp.assertWhole(((VariableDS) nc.findVariable(name)).getOriginalVariable());
    }
  }

  /**
   * A Blaze directory {@code tmp/<name>} of these superchunks ({@code numpy} dtype, as {@code dtype} in
   * meta/storage) reads as their bytes in every way it is opened.
   */
  private void readsAs(String name, String what, int base, String dtype, String numpy, long[] shape, int chunklen,
      String... parts) throws IOException {
    Path dir = tmp.resolve(name);
    byte[] raw = blaze(dir, base, dtype, java.util.Arrays.toString(shape), chunklen, List.of(parts));
    assertReads(dir, name, new Check.Expect(what, DType.parseNumpy(numpy), shape, raw));
  }

  /** Superchunks numbered from 0 and, as in the document's example listing, from 1. */
  @ParameterizedTest(name = "numbered from {0}")
  @ValueSource(ints = {0, 1})
  void bytesSuperchunks(int base) throws IOException {
    readsAs("b", "blaze u1", base, "uint8", "|u1", new long[] {49000}, 20000, "bytes/checksum_none_blosclz.blp",
        "bytes/checksum_md5_snappy.blp", "bytes/metadata_default_args.blp");
  }

  /** Memcpy-only superchunks (readable by any Blosc decoder) with a one-row last superchunk. */
  @Test
  void memcpySuperchunks() throws IOException {
    readsAs("m", "blaze memcpy", 0, "uint8", "|u1", new long[] {30001}, 30000, "bytes/clevel0_lz4_ts8.blp",
        "bytes/one_byte_defaults.blp");
  }

  /** 2-D rows: chunklen counts rows of 4 bytes. */
  @Test
  void twoDimensional() throws IOException {
    readsAs("t", "blaze 2-d", 0, "uint8", "|u1", new long[] {12250, 4}, 5000, "bytes/checksum_sha256_blosclz.blp",
        "bytes/checksum_crc32_lz4hc.blp", "bytes/metadata_default_args.blp");
  }

  /** float64 superchunks taken from ndarray files (their metadata section is skipped). */
  @Test
  void float64() throws IOException {
    readsAs("f", "blaze f8", 0, "float64", "<f8", new long[] {1600}, 800, "ndarray/dtype_float64_zlib_shuf1.blp",
        "ndarray/dtype_float64_zlib_shuf1.blp");
  }

  @Test
  void superchunkShorterThanChunklen() throws IOException {
    Path dir = tmp.resolve("s");
    blaze(dir, 0, "uint8", "[60000]", 30000, List.of("bytes/clevel0_lz4_ts8.blp", "bytes/one_byte_defaults.blp"));
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("s").read()), "__1__.bin", "chunk 1",
          "holds 1 bytes", "needs 30000");
    }
    Files.delete(dir.resolve("data/__1__.bin"));
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("s").read("35000")), "__1__.bin",
          "missing");
    }
  }

  @Test
  void damagedSuperchunk() throws IOException {
    Path dir = tmp.resolve("d");
    blaze(dir, 0, "uint8", "[30001]", 30000, List.of("bytes/clevel0_lz4_ts8.blp", "bytes/one_byte_defaults.blp"));
    Fixtures.Dataset d = blp("bytes/clevel0_lz4_ts8.blp");
    long at = d.json().path("observed").path("chunks").get(2).get(0).asLong();
    TestFiles.flip(dir.resolve("data/__0__.bin"), at + 100);
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.findVariable("d");
      v.setCaching(false);
      assertEquals(101, v.read("0:100").getSize()); // chunk 0 of the superchunk is intact and still reads
      assertMentions(assertThrows(IOException.class, v::read), "__0__.bin", "chunk 2", "adler32 checksum mismatch");
    } catch (ucar.ma2.InvalidRangeException e) {
      throw new AssertionError(e);
    }
  }
}
