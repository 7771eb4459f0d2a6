package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import java.util.List;
import java.util.Objects;
import org.chunkcdm.remote.S3Fixtures;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A URL in the Path field or a macro ({@link ChunkcdmImageJ#openImage}, {@link ChunkcdmImageJ#open}): remote
 * datasets on a loopback S3 server show the same planes as the local files, through {@code s3://},
 * {@code cdms3:} and plain {@code http://} (a directory dataset too).
 */
class RemoteImageTest {
  @BeforeAll
  static void upload() throws Exception {
    for (String fam : new String[] {"bcolz", "blosc2", "ds", "zarr", "blosc2-stores"}) {
      S3Fixtures.key(Fixtures.family(fam).resolve("MANIFEST.json"));
    }
  }

  @Test
  void remotePlanesAreTheLocalOnes() throws Exception {
    String http = S3Fixtures.server().endpoint() + "/fixtures/";
    for (String[] c : List.of(new String[] {"s3://fixtures/", "blosc2/b2nd/b2nd_3d_i2_cframe.b2nd", "b2nd_3d_i2_cframe"},
        new String[] {http, "bcolz/carray/multidim_float32_1000x3x4", "multidim_float32_1000x3x4"},
        new String[] {"cdms3:fixtures?", "ds/nd_shared_dims.ds", "temperature"})) {
      String local = Fixtures.testdata().resolve(c[1]).toString();
      ImagePlus want = ChunkcdmImageJ.openImage(local, c[2], null, null, true);
      ImagePlus got = ChunkcdmImageJ.openImage(c[0] + c[1], c[2], null, null, true);
      assertEquals(want.getStackSize(), got.getStackSize(), c[1]);
      assertEquals(want.getWidth(), got.getWidth(), c[1]);
      for (int i = 1; i <= want.getStackSize(); i++) {
        assertTrue(Objects.deepEquals(want.getStack().getProcessor(i).getPixels(), got.getStack().getProcessor(i).getPixels()),
            c[0] + c[1] + " plane " + i);
      }
      assertTrue(got.getTitle().startsWith(c[1].substring(c[1].lastIndexOf('/') + 1)), got.getTitle());
    }
  }

  @Test
  void remoteZarrAndStorePlanesAreTheLocalOnes() throws Exception {
    String http = S3Fixtures.server().endpoint() + "/fixtures/";
    for (String[] c : List.of(new String[] {http, "zarr/v2_xarray_cf.zarr", "pr"},
        new String[] {"s3://fixtures/", "zarr/v3_sharding.zarr", "shard_partial_i4"},
        new String[] {"cdms3:fixtures?", "blosc2-stores/treestore/v_tree_dir.b2d", "images/img0"},
        new String[] {http, "blosc2-stores/dictstore/v_dict_zip.b2z", "a/uint16"})) {
      String local = Fixtures.testdata().resolve(c[1]).toString();
      ImagePlus want = ChunkcdmImageJ.openImage(local, c[2], null, null, true);
      ImagePlus got = ChunkcdmImageJ.openImage(c[0] + c[1], c[2], null, null, true);
      assertEquals(want.getStackSize(), got.getStackSize(), c[1]);
      assertEquals(want.getWidth(), got.getWidth(), c[1]);
      assertEquals(want.getHeight(), got.getHeight(), c[1]);
      for (int i = 1; i <= want.getStackSize(); i++) {
        assertTrue(Objects.deepEquals(want.getStack().getProcessor(i).getPixels(), got.getStack().getProcessor(i).getPixels()),
            c[0] + c[1] + " plane " + i);
      }
      assertEquals(want.getTitle(), got.getTitle(), c[0] + c[1]);
    }
  }

  @Test
  void macroCallNamesAMissingUrl() {
    String r = ChunkcdmImageJ.open("s3://fixtures/no/such.b2nd", null);
    assertTrue(r.startsWith("error: ") && r.contains("s3://fixtures/no/such.b2nd"), r);
  }
}
