package org.chunkcdm.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.remote.RemoteStats;
import org.chunkcdm.io.remote.RemoteStores;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenOptions;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Faults between client and server: each gives an IOException naming the URL within the request timeout (never
 * wrong values), and once the fault is gone the next read succeeds. Throttling, server errors, slow and cut
 * answers and dropped connections come from {@link FaultProxy}; deleted and replaced objects and a stopped
 * server from the S3 server itself. A deleted Zarr chunk object is the exception the format makes: it reads as the
 * array's fill value.
 */
class FaultsTest {
  private static Proxied px;
  private static final String CARRAY = "bcolz/carray/multidim_int64_250x8";
  private static final String B2ND = "blosc2/b2nd/b2nd_2d_f8_cframe.b2nd";

  @BeforeAll
  static void start() throws IOException {
    px = new Proxied();
    S3Fixtures.key(Fixtures.family("bcolz").resolve("MANIFEST.json"));
    S3Fixtures.key(Fixtures.family("blosc2").resolve("MANIFEST.json"));
    System.setProperty("chunkcdm.remote.timeoutMillis", "1500");
    System.setProperty("chunkcdm.remote.retries", "2");
  }

  @AfterAll
  static void stop() throws IOException {
    System.clearProperty("chunkcdm.remote.timeoutMillis");
    System.clearProperty("chunkcdm.remote.retries");
    px.close();
  }

  @AfterEach
  void clear() {
    px.proxy.clear();
  }

  /** Opens with a private, empty chunk cache: every read goes to the server. */
  private static ChunkedDataset open(String location) throws IOException {
    return Datasets.open(Locations.path(location), OpenOptions.defaults().withCache(new ChunkCache(0)));
  }

  private static byte[] readAll(ChunkedVariable v) throws IOException {
    long[] shape = v.array().grid().shape();
    long[] stride = new long[shape.length];
    Arrays.fill(stride, 1);
    return SectionReader.readBytes(v.array(), new long[shape.length], shape, stride);
  }

  private static byte[] expected(String key) throws IOException {
    int slash = key.indexOf('/');
    return Fixtures.manifest(key.substring(0, slash)).dataset(key.substring(slash + 1)).variables().get(0).expected();
  }

  private static void assertNames(IOException e, String what) {
    assertTrue(e.getMessage().contains(what), "the error names " + what + ": " + e.getMessage());
    assertFalse(e.getMessage().contains(S3Server.SECRET), "no credentials in " + e.getMessage());
  }

  @Test
  void throttlingAndServerErrorsAreRetried() throws IOException {
    for (FaultProxy.Kind k : new FaultProxy.Kind[] {FaultProxy.Kind.STATUS_503, FaultProxy.Kind.STATUS_500, FaultProxy.Kind.DROP}) {
      try (ChunkedDataset d = open(px.s3(CARRAY))) {
        long retries = RemoteStats.RETRIES.sum();
        px.proxy.fault(k, "/data/__", 2, 0);
        assertArrayEquals(expected(CARRAY), readAll(d.variables().get(0)), k.toString());
        if (k != FaultProxy.Kind.DROP) { // a dropped connection may already be retried by HttpURLConnection itself
          assertTrue(RemoteStats.RETRIES.sum() - retries >= 2, k + ": retried");
        }
      }
    }
  }

  @Test
  void persistentThrottlingFailsNamingTheUrlThenRecovers() throws IOException {
    try (ChunkedDataset d = open(px.s3(CARRAY))) {
      px.proxy.fault(FaultProxy.Kind.STATUS_503, "/data/__", 1000, 0);
      long t0 = System.nanoTime();
      IOException e = assertThrows(IOException.class, () -> readAll(d.variables().get(0)));
      assertNames(e, "s3://fixtures/" + CARRAY + "/data/__");
      assertTrue(e.getMessage().contains("503"), e.getMessage());
      assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "bounded retries");
      px.proxy.clear();
      assertArrayEquals(expected(CARRAY), readAll(d.variables().get(0)), "the next read after the fault");
    }
  }

  @Test
  void slowAnswersTimeOut() throws IOException {
    try (ChunkedDataset d = open(px.http(B2ND))) {
      px.proxy.fault(FaultProxy.Kind.DELAY, B2ND, 1000, 4000);
      long t0 = System.nanoTime();
      IOException e = assertThrows(IOException.class, () -> readAll(d.variables().get(0)));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertNames(e, px.http(B2ND));
      assertTrue(ms < 3 * 1500 + 3000, "three attempts of 1.5 s and the pauses between them, took " + ms + " ms");
      px.proxy.clear();
      assertArrayEquals(expected(B2ND), readAll(d.variables().get(0)));
    }
  }

  @Test
  void cutAnswersAreRetriedThenFail() throws IOException {
    try (ChunkedDataset d = open(px.s3(B2ND))) {
      px.proxy.fault(FaultProxy.Kind.TRUNCATE, B2ND, 1, 100);
      assertArrayEquals(expected(B2ND), readAll(d.variables().get(0)), "one cut answer: retried");
      px.proxy.fault(FaultProxy.Kind.TRUNCATE, B2ND, 1000, 100);
      IOException e = assertThrows(IOException.class, () -> readAll(d.variables().get(0)));
      assertNames(e, "s3://fixtures/" + B2ND);
      px.proxy.clear();
      assertArrayEquals(expected(B2ND), readAll(d.variables().get(0)));
    }
  }

  @Test
  void deletedChunkObjectIsAnErrorNamingIt() throws IOException {
    S3Server s = px.server;
    String chunk = CARRAY + "/data/__2.blp";
    byte[] keep = Files.readAllBytes(Fixtures.testdata().resolve(chunk));
    try (ChunkedDataset d = open(px.s3(CARRAY))) {
      ChunkedVariable v = d.variables().get(0);
      SectionReader.readBytes(v.array(), new long[] {0, 0}, new long[] {64, 8}, new long[] {1, 1}); // chunk 0 read
      s.delete(S3Fixtures.BUCKET, chunk);
      IOException e = assertThrows(IOException.class, () -> readAll(v));
      assertNames(e, "s3://fixtures/" + chunk);
      s.put(S3Fixtures.BUCKET, chunk, keep);
      assertArrayEquals(expected(CARRAY), readAll(v), "the object is back");
    } finally {
      s.put(S3Fixtures.BUCKET, chunk, keep);
    }
  }

  @Test
  void replacedObjectIsAnErrorNotOtherValues() throws IOException {
    S3Server s = px.server;
    String key = "faults/replaced.b2nd";
    s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(B2ND)));
    String other = "blosc2/b2nd/b2nd_3d_f8_overwrite_cframe.b2nd";
    for (String loc : new String[] {px.s3(key), px.http(key)}) {
      s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(B2ND)));
      RemoteStores.reset();
      try (ChunkedDataset d = open(loc)) {
        s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(other)));
        IOException e = assertThrows(IOException.class, () -> readAll(d.variables().get(0)));
        assertNames(e, loc);
        assertTrue(e.getMessage().contains("changed"), e.getMessage());
      }
      try (ChunkedDataset d = open(loc)) { // opened again: the new object
        assertArrayEquals(expected(other), readAll(d.variables().get(0)), loc);
      }
    }
  }

  @Test
  void stoppedServerFailsWithinTheTimeoutAndRecovers() throws IOException {
    try (S3Server own = S3Server.start(false)) {
      own.createBucket("stop");
      byte[] bytes = Files.readAllBytes(Fixtures.testdata().resolve(B2ND));
      own.put("stop", "x.b2nd", bytes);
      String loc = own.endpoint() + "/stop/x.b2nd";
      try (ChunkedDataset d = open(loc)) {
        own.stop();
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> readAll(d.variables().get(0)));
        assertNames(e, loc);
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "refused connections fail fast");
        own.start(); // empty again: the same object uploaded anew (same bytes, same ETag)
        own.createBucket("stop");
        own.put("stop", "x.b2nd", bytes);
        assertArrayEquals(expected(B2ND), readAll(d.variables().get(0)), "the server is back");
      }
    }
  }

  @Test
  void missingDatasetNamesTheUrl() {
    String loc = px.s3("nothing/here.b2nd");
    IOException e = assertThrows(IOException.class, () -> open(loc));
    assertNames(e, loc);
    Path http = Locations.path(px.http("nothing/here.b2nd"));
    IOException e2 = assertThrows(IOException.class, () -> Datasets.open(http, null));
    assertNames(e2, http.toString());
  }

  // ------------------------------------------------------------------ Zarr and python-blosc2 stores

  @Test
  void zarrChunkObjectDeletedMidReadIsTheFillValueOtherFaultsAreErrorsNamingIt() throws IOException {
    S3Server s = px.server;
    String store = GeneratedZarr.v2("faults_v2.zarr", 4); // chunk k holds elements 256k..256k+255, values 3i
    String chunk1 = store + "/1";
    String chunk2 = store + "/2";
    byte[] keep1 = GeneratedZarr.values(GeneratedZarr.CHUNK, GeneratedZarr.CHUNK);
    byte[] keep2 = GeneratedZarr.values(2L * GeneratedZarr.CHUNK, GeneratedZarr.CHUNK);
    byte[] all = GeneratedZarr.values(0, 4 * GeneratedZarr.CHUNK);
    try {
      for (String loc : new String[] {px.s3(store), px.http(store)}) {
        try (ChunkedDataset d = open(loc)) {
          ChunkedVariable v = d.variables().get(0);
          assertArrayEquals(all, readAll(v), loc);
          // deleted: Zarr reads a chunk that is not stored as the fill value (0 here), and only that chunk
          s.delete(S3Fixtures.BUCKET, chunk1);
          byte[] filled = all.clone();
          Arrays.fill(filled, 4 * GeneratedZarr.CHUNK, 8 * GeneratedZarr.CHUNK, (byte) 0);
          assertArrayEquals(filled, readAll(v), loc + ": chunk 1 deleted");
          s.put(S3Fixtures.BUCKET, chunk1, keep1);
          // replaced by other bytes: an error naming the chunk object, never the other values
          byte[] other = GeneratedZarr.values(7777, GeneratedZarr.CHUNK);
          s.put(S3Fixtures.BUCKET, chunk2, other);
          IOException e = assertThrows(IOException.class, () -> readAll(v), loc);
          assertNames(e, chunkUrl(loc, "2"));
          assertTrue(e.getMessage().contains("changed"), e.getMessage());
          s.put(S3Fixtures.BUCKET, chunk2, keep2);
        }
        try (ChunkedDataset d = open(loc)) { // opened again: the chunks as they are now
          ChunkedVariable v = d.variables().get(0);
          assertArrayEquals(all, readAll(v), loc + " reopened");
          // a cut answer (after the retries) and a server error are errors naming the chunk, not fill values
          px.proxy.fault(FaultProxy.Kind.TRUNCATE, "/faults_v2.zarr/3", 1000, 100);
          IOException cut = assertThrows(IOException.class, () -> readAll(v), loc);
          assertNames(cut, chunkUrl(loc, "3"));
          px.proxy.fault(FaultProxy.Kind.STATUS_503, "/faults_v2.zarr/3", 1000, 0);
          IOException busy = assertThrows(IOException.class, () -> readAll(v), loc);
          assertNames(busy, chunkUrl(loc, "3"));
          px.proxy.clear();
          assertArrayEquals(all, readAll(v), loc + ": the next read after the faults");
        }
      }
    } finally {
      s.put(S3Fixtures.BUCKET, chunk1, keep1);
      s.put(S3Fixtures.BUCKET, chunk2, keep2);
    }
  }

  private static String chunkUrl(String storeLocation, String key) {
    return storeLocation + "/" + key;
  }

  @Test
  void storeArchiveCutReplacedOrDeletedIsAnErrorNamingItNeverOtherValues() throws IOException {
    S3Server s = px.server;
    String fixture = "blosc2-stores/dictstore/v_dict_zip.b2z";
    String other = "blosc2-stores/treestore/v_tree_zip.b2z";
    String key = "faults/store.b2z";
    Fixtures.Variable fv = Fixtures.manifest("blosc2-stores").dataset("dictstore/v_dict_zip.b2z").variables().get(0);
    for (String loc : new String[] {px.s3(key), px.http(key)}) {
      s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(fixture)));
      RemoteStores.reset();
      // cut answers while opening (after the retries): an IOException naming the URL
      px.proxy.fault(FaultProxy.Kind.TRUNCATE, key, 1000, 100);
      IOException cut = assertThrows(IOException.class, () -> open(loc).close(), loc);
      assertNames(cut, loc);
      px.proxy.clear();
      RemoteStores.reset();
      for (boolean delete : new boolean[] {false, true}) {
        s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(fixture)));
        RemoteStores.reset();
        try (ChunkedDataset d = open(loc)) {
          ChunkedVariable v = d.variables().stream().filter(x -> x.name().equals(fv.name())).findFirst().orElseThrow();
          if (delete) {
            s.delete(S3Fixtures.BUCKET, key);
          } else {
            s.put(S3Fixtures.BUCKET, key, Files.readAllBytes(Fixtures.testdata().resolve(other)));
          }
          RemoteStores.reset(); // nothing of the opened version cached by the file system
          byte[] got;
          try {
            got = readAll(v);
          } catch (IOException e) { // the archive is another one now: said so, naming it
            assertNames(e, loc);
            continue;
          }
          // bytes the open already fetched (the whole of a small archive) still answer: they are the opened version's
          assertArrayEquals(fv.expected(), got, loc + (delete ? ": deleted" : ": replaced") + ", never other values");
        }
      }
    }
  }
}
