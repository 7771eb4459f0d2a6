package org.chunkcdm.bcolz;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.DatasetUrl;
import ucar.nc2.dataset.NetcdfDatasets;

/** What THREDDS does with an IOSP: threddsConfig.xml registration, the file cache, many reader threads. */
class TdsLikeTest {
  @TempDir
  Path tmp;

  @Test
  void runtimeConfigRegistration() throws IOException {
    String errlog = org.chunkcdm.testkit.NetcdfChecks.registerLikeThreddsConfig(org.chunkcdm.bcolz.BcolzIosp.class);
    assertTrue(NetcdfFile.iospRegistered(BcolzIosp.class), "registered: " + errlog);
    try {
      Fixtures.Dataset blp = Fixtures.manifest("bloscpack").dataset("bytes/clevel0_lz4_ts8.blp");
      Fixtures.Dataset car = Fixtures.manifest("bcolz").dataset(MalformedTest.CARRAY);
      for (String loc : List.of(blp.file().toString(), car.file().toString(), car.file().resolve("__attrs__").toString(),
          car.file().resolve("meta/storage").toString())) {
        try (NetcdfFile nc = NetcdfFiles.open(loc)) {
          assertEquals("bcolz", nc.getFileTypeId(), loc);
          assertTrue(nc.getIosp() instanceof BcolzIosp, loc);
        }
      }
      try (NetcdfFile nc = NetcdfFiles.open(car.file().toString())) {
        Check.assertWhole(car.variables().get(0), Check.find(nc, car.variables().get(0)));
      }
    } finally {
      NetcdfFile.iospDeRegister(BcolzIosp.class);
    }
  }

  /** Cache on: close() parks the dataset (handles released), acquire reuses it; a modified dataset reopens. */
  @Test
  void fileCacheReleaseReacquireAndModification() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset(MalformedTest.CARRAY);
    Path dir = TestFiles.copy(d.file(), tmp.resolve("cached"));
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    NetcdfDatasets.initNetcdfFileCache(1, 10, 0);
    try {
      DatasetUrl url = DatasetUrl.findDatasetUrl("file:" + dir.toAbsolutePath());
      NetcdfFile first = NetcdfDatasets.acquireFile(url, null);
      BcolzIosp iosp = (BcolzIosp) first.getIosp();
      Check.assertWhole(exp, first.findVariable("cached"));
      assertTrue(iosp.handles().openCount() > 0);
      first.close(); // back into the cache: release()
      assertEquals(0, iosp.handles().openCount(), "release() closes every file handle");
      NetcdfFile again = NetcdfDatasets.acquireFile(url, null);
      assertSame(first, again, "unchanged dataset comes from the cache");
      Variable v = again.findVariable("cached");
      v.setCaching(false);
      v.invalidateCache();
      Check.assertWhole(exp, v); // reads after reacquire()
      again.close();

      long before = first.getLastModified();
      Files.writeString(dir.resolve("__attrs__"), "{\"version\": 2}\n");
      Files.setLastModifiedTime(dir.resolve("__attrs__"), FileTime.fromMillis(before + 10_000));
      NetcdfFile fresh = NetcdfDatasets.acquireFile(url, null);
      try {
        assertNotSame(first, fresh, "a modified dataset is reopened");
        assertEquals(before + 10_000, fresh.getLastModified());
        assertEquals(2, fresh.findVariable("cached").findAttribute("version").getNumericValue().intValue());
        Check.assertWhole(exp, fresh.findVariable("cached"));
      } finally {
        fresh.close();
      }
    } finally {
      NetcdfDatasets.shutdown();
    }
  }

  static Stream<Arguments> threaded() {
    return Stream.of(
        Arguments.of("bcolz", MalformedTest.CARRAY),
        Arguments.of("bcolz", "carray/random_uint8_incompressible"),
        Arguments.of("bcolz", "ctable/ctable_mixed"),
        Arguments.of("bcolz", "carray/multidim_float32_1000x3x4"),
        Arguments.of("bloscpack", "ndarray/fortran_int64_50x7.blp"),
        Arguments.of("bloscpack", "bytes/clevel0_lz4_ts8.blp"));
  }

  /** 16 threads reading random sections of one open dataset get exactly the single-thread results. */
  @ParameterizedTest(name = "{1}")
  @MethodSource("threaded")
  void sixteenThreads(String family, String path) throws Exception {
    Fixtures.Dataset d = Fixtures.manifest(family).dataset(path);
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      List<Variable> vars = new ArrayList<>();
      for (Fixtures.Variable fv : d.variables()) {
        Variable v = Check.find(nc, fv);
        v.setCaching(false);
        vars.add(v);
      }
      Random rnd = new Random(42);
      List<org.chunkcdm.testkit.NetcdfChecks.Read> jobs = new ArrayList<>(); // {variable, section, single-thread result}
      for (int i = 0; i < 400; i++) {
        Variable v = vars.get(rnd.nextInt(vars.size()));
        List<Range> ranges = new ArrayList<>();
        for (int dim : v.getShape()) {
          int a = rnd.nextInt(dim);
          int b = a + rnd.nextInt(dim - a);
          ranges.add(new Range(a, b, 1 + rnd.nextInt(3)));
        }
        Section s = new Section(ranges);
        jobs.add(new org.chunkcdm.testkit.NetcdfChecks.Read(v, s, v.read(s)));
      }
      org.chunkcdm.testkit.NetcdfChecks.assertConcurrentReads(jobs, 16, 200);
    }
  }
}
