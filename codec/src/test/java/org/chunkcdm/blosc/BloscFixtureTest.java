package org.chunkcdm.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every Blosc chunk of the fixtures decodes, in pure Java, to the expected bytes. */
class BloscFixtureTest {
  static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
      .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  static Stream<Fixtures.Dataset> standaloneChunks() {
    return Fixtures.manifest("blosc2").datasets("chunk-blosc2", "chunk-blosc1").stream();
  }

  /** Zeroes the manifest's undefined byte ranges (uninitialized special chunks). */
  static byte[] maskUndefined(JsonNode dataset, byte[] data) {
    byte[] out = data.clone();
    for (JsonNode r : dataset.path("undefined_byte_ranges")) {
      long a = r.isArray() ? r.get(0).asLong() : r.path("start").asLong();
      long b = r.isArray() ? r.get(1).asLong() : r.path("end").asLong(a);
      for (long i = a; i < Math.min(b, out.length); i++) {
        out[(int) i] = 0;
      }
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("standaloneChunks")
  void standaloneChunkDecodes(Fixtures.Dataset d) throws Exception {
    byte[] chunk = Files.readAllBytes(d.file());
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    JsonNode mh = d.json().path("chunk_header");
    assertEquals(d.json().path("nbytes").asInt(), h.nbytes());
    assertEquals(d.json().path("cbytes").asInt(), h.cbytes());
    assertEquals(chunk.length, h.cbytes());
    if (mh.has("typesize")) {
      assertEquals(mh.get("typesize").asInt(), h.typesize());
    }
    if (mh.has("version")) {
      assertEquals(mh.get("version").asInt(), h.version());
    }
    byte[] out = new byte[h.nbytes()];
    Blosc.decompress(chunk, 0, chunk.length, out, 0, Blosc.Impl.JAVA);
    byte[] expected = d.variables().get(0).expected();
    assertArrayEquals(maskUndefined(d.json(), expected), maskUndefined(d.json(), out), d.path());
  }

  @ParameterizedTest
  @MethodSource("standaloneChunks")
  void rangesEqualSlicesOfTheWholeDecode(Fixtures.Dataset d) throws Exception {
    byte[] chunk = Files.readAllBytes(d.file());
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    byte[] all = new byte[h.nbytes()];
    Blosc.decompress(chunk, 0, chunk.length, all, 0, Blosc.Impl.JAVA);
    all = maskUndefined(d.json(), all);
    Random rnd = new Random(d.path().hashCode());
    BloscChunk data = BloscChunk.parse(chunk, 0, chunk.length);
    for (int i = 0; i < 40 && all.length > 0; i++) {
      int a = rnd.nextInt(all.length);
      int n = 1 + rnd.nextInt(Math.min(all.length - a, i < 20 ? 16 : all.length));
      byte[] got = new byte[n];
      Blosc.decompressRange(chunk, 0, chunk.length, a, n, got, 0);
      assertArrayEquals(Arrays.copyOfRange(all, a, a + n), maskUndefined(shift(d.json(), a), got), d + " range " + a + "+" + n);
      byte[] got2 = new byte[n];
      data.decodeRange(a, n, got2, 0);
      assertArrayEquals(got, got2);
    }
  }

  private static JsonNode shift(JsonNode d, int by) {
    // undefined ranges relative to a slice starting at `by`
    com.fasterxml.jackson.databind.node.ObjectNode o = JSON.createObjectNode();
    com.fasterxml.jackson.databind.node.ArrayNode arr = o.putArray("undefined_byte_ranges");
    for (JsonNode r : d.path("undefined_byte_ranges")) {
      long a = r.isArray() ? r.get(0).asLong() : r.path("start").asLong();
      long b = r.isArray() ? r.get(1).asLong() : r.path("end").asLong(a);
      arr.addArray().add(Math.max(0, a - by)).add(Math.max(0, b - by));
    }
    return o;
  }

  @Test
  void aPointReadDecodesOneBlock() throws Exception {
    Path p = Fixtures.family("blosc2").resolve("chunks/chunk_blosclz_shuffle_i4_multiblock.chunk");
    byte[] chunk = Files.readAllBytes(p);
    BloscHeader h = BloscHeader.parse(chunk, 0, chunk.length);
    assertTrue(h.nblocks() > 2, "a multi-block chunk");
    byte[] one = new byte[4];
    long before = BloscStats.blocksDecoded();
    Blosc.decompressRange(chunk, 0, chunk.length, h.blocksize() + 8, 4, one, 0);
    assertEquals(1, BloscStats.blocksDecoded() - before);
    // with DELTA, block 0 is needed as the reference: two blocks
    Path d = Fixtures.family("blosc2").resolve("chunks/chunk_zstd_delta_shuffle_i2.chunk");
    byte[] dc = Files.readAllBytes(d);
    BloscHeader dh = BloscHeader.parse(dc, 0, dc.length);
    assertTrue(dh.hasDelta() && dh.nblocks() > 2);
    before = BloscStats.blocksDecoded();
    Blosc.decompressRange(dc, 0, dc.length, 2 * dh.blocksize() + 2, 2, one, 0);
    assertEquals(2, BloscStats.blocksDecoded() - before);
  }

  /** bcolz chunk files: 16-byte bcolz header + one Blosc1 chunk, in file order = the carray's bytes. */
  static Stream<Arguments> bcolzCarrays() throws Exception {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : Fixtures.manifest("bcolz").datasets()) {
      Path root = d.file();
      for (Fixtures.Variable v : d.variables()) {
        Path dir = d.kind().contains("ctable") ? root.resolve(v.name()) : root;
        if (Files.isRegularFile(dir.resolve("meta/sizes"))) {
          out.add(Arguments.of(d.path() + ":" + v.name(), dir, v));
        }
      }
    }
    assertTrue(out.size() > 50, "bcolz carrays found: " + out.size());
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bcolzCarrays")
  void bcolzChunkFilesDecodeToTheCarray(String name, Path dir, Fixtures.Variable v) throws Exception {
    JsonNode sizes = JSON.readTree(dir.resolve("meta/sizes").toFile());
    JsonNode storage = JSON.readTree(dir.resolve("meta/storage").toFile());
    long rows = sizes.path("shape").get(0).asLong();
    long chunklen = storage.path("chunklen").asLong();
    long files = (rows + chunklen - 1) / chunklen;
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (long i = 0; i < files; i++) {
      byte[] f = Files.readAllBytes(dir.resolve("data/__" + i + ".blp"));
      byte[] dec = new byte[BloscHeader.parse(f, 16, f.length - 16).nbytes()];
      Blosc.decompress(f, 16, f.length - 16, dec, 0, Blosc.Impl.JAVA);
      all.write(dec);
    }
    byte[] expected = v.expected();
    byte[] got = all.toByteArray();
    String dtype = storage.path("dtype").asText();
    if (dtype.startsWith(">")) {
      assertEquals(expected.length, got.length);
    } else {
      assertArrayEquals(expected, got, name);
    }
  }

  /** Every Blosc chunk inside every Bloscpack file (positions from the manifest). */
  static Stream<Fixtures.Dataset> bloscpackFiles() {
    return Fixtures.manifest("bloscpack").datasets().stream();
  }

  @ParameterizedTest
  @MethodSource("bloscpackFiles")
  void bloscpackChunksDecode(Fixtures.Dataset d) throws Exception {
    byte[] file = Files.readAllBytes(d.file());
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (JsonNode c : d.json().path("observed").path("chunks")) {
      int off = c.get(0).asInt();
      int nbytes = c.get(1).asInt();
      int cbytes = c.get(2).asInt();
      BloscHeader h = BloscHeader.parse(file, off, cbytes);
      assertEquals(nbytes, h.nbytes());
      assertEquals(cbytes, h.cbytes());
      byte[] dec = new byte[nbytes];
      Blosc.decompress(file, off, cbytes, dec, 0, Blosc.Impl.JAVA);
      all.write(dec);
    }
    byte[] expected = d.variables().get(0).expected();
    byte[] got = all.toByteArray();
    assertEquals(expected.length, got.length);
    String p = d.path();
    if (!p.contains("fortran") && !p.contains("bigendian") && !p.contains("structured")) {
      assertArrayEquals(expected, got, p);
    }
  }
}
