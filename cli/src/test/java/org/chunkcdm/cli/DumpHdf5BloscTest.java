package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/** {@code ./chunkcdm dump} on a NetCDF-4 file whose variables are Blosc-compressed. */
class DumpHdf5BloscTest {
  @Test
  void dumpPrintsBloscCompressedNetcdf4Values() {
    Path f = Fixtures.family("hdf5-blosc").resolve("netcdf4_blosc.nc");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Main.run(new String[] {"dump", "-v", "latitude,quality_flag", f.toString()}, new PrintWriter(out), new PrintWriter(err));
    assertEquals(0, rc, err.toString());
    String s = out.toString();
    // latitude is Blosc lz4 + shuffle; its first value (manifest) is -85.0
    byte[] lat = Fixtures.manifest("hdf5-blosc").datasets("hdf5-blosc").stream()
        .flatMap(d -> d.variables().stream()).filter(v -> v.dataset().path().equals("netcdf4_blosc.nc")
            && v.name().equals("latitude")).findFirst().orElseThrow().expected();
    double first = java.nio.ByteBuffer.wrap(lat).order(java.nio.ByteOrder.LITTLE_ENDIAN).getDouble(0);
    assertTrue(s.contains("latitude =") && s.contains("quality_flag ="), s);
    String firstText = String.valueOf(first);
    assertTrue(s.contains(firstText), "dump shows " + firstText + ":\n" + s);
  }
}
