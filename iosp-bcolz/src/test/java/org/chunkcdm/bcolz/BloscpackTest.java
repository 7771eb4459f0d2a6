package org.chunkcdm.bcolz;

import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.TestFiles;
import static org.chunkcdm.bcolz.MalformedTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Bloscpack format-3 specifics: checksums, metadata, structured records, damaged files. */
class BloscpackTest {
  @TempDir
  Path tmp;

  static List<Fixtures.Dataset> files() {
    return Fixtures.manifest("bloscpack").datasets();
  }

  /** Every file with a chunk checksum, the chunk whose frame gets one flipped byte. */
  static Stream<Arguments> checksummed() {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : files()) {
      JsonNode obs = d.json().path("observed");
      JsonNode chunks = obs.path("chunks");
      if (obs.path("header").path("checksum_id").asInt() != 0 && chunks.size() > 0
          && d.variables().get(0).expected().length > 0) {
        out.add(Arguments.of(d, chunks.size() - 1));
        if (chunks.size() > 1) {
          out.add(Arguments.of(d, 0));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} chunk {1}")
  @MethodSource("checksummed")
  void checksumMismatchNamesTheChunk(Fixtures.Dataset d, int chunk) throws IOException {
    JsonNode c = d.json().path("observed").path("chunks").get(chunk);
    long at = c.get(0).asLong();
    long ctbytes = c.get(2).asLong();
    Path f = TestFiles.copy(d.file(), tmp.resolve(d.file().getFileName().toString()));
    TestFiles.flip(f, at + ctbytes - 1); // last byte of the frame, covered by the digest
    try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
      Variable v = nc.getVariables().get(0);
      v.setCaching(false); // else netcdf-java reads small variables whole
      // read just the damaged chunk's elements (1-D variables), else everything
      long chunkSize = d.json().path("observed").path("header").path("chunk_size").asLong();
      int item = Check.dtype(d.variables().get(0)).itemSize();
      long n = d.variables().get(0).shape().length == 1 ? d.variables().get(0).shape()[0] : -1;
      String section = n > 0
          ? (chunk * chunkSize / item) + ":" + Math.min(n - 1, (chunk + 1) * chunkSize / item - 1)
              + (v.getRank() == 2 ? ",:" : "")
          : null;
      IOException e = assertThrows(IOException.class, () -> {
        if (section != null) {
          v.read(section);
        } else {
          v.read();
        }
      });
      assertMentions(e, f.toString(), "chunk " + chunk, "checksum mismatch",
          d.json().path("observed").path("header").path("checksum").asText());
    }
  }

  /** Every checksum kind present in the fixtures verifies on an intact file (the data test reads them all). */
  @Test
  void everyChecksumKindIsCovered() {
    java.util.Set<String> kinds = new java.util.TreeSet<>();
    for (Fixtures.Dataset d : files()) {
      kinds.add(d.json().path("observed").path("header").path("checksum").asText());
    }
    assertEquals(java.util.Set.of("None", "adler32", "crc32", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"),
        kinds);
  }

  @Test
  void metadataDigestMismatch() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bloscpack").dataset("bytes/metadata_uncompressed_sha256.blp");
    Path f = TestFiles.copy(d.file(), tmp.resolve("m.blp"));
    TestFiles.flip(f, 32 + 32 + 3); // inside the stored JSON text
    assertMentions(assertThrows(IOException.class, () -> NetcdfFiles.open(f.toString()).close()), "m.blp",
        "metadata sha256 checksum mismatch");
  }

  /** The user metadata of bytes files become global attributes (numbers typed, lists as arrays, nested dotted). */
  @Test
  void userMetadataAttributes() throws IOException {
    int checked = 0;
    for (Fixtures.Dataset d : files()) {
      JsonNode meta = d.json().path("user_metadata");
      if (!meta.isObject()) {
        continue;
      }
      try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) meta::fields) {
          JsonNode v = e.getValue();
          if (v.isObject()) {
            v.fields().forEachRemaining(n -> {
              Attribute a = nc.findGlobalAttribute(e.getKey() + "." + n.getKey());
              assertNotNull(a, d + ": " + e.getKey() + "." + n.getKey());
            });
            continue;
          }
          Attribute a = nc.findGlobalAttribute(e.getKey());
          assertNotNull(a, d + ": attribute " + e.getKey());
          if (v.isTextual()) {
            assertEquals(v.textValue(), a.getStringValue(), d + ": " + e.getKey());
          } else if (v.isIntegralNumber()) {
            assertEquals(v.longValue(), a.getNumericValue().longValue(), d + ": " + e.getKey());
          } else if (v.isArray() && v.size() > 0 && v.get(0).isIntegralNumber() && v.get(v.size() - 1).isIntegralNumber()) {
            assertEquals(v.size(), a.getLength(), d + ": " + e.getKey());
            assertEquals(v.get(v.size() - 1).longValue(), a.getNumericValue(v.size() - 1).longValue());
          }
          checked++;
        }
      }
    }
    assertTrue(checked >= 6, "metadata attributes checked: " + checked);
  }

  @Test
  void ndarrayMetadataAndCompressionAttributes() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bloscpack").dataset("ndarray/fortran_int64_50x7.blp");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      assertEquals("F", nc.findGlobalAttribute("order").getStringValue());
      Variable v = nc.findVariable("fortran_int64_50x7");
      String comp = v.findAttribute("compression").getStringValue();
      assertTrue(comp.contains("zstd") && comp.contains("byte shuffle") && comp.contains("adler32"), comp);
      assertEquals(null, v.findAttribute("_ChunkSizes"), "F-order chunks are not N-d boxes");
    }
    d = Fixtures.manifest("bloscpack").dataset("ndarray/multidim_float32_100x3x4.blp");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      // chunk_size 1000 bytes = 250 floats: not whole rows of 3x4, so the flat chunks are no N-d boxes
      assertEquals(null, nc.findVariable("multidim_float32_100x3x4").findAttribute("_ChunkSizes"));
    }
    d = Fixtures.manifest("bloscpack").dataset("ndarray/dtype_float32_zstd_shuf1.blp");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Attribute cs = nc.findVariable("dtype_float32_zstd_shuf1").findAttribute("_ChunkSizes");
      assertEquals(500, cs.getNumericValue(0).intValue()); // 2000-byte chunks of float32
    }
  }

  /** |V15 records: one opaque variable [200, 15], fields made little-endian, the layout given as an attribute. */
  @Test
  void structuredRecords() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bloscpack").dataset("ndarray/structured_3fields.blp");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = nc.findVariable("structured_3fields");
      assertEquals("[('a', '<i4'), ('b', '<f8'), ('c', '|S3')]", v.findAttribute("numpy_dtype").getStringValue());
      byte[] exp = d.variables().get(0).expected();
      // field b of record 7 as a double, read through the variable
      Array rec = v.read("7,4:11");
      ByteBuffer bb = ByteBuffer.wrap(CdmArrays.littleEndian(rec)).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(ByteBuffer.wrap(exp).order(ByteOrder.LITTLE_ENDIAN).getDouble(7 * 15 + 4), bb.getDouble(0));
    } catch (ucar.ma2.InvalidRangeException e) {
      throw new AssertionError(e);
    }
  }

  /** Truncating any file anywhere gives an IOException at open or at read, never another exception. */
  static Stream<Arguments> truncations() {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : files()) {
      // bytes after the last chunk (stale bytes left by an append) are not part of the data: cut into the data
      long size = d.file().toFile().length() - d.json().path("observed").path("trailing_bytes_after_last_chunk").asLong(0);
      for (long len : new long[] {0, 4, 31, 33, 64, size / 2, size - 1}) {
        if (len < size) {
          out.add(Arguments.of(d, len));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} cut to {1}")
  @MethodSource("truncations")
  void truncatedFile(Fixtures.Dataset d, long len) throws IOException {
    Path f = TestFiles.copy(d.file(), tmp.resolve(d.file().getFileName().toString()));
    TestFiles.truncate(f, len);
    IOException e = assertThrows(IOException.class, () -> {
      try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
        for (Variable v : nc.getVariables()) {
          v.read();
        }
      }
    });
    if (len >= 32) { // shorter files are not recognised as Bloscpack at all
      assertMentions(e, f.getFileName().toString());
    }
  }

  @Test
  void headerLies() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bloscpack").dataset("ndarray/dtype_int16_lz4_shuf1.blp");
    Path f = TestFiles.copy(d.file(), tmp.resolve("h.blp"));
    byte[] b = Files.readAllBytes(f);
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    bb.putLong(16, 1L << 40); // nchunks
    Files.write(f, b);
    assertMentions(assertThrows(IOException.class, () -> NetcdfFiles.open(f.toString()).close()), "h.blp", "chunks");
    // chunk_size not a multiple of the item size (total kept: 511 * 1 + last 487 + 1 = 999*2 - ...)
    b = Files.readAllBytes(d.file());
    bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int chunk = bb.getInt(8);
    int last = bb.getInt(12);
    long n = bb.getLong(16);
    bb.putInt(8, chunk - 1);
    bb.putInt(12, (int) (last + n - 1));
    Files.write(f, b);
    IOException e = assertThrows(IOException.class, () -> NetcdfFiles.open(f.toString()).close());
    assertMentions(e, "h.blp");
    assertFalse(e.getMessage().isEmpty());
  }
}
