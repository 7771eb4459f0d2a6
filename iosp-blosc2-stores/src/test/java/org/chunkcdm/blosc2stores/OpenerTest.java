package org.chunkcdm.blosc2stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenerChecks;
import org.chunkcdm.sframe.Blosc2Opener;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.Attribute;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/**
 * The stores opener over every store fixture: the same variables (key paths), dimension names, global and group
 * attributes as the IOSP's view, values by typed read equal to the CDM read and the manifest; private cache
 * settings, concurrent reads, no netcdf-java on the class path.
 */
class OpenerTest {
  static List<Fixtures.Dataset> datasets() {
    return StoreFixtures.datasets();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void opensLikeTheIosp(Fixtures.Dataset d) throws Exception {
    long compared = OpenerChecks.check(d, "blosc2-store");
    assertTrue(compared > 0 || StoreFixtures.expected(d).stream().allMatch(e -> e.size() == 0), d.toString());
    if (Files.isDirectory(d.file())) { // the directory's embed.b2e opens the whole store
      OpenerChecks.check(d.file().resolve("embed.b2e"), "blosc2-store", d);
    }
    try (ChunkedDataset ds = Datasets.open(d.file()); NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      StoreDataset sd = assertInstanceOf(StoreDataset.class, ds);
      List<String> groups = new ArrayList<>();
      collect(nc.getRootGroup(), groups);
      assertEquals(groups, new ArrayList<>(sd.groupAttributes().keySet()), d + ": groups");
      for (Map.Entry<String, Map<String, Object>> g : sd.groupAttributes().entrySet()) {
        Group cdm = nc.findGroup(g.getKey().replace(".", "\\."));
        List<String> want = new ArrayList<>();
        for (Attribute a : cdm.attributes()) {
          want.add(a.toString());
        }
        List<String> got = new ArrayList<>();
        for (Attribute a : CdmAttributes.toCdm(g.getValue(), sd.groupUnsigned(g.getKey()))) {
          got.add(a.toString());
        }
        assertEquals(want, got, d + ": attributes of group " + g.getKey());
      }
    }
  }

  /** Paths of every group below {@code g}, parents first. */
  private static void collect(Group g, List<String> out) {
    for (Group sub : g.getGroups()) {
      StringBuilder sb = new StringBuilder(sub.getShortName());
      for (Group p = sub.getParentGroup(); p != null && !p.isRoot(); p = p.getParentGroup()) {
        sb.insert(0, p.getShortName() + "/");
      }
      out.add(sb.toString());
      collect(sub, out);
    }
    out.sort(null);
  }

  @Test
  void privateCacheAndOneThread() throws Exception {
    for (Fixtures.Dataset d : datasets()) {
      OpenerChecks.checkPrivateSettings(d.file(), 256 << 10);
    }
  }

  @Test
  void concurrentTypedReads() throws Exception {
    for (Fixtures.Dataset d : datasets()) {
      OpenerChecks.checkConcurrentTypedReads(d.file(), 4, 25);
    }
  }

  /** Every store opens and reads without netcdf-java on the class path; no class on that path refers to it. */
  @Test
  void opensWithoutNetcdfJava() throws Exception {
    List<Path> paths = new ArrayList<>();
    for (Fixtures.Dataset d : datasets()) {
      paths.add(d.file());
    }
    assertTrue(OpenerChecks.checkWithoutNetcdfJava(paths, "blosc2-store") >= 10);
  }

  /** Stores belong to this opener, plain frames (and their leaves) to the frame opener; other files to neither. */
  @Test
  void claimsStoresOnly(@TempDir Path tmp) throws IOException {
    Blosc2StoreOpener stores = new Blosc2StoreOpener();
    Blosc2Opener frames = new Blosc2Opener();
    for (Fixtures.Dataset d : datasets()) {
      assertTrue(stores.canOpen(d.file()), d.toString());
      assertFalse(frames.canOpen(d.file()), d + " claimed by the frame opener");
      assertEquals("blosc2-store", Datasets.find(d.file()).format(), d.toString());
    }
    Path leaf = StoreFixtures.dataset("dictstore/v_dict_mixed.b2d").file().resolve("grid/counts.b2nd");
    assertFalse(stores.canOpen(leaf));
    assertTrue(frames.canOpen(leaf));
    assertFalse(stores.canOpen(StoreFixtures.dataset("single/v_b2nd_vlmeta.b2nd").file()));
    Path f = tmp.resolve("x.b2z"); // a .b2z that is no zip: claimed, and opening it says why it fails
    Files.write(f, new byte[] {'P', 'K', 3, 4, 0, 0});
    assertTrue(stores.canOpen(f));
    IOException e = assertThrows(IOException.class, () -> stores.open(f, null));
    assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("zip"), e.getMessage());
    Path zip = tmp.resolve("x.zip"); // another zip, without embed.b2e: not claimed
    Files.write(zip, new byte[] {'P', 'K', 3, 4, 0, 0});
    assertFalse(stores.canOpen(zip));
    assertThrows(IOException.class, () -> stores.open(zip, null));
    assertFalse(stores.canOpen(tmp));
    assertFalse(stores.canOpen(tmp.resolve("missing.b2d")));
    assertNotNull(Datasets.find(StoreFixtures.dataset("embedstore/v_embed.b2e").file()));
  }
}
