package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import ij.ImagePlus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.OmeZarr;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OME-Zarr images (NGFF 0.4 in Zarr v2, 0.5 in Zarr v3): the resolution levels come first, full resolution first,
 * with the OME axes as dimension names and X/Y/Z/C/T roles from the axis types; the image opens lazily through the
 * macro entry. Stores written here: an image of c=2, z=3, y=8, x=10 uint16 (value = its C-order index) and a 2x
 * downsampled level, plus an unrelated array listed before them by name.
 */
class OmeZarrTest {
  @TempDir
  Path tmp;

  static final String AXES = "[{\"name\": \"c\", \"type\": \"channel\"}, {\"name\": \"z\", \"type\": \"space\"},"
      + " {\"name\": \"y\", \"type\": \"space\", \"unit\": \"micrometer\"}, {\"name\": \"x\", \"type\": \"space\"}]";
  static final String DATASETS = "[{\"path\": \"0\", \"coordinateTransformations\": [{\"type\": \"scale\", \"scale\": [1, 1, 0.5, 0.5]}]},"
      + " {\"path\": \"1\", \"coordinateTransformations\": [{\"type\": \"scale\", \"scale\": [1, 1, 1.0, 1.0]}]}]";

  static byte[] values(long[] shape, int scale) {
    int n = (int) (shape[0] * shape[1] * shape[2] * shape[3]);
    ByteBuffer b = ByteBuffer.allocate(2 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putShort((short) (i * scale));
    }
    return b.array();
  }

  static String shape(long[] s) {
    return "[" + s[0] + ", " + s[1] + ", " + s[2] + ", " + s[3] + "]";
  }

  /** NGFF 0.4: a v2 store, one uncompressed chunk per array. */
  Path v2Store() throws IOException {
    Path s = Files.createDirectories(tmp.resolve("image.ome.zarr"));
    Files.writeString(s.resolve(".zgroup"), "{\"zarr_format\": 2}");
    Files.writeString(s.resolve(".zattrs"), "{\"multiscales\": [{\"version\": \"0.4\", \"name\": \"img\", \"axes\": " + AXES
        + ", \"datasets\": " + DATASETS + "}]}");
    long[][] shapes = {{2, 3, 8, 10}, {2, 3, 4, 5}};
    for (int l = 0; l < 2; l++) {
      Path a = Files.createDirectories(s.resolve(String.valueOf(l)));
      Files.writeString(a.resolve(".zarray"), "{\"zarr_format\": 2, \"shape\": " + shape(shapes[l]) + ", \"chunks\": "
          + shape(shapes[l]) + ", \"dtype\": \"<u2\", \"compressor\": null, \"filters\": null, \"fill_value\": 0,"
          + " \"order\": \"C\", \"dimension_separator\": \"/\"}");
      Files.createDirectories(a.resolve("0/0/0"));
      Files.write(a.resolve("0/0/0/0"), values(shapes[l], l + 1));
    }
    Path other = Files.createDirectories(s.resolve("_aaa"));
    Files.writeString(other.resolve(".zarray"), "{\"zarr_format\": 2, \"shape\": [3, 4, 5, 6, 7], \"chunks\": [3, 4, 5, 6, 7],"
        + " \"dtype\": \"<u2\", \"compressor\": null, \"filters\": null, \"fill_value\": 0, \"order\": \"C\"}");
    return s;
  }

  /** NGFF 0.5: a v3 store with the metadata under "ome". */
  Path v3Store() throws IOException {
    Path s = Files.createDirectories(tmp.resolve("image5.ome.zarr"));
    Files.writeString(s.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {\"ome\":"
        + " {\"version\": \"0.5\", \"multiscales\": [{\"name\": \"img\", \"axes\": " + AXES + ", \"datasets\": " + DATASETS
        + "}]}}}");
    long[][] shapes = {{2, 3, 8, 10}, {2, 3, 4, 5}};
    for (int l = 0; l < 2; l++) {
      Path a = Files.createDirectories(s.resolve(String.valueOf(l)));
      Files.writeString(a.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape(shapes[l])
          + ", \"data_type\": \"uint16\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": "
          + shape(shapes[l]) + "}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
          + " \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}],"
          + " \"dimension_names\": [\"c\", \"z\", \"y\", \"x\"]}");
      Files.createDirectories(a.resolve("c/0/0/0"));
      Files.write(a.resolve("c/0/0/0/0"), values(shapes[l], l + 1));
    }
    return s;
  }

  @Test
  void levelsFirstWithOmeAxes() throws IOException {
    for (Path s : new Path[] {v2Store(), v3Store()}) {
      try (ImageDataset ds = ImageDataset.open(s)) {
        List<String> names = new ArrayList<>();
        ds.variables().forEach(v -> names.add(v.name()));
        assertEquals(List.of("0", "1"), names.subList(0, 2), s + ": full resolution first");
        ImageVariable full = ds.variables().get(0);
        assertEquals(List.of("c", "z", "y", "x"), full.dimensions());
        assertEquals(0, full.attributes().get(OmeZarr.LEVEL));
        StackSpec spec = StackSpec.defaults(full);
        assertEquals(10, spec.width());
        assertEquals(8, spec.height());
        assertEquals(3, spec.slices());
        assertEquals(2, spec.channels(), "c is the channel axis by its OME type");
        assertEquals(1, spec.frames());
        assertArrayEquals(new int[] {3, 2, 1, 0, -1}, OmeZarr.roles(full));
      }
    }
  }

  @Test
  void macroOpensAVirtualHyperstack() throws IOException {
    Path s = v2Store();
    ImagePlus imp = ChunkcdmImageJ.openImage(s.toString(), "0", null, null, true);
    assertEquals(10, imp.getWidth());
    assertEquals(8, imp.getHeight());
    assertEquals(2, imp.getNChannels());
    assertEquals(3, imp.getNSlices());
    // channel 2, slice 3: plane index c*3 + z; pixel (x=4, y=5) = C-order index
    imp.setPosition(2, 3, 1);
    int want = ((1 * 3 + 2) * 8 + 5) * 10 + 4;
    assertEquals(want, imp.getProcessor().get(4, 5));
    imp.close();
  }

  @Test
  void otherZarrStoresKeepTheirOrder() throws IOException {
    try (ImageDataset ds = ImageDataset.open(Fixtures.family("zarr").resolve("v2_layout.zarr"))) {
      assertNull(ds.variables().get(0).attributes().get(OmeZarr.LEVEL));
      assertEquals("c_dot_2d", ds.variables().get(0).name());
    }
  }
}
