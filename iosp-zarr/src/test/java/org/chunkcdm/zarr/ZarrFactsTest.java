package org.chunkcdm.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.CoordinateAxis;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/**
 * What the CDM view of Zarr stores shows beyond values (docs/cdm-contract.md): xarray's CF conventions through
 * NetcdfDatasets (packed values unpacked, _FillValue from fill_value, coordinate axes), never-written elements of a
 * null fill value missing, NCZarr's group dimensions, v3 dimension_names with nulls, group attributes, types; and
 * what a read touches: a section of a sharded array reads the shard index and only the inner chunks it needs, and an
 * open reads metadata only.
 */
class ZarrFactsTest {
  private static Path store(String name) {
    return ZarrFixtures.dataset(name).file();
  }

  @Test
  void xarrayCfThroughNetcdfDatasets() throws IOException {
    Path p = store("v2_xarray_cf.zarr");
    Fixtures.Variable t2m = ZarrFixtures.dataset("v2_xarray_cf.zarr").variable("t2m");
    short[] packed = new short[(int) (6 * 9 * 12)];
    ByteBuffer.wrap(t2m.expected()).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(packed);
    try (NetcdfDataset ds = NetcdfDatasets.openDataset("file:" + p)) {
      Variable v = ds.findVariable("t2m");
      assertTrue(v.getDataType().isFloatingPoint(), "unpacked: " + v.getDataType());
      Attribute fill = ((VariableDS) v).getOriginalVariable().findAttribute("_FillValue");
      assertEquals(DataType.SHORT, fill.getDataType());
      assertEquals(-32768, fill.getNumericValue().intValue());
      Array a = v.read();
      IndexIterator it = a.getIndexIterator();
      int missing = 0;
      for (short s : packed) {
        double got = it.getDoubleNext();
        if (s == -32768) {
          assertTrue(Double.isNaN(got));
          missing++;
        } else {
          assertEquals(s * 0.01 + 273.15, got, 1e-4);
        }
      }
      assertTrue(packed.length > missing);
      CoordinateAxis time = ds.findCoordinateAxis("time");
      assertNotNull(time, "time is a coordinate axis");
      assertEquals("hours since 2021-03-01", time.getUnitsString());
      assertNotNull(ds.findCoordinateAxis("lat"));
      assertEquals(List.of("time", "lat", "lon"), dims(v));
      Variable names = ds.findVariable("station_name");
      assertEquals(DataType.STRING, names.getDataType());
      assertEquals("station_name", ds.findVariable("obs").findAttribute("coordinates").getStringValue());
      assertTrue(Double.isNaN(ds.findVariable("lat").findAttribute("_FillValue").getNumericValue().doubleValue()));
    }
  }

  private static List<String> dims(Variable v) {
    List<String> out = new ArrayList<>();
    for (Dimension d : v.getDimensions()) {
      out.add(d.getShortName());
    }
    return out;
  }

  @Test
  void nullFillReadsMissing() throws IOException {
    String[][] cases = {{"v2_fill.zarr", "fill_f8_null"}, {"v2_fill.zarr", "fill_u4_null"},
        {"v2_tensorstore.zarr", "null_fill_f8"}};
    for (String[] c : cases) {
      Fixtures.Variable fv = ZarrFixtures.dataset(c[0]).variable(c[1]);
      byte[] mask = Files.readAllBytes(fv.dataset().file().getParent().resolve(fv.json().get("mask").asText()));
      try (NetcdfDataset ds = NetcdfDatasets.openDataset("file:" + store(c[0]))) {
        VariableDS v = (VariableDS) ds.findVariable(c[1]);
        Array a = v.read();
        int masked = 0;
        for (int i = 0; i < mask.length; i++) {
          double x = a.getDouble(i);
          if (mask[i] != 0) {
            assertTrue(Double.isNaN(x) || v.isMissing(x), c[1] + " element " + i + " = " + x + " must be missing");
            masked++;
          } else {
            assertFalse(v.isMissing(x), c[1] + " element " + i);
          }
        }
        assertTrue(masked > 0);
      }
    }
  }

  @Test
  void dimensionsAndGroups() throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(store("v2_ncgen_nczarr.zarr").toString())) {
      Group forecast = nc.findGroup("forecast");
      assertNotNull(forecast.findDimensionLocal("step"), "NCZarr dimension of the group");
      assertEquals(List.of("step"), dims(nc.findVariable("forecast/temp")));
      assertEquals("toy", forecast.findAttribute("model").getStringValue());
      Attribute fill = nc.findVariable("partial").findAttribute("_FillValue");
      assertEquals(DataType.USHORT, fill.getDataType());
      assertEquals(65000, fill.getNumericValue().intValue() & 0xFFFF);
      assertEquals(DataType.BYTE, nc.getRootGroup().findAttribute("bytes").getDataType(), "NCZarr attribute type");
      assertNull(nc.findVariable("t2m").findAttribute("_NCZARR_ATTR"));
      assertNull(nc.findVariable("t2m").findAttribute("_ARRAY_DIMENSIONS"));
    }
    try (NetcdfFile nc = NetcdfFiles.open(store("v3_keys_fill.zarr").toString())) {
      assertEquals(List.of("t", "dims_partial_4d_dim1", "y", "x"), dims(nc.findVariable("dims_partial_4d")));
    }
    try (NetcdfFile nc = NetcdfFiles.open(store("v3_groups.zarr").toString())) {
      assertEquals(1, nc.findGroup("g1").findAttribute("level").getNumericValue().intValue());
      assertNotNull(nc.findGroup("empty_attrs"));
      assertNotNull(nc.findGroup("no_attrs"));
      assertEquals(List.of("z", "y", "x"), dims(nc.findVariable("g1/g2/b")));
      assertEquals(List.of("y", "x"), dims(nc.findVariable("g1/a")));
      assertEquals("3.14159", String.valueOf(nc.getRootGroup().findAttribute("pi").getNumericValue()));
    }
    try (NetcdfFile nc = NetcdfFiles.open(store("v3_codecs.zarr").toString())) {
      Variable t = nc.findVariable("transpose_u4");
      assertEquals(List.of("z", "y", "x"), dims(t), "names as written, though y and x have other lengths in the group");
      assertFalse(t.getDimension(1).isShared());
    }
    try (NetcdfFile nc = NetcdfFiles.open(store("v2_root_array.zarr").toString())) {
      Variable v = nc.findVariable("v2_root_array");
      assertEquals("m", v.findAttribute("units").getStringValue());
      assertEquals(1, nc.getVariables().size());
    }
  }

  @Test
  void types() throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(store("v2_dtypes.zarr").toString())) {
      Variable s8 = nc.findVariable("S8_1d");
      assertEquals(DataType.CHAR, s8.getDataType());
      assertEquals(List.of("S8_1d_dim0", "S8_1d_strlen"), dims(s8));
      assertEquals(DataType.STRING, nc.findVariable("U5_2d").getDataType());
      Variable b = nc.findVariable("bool_2d");
      assertEquals(DataType.UBYTE, b.getDataType());
      assertEquals("false true", b.findAttribute("flag_meanings").getStringValue());
      assertEquals(DataType.FLOAT, nc.findVariable("f2_1d").getDataType());
      assertEquals(0, nc.findVariable("scalar_f8").getRank());
      assertTrue(nc.findVariable("be_i4").findAttribute("compression").getStringValue().contains("lz4"));
    }
    try (NetcdfFile nc = NetcdfFiles.open(store("v2_filters.zarr").toString())) {
      String c = nc.findVariable("chain_fso_delta").findAttribute("compression").getStringValue();
      assertTrue(c.contains("fixedscaleoffset > delta") && c.contains("zstd"), c);
    }
  }

  @Test
  void storesOfManyChunkFilesKeepFewOpen(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    // 700 chunks of 4 int32, each a memcpyed Blosc1 frame (flags 0x02: the 16-byte header, then the raw bytes)
    Path s = Files.createDirectories(tmp.resolve("many.zarr"));
    int chunks = 700;
    Files.writeString(s.resolve(".zarray"), "{\"zarr_format\": 2, \"shape\": [" + 4 * chunks + "], \"chunks\": [4],"
        + " \"dtype\": \"<i4\", \"compressor\": {\"id\": \"blosc\", \"cname\": \"lz4\", \"clevel\": 5, \"shuffle\": 1,"
        + " \"blocksize\": 0}, \"filters\": null, \"fill_value\": 0, \"order\": \"C\"}");
    for (int c = 0; c < chunks; c++) {
      ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
      b.put((byte) 2).put((byte) 1).put((byte) 0x03).put((byte) 4).putInt(16).putInt(16).putInt(32);
      for (int i = 0; i < 4; i++) {
        b.putInt(4 * c + i);
      }
      Files.write(s.resolve(String.valueOf(c)), b.array());
    }
    try (NetcdfFile nc = NetcdfFiles.open(s.toString())) {
      Array a = nc.findVariable("many").read();
      for (int i = 0; i < 4 * chunks; i++) {
        assertEquals(i, a.getInt(i));
      }
      int open = ((ZarrIosp) nc.getIosp()).handles().openCount();
      assertTrue(open <= DirectoryStore.KEEP_OPEN, open + " chunk files left open");
    }
  }

  /** A store that records the keys and ranges it is asked for. */
  static final class Counting extends Store {
    final Store in;
    final List<String> log = Collections.synchronizedList(new ArrayList<>());

    Counting(Store in) {
      this.in = in;
    }

    @Override
    Path root() {
      return in.root();
    }

    @Override
    String describe(String key) {
      return in.describe(key);
    }

    @Override
    byte[] get(String key, long maxBytes) throws IOException {
      log.add("get " + key);
      return in.get(key, maxBytes);
    }

    @Override
    long size(String key) throws IOException {
      log.add("size " + key);
      return in.size(key);
    }

    @Override
    byte[] getRange(String key, long offset, int len) throws IOException {
      log.add("range " + key + " " + offset + "+" + len);
      return in.getRange(key, offset, len);
    }

    @Override
    List<String> list(String prefix) throws IOException {
      log.add("list " + prefix);
      return in.list(prefix);
    }

    @Override
    long lastModified() {
      return in.lastModified();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  @Test
  void aSectionOfAShardReadsItsIndexAndOneInnerChunk() throws IOException {
    Path p = store("v3_sharding.zarr");
    try (FileHandles f = new FileHandles(p)) {
      Counting c = new Counting(new DirectoryStore(f));
      ZarrTree t = ZarrTree.read(c, "v3_sharding");
      org.chunkcdm.chunk.ChunkedArray a = null;
      for (Node n : t.arrayDims.keySet()) {
        if (n.path.equals("shard_partial_i4")) {
          a = n.array.withSettings(ReadSettings.of(new ChunkCache(0), 1));
        }
      }
      assertNotNull(a);
      c.log.clear();
      int[] one = new int[1];
      SectionReader.read(a, new long[] {12, 9, 7}, new long[] {1, 1, 1}, new long[] {1, 1, 1}, one, 0);
      // shard (1,1,1) of [10,8,6]; inner chunk (0,0,0) of that shard: (12,9,7) is in inner chunk (2,2,2)
      // the shard's size (its index is at the end), the index, the one inner chunk
      assertEquals(3, c.log.size(), c.log.toString());
      assertTrue(c.log.get(0).startsWith("size shard_partial_i4/c/1/1/1"), c.log.toString());
      int indexBytes = 16 * 2 * 2 * 2 + 4;
      assertTrue(c.log.get(1).startsWith("range shard_partial_i4/c/1/1/1 ") && c.log.get(1).endsWith("+" + indexBytes),
          "the index alone: " + c.log);
      assertTrue(c.log.get(2).startsWith("range shard_partial_i4/c/1/1/1 0+"), "the first inner chunk: " + c.log);
      // a second element in another inner chunk of that shard: its index is cached, one ranged read
      c.log.clear();
      SectionReader.read(a, new long[] {19, 15, 11}, new long[] {1, 1, 1}, new long[] {1, 1, 1}, one, 0);
      assertTrue(c.log.size() <= 1, c.log.toString()); // none when that inner chunk was never written (fill value)
      for (String s : c.log) {
        assertTrue(s.startsWith("range shard_partial_i4/c/1/1/1 ") && !s.endsWith("+" + indexBytes), c.log.toString());
      }
      byte[] exp = ZarrFixtures.dataset("v3_sharding.zarr").variable("shard_partial_i4").expected();
      int want = ByteBuffer.wrap(exp).order(ByteOrder.LITTLE_ENDIAN).getInt(4 * ((19 * 16 + 15) * 12 + 11));
      assertEquals(want, one[0]);
    }
  }

  @Test
  void openingReadsMetadataOnly() throws IOException {
    Path p = store("v2_groups.zarr"); // consolidated: one document for every node
    try (FileHandles f = new FileHandles(p)) {
      Counting c = new Counting(new DirectoryStore(f));
      ZarrTree.read(c, "v2_groups");
      assertEquals(List.of("get zarr.json", "get .zmetadata"), c.log);
    }
    Path q = store("v2_layout.zarr"); // listed: .zarray and .zattrs of each array, no chunk
    try (FileHandles f = new FileHandles(q)) {
      Counting c = new Counting(new DirectoryStore(f));
      ZarrTree.read(c, "v2_layout");
      for (String s : c.log) {
        assertTrue(s.startsWith("list ") || s.endsWith("/.zarray") || s.endsWith("/.zattrs") || s.endsWith("/.zgroup")
            || !s.contains("/"), s);
      }
    }
  }
}
