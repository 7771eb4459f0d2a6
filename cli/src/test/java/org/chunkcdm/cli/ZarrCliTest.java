package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** {@code chunkcdm convert} and {@code dump} on every Zarr store: the .ncs holds every array, groups included. */
class ZarrCliTest {
  static Stream<Fixtures.Dataset> stores() {
    return Fixtures.manifest("zarr").datasets().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void convertToNcstream(Fixtures.Dataset d, @TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("x.ncs");
    CliRuns.Result r = CliRuns.run("convert", d.file().toString(), out.toString());
    assertEquals(0, r.rc(), r.err());
    try (NetcdfFile src = NetcdfFiles.open(d.file().toString());
        NetcdfFile back = org.chunkcdm.ncstream.iosp.NcStreamFileIosp.open(out.toString())) {
      assertEquals(src.getVariables().size(), back.getVariables().size(), d.toString());
      for (Variable v : src.getVariables()) {
        Variable b = back.findVariable(v.getFullNameEscaped());
        assertNotNull(b, d + ": " + v.getFullName());
        assertEquals(v.getDimensionsString(), b.getDimensionsString(), d + ": " + v.getFullName());
        NetcdfChecks.assertSameArray(v.read(), b.read(), d + ": " + v.getFullName());
      }
    }
  }

  @Test
  void dumpShowsGroupsAndValues() {
    Path p = Fixtures.manifest("zarr").dataset("v3_groups.zarr").file();
    CliRuns.Result r = CliRuns.run("dump", p.toString());
    assertEquals(0, r.rc(), r.err());
    assertTrue(r.out().contains("group: g1") && r.out().contains("group: g2") && r.out().contains(":title = \"v3 groups\""),
        r.out());
  }
}
