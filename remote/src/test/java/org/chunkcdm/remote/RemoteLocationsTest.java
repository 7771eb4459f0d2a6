package org.chunkcdm.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.remote.RemoteStores;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The ways users name remote datasets: credentials (wrong ones named in no message, none at all for public
 * objects), NcML wrappers with remote locations, every URL form of one dataset giving the same values.
 */
class RemoteLocationsTest {
  private static final String KEY = "blosc2/b2nd/b2nd_2d_f8_cframe.b2nd";
  private static byte[] expected;

  @TempDir
  Path tmp;

  @BeforeAll
  static void upload() throws IOException {
    S3Fixtures.key(Fixtures.testdata().resolve(KEY));
    expected = Fixtures.manifest("blosc2").dataset(KEY.substring(7)).variables().get(0).expected();
  }

  private static byte[] values(NetcdfFile nc) throws IOException {
    Array a = nc.getVariables().get(0).read();
    return CdmArrays.littleEndian(a);
  }

  @Test
  void everyFormReadsTheSameValues() throws IOException {
    S3Server s = S3Fixtures.server();
    for (String loc : new String[] {"s3://fixtures/" + KEY, "cdms3:fixtures?" + KEY,
        "cdms3://localhost:" + s.tlsPort() + "/fixtures?" + KEY + "#delimiter=/", s.endpoint() + "/fixtures/" + KEY,
        s.https() + "/fixtures/" + KEY}) {
      try (NetcdfFile nc = NetcdfFiles.open(loc)) {
        assertArrayEquals(expected, values(nc), loc);
      }
      try (ChunkedDataset d = Datasets.open(loc, null)) {
        assertEquals("blosc2", d.format(), loc);
      }
    }
  }

  @Test
  void wrongCredentialsAreRefusedWithoutShowingThem() throws IOException {
    String wrong = "definitely-not-the-secret-0123456789";
    System.setProperty("aws.secretAccessKey", wrong);
    RemoteStores.reset();
    try {
      IOException e = assertThrows(IOException.class, () -> Datasets.open("s3://fixtures/" + KEY, null));
      assertTrue(e.getMessage().contains("s3://fixtures/" + KEY) && e.getMessage().contains("403"), e.getMessage());
      assertFalse(e.getMessage().contains(wrong) || e.getMessage().contains(S3Server.SECRET), e.getMessage());
    } finally {
      System.setProperty("aws.secretAccessKey", S3Server.SECRET);
      RemoteStores.reset();
    }
  }

  @Test
  void publicObjectsReadWithoutCredentials() throws IOException {
    System.setProperty("chunkcdm.s3.anonymous", "true");
    RemoteStores.reset();
    try (NetcdfFile nc = NetcdfFiles.open("s3://fixtures/" + KEY)) {
      assertArrayEquals(expected, values(nc));
    } finally {
      System.clearProperty("chunkcdm.s3.anonymous");
      RemoteStores.reset();
    }
  }

  @Test
  void ncmlWrapsRemoteDatasets() throws IOException {
    S3Fixtures.key(Fixtures.family("bcolz").resolve("MANIFEST.json"));
    String carray = "bcolz/carray/multidim_int64_250x8";
    byte[] want = Fixtures.manifest("bcolz").dataset("carray/multidim_int64_250x8").variables().get(0).expected();
    // (an http:// directory dataset cannot be wrapped: netcdf-java asks the URL itself what it is first)
    for (String loc : new String[] {"s3://fixtures/" + KEY, "cdms3:fixtures?" + carray,
        S3Fixtures.server().endpoint() + "/fixtures/" + KEY}) {
      Path ncml = tmp.resolve("wrap" + Math.abs(loc.hashCode()) + ".ncml");
      Files.writeString(ncml, "<netcdf xmlns=\"http://www.unidata.ucar.edu/namespaces/netcdf/ncml-2.2\" location=\""
          + loc.replace("&", "&amp;") + "\">\n  <attribute name=\"wrapped\" value=\"yes\"/>\n</netcdf>\n");
      try (NetcdfFile nc = NetcdfDatasets.openDataset(ncml.toString())) {
        assertEquals("yes", nc.findGlobalAttribute("wrapped").getStringValue(), loc);
        byte[] got = CdmArrays.littleEndian(((ucar.nc2.dataset.VariableDS) nc.getVariables().get(0)).getOriginalVariable().read());
        assertArrayEquals(loc.contains("bcolz") ? want : expected, got, loc);
      }
    }
  }

  @Test
  void malformedLocationsSayWhy() {
    IOException e = assertThrows(IOException.class, () -> Datasets.open("https://user:pw123@example.org/x.b2nd", null));
    assertFalse(e.getMessage().contains("pw123"), e.getMessage());
    assertTrue(Locations.isRemote("cdms3:b?k"));
  }
}
