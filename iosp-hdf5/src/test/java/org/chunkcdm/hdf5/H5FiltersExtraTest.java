package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.IospContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import ucar.ma2.DataType;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Every numeric dtype in both byte orders through each filter, with edge chunks, user and default fill values,
 * chunks never written, reduced-precision N-bit integers and floats of every size, scale-offset integers and
 * floats with and without fill values, netCDF4-python variables of every numeric type with Zstd and BZip2:
 * {@code src/test/resources/hdf5-extra/filters_extra*.{h5,nc}}, written by {@code generate_filters_extra.py} there
 * (Debian h5py 3.7 with Debian's LZ4, BZip2, Bitshuffle and LZF plugins; pip h5py 3.16 and netCDF4 1.7.4 with
 * netcdf-c's Zstandard and BZip2 plugins). Each variable is compared with what the HDF5 library returned, whole
 * and in the contract's sections, and must be read by chunkcdm.
 */
class H5FiltersExtraTest {
  private static Path dir;

  @BeforeAll
  static void setUp() throws Exception {
    H5Iosp.register();
    dir = Paths.get(H5FiltersExtraTest.class.getResource("/hdf5-extra/extra.json").toURI()).getParent();
  }

  static DataType type(String dtype) {
    char kind = dtype.charAt(1);
    int size = dtype.charAt(2) - '0';
    if (kind == 'f') {
      return size == 4 ? DataType.FLOAT : DataType.DOUBLE;
    }
    boolean u = kind == 'u';
    return size == 1 ? (u ? DataType.UBYTE : DataType.BYTE) : size == 2 ? (u ? DataType.USHORT : DataType.SHORT)
        : size == 4 ? (u ? DataType.UINT : DataType.INT) : (u ? DataType.ULONG : DataType.LONG);
  }

  @TestFactory
  Stream<DynamicTest> everyExtraVariable() throws Exception {
    JsonNode root = new ObjectMapper().readTree(dir.resolve("extra.json").toFile());
    List<DynamicTest> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> file = it.next();
      out.add(dynamicTest(file.getKey(), () -> checkFile(dir.resolve(file.getKey()), file.getValue())));
    }
    assertFalse(out.isEmpty());
    return out.stream();
  }

  private static void checkFile(Path file, JsonNode vars) throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      H5Iosp iosp = (H5Iosp) nc.getIosp();
      int n = 0;
      for (JsonNode e : vars) {
        String name = e.get("name").asText();
        String dtype = e.get("dtype").asText();
        long[] shape = new long[e.get("shape").size()];
        for (int d = 0; d < shape.length; d++) {
          shape[d] = e.get("shape").get(d).asLong();
        }
        byte[] raw = Files.readAllBytes(dir.resolve(e.get("expected").asText()));
        Expected x = Expected.values(file.getFileName() + ":" + name + " (" + e.get("note").asText() + ")", name,
            type(dtype), shape, dtype.charAt(2) - '0', raw);
        Variable v = nc.findVariable(name);
        assertNotNull(v, x.toString());
        assertNotNull(iosp.arrayOf(v), x + " is read by chunkcdm");
        IospContract.assertWhole(x, v);
        IospContract.assertSections(x, v);
        n++;
      }
      assertTrue(n > 0, file.toString());
    }
  }
}
