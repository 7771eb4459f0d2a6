package org.chunkcdm.dist;

import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Runs in the "host" JVM of {@link DistJarIT}: opens each argument and reads every variable. */
public final class HostProbe {
  /** Fixture family and path of one dataset per format family. */
  static final String[][] TARGETS = {
    {"bcolz", "carray/dtype_float64_zlib_c9_byteshuf_n1025_cl128"},
    {"bloscpack", "ndarray/dtype_float32_zstd_shuf1.blp"},
    {"blosc2", "sframe/sf_lz4_noshuffle_u1.b2frame"},
    {"blosc2", "sframe/sf_zstd_dict_i4.b2frame"}, // zstd with a trained dictionary, no zstd-jni on that class path
    {"blosc2", "b2nd/b2nd_3d_i2_cframe.b2nd"},
    {"ds", "nd_shared_dims.ds"},
  };

  public static void main(String[] args) throws Exception {
    for (String path : args) {
      try (NetcdfFile nc = NetcdfFiles.open(path)) {
        long n = 0;
        for (Variable v : nc.getVariables()) {
          Array a = v.read();
          n += a.getSize();
        }
        if (nc.getVariables().isEmpty()) {
          throw new IllegalStateException(path + ": no variables");
        }
        System.out.println("OK " + path + " " + nc.getFileTypeId() + " " + n);
      }
    }
  }
}
