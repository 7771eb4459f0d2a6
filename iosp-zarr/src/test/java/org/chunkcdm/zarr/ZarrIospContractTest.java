package org.chunkcdm.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.chunkcdm.testkit.TestFiles;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The shared IOSP contract over every store of testdata/zarr (14 Zarr v2 stores, one of them a zip, and 5 Zarr v3
 * stores, 164 arrays), opened by directory, by root metadata file, as a zip, through NetcdfFiles and NetcdfDatasets
 * (file: URL): every value, strided sections across (inner) chunk boundaries, 16 threads, the THREDDS file cache
 * cycle on a v2 and a sharded v3 copy.
 */
class ZarrIospContractTest extends IospContract {
  ZarrIospContractTest() {
    super(ZarrIosp.class, "Zarr");
  }

  private Fixture fixture(String path) {
    Fixtures.Dataset d = ZarrFixtures.dataset(path);
    return fixture(d, ZarrFixtures.expected(d));
  }

  @Override
  protected List<Fixture> fixtures() {
    return fixtures(ZarrFixtures.datasets(), ZarrFixtures::expected);
  }

  @Override
  protected List<Open> opens(Fixture f) {
    Path p = f.location();
    List<Open> out = new ArrayList<>();
    out.add(netcdfFiles("NetcdfFiles", null));
    out.add(DATASETS_FILE_URL);
    if (Files.isDirectory(p)) {
      String entry = Zarr.entryOfDirectory(p).getFileName().toString();
      out.add(netcdfFiles("NetcdfFiles " + entry, entry));
      out.add(netcdfDatasets("NetcdfDatasets " + entry, entry));
    } else {
      out.add(netcdfDatasets("NetcdfDatasets", null));
    }
    return out;
  }

  /**
   * A group store without consolidated metadata (no {@code .zmetadata}, no {@code consolidated_metadata} in its
   * {@code zarr.json}) finds its arrays only by listing: over plain HTTP it must say so.
   */
  @Override
  protected boolean needsListing(Fixture f) throws IOException {
    Path p = f.location();
    if (!Files.isDirectory(p) || Files.isRegularFile(p.resolve(".zarray"))) {
      return false;
    }
    Path v3 = p.resolve("zarr.json");
    if (!Files.isRegularFile(v3)) {
      return !Files.isRegularFile(p.resolve(".zmetadata"));
    }
    com.fasterxml.jackson.databind.JsonNode m = new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readAllBytes(v3));
    return m.path("node_type").asText().equals("group") && !m.path("consolidated_metadata").path("metadata").isObject();
  }

  @Override
  protected void checkVariable(Fixture f, Open how, Expected e, Variable v, Variable raw) {
    assertNotNull(raw.findAttribute("compression"), e + ": compression attribute");
  }

  @Override
  protected void checkDataset(Fixture f, Open how, NetcdfFile nc) {
    Fixtures.Dataset d = dataset(f);
    // the root group's user attributes are global attributes
    d.json().path("attrs").fields().forEachRemaining(e -> {
      String n = e.getKey();
      if (e.getValue().isObject() && !e.getValue().has("$float")) { // nested objects: flattened to dotted names
        n = n + "." + e.getValue().fieldNames().next();
      }
      assertNotNull(nc.getRootGroup().findAttribute(n), f + " via " + how + ": global attribute " + n);
    });
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((ZarrIosp) nc.getIosp()).handles().openCount();
  }

  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    List<CacheCase> out = new ArrayList<>();
    for (String[] c : new String[][] {{"v2_groups.zarr", "top", "1"}, {"v3_sharding.zarr", "shard_1d_nan_f4", "c/0"},
        {"v2_zipstore.zip", null, null}}) {
      Fixtures.Dataset d = ZarrFixtures.dataset(c[0]);
      Path copy = TestFiles.copy(d.file(), dir.resolve("cached_" + c[0]));
      Path touched = c[1] == null ? copy : copy.resolve(c[1]).resolve(c[2]);
      assertTrue(Files.isRegularFile(touched), touched.toString());
      out.add(new CacheCase(c[0], "file:" + copy.toAbsolutePath(), ZarrFixtures.expected(d),
          before -> touch(touched, before)));
    }
    return out;
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    return List.of(fixture("v2_blosc_grid.zarr"), fixture("v3_sharding.zarr"), fixture("v2_layout.zarr"),
        fixture("v3_codecs.zarr"), fixture("v2_zipstore.zip"));
  }

  @Override
  protected int threadedReads() {
    return 200;
  }

  @Override
  protected int readsPerThread() {
    return 80;
  }

  @Override
  protected void checkModified(CacheCase c, NetcdfFile fresh) {
    assertEquals(fresh.getLastModified(), fresh.getLastModified());
  }
}
