package org.chunkcdm.sframe;

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
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.ma2.Array;
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
    String errlog = org.chunkcdm.testkit.NetcdfChecks.registerLikeThreddsConfig(org.chunkcdm.sframe.Blosc2FrameIosp.class);
    assertTrue(NetcdfFile.iospRegistered(Blosc2FrameIosp.class), "registered: " + errlog);
    try {
      for (String path : List.of("sframe/sf_insert_i4.b2frame", "cframe/cf_insert_i4.b2frame", "b2nd/b2nd_3d_i2_cframe.b2nd",
          "b2nd/b2nd_2d_f4_sframe.b2frame")) {
        Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
        try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
          assertTrue(nc.getIosp() instanceof Blosc2FrameIosp, path);
          Check.assertWhole(Check.Expect.of(d.variables().get(0)), Check.find(nc, d));
        }
      }
    } finally {
      NetcdfFile.iospDeRegister(Blosc2FrameIosp.class);
    }
  }

  /** Cache on: close() parks the dataset (handles released), acquire reuses it; a modified dataset reopens. */
  @ParameterizedTest
  @ValueSource(strings = {"sframe/sf_reorder_i4.b2frame", "b2nd/b2nd_2d_f8_cframe.b2nd"})
  void fileCacheReleaseReacquireAndModification(String path) throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    boolean sparse = FixtureReadTest.sparse(d);
    Path copy = TestFiles.copy(d.file(), tmp.resolve(sparse ? "cached.b2frame" : "cached.b2nd"));
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    NetcdfDatasets.initNetcdfFileCache(1, 10, 0);
    try {
      DatasetUrl url = DatasetUrl.findDatasetUrl("file:" + copy.toAbsolutePath());
      NetcdfFile first = NetcdfDatasets.acquireFile(url, null);
      Blosc2FrameIosp iosp = (Blosc2FrameIosp) first.getIosp();
      Variable v0 = first.findVariable("cached");
      v0.setCaching(false);
      Check.assertWhole(exp, v0);
      assertTrue(iosp.handles().openCount() > 0);
      first.close(); // back into the cache: release()
      assertEquals(0, iosp.handles().openCount(), "release() closes every file handle");
      NetcdfFile again = NetcdfDatasets.acquireFile(url, null);
      assertSame(first, again, "unchanged dataset comes from the cache");
      Variable v = again.findVariable("cached");
      v.setCaching(false);
      v.invalidateCache();
      Check.assertWhole(exp, v); // reads after reacquire()
      Check.assertSections(exp, v);
      again.close();

      long before = first.getLastModified();
      Path touched = sparse ? copy.resolve("00000002.chunk") : copy;
      Files.setLastModifiedTime(touched, FileTime.fromMillis(before + 10_000));
      NetcdfFile fresh = NetcdfDatasets.acquireFile(url, null);
      try {
        assertNotSame(first, fresh, "a modified dataset is reopened");
        assertEquals(before + 10_000, fresh.getLastModified());
        Check.assertWhole(exp, fresh.findVariable("cached"));
      } finally {
        fresh.close();
      }
    } finally {
      NetcdfDatasets.shutdown();
    }
  }

  /** 16 threads reading random sections of one open dataset get exactly the single-thread results. */
  @ParameterizedTest
  @ValueSource(strings = {"sframe/sf_lz4_blocks_out_of_order_i4.b2frame", "sframe/sf_special_chunks_i2.b2frame",
      "cframe/cf_many_chunks_i4.b2frame", "b2nd/b2nd_3d_u1_sframe.b2frame", "b2nd/b2nd_2d_f4_sframe.b2frame",
      "b2nd/b2nd_1d_i8_sframe.b2frame", "b2nd/b2nd_3d_f8_overwrite_cframe.b2nd"})
  void sixteenThreads(String path) throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      v.setCaching(false);
      Random rnd = new Random(42);
      List<org.chunkcdm.testkit.NetcdfChecks.Read> jobs = new ArrayList<>(); // {section, single-thread result}
      int rank = exp.shape().length;
      for (int i = 0; i < 300; i++) {
        List<Range> ranges = new ArrayList<>();
        for (int k = 0; k < rank; k++) {
          int dim = (int) exp.shape()[k];
          int a = rnd.nextInt(dim);
          int b = a + rnd.nextInt(dim - a);
          ranges.add(new Range(a, b, 1 + rnd.nextInt(3)));
        }
        if (exp.dtype().extraDim() > 0) {
          ranges.add(new Range(0, exp.dtype().extraDim() - 1));
        }
        Section s = new Section(ranges);
        Array single = v.read(s);
        long[] first = new long[rank];
        long[] count = new long[rank];
        long[] stride = new long[rank];
        for (int k = 0; k < rank; k++) {
          first[k] = ranges.get(k).first();
          count[k] = ranges.get(k).length();
          stride[k] = ranges.get(k).stride();
        }
        Check.compare(exp, first, count, stride, single); // the single-thread result is itself right
        jobs.add(new org.chunkcdm.testkit.NetcdfChecks.Read(v, s, single));
      }
      org.chunkcdm.testkit.NetcdfChecks.assertConcurrentReads(jobs, 16, 150);
    }
  }
}
