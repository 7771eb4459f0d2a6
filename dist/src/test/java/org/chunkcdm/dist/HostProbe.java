package org.chunkcdm.dist;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.chunkcdm.blosc.Blosc;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Runs in the "host" JVM of {@link DistJarIT}: opens each argument, reads every variable and prints one line per
 * file ({@code OK path type elements crc32-of-the-values}), then one line saying whether native c-blosc was used
 * ({@code NATIVE available nativeChunks version-or-why-not}).
 */
public final class HostProbe {
  /** Fixture family and path of one dataset per format family. */
  static final String[][] TARGETS = {
    {"bcolz", "carray/dtype_float64_zlib_c9_byteshuf_n1025_cl128"}, // Blosc1 chunks: native c-blosc where it loads
    {"bloscpack", "ndarray/dtype_float32_zstd_shuf1.blp"},
    {"blosc2", "sframe/sf_lz4_noshuffle_u1.b2frame"},
    {"blosc2", "sframe/sf_zstd_dict_i4.b2frame"}, // zstd with a trained dictionary, no zstd-jni on that class path
    {"blosc2", "b2nd/b2nd_3d_i2_cframe.b2nd"},
    {"ds", "nd_shared_dims.ds"},
    {"hdf5-blosc", "netcdf4_blosc.nc"}, // NetCDF-4 with Blosc: the HDF5 IOSP registered as threddsConfig.xml does
    {"hdf5-filters", "pipelines_nd.h5"}, // LZF, LZ4, Bitshuffle, Zstd, BZip2 (the relocated Commons Compress)
    {"hdf5-filters", "nbit.h5"}, // N-bit datatypes netcdf-java alone cannot open
  };

  /**
   * What a threddsConfig.xml {@code <nj22Config>} with chunkcdm's HDF5 Blosc and Blosc2 frame IOSPs does (by class
   * name only; a chunkcdm IOSP registered so also puts chunkcdm's http(s) client ahead of netcdf-java's).
   */
  static void registerLikeThreddsConfig() throws java.io.IOException {
    String xml = "<nj22Config><ioServiceProvider class=\"org.chunkcdm.hdf5blosc.H5BloscIosp\"/>"
        + "<ioServiceProvider class=\"org.chunkcdm.sframe.Blosc2FrameIosp\"/></nj22Config>";
    StringBuilder log = new StringBuilder();
    ucar.nc2.util.xml.RuntimeConfigParser.read(new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), log);
    if (log.toString().toLowerCase().contains("fail")) {
      throw new IllegalStateException(log.toString());
    }
  }

  public static void main(String[] args) throws Exception {
    registerLikeThreddsConfig();
    for (String path : args) {
      try (NetcdfFile nc = NetcdfFiles.open(path)) {
        long n = 0;
        CRC32 crc = new CRC32();
        for (Variable v : nc.getVariables()) {
          Array a = v.read();
          n += a.getSize();
          if (a.getElementType() == String.class) {
            for (IndexIterator it = a.getIndexIterator(); it.hasNext(); ) {
              crc.update(String.valueOf(it.getObjectNext()).getBytes(StandardCharsets.UTF_8));
            }
          } else {
            crc.update(a.getDataAsByteBuffer());
          }
        }
        if (nc.getVariables().isEmpty()) {
          throw new IllegalStateException(path + ": no variables");
        }
        System.out.printf("OK %s %s %d %08x%n", path, nc.getFileTypeId(), n, crc.getValue());
      }
    }
    System.out.println("NATIVE " + Blosc.nativeAvailable() + " " + nativeChunksDecoded() + " " + Blosc.nativeVersion());
  }

  /** The codec's count of chunks decoded natively (an internal counter, read reflectively in this probe JVM). */
  static long nativeChunksDecoded() throws ReflectiveOperationException {
    java.lang.reflect.Method m = Class.forName("org.chunkcdm.blosc.BloscStats").getDeclaredMethod("nativeChunksDecoded");
    m.setAccessible(true);
    return (Long) m.invoke(null);
  }
}
