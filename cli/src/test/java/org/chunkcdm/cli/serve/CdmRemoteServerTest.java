package org.chunkcdm.cli.serve;

import org.chunkcdm.chunk.Concurrently;
import org.chunkcdm.chunk.SectionReader;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.stream.NcStream;

/**
 * {@code chunkcdm serve} read with netcdf-java's own cdmremote client (loopback only): every fixture dataset as
 * locally, concurrent clients, confinement, bad requests, read failures, the cache.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CdmRemoteServerTest {
  static CdmRemoteServer fixtures;
  static Path fixturesRoot;

  @TempDir
  static Path tmp;

  @BeforeAll
  static void start() throws Exception {
    fixturesRoot = Fixtures.testdata();
    fixtures = CdmRemoteServer.start(fixturesRoot, "127.0.0.1", 0, 50);
  }

  @AfterAll
  static void stop() throws Exception {
    fixtures.close();
  }

  static Stream<Fixtures.Dataset> datasets() {
    List<Fixtures.Dataset> out = new ArrayList<>();
    for (String family : List.of("bcolz", "bloscpack", "blosc2", "ds", "blosc2-stores")) {
      for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
        if (!d.kind().startsWith("chunk-")) {
          out.add(d);
        }
      }
    }
    return out.stream();
  }

  static String rel(Path p) {
    return fixturesRoot.relativize(p).toString().replace('\\', '/');
  }

  static String remote(CdmRemoteServer s, String rel) {
    return "cdmremote:" + s.url() + "cdmremote/" + CdmRemoteServer.encodePath(rel);
  }

  @ParameterizedTest
  @MethodSource("datasets")
  void everyFixtureDatasetReadsThroughCdmRemoteAsLocally(Fixtures.Dataset d) throws Exception {
    try (NetcdfFile local = NetcdfFiles.open(d.file().toString());
        NetcdfFile remote = NetcdfDatasets.openFile(remote(fixtures, rel(d.file())), null)) {
      assertEquals("ncstreamRemote", remote.getFileTypeId(), d.toString());
      assertSame(local, remote, d.toString());
    }
  }

  static void assertSame(NetcdfFile local, NetcdfFile remote, String what) throws IOException, InvalidRangeException {
    List<String> ln = new ArrayList<>();
    List<String> rn = new ArrayList<>();
    local.getVariables().forEach(v -> ln.add(v.getFullName()));
    remote.getVariables().forEach(v -> rn.add(v.getFullName()));
    assertEquals(ln, rn, what + " variables");
    assertEquals(attrs(local.getRootGroup().attributes()), attrs(remote.getRootGroup().attributes()), what + " global attributes");
    List<ucar.nc2.Group> lg = new ArrayList<>(local.getRootGroup().getGroups());
    for (int i = 0; i < lg.size(); i++) { // every group below the root, with its attributes
      ucar.nc2.Group g = lg.get(i);
      lg.addAll(g.getGroups());
      ucar.nc2.Group rg = remote.findGroup(g.getFullNameEscaped());
      assertNotNull(rg, what + " group " + g.getFullName());
      assertEquals(attrs(g.attributes()), attrs(rg.attributes()), what + " attributes of group " + g.getFullName());
    }
    for (Variable lv : local.getVariables()) {
      Variable rv = remote.findVariable(lv.getFullNameEscaped());
      assertNotNull(rv, what + " " + lv.getFullName());
      String vw = what + " " + lv.getFullName();
      assertEquals(lv.getDataType(), rv.getDataType(), vw);
      assertEquals(Arrays.toString(lv.getShape()), Arrays.toString(rv.getShape()), vw);
      assertEquals(lv.getDimensionsString(), rv.getDimensionsString(), vw);
      assertEquals(attrs(lv.attributes()), attrs(rv.attributes()), vw + " attributes");
      NetcdfChecks.assertSameArray(lv.read(), rv.read(), vw + " whole");
      for (Section s : CdmArrays.randomSections(lv.getShape(), 3, new Random(vw.hashCode()))) {
        NetcdfChecks.assertSameArray(lv.read(s), rv.read(s), vw + " " + s);
      }
    }
  }

  static List<String> attrs(Iterable<Attribute> as) {
    List<String> out = new ArrayList<>();
    as.forEach(a -> out.add(a.toString()));
    return out;
  }

  @Test
  void openDatasetWorksAsTheIssueSaysAndEqualsTheLocalDataset() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset("carray/multidim_float32_1000x3x4");
    try (NetcdfDataset remote = NetcdfDatasets.openDataset(remote(fixtures, rel(d.file())));
        NetcdfDataset local = NetcdfDatasets.openDataset("file:" + d.file())) {
      Variable lv = local.getVariables().get(0);
      Variable rv = remote.findVariable(lv.getFullNameEscaped());
      NetcdfChecks.assertSameArray(lv.read(), rv.read(), "openDataset");
      NetcdfChecks.assertSameArray(lv.read("10:900:7,1:2,0:3:3"), rv.read("10:900:7,1:2,0:3:3"), "openDataset section");
      // the client asks for deflate=5 when compression is allowed
      ucar.nc2.stream.CdmRemote.setAllowCompression(true);
      try {
        NetcdfChecks.assertSameArray(lv.read("0:999:3,0:2,1:3"), rv.read("0:999:3,0:2,1:3"), "deflated section");
      } finally {
        ucar.nc2.stream.CdmRemote.setAllowCompression(false);
      }
    }
  }

  // ------------------------------------------------------------------ raw HTTP

  record Reply(int status, String headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * Sends a request line exactly as given (no client-side normalisation) on a keep-alive HTTP/1.1 connection, as
   * netcdf-java's client does, and reads one reply (chunked or with a length).
   */
  static Reply get(CdmRemoteServer s, String rawTarget, String... headers) throws IOException {
    try (Socket sock = new Socket("127.0.0.1", s.port())) {
      sock.setSoTimeout(60000);
      OutputStream o = sock.getOutputStream();
      StringBuilder req = new StringBuilder("GET " + rawTarget + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      for (String h : headers) {
        req.append(h).append("\r\n");
      }
      o.write(req.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      o.flush();
      InputStream in = new java.io.BufferedInputStream(sock.getInputStream());
      String h = replyHeader(in);
      String lower = h.toLowerCase();
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      if (lower.contains("transfer-encoding: chunked")) {
        while (true) {
          String size = line(in);
          int n = Integer.parseInt(size.split(";")[0].trim(), 16);
          if (n == 0) {
            line(in);
            break;
          }
          body.write(in.readNBytes(n));
          line(in);
        }
      } else if (lower.contains("content-length:")) {
        int at = lower.indexOf("content-length:") + "content-length:".length();
        int n = Integer.parseInt(lower.substring(at, lower.indexOf("\r\n", at)).trim());
        body.write(in.readNBytes(n));
      } else {
        body.write(in.readAllBytes());
      }
      int status = Integer.parseInt(h.split(" ")[1]);
      return new Reply(status, h.trim(), body.toByteArray());
    }
  }

  static String line(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c; (c = in.read()) != -1; ) {
      if (c == '\n') {
        break;
      }
      if (c != '\r') {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  static String path(Fixtures.Dataset d) {
    return "/cdmremote/" + CdmRemoteServer.encodePath(rel(d.file()));
  }

  @Test
  void dataResponsesAreChunkedNcstream() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    Reply h = get(fixtures, path(d) + "?req=header");
    assertEquals(200, h.status(), h.text());
    assertTrue(h.headers().contains("Content-Description: ncstream"), h.headers());
    assertTrue(h.headers().toLowerCase().contains("transfer-encoding: chunked"), h.headers());
    assertArrayEquals(NcStream.MAGIC_START, Arrays.copyOf(h.body(), 4));
    for (String req : List.of("cdl", "ncml", "capabilities")) {
      Reply r = get(fixtures, path(d) + "?req=" + req);
      assertEquals(200, r.status(), req);
      assertTrue(r.body().length > 20, req);
    }
  }

  /** Reads one reply header (up to the blank line) from {@code in}. */
  static String replyHeader(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("connection closed in the reply header: " + head);
      }
      head.append((char) c);
    }
    return head.toString();
  }

  /**
   * HEAD gets the status and headers a GET gets and no body: on one keep-alive connection each HEAD is followed
   * by a GET, whose reply must start right after the HEAD's blank line. A HEAD of a data request checks the
   * request (dataset, variable, section) but reads no chunk.
   */
  @Test
  void headRequestsGetHeadersOnly() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    String p = path(d);
    String var;
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      var = CdmRemoteServer.encodePath(nc.getVariables().get(0).getFullNameEscaped());
    }
    String cdl = p + "?req=cdl";
    int cdlLength = get(fixtures, cdl).body().length;
    String[][] cases = { // target, status, content type
        {p + "?req=data&var=" + var, "200", "application/octet-stream"},
        {p + "?req=header", "200", "application/octet-stream"},
        {cdl, "200", "text/plain"},
        {p + "?req=capabilities", "200", "application/xml"},
        {p + "?req=data&var=no_such_var", "400", "text/plain"},
        {"/cdmremote/no/such/file.ds", "404", "text/plain"},
        {"/", "200", "text/html"}};
    try (Socket sock = new Socket("127.0.0.1", fixtures.port())) {
      sock.setSoTimeout(60000);
      OutputStream o = sock.getOutputStream();
      InputStream in = new java.io.BufferedInputStream(sock.getInputStream());
      for (String[] c : cases) {
        long touched = SectionReader.chunksTouched();
        o.write(("HEAD " + c[0] + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            + "GET " + p + "?req=capabilities HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        o.flush();
        String h = replyHeader(in);
        assertTrue(h.startsWith("HTTP/1.1 " + c[1] + " "), c[0] + ": " + h);
        assertTrue(h.toLowerCase().contains("content-type: " + c[2]), c[0] + ": " + h);
        if (c[0].equals(cdl)) {
          assertTrue(h.toLowerCase().contains("content-length: " + cdlLength + "\r\n"), h);
        }
        // the next bytes are the GET's reply, not a body of the HEAD
        String g = replyHeader(in);
        assertTrue(g.startsWith("HTTP/1.1 200 "), c[0] + ": after the HEAD came " + g);
        assertTrue(g.toLowerCase().contains("content-length: "), g);
        int at = g.toLowerCase().indexOf("content-length:") + "content-length:".length();
        int n = Integer.parseInt(g.substring(at, g.indexOf("\r\n", at)).trim());
        String body = new String(in.readNBytes(n), StandardCharsets.UTF_8);
        assertTrue(body.contains("<cdmRemoteCapabilities"), body);
        // a HEAD checks the request but reads no data
        assertEquals(touched, SectionReader.chunksTouched(), c[0]);
      }
    }
  }

  /** 64 clients reading random sections at once get the bytes a sequential read gets. */
  @Test
  void sixtyFourConcurrentClientsGetTheBytesOfSequentialReads() throws Exception {
    List<String> targets = new ArrayList<>();
    Random r = new Random(11);
    for (String[] ds : new String[][] {{"ds", "large.ds"}, {"bcolz", "carray/multidim_float32_1000x3x4"},
        {"blosc2", "b2nd/b2nd_3d_i2_cframe.b2nd"}, {"bloscpack", "ndarray/dtype_float32_zstd_shuf1.blp"}}) {
      Fixtures.Dataset d = Fixtures.manifest(ds[0]).dataset(ds[1]);
      try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
        for (Variable v : nc.getVariables()) {
          for (Section s : CdmArrays.randomSections(v.getShape(), 6, r)) {
            targets.add(path(d) + "?req=data&var=" + CdmRemoteServer.encodePath(v.getFullNameEscaped()) + "(" + s + ")"
                + (r.nextInt(4) == 0 ? "&deflate=5" : ""));
          }
        }
      }
    }
    List<byte[]> want = new ArrayList<>();
    for (String t : targets) {
      Reply rep = get(fixtures, t);
      assertEquals(200, rep.status(), t + ": " + rep.text());
      want.add(rep.body());
    }
    Concurrently.run(64, (c, q) -> {
      for (int k = 0; k < 12; k++) {
        int i = q.nextInt(targets.size());
        Reply rep = get(fixtures, targets.get(i));
        assertEquals(200, rep.status(), targets.get(i));
        assertArrayEquals(want.get(i), rep.body(), targets.get(i));
      }
    });
  }

  @Test
  void nothingOutsideTheRootIsServed() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("confine/root"));
    Path outside = Files.createDirectories(tmp.resolve("confine/outside"));
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("small.ds");
    Files.copy(d.file(), outside.resolve("secret.ds"));
    Files.createDirectories(root.resolve("sub"));
    Files.copy(d.file(), root.resolve("sub/ok.ds"));
    Files.createSymbolicLink(root.resolve("link_dir"), outside);
    Files.createSymbolicLink(root.resolve("link_file.ds"), outside.resolve("secret.ds"));
    Files.createSymbolicLink(root.resolve("sub/inside_link.ds"), root.resolve("sub/ok.ds"));
    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 4)) {
      assertEquals(200, get(s, "/cdmremote/sub/ok.ds?req=header").status());
      assertEquals(200, get(s, "/cdmremote/sub/inside_link.ds?req=header").status(), "a link inside the root is fine");
      String abs = outside.resolve("secret.ds").toString();
      for (String bad : List.of("/cdmremote/../outside/secret.ds", "/cdmremote/sub/../../outside/secret.ds",
          "/cdmremote/%2e%2e/outside/secret.ds", "/cdmremote/sub/%2E%2E/%2E%2E/outside/secret.ds",
          "/cdmremote/sub%2fok.ds", "/cdmremote/sub%2Fok.ds", "/cdmremote/..%2foutside%2fsecret.ds",
          "/cdmremote/" + abs, "/cdmremote//" + abs.substring(1), "/cdmremote/%2F" + abs.substring(1).replace("/", "%2F"),
          "/cdmremote/link_dir/secret.ds", "/cdmremote/link_file.ds", "/cdmremote/sub\\..\\..\\outside\\secret.ds",
          "/cdmremote/sub%5c..%5c..%5coutside%5csecret.ds", "/cdmremote/./sub/ok.ds", "/cdmremote/nope.ds",
          "/cdmremote/")) {
        Reply rep = get(s, bad + "?req=header");
        assertEquals(404, rep.status(), bad + ": " + rep.text());
        Reply data = get(s, bad + "?req=data&var=x");
        assertEquals(404, data.status(), bad);
      }
      for (String refused : List.of("/cdmremote/sub/ok.ds%00", "/../outside/secret.ds", "/cdmremote/../../outside/secret.ds")) {
        int st = get(s, refused + "?req=header").status();
        assertTrue(st == 404 || st == 400, refused + " is refused (Jetty answers 400 itself for a NUL or a path above /): " + st);
      }
      assertEquals(200, get(s, "/cdmremote/sub/ok.ds?req=header").status(), "still serving");
      // and the listing shows neither the links out nor what they point to
      Reply list = get(s, "/", "Accept: application/json");
      JsonNode j = new ObjectMapper().readTree(list.body());
      List<String> paths = new ArrayList<>();
      j.path("datasets").forEach(n -> paths.add(n.path("path").asText()));
      assertEquals(List.of("sub/inside_link.ds", "sub/ok.ds"), paths);
    }
  }

  @Test
  void badRequestsAre400WithOneLineAndDoNotDisturbOthers() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    String p = path(d);
    String var;
    int[] shape;
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = nc.getVariables().get(0);
      var = CdmRemoteServer.encodePath(v.getFullNameEscaped());
      shape = v.getShape();
    }
    String good = p + "?req=data&var=" + var + "(" + new Section(shape) + ")";
    byte[] want = get(fixtures, good).body();
    List<String> bad = List.of(p + "?req=data&var=no_such_var", p + "?req=data&var=" + var + "(0:x)",
        p + "?req=data&var=" + var + "(0:" + shape[0] + (",0:0".repeat(shape.length - 1)) + ")", p + "?req=data&var=" + var + "(5:2)",
        p + "?req=data&var=" + var + "(" + "0:0,".repeat(shape.length) + "0:0)", p + "?req=data&var=" + var + "(0:1", p + "?req=nonsense",
        p + "?req=data", p + "?req=data&var=" + var + "&deflate=12", p + "?req=data&var=" + var + "(-3:2)");
    Concurrently.run(8, (seed, r) -> {
      for (int k = 0; k < 30; k++) {
        if (seed % 2 == 0) {
          String b = bad.get(r.nextInt(bad.size()));
          Reply rep = get(fixtures, b);
          assertEquals(400, rep.status(), b + ": " + rep.text());
          String text = rep.text();
          assertTrue(text.endsWith("\n") && text.indexOf('\n') == text.length() - 1 && text.length() > 5, b + ": " + text);
        } else {
          Reply rep = get(fixtures, good);
          assertEquals(200, rep.status());
          assertArrayEquals(want, rep.body());
        }
      }
    });
    assertTrue(get(fixtures, p + "?req=data&var=no_such_var").text().contains("unknown variable 'no_such_var'"));
  }

  @Test
  void aReadFailureIs500WithAnNcstreamErrorMessageAndTheServerKeepsServing() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("fail/root"));
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset("carray/multidim_float32_1000x3x4");
    Path copy = root.resolve("broken.bcolz");
    copyTree(d.file(), copy);
    Path chunk = copy.resolve("data/__0.blp");
    assertTrue(Files.exists(chunk));
    byte[] c = Files.readAllBytes(chunk);
    Files.write(chunk, Arrays.copyOf(c, c.length / 3)); // truncated chunk file: header intact, data not
    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 4)) {
      Reply h = get(s, "/cdmremote/broken.bcolz?req=header");
      assertEquals(200, h.status(), h.text());
      try (NetcdfFile nc = NetcdfFiles.open(copy.toString())) {
        String var = CdmRemoteServer.encodePath(nc.getVariables().get(0).getFullNameEscaped());
        Reply r = get(s, "/cdmremote/broken.bcolz?req=data&var=" + var + "(0:9,0:2,0:3)");
        assertEquals(500, r.status(), r.text());
        assertTrue(r.headers().contains("Content-Description: ncstream"), r.headers());
        assertArrayEquals(NcStream.MAGIC_ERR, Arrays.copyOf(r.body(), 4));
        assertTrue(r.text().contains("broken.bcolz"), r.text());
        assertTrue(!r.text().contains(root.toString()) && !r.text().contains(root.toRealPath().toString()),
            "no server paths in messages: " + r.text());
        Reply ok = get(s, "/cdmremote/broken.bcolz?req=data&var=" + var + "(999:999,0:2,0:3)");
        assertEquals(200, ok.status(), "chunks that are intact still read: " + ok.text());
      }
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  @Test
  void openDatasetsAreCachedReleasedAndReopenedWhenTheyChange() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("cache/root"));
    Path f = root.resolve("x.ds");
    Files.copy(Fixtures.manifest("ds").dataset("small.ds").file(), f);
    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 2)) {
      String first = get(s, "/cdmremote/x.ds?req=cdl").text();
      assertTrue(first.startsWith("netcdf http://") && !first.contains(root.toString()), first);
      get(s, "/cdmremote/x.ds?req=cdl");
      assertEquals(1, s.cache().opens(), "second request reuses the open dataset");
      Files.copy(Fixtures.manifest("ds").dataset("tiny.ds").file(), f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() + 5000));
      String second = get(s, "/cdmremote/x.ds?req=cdl").text();
      assertEquals(2, s.cache().opens(), "a changed file is opened again");
      assertTrue(!first.equals(second) && second.contains("x"), second);
      // more datasets than the cache holds: the oldest are closed
      for (String n : List.of("a.ds", "b.ds", "c.ds")) {
        Files.copy(Fixtures.manifest("ds").dataset("tiny.ds").file(), root.resolve(n));
        assertEquals(200, get(s, "/cdmremote/" + n + "?req=header").status());
      }
      // a request hands its dataset back just after its last byte went out: wait for that, then the bound holds
      for (long end = System.nanoTime() + 10_000_000_000L; s.cache().inUse() > 0 && System.nanoTime() < end; ) {
        Thread.sleep(5);
      }
      assertTrue(s.cache().size() <= 2, "bounded: " + s.cache().size());
      // 16 first requests at once for a dataset nobody opened yet: one open
      Files.copy(Fixtures.manifest("ds").dataset("large.ds").file(), root.resolve("fresh.ds"));
      long before = s.cache().opens();
      Concurrently.run(16, (t, r) -> assertEquals(200, get(s, "/cdmremote/fresh.ds?req=header").status()));
      assertEquals(before + 1, s.cache().opens(), "concurrent first requests share one open");
    }
  }

  /** An .ncs file of many small data messages served (through chunkcdm's ncstream reader) reads right. */
  @Test
  void ncstreamFilesAreServedThroughChunkcdmsReader() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("ncs/root"));
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("large.ds");
    Path ncs = root.resolve("large.ncs");
    try (NetcdfFile src = NetcdfFiles.open(d.file().toString());
        OutputStream o = Files.newOutputStream(ncs)) {
      new org.chunkcdm.ncstream.NcStreamOut(o, org.chunkcdm.ncstream.NcStreamOut.Options.defaults().messageBytes(4096))
          .writeAll(src, null, null);
    }
    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 4);
        NetcdfFile local = NetcdfFiles.open(d.file().toString());
        NetcdfFile remote = NetcdfDatasets.openFile(remote(s, "large.ncs"), null)) {
      assertSame(local, remote, "large.ncs");
    }
  }

  /**
   * The listing holds the datasets and nothing else: a .ds file, a ncstream file and a bcolz carray directory,
   * not a log, notes, an empty file, random bytes or a compressed file.
   */
  @Test
  void listingShowsOnlyDatasets() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("listing/root"));
    Files.copy(Fixtures.manifest("ds").dataset("small.ds").file(), root.resolve("a.ds"));
    TestFiles.copy(Fixtures.manifest("bcolz").dataset("carray/multidim_float32_1000x3x4").file(),
        root.resolve("sub/carray"));
    Files.writeString(root.resolve("serve.log"), "2026-01-01 started\n");
    Files.writeString(root.resolve("sub/README.md"), "# what is here\n");
    Files.write(root.resolve("empty.nc"), new byte[0]);
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    Files.write(root.resolve("noise.bin"), noise);
    Files.write(root.resolve("b.nc.gz"), noise);
    try (CdmRemoteServer s = CdmRemoteServer.start(root, "127.0.0.1", 0, 4)) {
      try (OutputStream o = Files.newOutputStream(root.resolve("sub/c.ncs"));
          NetcdfFile src = NetcdfFiles.open(root.resolve("a.ds").toString())) {
        new org.chunkcdm.ncstream.NcStreamOut(o).writeAll(src, null, null);
      }
      for (int round = 0; round < 2; round++) { // the second from what the first learnt
        JsonNode j = new ObjectMapper().readTree(get(s, "/", "Accept: application/json").body());
        List<String> paths = new ArrayList<>();
        j.path("datasets").forEach(n -> paths.add(n.path("path").asText() + " " + n.path("kind").asText()));
        assertEquals(List.of("a.ds file", "sub/c.ncs file", "sub/carray directory"), paths);
      }
      String html = get(s, "/").text();
      assertTrue(html.contains("a.ds") && !html.contains("serve.log") && !html.contains("README") && !html.contains("noise"), html);
      // asked for anyway: 404 with the reason as the command line words it, without the server's paths
      Reply log = get(s, "/cdmremote/serve.log?req=header");
      assertEquals(404, log.status());
      assertEquals("serve.log: not a dataset chunkcdm opens; it opens " + org.chunkcdm.io.UserMessages.FORMATS + "\n", log.text());
    }
  }

  @Test
  void listingIsHtmlOrJson() throws Exception {
    Reply html = get(fixtures, "/");
    assertEquals(200, html.status());
    assertTrue(html.headers().contains("text/html"));
    assertTrue(html.text().contains("carray/multidim_float32_1000x3x4"), "dataset directories are listed");
    Reply json = get(fixtures, "/", "Accept: application/json");
    JsonNode j = new ObjectMapper().readTree(json.body());
    boolean dir = false;
    boolean file = false;
    for (JsonNode n : j.path("datasets")) {
      dir |= n.path("path").asText().equals("bcolz/carray/multidim_float32_1000x3x4") && n.path("kind").asText().equals("directory");
      file |= n.path("path").asText().equals("ds/large.ds") && n.path("url").asText().equals("/cdmremote/ds/large.ds");
    }
    assertTrue(dir && file, json.text());
  }

  /**
   * A data response of 256 MiB from a server JVM limited to 64 MiB of heap: the response streams (bounded heap
   * per request) and carries every byte.
   */
  @Test
  void aLargeDataResponseStreamsFromASmallHeap() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("heap/root"));
    Path f = root.resolve("big.ncs");
    int rows = 32768;
    int cols = 1024; // float64: 256 MiB
    try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(f), 1 << 20)) {
      ucar.nc2.stream.NcStreamProto.Dimension r = ucar.nc2.stream.NcStreamProto.Dimension.newBuilder().setName("r").setLength(rows).build();
      ucar.nc2.stream.NcStreamProto.Dimension c = ucar.nc2.stream.NcStreamProto.Dimension.newBuilder().setName("c").setLength(cols).build();
      byte[] h = ucar.nc2.stream.NcStreamProto.Header.newBuilder().setVersion(1).setRoot(ucar.nc2.stream.NcStreamProto.Group
          .newBuilder().addDims(r).addDims(c).addVars(ucar.nc2.stream.NcStreamProto.Variable.newBuilder().setName("v")
              .setDataType(ucar.nc2.stream.NcStreamProto.DataType.DOUBLE).addShape(r).addShape(c))).build().toByteArray();
      o.write(NcStream.MAGIC_START);
      o.write(NcStream.MAGIC_HEADER);
      NcStream.writeVInt(o, h.length);
      o.write(h);
      java.nio.ByteBuffer bb = java.nio.ByteBuffer.allocate(128 * cols * 8);
      for (int r0 = 0; r0 < rows; r0 += 128) {
        byte[] d = NcStream.encodeDataProto("v", ucar.ma2.DataType.DOUBLE, new Section(new int[] {r0, 0}, new int[] {128, cols}),
            false, 0).toBuilder().setBigend(true).build().toByteArray();
        o.write(NcStream.MAGIC_DATA);
        NcStream.writeVInt(o, d.length);
        o.write(d);
        NcStream.writeVInt(o, bb.capacity());
        bb.clear();
        for (long i = (long) r0 * cols; i < (long) (r0 + 128) * cols; i++) {
          bb.putDouble(i);
        }
        o.write(bb.array());
      }
      o.write(NcStream.MAGIC_END);
    }
    Process p = startServe(root, "-Xmx64m");
    try {
      int port = servedPort(p);
      try (Socket sock = new Socket("127.0.0.1", port)) {
        sock.setSoTimeout(60000);
        sock.getOutputStream().write(("GET /cdmremote/big.ncs?req=data&var=v HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
        InputStream rin = new java.io.BufferedInputStream(sock.getInputStream(), 1 << 16);
        String head = replyHeader(rin);
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        // the body: data message header, then 256 MiB of big-endian doubles i = 0, 1, 2, ...
        byte[] magic = rin.readNBytes(4);
        assertArrayEquals(NcStream.MAGIC_DATA, magic);
        int plen = NcStream.readVInt(rin);
        rin.readNBytes(plen);
        long n = NcStream.readVInt(rin);
        assertEquals((long) rows * cols * 8, n);
        java.io.DataInputStream din = new java.io.DataInputStream(rin);
        for (long i = 0; i < (long) rows * cols; i++) {
          double x = din.readDouble();
          if (x != i) {
            throw new AssertionError("element " + i + " is " + x);
          }
        }
      }
      assertTrue(p.isAlive(), "the server survived the response");
    } finally {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
  }

  /** The command: prints its URL (loopback by default), serves, stops on SIGTERM. */
  @Test
  void serveCommandPrintsItsUrlAndStopsOnSigterm() throws Exception {
    Process p = startServe(fixturesRoot.resolve("ds"));
    try {
      int port = servedPort(p);
      try (Socket sock = new Socket("127.0.0.1", port)) {
        sock.getOutputStream().write("GET /cdmremote/tiny.ds?req=cdl HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1));
        String reply = new String(sock.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(reply.startsWith("HTTP/1.1 200"), reply);
      }
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(20, TimeUnit.SECONDS), "stopped on SIGTERM");
    } finally {
      p.destroyForcibly();
    }
  }

  /**
   * {@code chunkcdm serve ROOT --port 0} in a new JVM started with the launchers' options (native access for JNA;
   * on Java 23 and later, protobuf's use of sun.misc.Unsafe allowed quietly: serve sets both up as it starts) and
   * {@code jvmOptions}.
   */
  static Process startServe(Path root, String... jvmOptions) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    if (Runtime.version().feature() >= 23) {
      cmd.add("--sun-misc-unsafe-memory-access=allow");
    }
    cmd.addAll(List.of(jvmOptions));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.chunkcdm.cli.Main", "serve", root.toString(),
        "--port", "0"));
    return new ProcessBuilder(cmd).redirectErrorStream(true).start();
  }

  /** The port of the loopback URL the served process {@code p} prints on its first line. */
  static int servedPort(Process p) throws IOException {
    InputStream in = p.getInputStream();
    StringBuilder line = new StringBuilder();
    for (int ch; (ch = in.read()) != -1 && ch != '\n'; ) {
      line.append((char) ch);
    }
    String l = line.toString();
    assertTrue(l.contains("http://127.0.0.1:"), l);
    String url = l.substring(l.indexOf("http://127.0.0.1:"));
    return Integer.parseInt(url.substring("http://127.0.0.1:".length(), url.indexOf('/', 8)));
  }
}
