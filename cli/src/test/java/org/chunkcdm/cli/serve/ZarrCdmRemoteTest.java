package org.chunkcdm.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.dataset.NetcdfDatasets;

/** Every Zarr store of testdata/zarr (groups, v3 sharding, the zip store) served over cdmremote reads as locally. */
class ZarrCdmRemoteTest {
  static CdmRemoteServer server;
  static Path root;

  @BeforeAll
  static void start() throws Exception {
    root = Fixtures.family("zarr");
    server = CdmRemoteServer.start(root, "127.0.0.1", 0, 8);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static Stream<Fixtures.Dataset> stores() {
    return Fixtures.manifest("zarr").datasets().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void readsAsLocally(Fixtures.Dataset d) throws Exception {
    String rel = root.relativize(d.file()).toString();
    try (NetcdfFile local = NetcdfFiles.open(d.file().toString());
        NetcdfFile remote = NetcdfDatasets.openFile("cdmremote:" + server.url() + "cdmremote/"
            + CdmRemoteServer.encodePath(rel), null)) {
      assertEquals("ncstreamRemote", remote.getFileTypeId(), d.toString());
      CdmRemoteServerTest.assertSame(local, remote, d.toString());
    }
  }
}
