package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.cli.serve.CdmRemoteServer;
import org.chunkcdm.io.Locations;
import org.chunkcdm.remote.S3Fixtures;
import org.chunkcdm.remote.S3Server;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The CLI with remote datasets (a loopback S3 server): {@code dump} and {@code convert} of per-dataset URLs in
 * every form, {@code serve} of a bucket prefix; the values are the local files'.
 */
class RemoteCliTest {
  private static S3Server server;

  @BeforeAll
  static void upload() throws Exception {
    server = S3Fixtures.server();
    for (String fam : new String[] {"bcolz", "blosc2", "zarr", "blosc2-stores"}) {
      S3Fixtures.key(Fixtures.family(fam).resolve("MANIFEST.json"));
    }
  }

  @Test
  void dumpsRemoteDatasetsLikeLocalOnes() {
    String carray = "bcolz/carray/multidim_int64_250x8";
    String b2nd = "blosc2/b2nd/b2nd_3d_i2_cframe.b2nd";
    CliRuns.Result local = CliRuns.run("dump", "-v", "multidim_int64_250x8",
        Fixtures.testdata().resolve(carray).toString());
    assertEquals(0, local.rc(), local.err());
    for (String url : List.of("s3://fixtures/" + carray, "cdms3:fixtures?" + carray, server.endpoint() + "/fixtures/" + carray)) {
      CliRuns.Result r = CliRuns.run("dump", "-v", "multidim_int64_250x8", url);
      assertEquals(0, r.rc(), url + ": " + r.err());
      assertEquals(values(local.out()), values(r.out()), url);
    }
    CliRuns.Result h = CliRuns.run("dump", "-H", "s3://fixtures/" + b2nd);
    assertEquals(0, h.rc(), h.err());
    assertTrue(h.out().contains("b2nd_3d_i2_cframe(") || h.out().contains("b2nd_3d_i2_cframe "), h.out());
    CliRuns.Result missing = CliRuns.run("dump", "s3://fixtures/no/such.b2nd");
    assertEquals(1, missing.rc());
    assertTrue(missing.err().contains("s3://fixtures/no/such.b2nd"), missing.err());
    assertFalse(missing.err().contains(S3Server.SECRET), missing.err());
  }

  @Test
  void dumpsRemoteZarrStoresAndPythonBlosc2StoresLikeLocalOnes() {
    String http = server.endpoint() + "/fixtures/";
    // a consolidated Zarr v2 store and a .b2z open in every form; a v3 store and a .b2d need S3's listing
    for (String[] c : List.of(new String[] {"zarr/v2_xarray_cf.zarr", "pr", "s3://fixtures/", "cdms3:fixtures?", http},
        new String[] {"zarr/v3_sharding.zarr", "shard_partial_i4", "s3://fixtures/", "cdms3:fixtures?"},
        new String[] {"blosc2-stores/dictstore/v_dict_zip.b2z", "a/uint16", "s3://fixtures/", "cdms3:fixtures?", http},
        new String[] {"blosc2-stores/ctable/v_table_dir.b2d", "y", "s3://fixtures/", "cdms3:fixtures?"})) {
      CliRuns.Result local = CliRuns.run("dump", "-v", c[1], Fixtures.testdata().resolve(c[0]).toString());
      assertEquals(0, local.rc(), c[0] + ": " + local.err());
      for (int i = 2; i < c.length; i++) {
        String url = c[i] + c[0];
        CliRuns.Result r = CliRuns.run("dump", "-v", c[1], url);
        assertEquals(0, r.rc(), url + ": " + r.err());
        assertEquals(values(local.out()), values(r.out()), url);
      }
    }
    // a Zarr group without consolidated metadata over plain HTTP: one message saying that listing is needed
    String url = http + "zarr/v3_sharding.zarr";
    CliRuns.Result r = CliRuns.run("dump", "-H", url);
    assertEquals(1, r.rc(), r.out());
    assertTrue(r.err().contains(url) && r.err().contains("listing"), r.err());
  }

  @Test
  void convertsRemoteZarrAndStoreDatasets(@TempDir Path tmp) throws Exception {
    for (String key : List.of("zarr/v2_groups.zarr", "blosc2-stores/treestore/v_tree_zip.b2z")) {
      Path out = tmp.resolve(key.replace('/', '_') + ".ncs");
      CliRuns.Result r = CliRuns.run("convert", "s3://fixtures/" + key, out.toString());
      assertEquals(0, r.rc(), key + ": " + r.err());
      try (NetcdfFile o = org.chunkcdm.ncstream.iosp.NcStreamFileIosp.open(out.toString())) {
        assertSameVariables(Fixtures.testdata().resolve(key).toString(), o, key);
      }
    }
  }

  /** Every variable of the local dataset has the same values in the other one. */
  private static void assertSameVariables(String local, NetcdfFile o, String what) throws Exception {
    try (NetcdfFile l = NetcdfFiles.open(local)) {
      assertFalse(l.getVariables().isEmpty(), what);
      assertEquals(l.getVariables().size(), o.getVariables().size(), what);
      for (Variable lv : l.getVariables()) {
        Variable ov = o.findVariable(lv.getFullNameEscaped());
        assertTrue(ov != null, what + ": " + lv.getFullName());
        NetcdfChecks.assertSameArray(lv.read(), ov.read(), what + ": " + lv.getFullName());
      }
    }
  }

  @Test
  void servesZarrAndStoresFromABucketPrefix() throws Exception {
    for (String[] c : List.of(new String[] {"zarr", "v3_sharding.zarr"}, new String[] {"blosc2-stores", "dictstore/v_dict_mixed.b2d"})) {
      try (CdmRemoteServer s = CdmRemoteServer.start(Locations.path("s3://fixtures/" + c[0]), "127.0.0.1", 0, 10)) {
        try (NetcdfFile o = NetcdfDatasets.openFile("cdmremote:" + s.url() + "cdmremote/" + c[1], null)) {
          assertSameVariables(Fixtures.family(c[0]).resolve(c[1]).toString(), o, c[1]);
        }
      }
    }
  }

  /** The data part of a CDL dump (the header names the location). */
  private static String values(String cdl) {
    return cdl.substring(cdl.indexOf("data:"));
  }

  @Test
  void convertsARemoteDataset(@TempDir Path tmp) throws Exception {
    String key = "blosc2/sframe/sf_zstd_clevel1_split_i4.b2frame";
    Path out = tmp.resolve("x.ncs");
    CliRuns.Result r = CliRuns.run("convert", "s3://fixtures/" + key, out.toString());
    assertEquals(0, r.rc(), r.err());
    try (NetcdfFile local = NetcdfFiles.open(Fixtures.testdata().resolve(key).toString());
        NetcdfFile conv = NetcdfDatasets.openFile(out.toString(), null)) {
      Variable lv = local.getVariables().get(0);
      NetcdfChecks.assertSameArray(lv.read(), conv.findVariable(lv.getFullName()).read(), key);
    }
  }

  @Test
  void servesABucketPrefix() throws Exception {
    try (CdmRemoteServer s = CdmRemoteServer.start(Locations.path("s3://fixtures/blosc2"), "127.0.0.1", 0, 10)) {
      for (String rel : List.of("b2nd/b2nd_2d_f8_cframe.b2nd", "sframe/sf_lz4_noshuffle_u1.b2frame")) {
        try (NetcdfFile remote = NetcdfDatasets.openFile("cdmremote:" + s.url() + "cdmremote/" + rel, null);
            NetcdfFile local = NetcdfFiles.open(Fixtures.family("blosc2").resolve(rel).toString())) {
          Variable lv = local.getVariables().get(0);
          NetcdfChecks.assertSameArray(lv.read(), remote.findVariable(lv.getFullName()).read(), rel);
        }
      }
    }
  }
}
