package org.chunkcdm.cli;

import static org.chunkcdm.cli.CliRuns.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.cli.CliRuns.Result;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MainTest {
  static Stream<Fixtures.Dataset> chunks() {
    return Fixtures.manifest("blosc2").datasets("chunk-blosc2", "chunk-blosc1").stream();
  }

  @ParameterizedTest
  @MethodSource("chunks")
  void bloscInfoPrintsTheHeader(Fixtures.Dataset d) {
    Result r = run("blosc", "info", d.file().toString());
    assertEquals(0, r.rc(), r.err());
    JsonNode h = d.json().path("chunk_header");
    String text = r.out();
    assertTrue(text.contains(String.valueOf(d.json().path("nbytes").asLong())), text);
    assertTrue(text.contains(String.valueOf(d.json().path("cbytes").asLong())), text);
    assertTrue(text.toLowerCase().contains("typesize"), text);
    assertTrue(!h.isMissingNode(), "manifest has a chunk_header");
  }

  @ParameterizedTest
  @MethodSource("chunks")
  void bloscDecompressWritesTheExpectedBytes(Fixtures.Dataset d, @TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("out.bin");
    Result r = run("blosc", "decompress", "--java", d.file().toString(), out.toString());
    assertEquals(0, r.rc(), r.err());
    byte[] expected = d.variables().get(0).expected();
    byte[] got = Files.readAllBytes(out);
    JsonNode undefined = d.json().path("undefined_byte_ranges");
    if (undefined.isArray() && undefined.size() > 0) {
      assertEquals(expected.length, got.length);
    } else {
      assertArrayEquals(expected, got);
    }
  }

  @Test
  void badInputExitsNonZeroWithOneLine(@TempDir Path tmp) throws Exception {
    Path junk = tmp.resolve("junk.chunk");
    Files.write(junk, new byte[] {2, 1, 0x21, 4, (byte) 0xff, (byte) 0xff, 0, 0, 0, 1, 0, 0, 16, 0, 0, 0});
    for (List<String> args : List.of(
        List.of("blosc", "info", junk.toString()),
        List.of("blosc", "decompress", junk.toString(), tmp.resolve("o").toString()),
        List.of("blosc", "info", tmp.resolve("missing").toString()),
        List.of("dump", tmp.resolve("missing.ds").toString()))) {
      Result r = run(args.toArray(new String[0]));
      assertTrue(r.rc() != 0, args + " should fail");
      assertEquals(1, r.err().strip().lines().count(), args + ": " + r.err());
      assertTrue(r.err().startsWith("chunkcdm: "), r.err());
    }
    Result r = run("blosc", "info");
    assertTrue(r.rc() != 0);
  }

  @Test
  void helpOnEveryCommand() {
    for (String[] args : new String[][] {{"--help"}, {"dump", "--help"}, {"blosc", "--help"}, {"blosc", "info", "--help"},
        {"blosc", "decompress", "--help"}}) {
      Result r = run(args);
      assertEquals(0, r.rc());
      assertTrue(r.out().contains("Usage:"), String.join(" ", args));
    }
  }

  /** The values of a small float64 carray appear in the dump exactly as netcdf-java prints them. */
  @Test
  void dumpPrintsABcolzCarrayWithItsValues() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset("carray/dtype_int16_lz4_c1_byteshuf_n1500_cl200");
    Result r = run("dump", d.file().toString());
    assertEquals(0, r.rc(), r.err());
    assertTrue(r.out().contains("short dtype_int16_lz4_c1_byteshuf_n1500_cl200(dtype_int16_lz4_c1_byteshuf_n1500_cl200_dim0=1500);")
        || r.out().contains("short dtype_int16_lz4_c1_byteshuf_n1500_cl200("), r.out().lines().limit(20).reduce("", (a, b) -> a + "\n" + b));
    java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(d.variables().get(0).expected()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    String data = r.out().substring(r.out().indexOf("data:"));
    String values = data.substring(data.indexOf('{') + 1, data.indexOf('}')).replaceAll("\\s+", "");
    String[] got = values.split(",");
    assertEquals(1500, got.length);
    for (int i = 0; i < 1500; i++) {
      assertEquals(String.valueOf(bb.getShort(2 * i)), got[i].trim(), "element " + i);
    }
  }

  @Test
  void dumpWorksOnACtableAndABloscpackFile() {
    Path samples = Fixtures.root().resolve("samples");
    Result ct = run("dump", "-H", samples.resolve("ctable_small_zstd").toString());
    assertEquals(0, ct.rc(), ct.err());
    assertTrue(ct.out().contains("dimensions:"), ct.out());
    Result blp = run("dump", "-v", "multidim_float32_100x3x4", samples.resolve("multidim_float32_100x3x4.blp").toString());
    assertEquals(0, blp.rc(), blp.err());
    assertTrue(blp.out().contains("float multidim_float32_100x3x4("), blp.out());
    Result badVar = run("dump", "-v", "nope", samples.resolve("multidim_float32_100x3x4.blp").toString());
    assertEquals(1, badVar.rc());
    assertTrue(badVar.err().contains("no variable 'nope'"), badVar.err());
  }

  @Test
  void dumpPrintsCdlOfTheBundledSamples() throws Exception {
    Path samples = Fixtures.root().resolve("samples");
    Result ds = run("dump", samples.resolve("nd_shared_dims.ds").toString());
    assertEquals(0, ds.rc(), ds.err());
    assertTrue(ds.out().startsWith("netcdf nd_shared_dims.ds {"), ds.out());
    assertTrue(ds.out().contains("dimensions:"), ds.out());
    assertTrue(ds.out().contains("data:"), ds.out());
  }
}
