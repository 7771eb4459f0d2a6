package org.chunkcdm.blosc2stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.chunkcdm.testkit.TestFiles;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The shared IOSP contract over every store fixture of testdata/blosc2-stores (DictStore and TreeStore as
 * {@code .b2d} and {@code .b2z}, EmbedStore, CTable as {@code .b2d} and {@code .b2z}) through every open path:
 * the directory, its {@code embed.b2e}, the file, {@code file:} URLs; plus the store's own checks on each open:
 * global, group and variable attributes equal the manifest's, key paths are groups.
 */
class Blosc2StoreIospContractTest extends IospContract {
  Blosc2StoreIospContractTest() {
    super(Blosc2StoreIosp.class, "blosc2-store");
  }

  /** A {@code .b2d} directory finds its external values by listing: over plain HTTP it must say so. */
  @Override
  protected boolean needsListing(Fixture f) {
    return Files.isDirectory(f.location());
  }

  @Override
  protected List<Fixture> fixtures() {
    return fixtures(StoreFixtures.datasets(), StoreFixtures::expected);
  }

  @Override
  protected List<Open> opens(Fixture f) {
    Open files = netcdfFiles("NetcdfFiles", null);
    if (Files.isDirectory(f.location())) {
      return List.of(files, DATASETS_FILE_URL, netcdfFiles("NetcdfFiles embed.b2e", "embed.b2e"),
          netcdfDatasets("NetcdfDatasets embed.b2e", "embed.b2e"));
    }
    return List.of(files, netcdfDatasets("NetcdfDatasets", null), DATASETS_FILE_URL);
  }

  @Override
  protected void checkDataset(Fixture f, Open how, NetcdfFile nc) {
    Fixtures.Dataset d = dataset(f);
    StoreFixtures.assertAttributes(d.json().path("attrs"), nc.getRootGroup().attributes(), f + " via " + how);
    JsonNode groups = d.json().path("group_attrs");
    Iterator<Map.Entry<String, JsonNode>> it = groups.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      Group g = nc.findGroup(StoreFixtures.cdmName(e.getKey()));
      assertNotNull(g, f + ": group " + e.getKey());
      StoreFixtures.assertAttributes(e.getValue(), g.attributes(), f + " group " + e.getKey());
    }
    String kind = d.kind().equals("blosc2-ctable") ? "CTable" : d.json().path("cparams").path("container").asText();
    assertEquals(kind, nc.getRootGroup().findAttributeString("blosc2_container", ""), f.toString());
  }

  @Override
  protected void checkVariable(Fixture f, Open how, Expected e, Variable v, Variable raw) {
    Fixtures.Dataset d = dataset(f);
    Fixtures.Variable fv = null;
    for (Fixtures.Variable x : d.variables()) {
      if (StoreFixtures.cdmName(x.name()).equals(e.cdmName())) {
        fv = x;
      }
    }
    assertNotNull(fv, e.toString());
    StoreFixtures.assertAttributes(fv.json().path("attrs"), raw.attributes(), e + " via " + how);
    // key "/a/b/c": variable c in group a/b
    String name = StoreFixtures.cdmPath(fv.name());
    int slash = name.lastIndexOf('/');
    assertEquals(StoreFixtures.cdmName(slash < 0 ? "" : name.substring(0, slash)), raw.getParentGroup().getFullName(),
        e + " group");
    assertEquals(name.substring(slash + 1), raw.getShortName(), e + " short name");
    if (d.kind().equals("blosc2-ctable")) {
      assertEquals("row", raw.getDimension(0).getShortName(), e + ": columns share the row dimension");
    }
  }

  @Override
  protected List<Path> foreignFiles() {
    List<Path> out = new ArrayList<>();
    out.add(Fixtures.manifest("blosc2").dataset("b2nd/b2nd_2d_f8_cframe.b2nd").file());
    if (visibleSet()) {
      out.add(StoreFixtures.dataset("single/v_b2nd_vlmeta.b2nd").file());
    }
    return out;
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((Blosc2StoreIosp) nc.getIosp()).handles().openCount();
  }

  /** A directory store (the modification touches one leaf file) and a zip store. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    List<CacheCase> out = new ArrayList<>();
    if (!visibleSet()) {
      Fixture f = withElements().get(0);
      Path copy = TestFiles.copy(f.location(), dir.resolve("cached-" + f.location().getFileName()));
      return List.of(new CacheCase(f.name(), "file:" + copy, f.variables(), before -> touch(copy, before)));
    }
    Fixtures.Dataset tree = StoreFixtures.dataset("treestore/v_tree_dir.b2d");
    Path copy = TestFiles.copy(tree.file(), dir.resolve("cached.b2d"));
    out.add(new CacheCase(tree.path(), "file:" + copy.toAbsolutePath(), StoreFixtures.expected(tree),
        before -> touch(copy.resolve("images/img1.b2nd"), before)));
    Fixtures.Dataset zip = StoreFixtures.dataset("ctable/v_table_zip.b2z");
    Path z = TestFiles.copy(zip.file(), dir.resolve("cached.b2z"));
    out.add(new CacheCase(zip.path(), "file:" + z.toAbsolutePath(), StoreFixtures.expected(zip),
        before -> touch(z, before)));
    return out;
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    if (!visibleSet()) {
      return withElements();
    }
    List<Fixture> out = new ArrayList<>();
    for (String p : List.of("dictstore/v_dict_mixed.b2d", "embedstore/v_embed.b2e", "ctable/v_table_dir.b2d",
        "treestore/v_tree_zip.b2z")) {
      Fixtures.Dataset d = StoreFixtures.dataset(p);
      out.add(fixture(d, StoreFixtures.expected(d)));
    }
    return out;
  }

  /** The fixtures with at least one element to read. */
  private List<Fixture> withElements() {
    List<Fixture> out = new ArrayList<>();
    for (Fixture f : fixtures()) {
      if (f.variables().stream().anyMatch(e -> e.size() > 0)) {
        out.add(f);
      }
    }
    return out;
  }

  /** Names of the fixtures of another manifest (-Dchunkcdm.root): then every dataset is also read by 16 threads. */
  private static boolean visibleSet() {
    return StoreFixtures.datasets().stream().anyMatch(d -> d.path().equals("dictstore/v_dict_mixed.b2d"));
  }
}
