package org.chunkcdm.bcolz;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;
import java.util.stream.Stream;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Reads open only what they need: the chunks of a section, the columns a user reads. */
class ChunkAccessTest {
  @TempDir
  Path tmp;

  static long touched() {
    return SectionReader.chunksTouched();
  }

  /** 3000 float64 rows in chunks of 1024: a section touches exactly the chunks it intersects. */
  @Test
  void sectionTouchesOnlyItsChunks() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset(MalformedTest.CARRAY);
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      BcolzIosp iosp = (BcolzIosp) nc.getIosp();
      Variable v = Check.find(nc, d.variables().get(0));
      v.setCaching(false);
      Check.Expect exp = Check.Expect.of(d.variables().get(0));
      long t0 = touched();
      Check.assertSection(exp, v, new long[] {1030}, new long[] {5}, new long[] {1});
      assertEquals(1, touched() - t0, "inside chunk 1");
      assertEquals(1, iosp.handles().openCount(), "only data/__1.blp was opened");
      t0 = touched();
      Check.assertSection(exp, v, new long[] {1020}, new long[] {10}, new long[] {1});
      assertEquals(2, touched() - t0, "across the 0|1 boundary");
      t0 = touched();
      Check.assertSection(exp, v, new long[] {5}, new long[] {2}, new long[] {2100});
      assertEquals(2, touched() - t0, "rows 5 and 2105: chunks 0 and 2, not 1");
    }
  }

  /**
   * A ctable of 1000 columns whose data directories were removed except for two: it opens (only the small meta
   * files of each column are read) and the two columns read correctly, touching only their own files.
   */
  @Test
  void ctableColumnsOpenLazily() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset(MalformedTest.CARRAY);
    Path t = tmp.resolve("wide");
    Files.createDirectories(t);
    StringJoiner names = new StringJoiner("\", \"", "{\"names\": [\"", "\"]}\n");
    for (int i = 0; i < 1000; i++) {
      String col = "c" + i;
      names.add(col);
      Path c = t.resolve(col);
      Files.createDirectories(c.resolve("meta"));
      Files.copy(d.file().resolve("meta/sizes"), c.resolve("meta/sizes"));
      Files.copy(d.file().resolve("meta/storage"), c.resolve("meta/storage"));
      Files.writeString(c.resolve("__attrs__"), "{\"index\": " + i + "}\n");
      if (i == 7 || i == 731) {
        TestFiles.copy(d.file().resolve("data"), c.resolve("data"));
      }
    }
    Files.writeString(t.resolve("__rootdirs__"), names.toString());
    Files.writeString(t.resolve("__attrs__"), "{\"title\": \"wide\"}\n");
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    try (NetcdfFile nc = NetcdfFiles.open(t.toString())) {
      BcolzIosp iosp = (BcolzIosp) nc.getIosp();
      assertEquals(1000, nc.getVariables().size());
      assertEquals(0, iosp.handles().openCount(), "opening keeps no file open");
      assertEquals(731, nc.findVariable("c731").findAttribute("index").getNumericValue().intValue());
      assertEquals("wide", nc.findGlobalAttribute("title").getStringValue());
      assertEquals(3000, nc.findDimension(BcolzIosp.ROW_DIM).getLength());
      Check.assertWhole(exp, nc.findVariable("c7"));
      Check.assertWhole(exp, nc.findVariable("c731"));
      assertEquals(6, iosp.handles().openCount(), "the 3 chunk files of each of the 2 columns read");
      try (Stream<Path> s = Files.list(t)) {
        assertTrue(s.count() > 1000);
      }
    }
  }
}
