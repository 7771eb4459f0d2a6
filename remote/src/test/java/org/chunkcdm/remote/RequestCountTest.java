package org.chunkcdm.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.Locations;
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
 * chunks, and a section read fetches only the chunks it needs.
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
  void directoryDatasetsOpenWithAtMostFourRequests() throws IOException {
    for (String[] c : List.of(new String[] {"bcolz", "carray/random_uint8_incompressible"},
        new String[] {"blosc2", "sframe/sf_zstd_clevel1_split_i4.b2frame"})) {
      String key = c[0] + "/" + c[1];
      int s3 = open(px.s3(key), c[0], c[1]);
      assertTrue(s3 <= 4, key + " over S3: " + s3 + " requests: " + last);
    }
  }
}
