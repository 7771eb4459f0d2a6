package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ServiceLoader;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.DatasetUrl;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.iosp.IOServiceProvider;

/** What THREDDS does with an IOSP: both registrations, the file cache, many reader threads. */
class TdsLikeTest {
  @TempDir
  Path tmp;

  @Test
  void serviceLoaderRegistration() throws IOException {
    boolean found = false;
    for (IOServiceProvider p : ServiceLoader.load(IOServiceProvider.class)) {
      found |= p instanceof DsIosp;
    }
    assertTrue(found, "META-INF/services lists DsIosp");
    assertFalse(NetcdfFile.iospRegistered(DsIosp.class), "not registered explicitly: found through ServiceLoader");
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("all_types_1d.ds");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      assertTrue(nc.getIosp() instanceof DsIosp);
      for (Fixtures.Variable fv : d.variables()) {
        new Expect(fv).assertValues(Expect.find(nc, fv).read(), null, null, null, fv.toString());
      }
    }
  }

  @Test
  void runtimeConfigRegistration() throws IOException {
    String errlog = org.chunkcdm.testkit.NetcdfChecks.registerLikeThreddsConfig(org.chunkcdm.ds.DsIosp.class);
    assertTrue(NetcdfFile.iospRegistered(DsIosp.class), "registered: " + errlog);
    try {
      for (Fixtures.Dataset d : Fixtures.manifest("ds").datasets()) {
        try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
          assertTrue(nc.getIosp() instanceof DsIosp, d.toString());
          for (Fixtures.Variable fv : d.variables()) {
            new Expect(fv).assertValues(Expect.find(nc, fv).read(), null, null, null, fv.toString());
          }
        }
      }
      // registered first, the IOSP must not claim what is not a ds file
      Path nc = Fixtures.manifest("ds").dir().resolve("nc/basic.nc");
      try (NetcdfFile f = NetcdfFiles.open(nc.toString())) {
        assertFalse(f.getIosp() instanceof DsIosp);
      }
    } finally {
      NetcdfFile.iospDeRegister(DsIosp.class);
    }
  }

  /** Cache on: close() parks the file (handles released), acquire reuses it; a modified file is reopened. */
  @Test
  void fileCacheReleaseReacquireAndModification() throws Exception {
    // large.ds (4 MB): its body is read through the file handle, not from the kept first 16 kB
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    Path p = Files.copy(d.file(), tmp.resolve("cached.ds"));
    NetcdfDatasets.initNetcdfFileCache(1, 10, 0);
    try {
      DatasetUrl url = DatasetUrl.findDatasetUrl(p.toString());
      NetcdfFile first = NetcdfDatasets.acquireFile(url, null);
      DsIosp iosp = (DsIosp) first.getIosp();
      assertValues(d, first);
      assertTrue(iosp.handles().openCount() > 0);
      first.close(); // back into the cache: release()
      assertEquals(0, iosp.handles().openCount(), "release() closes the file handle");
      NetcdfFile again = NetcdfDatasets.acquireFile(url, null);
      assertSame(first, again, "unchanged file comes from the cache");
      for (Variable v : again.getVariables()) {
        v.setCaching(false);
        v.invalidateCache();
      }
      assertValues(d, again); // reads after reacquire()
      assertTrue(iosp.handles().openCount() > 0, "the read reopened the file");
      again.close();

      long before = first.getLastModified();
      assertEquals(Files.getLastModifiedTime(p).toMillis(), before);
      Files.setLastModifiedTime(p, FileTime.fromMillis(before + 10_000));
      NetcdfFile fresh = NetcdfDatasets.acquireFile(url, null);
      try {
        assertNotSame(first, fresh, "a modified file is reopened");
        assertEquals(before + 10_000, fresh.getLastModified());
        assertValues(d, fresh);
      } finally {
        fresh.close();
      }
    } finally {
      NetcdfDatasets.shutdown();
    }
  }

  static void assertValues(Fixtures.Dataset d, NetcdfFile nc) throws IOException {
    for (Fixtures.Variable fv : d.variables()) {
      new Expect(fv).assertValues(Expect.find(nc, fv).read(), null, null, null, fv.toString());
    }
  }

  /** 16 threads reading random sections of one open file get exactly the single-thread results. */
  @ParameterizedTest
  @ValueSource(strings = {"many_vars.ds", "masked.ds", "strings.ds", "large.ds", "bool_packing.ds", "endian.ds"})
  void sixteenThreads(String path) throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset(path);
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      List<Variable> vars = new ArrayList<>();
      for (Variable v : nc.getVariables()) {
        if (v.getSize() > 0) {
          v.setCaching(false);
          vars.add(v);
        }
      }
      Random rnd = new Random(42);
      List<org.chunkcdm.testkit.NetcdfChecks.Read> jobs = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        Variable v = vars.get(rnd.nextInt(vars.size()));
        List<Range> ranges = new ArrayList<>();
        for (int dim : v.getShape()) {
          int a = rnd.nextInt(dim);
          int b = a + rnd.nextInt(Math.min(dim - a, 50));
          ranges.add(new Range(a, b, 1 + rnd.nextInt(3)));
        }
        Section s = new Section(ranges);
        jobs.add(new org.chunkcdm.testkit.NetcdfChecks.Read(v, s, v.read(s)));
      }
      org.chunkcdm.testkit.NetcdfChecks.assertConcurrentReads(jobs, 16, 150);
    }
  }
}
