package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a person reads when a command fails: exactly one line on stderr starting {@code chunkcdm: }, exit 1, the
 * file (and variable or chunk) named, what to do, and no Java class names or netcdf-java wording. Also
 * {@code dump} of a dataset with one unreadable variable: the CDL of everything else on stdout, the error on
 * stderr only, exit 1. (The same cases through the release's launcher in a child JVM: dist's CliMessagesIT.)
 */
class CliMessagesTest {
  @TempDir
  static Path tmp;
  static Path samples;
  /** samples/ctable_small_zstd with the chunk file b/data/__1.blp cut to 20 bytes. */
  static Path truncated;

  @BeforeAll
  static void inputs() throws Exception {
    samples = Fixtures.root().resolve("samples");
    truncated = tmp.resolve("ctable_truncated");
    TestFiles.copy(samples.resolve("ctable_small_zstd"), truncated);
    Path chunk = truncated.resolve("b/data/__1.blp");
    byte[] b = Files.readAllBytes(chunk);
    Files.write(chunk, java.util.Arrays.copyOf(b, 20));
    Files.writeString(tmp.resolve("notes.md"), "# notes\n");
    Files.write(tmp.resolve("empty.ds"), new byte[0]);
    Files.write(tmp.resolve("three.ds"), new byte[] {'a', 'b', 'c'});
    Files.createDirectories(tmp.resolve("plain-dir"));
  }

  /** Exit 1, one stderr line starting "chunkcdm: " and holding every {@code parts}, no class names. */
  static CliRuns.Result fails(List<String> parts, String... args) {
    CliRuns.Result r = CliRuns.run(args);
    String what = String.join(" ", args) + " -> " + r.err();
    assertEquals(1, r.rc(), what);
    assertEquals(1, r.err().lines().count(), what);
    assertTrue(r.err().startsWith("chunkcdm: ") && r.err().endsWith("\n"), what);
    assertFalse(r.err().contains("Exception") || r.err().contains("java.") || r.err().contains("Cant read")
        || r.err().contains("(Is a directory)") || r.err().contains("ucar."), what);
    for (String p : parts) {
      assertTrue(r.err().contains(p), "'" + p + "' missing: " + what);
    }
    return r;
  }

  @Test
  void dumpAndConvertOfWhatIsNoDataset() {
    String notes = tmp.resolve("notes.md").toString();
    List<String> unsupported = List.of(notes + ": not a dataset chunkcdm opens; it opens bcolz carrays and ctables, Bloscpack",
        "netCDF-3 and ncstream (.ncs)");
    fails(unsupported, "dump", notes);
    fails(unsupported, "convert", notes, tmp.resolve("x.ncs").toString());
    fails(List.of(tmp.resolve("missing.ds") + ": no such file or directory"), "dump", tmp.resolve("missing.ds").toString());
    fails(List.of(tmp.resolve("plain-dir") + ": a directory that is not a dataset (a dataset directory is a bcolz carray or "
        + "ctable, a sparse Blosc2 frame, a python-blosc2 .b2d store or a Zarr store); name a dataset file or dataset directory"), "dump", tmp.resolve("plain-dir").toString());
    fails(List.of(tmp.resolve("empty.ds") + ": the file is empty (0 bytes), not a dataset"), "dump", tmp.resolve("empty.ds").toString());
    fails(List.of(tmp.resolve("three.ds") + ": only 3 bytes long, too short for a dataset"), "dump", tmp.resolve("three.ds").toString());
    assertFalse(Files.exists(tmp.resolve("x.ncs")));
  }

  @Test
  void aMissingVariableListsTheVariables() {
    String ds = samples.resolve("nd_shared_dims.ds").toString();
    String list = "its variables: count, lat, lon, orography, pressure, station_id, temperature, time";
    fails(List.of(ds + ": no variable 'data'; " + list), "dump", "-v", "data", ds);
    fails(List.of(ds + ": no variable 'nope'; " + list), "convert", "-v", "nope", ds, tmp.resolve("v.ncs").toString());
    String b2nd = samples.resolve("b2nd_3d_i2_cframe.b2nd").toString();
    fails(List.of(b2nd + ": no variable 'data'; its variables: b2nd_3d_i2_cframe"), "dump", "-v", "data", b2nd);
  }

  /** The CDL of the readable variables on stdout, complete; the failure on stderr only; exit 1. */
  @Test
  void dumpWithAnUnreadableChunkExitsOneAndKeepsTheErrorOutOfTheCdl() {
    CliRuns.Result r = fails(List.of("format error: " + truncated.resolve("b/data/__1.blp") + ": chunk 1 of b: ",
        "the file is damaged or incomplete", "; the CDL above lacks the values of b"), "dump", truncated.toString());
    String cdl = r.out();
    assertTrue(cdl.startsWith("netcdf ctable_truncated {"), cdl);
    assertTrue(cdl.endsWith("}\n"), cdl);
    String data = cdl.substring(cdl.indexOf("  data:\n"));
    assertTrue(data.contains("    a = \n      {-128, 0, 3, 10, 9, 0, 16, 24, -35, 127}\n"), data);
    assertTrue(data.contains("    c =   \"zi\""), data);
    assertFalse(data.contains("    b = "), data);
    assertFalse(cdl.contains("__1.blp") || cdl.contains("20 bytes") || cdl.contains("error"), "no error text in the CDL: " + cdl);

    fails(List.of("format error: " + truncated.resolve("b/data/__1.blp") + ": chunk 1 of b: "), "convert", truncated.toString(),
        tmp.resolve("t.ncs").toString());
    assertFalse(Files.exists(tmp.resolve("t.ncs")));
    // the readable variables alone: exit 0
    CliRuns.Result ok = CliRuns.run("dump", "-v", "a,c", truncated.toString());
    assertEquals(0, ok.rc(), ok.err());
    assertEquals("", ok.err());
  }

  @Test
  void bloscCommandsNameTheFile() {
    fails(List.of(tmp.resolve("plain-dir") + ": a directory; give a file that holds one Blosc chunk"), "blosc", "info",
        tmp.resolve("plain-dir").toString());
    fails(List.of("format error: " + tmp.resolve("notes.md") + ": Blosc chunk of 8 bytes is shorter than the 16-byte header"),
        "blosc", "decompress", tmp.resolve("notes.md").toString(), tmp.resolve("o.bin").toString());
    fails(List.of(tmp.resolve("gone.chunk") + ": no such file or directory"), "blosc", "info", tmp.resolve("gone.chunk").toString());
  }

  @Test
  void wrongCommandLinesAreOneLineToo() {
    fails(List.of("Missing required parameter: 'PATH'", "(see 'chunkcdm dump --help')"), "dump");
    fails(List.of("Unmatched argument at index 0: 'bogus'", "(see 'chunkcdm --help')"), "bogus");
    fails(List.of("'abc' is not an int", "(see 'chunkcdm serve --help')"), "serve", "--port", "abc", tmp.toString());
    fails(List.of("--port 70000: a TCP port is 0 to 65535"), "serve", "--port", "70000", tmp.toString());
  }

  @Test
  void serveSaysWhyItCannotStart() throws Exception {
    String use = "; give the directory whose datasets to serve";
    fails(List.of(tmp.resolve("no-root") + ": no such directory" + use), "serve", "--port", "0", tmp.resolve("no-root").toString());
    fails(List.of(tmp.resolve("notes.md") + ": not a directory" + use), "serve", "--port", "0", tmp.resolve("notes.md").toString());
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      fails(List.of("port " + port + " on 127.0.0.1 is already in use", "choose another with --port N, or --port 0"),
          "serve", "--port", String.valueOf(port), tmp.toString());
    }
    // TEST-NET-1 (RFC 5737): never an address of this machine
    fails(List.of("cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine; choose another with --bind"),
        "serve", "--port", "0", "--bind", "192.0.2.1", tmp.toString());
  }
}
