package org.chunkcdm.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.DataType;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Bad stores give one clear message naming the store, the array and the chunk key (FormatException for bad bytes):
 * malformed metadata, corrupt and truncated chunks, a wrong CRC-32C, a damaged shard index; an unknown codec or
 * element type leaves the variable in the dataset and its reads fail naming it and the codec.
 */
class ZarrMalformedTest {
  @TempDir
  Path tmp;

  private int copies;

  private Path copy(String store) throws IOException {
    return TestFiles.copy(ZarrFixtures.dataset(store).file(), tmp.resolve("c" + (copies++)).resolve(store));
  }

  /** Replaces text in a metadata file. */
  private static void edit(Path file, String from, String to) throws IOException {
    TestFiles.write(file, Files.readString(file).replace(from, to));
  }

  /**
   * A copy of {@code store} whose {@code array}'s metadata file {@code meta} says {@code to} where it said
   * {@code from}: reading the array fails with a message naming it and {@code says}.
   */
  private Path unreadableAfterEdit(String store, String array, String meta, String from, String to, String says)
      throws IOException {
    Path s = copy(store);
    edit(s.resolve(array).resolve(meta), from, to);
    String m = readFails(s, array);
    assertTrue(m.contains("'" + array + "'") && m.contains(says), m);
    return s;
  }

  private static String readFails(Path store, String var) throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(store.toString())) {
      Variable v = nc.findVariable(var);
      assertNotNull(v, var + " in " + nc.getVariables());
      IOException e = assertThrows(IOException.class, v::read, var);
      return e.getMessage();
    }
  }

  private static String openFails(Path store) {
    IOException e = assertThrows(IOException.class, () -> {
      try (ChunkedDataset ds = Datasets.open(store)) {
        ds.variables();
      }
    });
    assertTrue(e instanceof FormatException, e.toString());
    return e.getMessage();
  }

  @Test
  void invalidJsonNamesTheFile() throws IOException {
    Path s = copy("v2_layout.zarr");
    TestFiles.write(s.resolve("c_dot_2d/.zarray"), "{\"zarr_format\": 2, \"shape\": [45, ");
    String m = openFails(s);
    assertTrue(m.contains(s.resolve("c_dot_2d/.zarray").toString()) && m.contains("invalid JSON"), m);
  }

  @Test
  void missingOrBadShapeAndChunks() throws IOException {
    Path s = copy("v2_root_array.zarr");
    Path za = s.resolve(".zarray");
    String good = Files.readString(za);
    TestFiles.write(za, good.replaceAll("\"shape\": \\[[^]]*\\]", "\"shape\": [30, -2]"));
    assertTrue(openFails(s).contains("shape"), "negative length");
    TestFiles.write(za, good.replaceAll("\"chunks\": \\[[^]]*\\]", "\"chunks\": [0, 8]"));
    assertTrue(openFails(s).contains("chunks"), "zero chunk length");
    TestFiles.write(za, good.replaceAll("\"shape\": \\[[^]]*\\]", "\"shape\": [2147483647, 2147483647, 2147483647]")
        .replaceAll("\"chunks\": \\[[^]]*\\]", "\"chunks\": [16, 8, 4]"));
    assertTrue(openFails(s).contains("2^56"), "more elements than any store holds");
    TestFiles.write(za, good.replace("\"zarr_format\": 2", "\"zarr_format\": 7"));
    assertTrue(openFails(s).contains("zarr_format"));
    TestFiles.write(za, good.replaceAll("\"order\": \"C\"", "\"order\": \"X\""));
    assertTrue(openFails(s).contains("order"));
  }

  @Test
  void corruptChunkNamesStoreArrayAndKey() throws IOException {
    Path s = copy("v2_codecs.zarr");
    Path chunk = s.resolve("zstd_l1/1.0");
    byte[] b = Files.readAllBytes(chunk);
    for (int i = 8; i < b.length; i += 3) {
      b[i] ^= 0x5A;
    }
    Files.write(chunk, b);
    String m = readFails(s, "zstd_l1");
    assertTrue(m.contains(chunk.toString()) && m.contains("chunk 1.0") && m.contains("'zstd_l1'"), m);
    // a Blosc frame whose header claims another size
    Path blosc = copy("v2_layout.zarr").resolve("c_dot_2d/0.1");
    byte[] h = Files.readAllBytes(blosc);
    h[4] ^= 0x10;
    Files.write(blosc, h);
    String m2 = readFails(blosc.getParent().getParent(), "c_dot_2d");
    assertTrue(m2.contains("chunk 0.1") && m2.contains("'c_dot_2d'"), m2);
  }

  @Test
  void truncatedChunksOfEveryCompressor() throws IOException {
    Path s = copy("v2_codecs.zarr");
    String[][] cases = {{"gzip_l6", "0.0.0"}, {"bz2_l9", "0.0"}, {"lzma_xz", "0.0"}, {"lz4_a1", "0.0"},
        {"zlib_l1", "0"}, {"uncompressed", "0.0"}};
    for (String[] c : cases) {
      Path chunk = s.resolve(c[0]).resolve(c[1]);
      TestFiles.truncate(chunk, Files.size(chunk) - 7);
      String m = readFails(s, c[0]);
      assertTrue(m.contains("chunk " + c[1]) && m.contains("'" + c[0] + "'"), c[0] + ": " + m);
    }
  }

  @Test
  void crc32cMismatch() throws IOException {
    Path s = copy("v3_codecs.zarr");
    Path chunk = s.resolve("crc32c_i1/c/1/0");
    byte[] b = Files.readAllBytes(chunk);
    b[0] ^= 1;
    Files.write(chunk, b);
    String m = readFails(s, "crc32c_i1");
    assertTrue(m.contains("CRC-32C") && m.contains("chunk c/1/0") && m.contains(chunk.toString()), m);
  }

  @Test
  void damagedShardIndex() throws IOException {
    Path s = copy("v3_sharding.zarr");
    Path shard = s.resolve("shard_1d_nan_f4/c/0");
    byte[] b = Files.readAllBytes(shard);
    b[b.length - 10] ^= 0x40; // inside the index at the end, checked by its CRC-32C
    Files.write(shard, b);
    String m = readFails(s, "shard_1d_nan_f4");
    assertTrue(m.contains("index of shard c/0") && m.contains("CRC-32C") && m.contains("'shard_1d_nan_f4'"), m);
    // an index entry pointing past the shard (index without checksum, at the start)
    Path s2 = copy("v3_sharding.zarr");
    Path start = s2.resolve("shard_start_blosc_f4/c/0/0");
    byte[] c = Files.readAllBytes(start);
    c[7] = 0x7f; // offset of entry 0: far past the end
    Files.write(start, c);
    String m2 = readFails(s2, "shard_start_blosc_f4");
    assertTrue(m2.contains("outside the shard") && m2.contains("shard c/0/0"), m2);
    // a truncated shard
    Path s3 = copy("v3_sharding.zarr");
    Path tr = s3.resolve("shard_partial_i4/c/0/0/0");
    TestFiles.truncate(tr, 10);
    String m3 = readFails(s3, "shard_partial_i4");
    assertTrue(m3.contains("shard c/0/0/0"), m3);
  }

  @Test
  void unknownCodecKeepsTheVariableAndNamesIt() throws IOException {
    Path s = unreadableAfterEdit("v2_codecs.zarr", "zstd_l1", ".zarray", "\"id\": \"zstd\"", "\"id\": \"fancy\"", "fancy");
    try (NetcdfFile nc = NetcdfFiles.open(s.toString())) {
      assertEquals(10, nc.getVariables().size(), "the other arrays still open");
      assertNotNull(nc.findVariable("zstd_l1").findAttribute("unreadable"));
      assertEquals(33 * 21, nc.findVariable("lz4_a1").read().getSize(), "an array beside it reads");
    }
    unreadableAfterEdit("v3_codecs.zarr", "gzip_f4", "zarr.json", "\"gzip\"", "\"brotli\"", "brotli");
  }

  @Test
  void objectAndVariableLengthTypesOpenButDoNotRead() throws IOException {
    Path s = copy("v2_dtypes.zarr");
    Path za = s.resolve("U5_2d/.zarray");
    TestFiles.write(za, Files.readString(za).replace("\"<U5\"", "\"|O\"")
        .replaceAll("\"filters\": null", "\"filters\": [{\"id\": \"vlen-utf8\"}]"));
    try (NetcdfFile nc = NetcdfFiles.open(s.toString())) {
      Variable v = nc.findVariable("U5_2d");
      assertEquals(DataType.STRING, v.getDataType());
      IOException e = assertThrows(IOException.class, v::read);
      assertTrue(e.getMessage().contains("'U5_2d'") && e.getMessage().contains("|O"), e.getMessage());
    }
    unreadableAfterEdit("v3_keys_fill.zarr", "key_default_slash", "zarr.json", "\"int32\"", "\"string\"", "string");
  }

  @Test
  void notAStore() throws IOException {
    Path d = Files.createDirectories(tmp.resolve("empty.zarr"));
    assertTrue(!new ZarrOpener().canOpen(d));
    Path zip = tmp.resolve("x.zip");
    Files.write(zip, new byte[] {'P', 'K', 3, 4, 0, 0});
    assertTrue(!new ZarrOpener().canOpen(zip));
    Path s = copy("v2_groups.zarr");
    TestFiles.write(s.resolve(".zmetadata"), "{\"metadata\": {\"../evil/.zarray\": {}}, \"zarr_consolidated_format\": 1}");
    assertTrue(openFails(s).contains("not a valid Zarr path"));
  }
}
