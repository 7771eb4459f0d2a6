package org.chunkcdm.cli.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * Load on {@code chunkcdm serve}: 64 concurrent netcdf-java cdmremote clients on loopback, a mix of
 * small sections (a few elements) and large ones (slabs of 100 KiB to 800 KiB), every answer compared with the
 * local read of the same section; then slow readers, stalled readers and clients that disconnect in the middle
 * of a large response. Afterwards no request thread is left in the server's handler, no dataset is in use and
 * the process has no more open file descriptors than before.
 *
 * <p>Bounded for {@code mvn verify}: {@code -Dchunkcdm.load.seconds} (default 4). {@code bench/run-serve-load.sh}
 * runs it for 60 s at -Xmx256m and prints the figures docs/RELIABILITY.md quotes; the summary also goes to
 * {@code cli/target/serve-load.txt}.
 */
class ServeLoadTest {
  static final int CLIENTS = 64;

  /** One request: dataset, variable, section, and the local read's values. */
  record Target(String rel, String var, Section section, boolean large, Object want) {}

  static List<Target> targets(Path fixtures, Random r) throws Exception {
    List<Target> out = new ArrayList<>();
    for (String rel : List.of("ds/large.ds", "bcolz/carray/multidim_float32_1000x3x4", "blosc2/b2nd/b2nd_3d_i2_cframe.b2nd",
        "bloscpack/ndarray/dtype_float32_zstd_shuf1.blp")) {
      try (NetcdfFile nc = NetcdfFiles.open(fixtures.resolve(rel).toString())) {
        for (Variable v : nc.getVariables()) {
          if (!v.getDataType().isNumeric() || v.getRank() == 0) {
            continue;
          }
          int[] shape = v.getShape();
          for (int i = 0; i < 8; i++) { // small: up to 4 elements along each dimension, anywhere
            List<Range> rs = new ArrayList<>();
            for (int n : shape) {
              int a = r.nextInt(n);
              rs.add(new Range(a, Math.min(n - 1, a + r.nextInt(4))));
            }
            Section s = new Section(rs);
            out.add(new Target(rel, v.getFullNameEscaped(), s, false, v.read(s).copyTo1DJavaArray()));
          }
          // large: slabs along the first dimension of about 100 KiB to 800 KiB (the whole variable when smaller)
          long slab = v.getSize() / shape[0] * v.getElementSize();
          for (int i = 0; i < 3; i++) {
            int rows = (int) Math.max(1, Math.min(shape[0], (100L << 10) * (1 + r.nextInt(8)) / Math.max(1, slab)));
            int a = r.nextInt(shape[0] - rows + 1);
            List<Range> rs = new ArrayList<>();
            rs.add(new Range(a, a + rows - 1));
            for (int d = 1; d < shape.length; d++) {
              rs.add(new Range(0, shape[d] - 1));
            }
            Section s = new Section(rs);
            out.add(new Target(rel, v.getFullNameEscaped(), s, true, v.read(s).copyTo1DJavaArray()));
          }
        }
      }
    }
    return out;
  }

  /** What the open descriptors are: "socket" (TCP, both ends of loopback connections), files, pipes, ... */
  static java.util.Map<String, Integer> fdKinds() {
    java.util.Map<String, Integer> out = new java.util.TreeMap<>();
    try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String t;
        try {
          t = Files.readSymbolicLink(p).toString();
        } catch (IOException e) {
          continue;
        }
        String kind = t.startsWith("socket:") ? "socket" : t.startsWith("pipe:") ? "pipe" : t.startsWith("anon_inode:") ? t : t.endsWith(".jar") ? "jar" : t;
        out.merge(kind, 1, Integer::sum);
      }
    } catch (IOException e) {
      // not Linux
    }
    return out;
  }

  static int openFds() {
    try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
      return (int) s.count();
    } catch (IOException e) {
      return -1; // not Linux
    }
  }

  /** Threads of the server's pool that are inside a request (not idle in the pool or the selector). */
  static int busyHandlerThreads() {
    int n = 0;
    for (java.util.Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      if (!e.getKey().getName().startsWith("chunkcdm-serve")) {
        continue;
      }
      for (StackTraceElement f : e.getValue()) {
        if (f.getClassName().startsWith(CdmRemoteServer.class.getName())) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  /** The server's open connections (Jetty's connector), its idle timeout in ms. */
  static long[] serverConnections(CdmRemoteServer s) {
    try {
      java.lang.reflect.Field f = CdmRemoteServer.class.getDeclaredField("connector");
      f.setAccessible(true);
      org.eclipse.jetty.server.ServerConnector c = (org.eclipse.jetty.server.ServerConnector) f.get(s);
      return new long[] {c.getConnectedEndPoints().size(), c.getIdleTimeout()};
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * TCP states of the server's side of its connections (/proc/net/tcp and tcp6, local port = the server's):
   * ESTABLISHED, FIN_WAIT2 (the server closed its side, e.g. at its idle timeout, and waits for the client), ...
   */
  static java.util.Map<String, Integer> serverSideTcp(int port) {
    java.util.Map<String, Integer> out = new java.util.TreeMap<>();
    String[] names = {"?", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2", "TIME_WAIT", "CLOSE", "CLOSE_WAIT",
        "LAST_ACK", "LISTEN", "CLOSING"};
    for (String f : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      try {
        for (String line : Files.readAllLines(Path.of(f))) {
          String[] c = line.trim().split("\\s+");
          if (c.length < 4 || !c[1].contains(":")) {
            continue;
          }
          int local = Integer.parseInt(c[1].substring(c[1].lastIndexOf(':') + 1), 16);
          int st = Integer.parseInt(c[3], 16);
          if (local == port && st != 0x0A) {
            out.merge(st < names.length ? names[st] : "state " + st, 1, Integer::sum);
          }
        }
      } catch (IOException | RuntimeException e) {
        // not Linux
      }
    }
    return out;
  }

  static long percentile(long[] sorted, double p) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
  }

  /** Sends a GET and returns the socket with the request written (the caller reads the reply its own way). */
  static Socket request(CdmRemoteServer s, String target) throws IOException {
    Socket sock = new Socket("127.0.0.1", s.port());
    sock.setSoTimeout(60000);
    OutputStream o = sock.getOutputStream();
    o.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    o.flush();
    return sock;
  }

  static String url(Target t) {
    return "/cdmremote/" + CdmRemoteServer.encodePath(t.rel()) + "?req=data&var=" + CdmRemoteServer.encodePath(t.var()) + "("
        + t.section() + ")";
  }

  @Test
  void sixtyFourClientsMixedSectionsSlowAndVanishingReadersLeakNothing() throws Exception {
    int seconds = Integer.getInteger("chunkcdm.load.seconds", 4);
    Path fixtures = Fixtures.testdata();
    List<Target> targets = targets(fixtures, new Random(15));
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    StringBuilder report = new StringBuilder();
    try (CdmRemoteServer s = CdmRemoteServer.start(fixtures, "127.0.0.1", 0, 16)) {
      // one pass first (opens the datasets, loads classes): the baseline of threads and descriptors
      for (Target t : targets) {
        assertEquals(200, CdmRemoteServerTest.get(s, url(t)).status(), url(t));
      }
      int fdsBefore = openFds();
      java.util.Map<String, Integer> kindsBefore = fdKinds();
      int threadsBefore = Thread.activeCount();
      long failuresBefore = s.failures.get();

      // 1. 64 clients, each with its own cdmremote connection to every dataset, for the time budget
      AtomicLong peakHeap = new AtomicLong();
      AtomicBoolean sampling = new AtomicBoolean(true);
      Thread sampler = new Thread(() -> {
        while (sampling.get()) {
          peakHeap.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      sampler.setDaemon(true);
      sampler.start();
      long[][] lat = new long[CLIENTS][];
      long[] largeCount = new long[CLIENTS];
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
      long start = System.nanoTime();
      long end = start + seconds * 1_000_000_000L;
      try {
        List<Future<?>> fs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          int id = c;
          fs.add(pool.submit(() -> {
            Random q = new Random(id);
            java.util.Map<String, NetcdfFile> remotes = new java.util.HashMap<>();
            long[] l = new long[1024];
            int n = 0;
            try {
              while (System.nanoTime() < end || n == 0) {
                Target t = targets.get(q.nextInt(targets.size()));
                if (t.large() && q.nextInt(3) != 0) { // about 1 request in 6 is large
                  continue;
                }
                NetcdfFile r = remotes.get(t.rel());
                if (r == null) {
                  r = NetcdfDatasets.openFile(CdmRemoteServerTest.remote(s, t.rel()), null);
                  remotes.put(t.rel(), r);
                }
                Variable v = r.findVariable(t.var());
                long t0 = System.nanoTime();
                Object got = v.read(t.section()).copyTo1DJavaArray();
                long dt = System.nanoTime() - t0;
                if (!Objects.deepEquals(t.want(), got)) {
                  throw new AssertionError(url(t) + ": the served values differ from the local read");
                }
                if (n == l.length) {
                  l = Arrays.copyOf(l, n * 2);
                }
                l[n++] = dt;
                largeCount[id] += t.large() ? 1 : 0;
              }
            } finally {
              for (NetcdfFile r : remotes.values()) {
                r.close();
              }
            }
            lat[id] = Arrays.copyOf(l, n);
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      double elapsed = (System.nanoTime() - start) / 1e9;
      sampling.set(false);
      sampler.join();
      long[] all = Arrays.stream(lat).flatMapToLong(Arrays::stream).sorted().toArray();
      long large = Arrays.stream(largeCount).sum();
      report.append(String.format(Locale.ROOT,
          "serve load: %d clients, %.1f s, %d requests (%d large), 0 errors, %.0f requests/s, p50 %.1f ms, p99 %.1f ms, "
              + "max %.1f ms, peak heap used %d MiB of %d MiB (-Xmx)%n",
          CLIENTS, elapsed, all.length, large, all.length / elapsed, percentile(all, 0.50) / 1e6, percentile(all, 0.99) / 1e6,
          all[all.length - 1] / 1e6, peakHeap.get() >> 20, Runtime.getRuntime().maxMemory() >> 20));
      assertEquals(failuresBefore, s.failures.get(), "no request failed on the server");

      // netcdf-java's HTTP client keeps its connections alive (a pool): the raw-socket phases below are measured
      // from here; the pool's connections close at Jetty's idle timeout (30 s), which only the 60 s run waits for
      int fdsAfterClients = openFds();
      java.util.Map<String, Integer> kindsAfterClients = fdKinds();

      // 2. slow readers: 16 clients read large replies 4 KiB every 5 ms; each reply equals a fast read of it
      List<Target> larges = targets.stream().filter(Target::large).toList();
      ExecutorService slow = Executors.newFixedThreadPool(16);
      try {
        List<Future<?>> fs = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
          Target t = larges.get(c % larges.size());
          fs.add(slow.submit(() -> {
            byte[] fast = CdmRemoteServerTest.get(s, url(t)).body();
            try (Socket sock = request(s, url(t))) {
              InputStream in = sock.getInputStream();
              java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
              byte[] buf = new byte[4096];
              for (int k; (k = in.read(buf)) >= 0; ) {
                got.write(buf, 0, k);
                Thread.sleep(5);
              }
              byte[] raw = got.toByteArray();
              String head = new String(raw, 0, Math.min(raw.length, 400), StandardCharsets.ISO_8859_1);
              assertTrue(head.startsWith("HTTP/1.1 200"), head);
              assertArrayEquals(fast, dechunk(raw), url(t) + ": a slow reader gets the whole reply");
            }
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get();
        }
      } finally {
        slow.shutdownNow();
      }

      // 3. vanishing clients: 32 read a few KiB of a large reply and reset the connection; 16 stall, then close
      for (int c = 0; c < 32; c++) {
        Target t = larges.get(c % larges.size());
        try (Socket sock = request(s, url(t))) {
          sock.getInputStream().readNBytes(1 + c * 97);
          sock.setSoLinger(true, 0); // RST, as a killed client
        }
      }
      List<Socket> stalled = new ArrayList<>();
      for (int c = 0; c < 16; c++) {
        stalled.add(request(s, url(larges.get(c % larges.size()))));
      }
      Thread.sleep(500); // their server threads now block on full socket buffers
      for (Socket sock : stalled) {
        sock.close();
      }
      // the server still answers right
      for (Target t : larges) {
        CdmRemoteServerTest.Reply rep = CdmRemoteServerTest.get(s, url(t));
        assertEquals(200, rep.status(), url(t));
      }

      // 4. nothing leaks: no thread left in a request, every dataset handed back, no descriptor left open
      int busy = -1;
      int fds = -1;
      for (long until = System.nanoTime() + 20_000_000_000L; System.nanoTime() < until; ) {
        busy = busyHandlerThreads();
        fds = openFds();
        if (busy == 0 && s.cache().inUse() == 0 && fds <= fdsAfterClients) {
          break;
        }
        Thread.sleep(50);
      }
      report.append(String.format(Locale.ROOT,
          "serve load: after 16 slow readers, 32 reset and 16 stalled clients: %d request threads busy, %d datasets in use, "
              + "open fds %d (%d before them; %d before the 64 clients, whose HTTP pool keeps %d sockets alive), "
              + "threads %d (%d before the clients; idle pool threads expire after 60 s)%n",
          busy, s.cache().inUse(), fds, fdsAfterClients, fdsBefore, kindsAfterClients.getOrDefault("socket", 0)
              - kindsBefore.getOrDefault("socket", 0), Thread.activeCount(), threadsBefore));
      report.append("serve load: server connections " + Arrays.toString(serverConnections(s)) + " (open, idle timeout ms), "
          + "server-side TCP states " + serverSideTcp(s.port()) + "\n");
      int idleWait = Integer.getInteger("chunkcdm.load.idleWait", 0);
      int back = -1;
      int afterClose = -1;
      int busyAfterIdle = -1;
      if (idleWait > 0) { // the long run: the clients' pooled connections end at the server's idle timeout
        // and 4 clients that stop reading in the middle of a large reply, for longer than the idle timeout
        List<Socket> frozen = new ArrayList<>();
        for (int c = 0; c < 4; c++) { // 16 MB replies (x four times), small receive buffers: the server blocks writing
          Socket f = new Socket();
          f.setReceiveBufferSize(4096);
          f.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()));
          f.getOutputStream().write(("GET /cdmremote/ds/large.ds?req=data&var=x;x;x;x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
          f.getOutputStream().flush();
          frozen.add(f);
        }
        Thread.sleep(1000);
        int busyFrozen = busyHandlerThreads();
        back = openFds();
        for (long until = System.nanoTime() + idleWait * 1_000_000_000L;
            System.nanoTime() < until && serverSideTcp(s.port()).getOrDefault("ESTABLISHED", 0) > 0; ) {
          Thread.sleep(500);
          back = openFds();
        }
        busyAfterIdle = busyHandlerThreads();
        for (Socket f : frozen) {
          f.close();
        }
        // the stopped clients' own sockets (client side, in this JVM) were open until now: count again without them
        for (long until = System.nanoTime() + 5_000_000_000L; System.nanoTime() < until; ) {
          afterClose = openFds();
          if (afterClose <= fdsAfterClients) {
            break;
          }
          Thread.sleep(100);
        }
        report.append(String.format(Locale.ROOT, "serve load: 4 clients stop reading mid-reply: %d request threads busy after 1 s, "
            + "%d after the idle timeout%n", busyFrozen, busyAfterIdle));
        report.append(String.format(Locale.ROOT, "serve load: %d s later: open fds %d with the 4 stopped clients' own sockets "
            + "still open, %d once they closed (%d before the slow/reset/stalled clients, %d before the 64 clients), threads %d, "
            + "server connections %s (connections, idle timeout ms), server-side TCP states %s%n", idleWait, back, afterClose,
            fdsAfterClients, fdsBefore, Thread.activeCount(), Arrays.toString(serverConnections(s)), serverSideTcp(s.port())));
      }
      System.out.print(report);
      Path out = Path.of("target", "serve-load.txt");
      if (Files.isDirectory(out.getParent())) {
        Files.writeString(out, report.toString());
      }
      assertEquals(0, busy, "no request thread is left inside the server");
      assertEquals(0, s.cache().inUse(), "every dataset was handed back");
      assertTrue(fds <= fdsAfterClients, "no file descriptor leaked: " + fds + " open, " + fdsAfterClients + " before: "
          + fdKinds() + " before: " + kindsAfterClients);
      if (idleWait > 0) { // the server closed its side of every idle connection (the client's pool keeps its own half open)
        assertEquals(0, busyAfterIdle, "a client that stops reading holds a request thread only until the idle timeout");
        assertTrue(afterClose <= fdsAfterClients, "no descriptor left by the stopped clients: " + afterClose + " open, "
            + fdsAfterClients + " before them: " + fdKinds());
        assertEquals(0, serverSideTcp(s.port()).getOrDefault("ESTABLISHED", 0).intValue(),
            "server-side connections still established after the idle timeout: " + serverSideTcp(s.port()));
      }
    }
  }

  /** The body of a raw HTTP/1.1 reply with chunked transfer encoding. */
  static byte[] dechunk(byte[] raw) throws IOException {
    int p = 0;
    while (!(raw[p] == '\r' && raw[p + 1] == '\n' && raw[p + 2] == '\r' && raw[p + 3] == '\n')) {
      p++;
    }
    String head = new String(raw, 0, p, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    p += 4;
    if (!head.contains("transfer-encoding: chunked")) {
      return Arrays.copyOfRange(raw, p, raw.length);
    }
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    while (true) {
      int eol = p;
      while (raw[eol] != '\r') {
        eol++;
      }
      int n = Integer.parseInt(new String(raw, p, eol - p, StandardCharsets.ISO_8859_1).split(";")[0].trim(), 16);
      p = eol + 2;
      if (n == 0) {
        return body.toByteArray();
      }
      body.write(raw, p, n);
      p += n + 2;
    }
  }
}
