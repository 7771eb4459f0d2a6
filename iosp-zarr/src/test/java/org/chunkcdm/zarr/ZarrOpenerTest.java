package org.chunkcdm.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenerChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The netcdf-java-free opener over every store of testdata/zarr: variables named by their path, the manifest's
 * values (undefined elements of a null fill value excepted) and dimension names, the same view as the IOSP for
 * stores without groups, entry files and zips, and the whole path without netcdf-java on the class path.
 */
class ZarrOpenerTest {
  private static boolean grouped(Fixtures.Dataset d) {
    return d.variables().stream().anyMatch(v -> v.name().contains("/"));
  }

  @Test
  void everyStoreReadsTheManifestValues() throws Exception {
    long compared = 0;
    for (Fixtures.Dataset d : ZarrFixtures.datasets()) {
      try (ChunkedDataset ds = Datasets.open(d.file())) {
        assertEquals("zarr", ds.format());
        List<String> want = new ArrayList<>();
        d.variables().forEach(v -> want.add(v.name()));
        List<String> got = new ArrayList<>();
        ds.variables().forEach(v -> got.add(v.name()));
        assertEquals(sorted(want), sorted(got), d + ": variables");
        for (Fixtures.Variable fv : d.variables()) {
          ChunkedVariable cv = ds.variable(fv.name());
          assertNotNull(cv, fv.toString());
          compared += compare(fv, cv);
        }
      }
    }
    assertTrue(compared > 50_000, "values compared: " + compared);
  }

  private static List<String> sorted(List<String> l) {
    List<String> s = new ArrayList<>(l);
    s.sort(null);
    return s;
  }

  /** Whole-array bytes against the manifest (little-endian order), masked elements left out; dims where known. */
  static long compare(Fixtures.Variable fv, ChunkedVariable cv) throws Exception {
    ChunkedArray a = cv.array();
    assertNotNull(a, fv + ": array");
    assertArrayEquals(fv.shape(), a.grid().shape(), fv + ": shape");
    JsonNode dims = fv.json().get("dims");
    if (dims != null && dims.isArray()) {
      List<String> want = new ArrayList<>();
      dims.forEach(x -> want.add(x.asText()));
      assertEquals(want, cv.dimensions(), fv + ": dimensions");
    }
    long[] shape = a.grid().shape();
    long[] ones = new long[shape.length];
    Arrays.fill(ones, 1);
    byte[] got = SectionReader.readBytes(a, new long[shape.length], shape, ones);
    DType dt = a.dtype();
    int item = dt.itemSize();
    if (dt.order() == ByteOrder.BIG_ENDIAN && item > 1 && dt.kind() != DType.Kind.BYTES) {
      int unit = dt.kind() == DType.Kind.UNICODE ? 4 : dt.kind() == DType.Kind.COMPLEX ? item / 2 : item;
      for (int i = 0; i < got.length; i += unit) {
        for (int k = 0; k < unit / 2; k++) {
          byte t = got[i + k];
          got[i + k] = got[i + unit - 1 - k];
          got[i + unit - 1 - k] = t;
        }
      }
    }
    byte[] want = fv.expected();
    assertEquals(want.length, got.length, fv + ": bytes");
    if (fv.json().hasNonNull("mask")) {
      byte[] mask = Files.readAllBytes(fv.dataset().file().getParent().resolve(fv.json().get("mask").asText()));
      for (int i = 0; i < mask.length; i++) {
        if (mask[i] != 0) {
          Arrays.fill(want, i * item, (i + 1) * item, (byte) 0);
          Arrays.fill(got, i * item, (i + 1) * item, (byte) 0);
        }
      }
    }
    assertArrayEquals(want, got, fv + ": values");
    return got.length;
  }

  @Test
  void storesWithoutGroupsShowTheIospView() throws Exception {
    int n = 0;
    for (Fixtures.Dataset d : ZarrFixtures.datasets()) {
      if (!grouped(d)) {
        OpenerChecks.check(d.file(), "zarr", null);
        n++;
      }
    }
    assertTrue(n >= 10, "stores checked: " + n);
  }

  @Test
  void entryFilesAndZipOpenTheWholeStore() throws Exception {
    for (String s : new String[] {"v2_layout.zarr", "v2_groups.zarr", "v3_codecs.zarr", "v2_root_array.zarr"}) {
      Fixtures.Dataset d = ZarrFixtures.dataset(s);
      Path entry = Zarr.entryOfDirectory(d.file());
      try (ChunkedDataset ds = Datasets.open(entry)) {
        assertEquals(d.variables().size(), ds.variables().size(), entry.toString());
        assertEquals(d.file(), ds.root());
        for (Fixtures.Variable fv : d.variables()) {
          compare(fv, ds.variable(fv.name()));
        }
      }
    }
    OpenerChecks.check(ZarrFixtures.dataset("v2_layout.zarr").file().resolve(".zgroup"), "zarr", null);
  }

  @Test
  void concurrentTypedReadsAndPrivateSettings() throws Exception {
    for (String s : new String[] {"v2_blosc_grid.zarr", "v3_sharding.zarr", "v2_zipstore.zip"}) {
      Path p = ZarrFixtures.dataset(s).file();
      OpenerChecks.checkConcurrentTypedReads(p, 8, 40);
      OpenerChecks.checkPrivateSettings(p, 64 << 10);
    }
  }

  @Test
  void readsWithoutNetcdfJava() throws Exception {
    List<Path> paths = new ArrayList<>();
    for (Fixtures.Dataset d : ZarrFixtures.datasets()) {
      paths.add(d.file());
    }
    assertTrue(OpenerChecks.checkWithoutNetcdfJava(paths, "zarr") >= 10);
  }

  @Test
  void foreignPathsAreNotClaimed() throws Exception {
    ZarrOpener o = new ZarrOpener();
    Path family = Fixtures.family("zarr");
    assertTrue(!o.canOpen(family), "the fixture directory itself is no store");
    assertTrue(!o.canOpen(family.resolve("MANIFEST.json")));
    assertTrue(!o.canOpen(family.resolve("v2_layout.zarr/c_dot_2d/0.0")), "a chunk file");
    assertTrue(!o.canOpen(Fixtures.family("bcolz")));
    assertTrue(o.canOpen(family.resolve("v2_zipstore.zip")));
    assertTrue(o.canOpen(family.resolve("v3_groups.zarr/zarr.json")));
  }
}
