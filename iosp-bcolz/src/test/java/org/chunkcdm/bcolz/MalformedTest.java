package org.chunkcdm.bcolz;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Damaged bcolz directories give IOExceptions that name the file and the chunk, column or field. */
class MalformedTest {
  /** A carray whose chunks are all memcpy frames (3000 float64, chunklen 1024: 2 full chunks + 952 rows). */
  static final String CARRAY = "carray/clevel_float64_lz4_c0_byteshuf";

  @TempDir
  Path tmp;

  Path carray() throws IOException {
    return copy(CARRAY, tmp.resolve("c"));
  }

  Path ctable() throws IOException {
    return copy("ctable/ctable_small_zstd", tmp.resolve("t"));
  }

  /** A private copy at {@code to} of the bcolz fixture {@code dataset}. */
  static Path copy(String dataset, Path to) throws IOException {
    return TestFiles.copy(Fixtures.manifest("bcolz").dataset(dataset).file(), to);
  }

  /** Writes {@code content} to file {@code rel} of the dataset at {@code dir}: opening it fails naming {@code rel} and {@code parts}. */
  static void refused(Path dir, String rel, String content, String... parts) throws IOException {
    TestFiles.write(dir.resolve(rel), content);
    IOException e = openFails(dir);
    assertMentions(e, rel);
    assertMentions(e, parts);
  }

  static IOException openFails(Path p) {
    return assertThrows(IOException.class, () -> NetcdfFiles.open(p.toString()).close());
  }

  static void assertMentions(Throwable e, String... parts) {
    org.chunkcdm.testkit.NetcdfChecks.assertMentions(e, parts);
  }

  /** Bad JSON, a bad chunklen, dtype or shape, a list for an object: opening names the file and what is wrong. */
  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("badMetadata")
  void badMetadataIsRefused(String rel, String content, String mention) throws IOException {
    refused(carray(), rel, content, mention);
  }

  static Stream<Arguments> badMetadata() {
    return Stream.of(
        Arguments.of("meta/storage", "{\"dtype\": \"float64\", \"chunklen\": 10 ]] garbage", "invalid JSON"),
        Arguments.of("meta/storage", "{\"dtype\": \"float64\", \"chunklen\": -4}\n", "chunklen"),
        Arguments.of("meta/storage", "{\"dtype\": \"complex256x\", \"chunklen\": 4}\n", "complex256x"),
        Arguments.of("meta/storage", "[1, 2]\n", "object"),
        Arguments.of("meta/sizes", "{\"shape\": [-5], \"nbytes\": 0, \"cbytes\": 0}\n", "-5"),
        Arguments.of("meta/sizes", "{\"shape\": [], \"nbytes\": 0, \"cbytes\": 0}\n", "shape"));
  }

  /** sizes claims 3100 rows: chunk 2 holds 952 rows, not the 1024 of a full chunk (and chunk 3 is missing). */
  @Test
  void sizesClaimMoreRowsThanTheChunksHold() throws Exception {
    Path c = carray();
    TestFiles.write(c.resolve("meta/sizes"), "{\"shape\": [3100], \"nbytes\": 24800, \"cbytes\": 0}\n");
    try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
      Variable v = nc.findVariable("c");
      assertEquals(3100, v.getSize());
      assertMentions(assertThrows(IOException.class, v::read), "__2.blp", "chunk 2", "7616 bytes", "8192");
      // rows in the intact chunks still read
      assertEquals(1024 * 8, v.read("0:1023").getSize() * 8);
    }
    TestFiles.write(c.resolve("meta/sizes"), "{\"shape\": [5000], \"nbytes\": 40000, \"cbytes\": 0}\n");
    try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("c").read("4000:4001")), "__3.blp",
          "chunk 3", "missing");
    }
  }

  @Test
  void corruptChunkFile() throws IOException {
    Path c = carray();
    Path chunk = c.resolve("data/__1.blp");
    TestFiles.flip(chunk, 0); // magic
    try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("c").read()), "__1.blp", "chunk 1");
    }
    TestFiles.flip(chunk, 0);
    TestFiles.truncate(chunk, Files.size(chunk) - 7);
    try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("c").read("1500")), "__1.blp", "chunk 1");
    }
  }

  @Test
  void staleChunkFilesAreNeverOpened() throws IOException {
    Path c = carray();
    // a "stale" file past ceil(len/chunklen) that would fail if it were read
    Files.writeString(c.resolve("data/__3.blp"), "not a chunk");
    try (NetcdfFile nc = NetcdfFiles.open(c.toString())) {
      Fixtures.Variable fv = Fixtures.manifest("bcolz").dataset(CARRAY).variables().get(0);
      Check.assertWhole(fv, nc.findVariable("c"));
    }
  }

  @Test
  void rootdirsEscapingTheTable() throws IOException {
    Path t = ctable();
    for (String bad : List.of("../c", "..", "/etc", "a/../../c", "a/b", ".", "")) {
      refused(t, "__rootdirs__", "{\"names\": [\"a\", \"" + bad + "\"]}\n", "'" + bad + "'");
    }
    carray(); // tmp/c exists next to the table
    TestFiles.write(t.resolve("__rootdirs__"), "{\"names\": [\"a\", \"../c\"]}\n");
    assertMentions(openFails(t), "../c");
  }

  @Test
  void symlinkedColumnLeavingTheTable() throws IOException {
    Path t = ctable();
    Path outside = carray();
    Files.createSymbolicLink(t.resolve("evil"), outside);
    TestFiles.write(t.resolve("__rootdirs__"), "{\"names\": [\"a\", \"evil\"]}\n");
    assertMentions(openFails(t), "evil", "outside the dataset");
    // a chunk file that is a link out of the table is refused too
    Files.delete(t.resolve("evil"));
    TestFiles.write(t.resolve("__rootdirs__"), "{\"names\": [\"a\"]}\n");
    Path chunk = t.resolve("a/data/__0.blp");
    Files.delete(chunk);
    Files.createSymbolicLink(chunk, outside.resolve("data/__0.blp"));
    try (NetcdfFile nc = NetcdfFiles.open(t.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("a").read()), "outside the dataset");
    }
  }

  @Test
  void columnsWithDifferentLengths() throws IOException {
    Path t = ctable();
    TestFiles.write(t.resolve("b/meta/sizes"), "{\"shape\": [11], \"nbytes\": 44, \"cbytes\": 0}\n");
    assertMentions(openFails(t), "column 'b'", "11 rows");
  }

  @Test
  void missingColumnDirectory() throws IOException {
    Path t = ctable();
    TestFiles.write(t.resolve("__rootdirs__"), "{\"names\": [\"a\", \"zz\"]}\n");
    assertMentions(openFails(t), "column 'zz'");
  }

  /** A pickled-object column: the table opens, the other columns read, reading that column names it. */
  @Test
  void objectColumn() throws IOException {
    Path t = copy("ctable/ctable_mixed", tmp.resolve("m"));
    TestFiles.copy(t.resolve("count"), t.resolve("pyobj"));
    TestFiles.write(t.resolve("pyobj/meta/storage"),
        "{\"dtype\": \"object\", \"cparams\": {\"clevel\": 5, \"shuffle\": 1, \"cname\": \"lz4\", \"quantize\": 0},"
            + " \"chunklen\": 256, \"expectedlen\": 1500, \"dflt\": null}\n");
    TestFiles.write(t.resolve("__rootdirs__"), "{\"names\": [\"id\", \"pyobj\"]}\n");
    try (NetcdfFile nc = NetcdfFiles.open(t.toString())) {
      Variable obj = nc.findVariable("pyobj");
      assertEquals(1500, obj.getSize());
      assertMentions(assertThrows(IOException.class, obj::read), "pyobj", "Python objects");
      assertEquals(1500, nc.findVariable("id").getSize());
    }
  }
}
