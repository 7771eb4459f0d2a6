package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Index;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Blosc with deflate before and after it, HDF5 shuffle + deflate + Blosc, Blosc + Fletcher32 on big-endian
 * types: {@code src/test/resources/hdf5-extra/pipelines.h5}, written by {@code generate.py} there (Debian
 * h5py + the HDF5 Blosc plugin); values are recomputed from the generator's formulas.
 */
class H5BloscPipelinesTest {
  private static Path file;

  @BeforeAll
  static void setUp() throws Exception {
    H5Iosp.register();
    file = Paths.get(H5BloscPipelinesTest.class.getResource("/hdf5-extra/pipelines.h5").toURI());
  }

  /** i * 1000 + j for ints, i * 0.5 - j * 0.25 for doubles, at every element of a (strided) section. */
  private static void checkValues(Variable v, String section, int[] first, int[] stride) throws Exception {
    Array a = section == null ? v.read() : v.read(section);
    Index ix = a.getIndex();
    int[] shape = a.getShape();
    int n = 0;
    for (int i = 0; i < shape[0]; i++) {
      for (int j = 0; j < shape[1]; j++) {
        int gi = first[0] + i * stride[0];
        int gj = first[1] + j * stride[1];
        ix.set(i, j);
        if (v.getDataType() == DataType.INT) {
          assertEquals(gi * 1000 + gj, a.getInt(ix), v.getShortName() + " [" + gi + "," + gj + "]");
        } else {
          assertEquals(gi * 0.5 - gj * 0.25, a.getDouble(ix), 0.0, v.getShortName() + " [" + gi + "," + gj + "]");
        }
        n++;
      }
    }
    assertTrue(n > 0);
  }

  @Test
  void pipelinesAroundBloscAndBigEndianTypes() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      H5Iosp iosp = (H5Iosp) nc.getIosp();
      for (String name : new String[] {"i32_blosc_then_deflate", "f64_shuffle_deflate_blosc", "i32be_blosc_fletcher",
          "f64be_blosc"}) {
        Variable v = nc.findVariable(name);
        assertNotNull(iosp.arrayOf(v), name + " is read by chunkcdm");
        int[] shape = v.getShape();
        checkValues(v, null, new int[] {0, 0}, new int[] {1, 1});
        checkValues(v, "1:" + (shape[0] - 1) + ":3,2:" + (shape[1] - 1) + ":2", new int[] {1, 2}, new int[] {3, 2});
        checkValues(v, (shape[0] - 1) + "," + (shape[1] - 1), new int[] {shape[0] - 1, shape[1] - 1}, new int[] {1, 1});
      }
      // the deflate-only control, as netcdf-java reads it, equals the Blosc big-endian copy
      Variable plain = nc.findVariable("f64be_plain_deflate");
      try (NetcdfFile stock = NetcdfFiles.open(file.toString(), "ucar.nc2.internal.iosp.hdf5.H5iospNew", -1, null, null)) {
        Array want = stock.findVariable("f64be_plain_deflate").read();
        NetcdfChecks.assertSameArray(want, plain.read(), "f64be_plain_deflate: chunkcdm vs netcdf-java");
        NetcdfChecks.assertSameArray(want, nc.findVariable("f64be_blosc").read(), "f64be_blosc vs deflate");
      }
    }
  }
}
