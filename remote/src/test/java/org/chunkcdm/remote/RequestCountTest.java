package org.chunkcdm.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.remote.RemoteStores;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests a remote open and read cost, counted at the server (through {@link FaultProxy}): a single-file
 * dataset opens with at most 3, a bcolz carray and a sparse frame with at most 4 whatever their number of
 * chunks, and a section read fetches only the chunks it needs. Zarr arrays (v2, v3, sharded) and python-blosc2
 * stores likewise: their opens cost the same whatever their number of chunks, their reads only the chunk objects
 * or byte ranges they need.
 */
class RequestCountTest {
  private static Proxied px;

  @BeforeAll
  static void start() throws IOException {
    px = new Proxied();
    for (String fam : new String[] {"bcolz", "blosc2", "ds", "bloscpack"}) {
      S3Fixtures.key(Fixtures.family(fam).resolve("MANIFEST.json"));
    }
  }

  @AfterAll
  static void stop() throws IOException {
    px.close();
  }

  private static byte[] readAll(ChunkedVariable v) throws IOException {
    long[] shape = v.array().grid().shape();
    long[] first = new long[shape.length];
    long[] stride = new long[shape.length];
    java.util.Arrays.fill(stride, 1);
    return SectionReader.readBytes(v.array(), first, shape, stride);
  }

  private static byte[] expected(String family, String path) throws IOException {
    return Fixtures.manifest(family).dataset(path).variables().get(0).expected();
  }

  private static List<String> last;

  private int open(String location, String family, String path) throws IOException {
    px.proxy.take();
    try (ChunkedDataset d = Datasets.open(Locations.path(location), null)) {
      last = List.copyOf(px.proxy.log);
      int opened = px.proxy.take();
      assertArrayEquals(expected(family, path), readAll(d.variables().get(0)), location);
      return opened;
    }
  }

  @Test
  void singleFileOpensWithAtMostThreeRequests() throws IOException {
    for (String[] c : List.of(new String[] {"blosc2", "b2nd/b2nd_2d_f8_cframe.b2nd"},
        new String[] {"blosc2", "cframe/cf_many_chunks_i4.b2frame"}, new String[] {"ds", "large.ds"},
        new String[] {"bloscpack", "ndarray/fortran_int64_50x7.blp"})) {
      String key = c[0] + "/" + c[1];
      int s3 = open(px.s3(key), c[0], c[1]);
      int http = open(px.http(key), c[0], c[1]);
      assertTrue(s3 <= 3, key + " over S3: " + s3 + " requests: " + last);
      assertTrue(http <= 3, key + " over HTTP: " + http + " requests");
    }
  }

  @Test
  void aSectionReadFetchesOnlyTheChunksItNeeds() throws IOException {
    // bcolz carray of 3 chunk objects of 2048 rows: rows 2100..2199 lie in chunk 1 only
    String carray = "bcolz/carray/random_uint8_incompressible";
    try (ChunkedDataset d = Datasets.open(Locations.path(px.s3(carray)), noCache())) {
      px.proxy.take();
      byte[] got = SectionReader.readBytes(d.variables().get(0).array(), new long[] {2100}, new long[] {100}, new long[] {1});
      assertArrayEquals(java.util.Arrays.copyOfRange(expected("bcolz", carray.substring(6)), 2100, 2200), got);
      assertEquals(List.of("GET /fixtures/" + carray + "/data/__1.blp"), px.proxy.log.stream()
          .map(x -> x.replaceAll(" bytes=.*", "")).collect(java.util.stream.Collectors.toList()), "one chunk object");
    }
    // a sparse frame: two adjacent chunks of many, one GET each (one object per chunk), nothing else
    String sframe = "blosc2/sframe/sf_zstd_clevel1_split_i4.b2frame";
    try (ChunkedDataset d = Datasets.open(Locations.path(px.s3(sframe)), noCache())) {
      ChunkedVariable v = d.variables().get(0);
      long chunk = ((org.chunkcdm.chunk.ChunkGrid.Flat) v.array().grid()).chunkItems();
      px.proxy.take();
      SectionReader.readBytes(v.array(), new long[] {chunk - 10}, new long[] {20}, new long[] {1});
      assertEquals(2, px.proxy.log.size(), "two chunks: " + px.proxy.log);
      assertTrue(px.proxy.log.stream().allMatch(x -> x.contains(".chunk")), px.proxy.log.toString());
    }
    // a contiguous frame of many chunks: one element is one ranged GET, of the aligned block around the chunk (the
    // chunk sizes of this frame come from the chunk headers in the same block), not of the whole object
    String b2nd = "blosc2/cframe/cf_many_chunks_i4.b2frame";
    try (ChunkedDataset d = Datasets.open(Locations.path(px.s3(b2nd)), noCache())) {
      ChunkedVariable v = d.variables().get(0);
      long chunk = ((org.chunkcdm.chunk.ChunkGrid.Flat) v.array().grid()).chunkItems();
      long mid = v.array().grid().size() / chunk / 2 * chunk + 5; // a chunk in the middle: not in the cached head or tail
      px.proxy.take();
      SectionReader.readBytes(v.array(), new long[] {mid}, new long[] {1}, new long[] {1});
      assertEquals(1, px.proxy.log.size(), px.proxy.log.toString());
      String[] range = px.proxy.log.get(0).replaceAll(".*bytes=", "").split("-");
      long bytes = Long.parseLong(range[1]) - Long.parseLong(range[0]) + 1;
      long size = java.nio.file.Files.size(Fixtures.testdata().resolve(b2nd));
      assertTrue(bytes <= (128 << 10) && bytes < size, "one 128 KiB block of the " + size + "-byte object: " + px.proxy.log);
    }
  }

  private static org.chunkcdm.open.OpenOptions noCache() {
    return org.chunkcdm.open.OpenOptions.defaults().withCache(new org.chunkcdm.chunk.ChunkCache(0));
  }

  @Test
  void pythonBlosc2StoresOpenWithoutReadingChunks() throws IOException {
    for (String[] c : List.of(new String[] {"dictstore/v_dict_mixed.b2d", "s3"}, new String[] {"dictstore/v_dict_zip.b2z", "s3"},
        new String[] {"dictstore/v_dict_zip.b2z", "http"}, new String[] {"treestore/v_tree_zip.b2z", "http"},
        new String[] {"treestore/v_tree_dir.b2d", "s3"}, new String[] {"embedstore/v_embed.b2e", "http"})) {
      String key = "blosc2-stores/" + c[0];
      S3Fixtures.key(Fixtures.testdata().resolve(key));
      RemoteStores.reset();
      String loc = c[1].equals("s3") ? px.s3(key) : px.http(key);
      px.proxy.take();
      try (ChunkedDataset d = Datasets.open(Locations.path(loc), noCache())) {
        assertEquals(Fixtures.manifest("blosc2-stores").dataset(c[0]).variables().size(), d.variables().size(), loc);
      }
      List<String> log = List.copyOf(px.proxy.log);
      if (!c[0].endsWith(".b2d")) { // one object: its first 64 KiB (and its central directory), whatever its chunks
        assertTrue(log.size() <= 2, loc + ": " + log);
        continue;
      }
      // a directory: its listings and one GET per stored value (header, index and trailer), never one per chunk
      Path local = Fixtures.testdata().resolve(key);
      long files;
      long dirs;
      try (java.util.stream.Stream<Path> w = java.nio.file.Files.walk(local)) {
        files = w.filter(java.nio.file.Files::isRegularFile).count();
      }
      try (java.util.stream.Stream<Path> w = java.nio.file.Files.walk(local)) {
        dirs = w.filter(java.nio.file.Files::isDirectory).count();
      }
      List<String> gets = log.stream().filter(x -> !x.contains("list-type")).map(x -> x.replaceAll(" bytes=.*", ""))
          .collect(java.util.stream.Collectors.toList());
      assertEquals(gets.size(), new java.util.HashSet<>(gets).size(), loc + ": no object read twice: " + log);
      // (a subdirectory is looked at once too: an inline CTable is a directory holding _meta.b2f)
      assertTrue(gets.size() <= files + dirs, loc + ": " + gets.size() + " GETs for " + files + " objects: " + log);
      assertTrue(log.size() - gets.size() <= 2 * dirs, loc + ": listings: " + log);
    }
  }

  @Test
  void directoryDatasetsOpenWithAtMostFourRequests() throws IOException {
    for (String[] c : List.of(new String[] {"bcolz", "carray/random_uint8_incompressible"},
        new String[] {"blosc2", "sframe/sf_zstd_clevel1_split_i4.b2frame"})) {
      String key = c[0] + "/" + c[1];
      int s3 = open(px.s3(key), c[0], c[1]);
      assertTrue(s3 <= 4, key + " over S3: " + s3 + " requests: " + last);
    }
  }

  // ------------------------------------------------------------------ Zarr and python-blosc2 stores

  /** Opens {@code location} (counting the open's requests), then checks its first variable against {@code expected}. */
  private int openZarr(String location, byte[] expected) throws IOException {
    px.proxy.take();
    try (ChunkedDataset d = Datasets.open(Locations.path(location), noCache())) {
      last = List.copyOf(px.proxy.log);
      int opened = px.proxy.take();
      assertArrayEquals(expected, readAll(d.variables().get(0)), location);
      return opened;
    }
  }

  /** The requests without their byte ranges. */
  private static List<String> targets() {
    return px.proxy.log.stream().map(x -> x.replaceAll(" bytes=.*", "")).collect(java.util.stream.Collectors.toList());
  }

  @Test
  void zarrArrayOpensWithBoundedRequestsWhateverItsNumberOfChunks() throws IOException {
    for (int v = 2; v <= 3; v++) {
      int[] s3 = new int[2];
      int[] http = new int[2];
      int[] chunks = {3, 150};
      for (int i = 0; i < 2; i++) {
        int n = chunks[i];
        String key = v == 2 ? GeneratedZarr.v2("count_v2_" + n + ".zarr", n) : GeneratedZarr.v3("count_v3_" + n + ".zarr", n);
        byte[] all = GeneratedZarr.values(0, n * GeneratedZarr.CHUNK);
        RemoteStores.reset();
        s3[i] = openZarr(px.s3(key), all);
        http[i] = openZarr(px.http(key), all);
      }
      // v2 over S3: the store's listing (100 names), .zarray and .zattrs, and zarr.json's absence once the chunk
      // keys fill the listing; over HTTP: the directory, each entry name tried in turn, .zattrs. v3: the store's
      // listing (or the directory) and zarr.json
      int s3Max = v == 2 ? 4 : 2;
      int httpMax = v == 2 ? 6 : 2;
      for (int i = 0; i < 2; i++) {
        assertTrue(s3[i] <= s3Max, "v" + v + ", " + chunks[i] + " chunks, over S3: " + s3[i] + " requests");
        assertTrue(http[i] <= httpMax, "v" + v + ", " + chunks[i] + " chunks, over HTTP: " + http[i] + " requests");
      }
      if (v == 3) {
        assertEquals(s3[0], s3[1], "v3 over S3: the same requests for 3 and 150 chunks");
      }
      assertEquals(http[0], http[1], "v" + v + " over HTTP: the same requests for 3 and 150 chunks");
    }
  }

  @Test
  void overPlainHttpAZarrGroupOpensFromItsConsolidatedMetadataElseSaysListingIsNeeded() throws IOException {
    byte[] all = GeneratedZarr.values(0, 5 * GeneratedZarr.CHUNK);
    String consolidated = GeneratedZarr.v3Group("group_consolidated.zarr", 5, true);
    String plain = GeneratedZarr.v3Group("group_plain.zarr", 5, false);
    // consolidated: the root zarr.json names every node, nothing else is asked for before the chunks
    int http = openZarr(px.http(consolidated), all);
    assertTrue(http <= 2, "the store and its zarr.json: " + last);
    assertEquals(List.of("GET /fixtures/" + consolidated, "GET /fixtures/" + consolidated + "/zarr.json"),
        last.stream().map(x -> x.replaceAll(" bytes=.*", "")).collect(java.util.stream.Collectors.toList()));
    openZarr(px.s3(plain), all); // S3 lists the groups
    String url = px.http(plain);
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> Datasets.open(Locations.path(url), noCache()).close());
    assertTrue(e.getMessage().contains(url) && e.getMessage().contains("listing"), e.getMessage());
  }

  @Test
  void aZarrSectionReadFetchesOnlyItsChunkObjects() throws IOException {
    String v2 = GeneratedZarr.v2("section_v2.zarr", 160);
    String v3 = GeneratedZarr.v3("section_v3.zarr", 160);
    for (String[] c : List.of(new String[] {v2, v2 + "/150", v2 + "/151"}, new String[] {v3, v3 + "/c/150", v3 + "/c/151"})) {
      for (String loc : new String[] {px.s3(c[0]), px.http(c[0])}) {
        try (ChunkedDataset d = Datasets.open(Locations.path(loc), noCache())) {
          px.proxy.take();
          long first = 150L * GeneratedZarr.CHUNK + 200;
          byte[] got = SectionReader.readBytes(d.variables().get(0).array(), new long[] {first}, new long[] {100}, new long[] {1});
          assertArrayEquals(GeneratedZarr.values(first, 100), got, loc);
          List<String> t = targets();
          t.sort(null);
          assertEquals(List.of("GET /fixtures/" + c[1], "GET /fixtures/" + c[2]), t, loc + ": the two chunk objects");
        }
      }
    }
  }

  @Test
  void aShardedZarrReadFetchesTheIndexThenOnlyItsInnerChunks() throws IOException {
    String key = GeneratedZarr.sharded("section_sharded.zarr", 256); // one shard of 256 KiB and its 4 KiB index
    long shardSize = 256L * 4 * GeneratedZarr.CHUNK + 16 * 256;
    for (String loc : new String[] {px.s3(key), px.http(key)}) {
      try (ChunkedDataset d = Datasets.open(Locations.path(loc), noCache())) {
        px.proxy.take();
        long first = 100L * GeneratedZarr.CHUNK + 7; // inner chunk 100 only
        byte[] got = SectionReader.readBytes(d.variables().get(0).array(), new long[] {first}, new long[] {50}, new long[] {1});
        assertArrayEquals(GeneratedZarr.values(first, 50), got, loc);
        long inner = 100L * 4 * GeneratedZarr.CHUNK;
        String innerRange = "bytes=" + inner + "-" + (inner + 4 * GeneratedZarr.CHUNK - 1);
        assertTrue(px.proxy.log.stream().anyMatch(x -> x.endsWith(innerRange)), loc + ": the inner chunk's range: " + px.proxy.log);
        String index = "bytes=" + (shardSize - 16 * 256) + "-" + (shardSize - 1);
        assertTrue(px.proxy.log.stream().anyMatch(x -> x.endsWith(index)), loc + ": the shard index: " + px.proxy.log);
        // the shard's size comes from the first look at it (its first 64 KiB), then exactly the index and the chunk
        assertTrue(px.proxy.log.size() <= 3, loc + ": " + px.proxy.log);
        for (String x : px.proxy.log) {
          assertTrue(x.contains("/c/0 "), "only the shard: " + x);
        }
        // inner chunks 120 to 123 (index known now): fetched ahead, exactly their bytes
        px.proxy.take();
        long from = 120L * GeneratedZarr.CHUNK;
        got = SectionReader.readBytes(d.variables().get(0).array(), new long[] {from}, new long[] {4 * GeneratedZarr.CHUNK},
            new long[] {1});
        assertArrayEquals(GeneratedZarr.values(from, 4 * GeneratedZarr.CHUNK), got, loc);
        long bytes = 0;
        for (String x : px.proxy.log) {
          String[] r = x.replaceAll(".*bytes=", "").split("-");
          long a = Long.parseLong(r[0]);
          long b = Long.parseLong(r[1]);
          assertTrue(a >= 4 * from && b < 4 * (from + 4 * GeneratedZarr.CHUNK), loc + ": only the four inner chunks: " + x);
          bytes += b - a + 1;
        }
        assertEquals(16L * GeneratedZarr.CHUNK, bytes, loc + ": " + px.proxy.log);
      }
    }
  }
}
