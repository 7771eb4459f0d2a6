package org.chunkcdm.cli.serve;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.chunkcdm.ncstream.NcStreamOut;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import ucar.nc2.NetcdfFile;
import ucar.nc2.write.NcmlWriter;

/**
 * netcdf-java's cdmremote protocol over HTTP for every dataset under a root directory, on an embedded Jetty
 * server: {@code /cdmremote/<path>?req=capabilities|cdl|ncml|header|data&var=name(section);...&deflate=N},
 * answered as netcdf-java 5.5.3's {@code CdmRemote} client expects (ncstream, {@code Content-Description:
 * ncstream}, chunked transfer, one big-endian data message per variable). {@code /} lists the datasets, and only
 * them (HTML, or JSON for {@code Accept: application/json}).
 *
 * <p>Confinement: request paths are decoded and checked by this class (Jetty's URI checks are relaxed so that
 * every request reaches it): encoded slashes or backslashes, {@code .} or {@code ..} segments, empty segments,
 * and paths (symbolic links resolved) outside the root are 404, as are paths that do not exist.
 */
public final class CdmRemoteServer implements AutoCloseable {
  static final String PREFIX = "/cdmremote/";

  private final Path root;
  private final Path realRoot;
  private final Server server;
  private final ServerConnector connector;
  private final DatasetCache cache;
  private final DatasetListing listing;
  /** Requests answered with an error status (tests, logs). */
  final AtomicLong failures = new AtomicLong();

  private CdmRemoteServer(Path root, String bind, int port, int cacheSize) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    if (!org.chunkcdm.io.Locations.isRemote(this.root)) {
      checkRoot(root);
    }
    this.realRoot = this.root.toRealPath();
    if (org.chunkcdm.io.Locations.isRemote(realRoot) && !org.chunkcdm.io.Locations.mayBeDirectory(realRoot)) {
      throw new IOException(root + ": not a prefix holding objects (no such prefix, or an object); give the prefix whose datasets to serve");
    }
    this.cache = new DatasetCache(cacheSize);
    this.listing = new DatasetListing(this.root, realRoot);
    QueuedThreadPool pool = new QueuedThreadPool(256, 8);
    pool.setName("chunkcdm-serve");
    pool.setDaemon(true);
    server = new Server(pool);
    HttpConfiguration hc = new HttpConfiguration();
    hc.setUriCompliance(UriCompliance.UNSAFE); // confinement is decided here, on the raw path
    hc.setSendServerVersion(false);
    hc.setOutputBufferSize(64 << 10);
    connector = new ServerConnector(server, new HttpConnectionFactory(hc));
    connector.setHost(bind);
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        CdmRemoteServer.this.handle(request, response, callback);
        return true;
      }
    });
    server.setStopTimeout(5000);
  }

  /**
   * Starts a server for {@code root} on {@code bind:port} (port 0 = any free port). An unusable root (missing,
   * not a directory, not readable) or address (port taken, address not of this machine) is an IOException
   * saying which and what to do.
   */
  public static CdmRemoteServer start(Path root, String bind, int port, int cacheSize) throws Exception {
    CdmRemoteServer s = new CdmRemoteServer(root, bind, port, cacheSize);
    try {
      s.server.start();
    } catch (Exception e) {
      s.close();
      java.net.BindException b = bindFailure(e);
      if (b != null) {
        throw new IOException(cannotListen(bind, port, b), e);
      }
      if (e instanceof java.nio.channels.UnresolvedAddressException) {
        throw new IOException("cannot listen on " + bind + ": no such host name or address; choose another with --bind", e);
      }
      throw e;
    }
    return s;
  }

  /** The root must be a directory this process may list. */
  static void checkRoot(Path root) throws IOException {
    String what = root + ": ";
    String use = "; give the directory whose datasets to serve";
    if (!Files.exists(root)) {
      throw new IOException(what + "no such directory" + use);
    }
    if (!Files.isDirectory(root)) {
      throw new IOException(what + "not a directory" + use);
    }
    if (!Files.isReadable(root) || !Files.isExecutable(root)) {
      throw new IOException(what + "cannot be read (permission denied)" + use + " that this user may read");
    }
  }

  private static java.net.BindException bindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException) {
        return (java.net.BindException) t;
      }
    }
    return null;
  }

  /** Why {@code bind:port} cannot be listened on, and which option changes it. */
  static String cannotListen(String bind, int port, java.net.BindException e) {
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    String where = (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + port;
    if (m.contains("in use")) {
      return "port " + port + " on " + bind + " is already in use (another server?); choose another with --port N, or --port 0 "
          + "for any free port";
    }
    if (m.contains("assign") || m.contains("not available")) {
      return "cannot listen on " + where + ": " + bind + " is not an address of this machine; choose another with --bind";
    }
    if (m.contains("permission") || m.contains("access")) {
      return "cannot listen on " + where + ": ports below 1024 need administrator rights; choose another with --port";
    }
    return "cannot listen on " + where + " (" + e.getMessage() + "); choose another --port or --bind";
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** The server's base URL, e.g. {@code http://127.0.0.1:8080/}. */
  public String url() {
    String host = connector.getHost() == null ? "0.0.0.0" : connector.getHost();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return "http://" + host + ":" + port() + "/";
  }

  public Path root() {
    return root;
  }

  DatasetCache cache() {
    return cache;
  }

  /** Waits until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  @Override
  public void close() throws Exception {
    try {
      server.stop();
    } finally {
      cache.close();
    }
  }

  // ------------------------------------------------------------------ requests

  /**
   * The response of a HEAD request: status and headers as the GET would get them, never a body (what is
   * written to it is dropped; responses that stream ncstream skip reading the data altogether).
   */
  static final class HeadResponse extends Response.Wrapper {
    HeadResponse(Request request, Response response) {
      super(request, response);
    }

    @Override
    public void write(boolean last, java.nio.ByteBuffer content, Callback callback) {
      super.write(last, null, callback);
    }
  }

  private void handle(Request request, Response response0, Callback callback) {
    Response response = response0;
    try {
      boolean head = "HEAD".equals(request.getMethod());
      if (head) {
        response = new HeadResponse(request, response0);
      } else if (!"GET".equals(request.getMethod())) {
        throw new Refusal(405, "only GET and HEAD are served");
      }
      String raw = request.getHttpURI().getPath();
      if (raw == null || raw.equals("/") || raw.isEmpty()) {
        listing(request, response, callback);
        return;
      }
      if (!raw.startsWith(PREFIX)) {
        throw new Refusal(404, "not found");
      }
      Path dataset = confine(raw.substring(PREFIX.length()));
      Map<String, String> q = ServeRequests.query(request.getHttpURI().getQuery());
      String req = q.getOrDefault("req", q.containsKey("var") ? "data" : "header").toLowerCase(Locale.ROOT);
      switch (req) {
        case "capabilities":
        case "header":
        case "cdl":
        case "ncml":
        case "data":
          serveDataset(req, dataset, q, raw, request, response, callback);
          return;
        default:
          throw new Refusal(400, "unknown req '" + req + "' (capabilities, cdl, ncml, header, data)");
      }
    } catch (Refusal r) {
      text(response, callback, r.status, r.getMessage());
    } catch (Throwable t) {
      text(response, callback, 500, "internal error: " + t);
    }
  }

  /**
   * The dataset file or directory for a raw (still percent-encoded) path below /cdmremote/; every way out of
   * the root, and every path that does not exist, is a 404.
   */
  Path confine(String rawRel) throws Refusal {
    String lower = rawRel.toLowerCase(Locale.ROOT);
    if (rawRel.isEmpty() || lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || rawRel.contains("\\")
        || rawRel.contains(";")) {
      throw new Refusal(404, "not found");
    }
    List<String> parts = new ArrayList<>();
    for (String seg : rawRel.split("/", -1)) {
      String s;
      try {
        s = URLDecoder.decode(seg.replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new Refusal(404, "not found");
      }
      if (s.isEmpty() || s.equals(".") || s.equals("..") || s.indexOf('\0') >= 0 || s.contains("/") || s.contains("\\")) {
        throw new Refusal(404, "not found");
      }
      parts.add(s);
    }
    Path p = root;
    for (String s : parts) {
      p = p.resolve(s);
    }
    p = p.normalize();
    // a remote dataset directory over HTTP is a key prefix that cannot be asked about: its open says
    boolean remote = org.chunkcdm.io.Locations.isRemote(p);
    if (!p.startsWith(root) || !(remote ? Files.isRegularFile(p) || org.chunkcdm.io.Locations.mayBeDirectory(p)
        : Files.exists(p, LinkOption.NOFOLLOW_LINKS))) {
      throw new Refusal(404, "not found");
    }
    try {
      Path real = p.toRealPath();
      if (!real.startsWith(realRoot)) {
        throw new Refusal(404, "not found");
      }
    } catch (IOException e) {
      throw new Refusal(404, "not found");
    }
    return p;
  }

  private void serveDataset(String req, Path dataset, Map<String, String> q, String rawPath, Request request,
      Response response, Callback callback) throws Refusal {
    DatasetCache.Entry e;
    try {
      e = cache.acquire(dataset);
    } catch (FileNotFoundException ex) {
      throw new Refusal(404, "not found");
    } catch (IOException | RuntimeException ex) {
      throw new Refusal(404, hidePaths(org.chunkcdm.io.UserMessages.describe(ex)));
    }
    try {
      if (e.concurrent) {
        serveOpen(req, e.nc, q, rawPath, request, response, callback);
      } else {
        synchronized (e.lock) {
          serveOpen(req, e.nc, q, rawPath, request, response, callback);
        }
      }
    } finally {
      cache.release(e);
    }
  }

  private void serveOpen(String req, NetcdfFile nc, Map<String, String> q, String rawPath, Request request,
      Response response, Callback callback) throws Refusal {
    String location = "http://" + request.getHttpURI().getAuthority() + rawPath;
    switch (req) {
      case "capabilities": {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cdmRemoteCapabilities location=\"" + xmlEscape(location)
            + "\">\n  <featureDataset type=\"GENERAL\" url=\"" + xmlEscape(location) + "\"/>\n</cdmRemoteCapabilities>\n";
        send(response, callback, 200, "application/xml; charset=UTF-8", xml);
        return;
      }
      case "cdl": {
        String cdl = nc.toString();
        int eol = cdl.indexOf('\n');
        if (eol > 0 && nc.getLocation() != null) { // "netcdf <location> {": the URL, not the server's path
          cdl = cdl.substring(0, eol).replace(nc.getLocation(), location) + cdl.substring(eol);
        }
        send(response, callback, 200, "text/plain; charset=UTF-8", hidePaths(cdl));
        return;
      }
      case "ncml": {
        NcmlWriter w = new NcmlWriter();
        send(response, callback, 200, "application/xml; charset=UTF-8", w.writeToString(w.makeNetcdfElement(nc, location)));
        return;
      }
      case "header":
        streamNcs(response, callback, out -> {
          NcStreamOut w = new NcStreamOut(out, NcStreamOut.Options.defaults().headerDataBytes(100));
          w.writeStart();
          w.writeHeader(nc, location, null);
          w.writeEnd();
        }, null);
        return;
      default:
        data(nc, q, response, callback);
    }
  }

  private void data(NetcdfFile nc, Map<String, String> q, Response response, Callback callback) throws Refusal {
    String spec = q.get("var");
    if (spec == null || spec.isEmpty()) {
      throw new Refusal(400, "req=data needs var=name or var=name(section)");
    }
    List<ServeRequests.Selection> sel = new ArrayList<>();
    for (String one : ServeRequests.splitVars(spec)) {
      sel.add(ServeRequests.selection(nc, one));
    }
    int level = Integer.MIN_VALUE;
    if (q.containsKey("deflate")) {
      try {
        level = Integer.parseInt(q.get("deflate"));
      } catch (NumberFormatException e) {
        throw new Refusal(400, "deflate must be a level 0..9, not '" + q.get("deflate") + "'");
      }
      if (level < 0 || level > 9) {
        throw new Refusal(400, "deflate must be a level 0..9, not " + level);
      }
    }
    NcStreamOut.Options opt = NcStreamOut.Options.defaults().bigEndian(true).remoteNames(true);
    if (level != Integer.MIN_VALUE) {
      opt = opt.deflate(level);
    }
    NcStreamOut.Options o = opt;
    streamNcs(response, callback, out -> {
      NcStreamOut w = new NcStreamOut(out, o);
      for (ServeRequests.Selection s : sel) {
        w.writeDataMessage(s.v(), s.s());
      }
    }, sel.size() == 1 ? sel.get(0).v().getFullName() : null);
  }

  // ------------------------------------------------------------------ responses

  private interface NcsBody {
    void write(OutputStream out) throws IOException;
  }

  /** Counts what reaches the response, to know whether a failure can still change the status. */
  private static final class Counting extends OutputStream {
    final OutputStream out;
    long n;

    Counting(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      n++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      n += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  /**
   * Streams an ncstream body (no Content-Length: chunked). A failure before the first byte is a 500 whose body
   * is an ncstream error message; after it, the stream ends with an error message and the connection closes.
   */
  private void streamNcs(Response response, Callback callback, NcsBody body, String varName) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    response.getHeaders().put("Content-Description", "ncstream");
    if (response instanceof HeadResponse) { // the request was checked; the body is neither read nor sent
      response.write(true, null, callback);
      return;
    }
    Counting counting = new Counting(Content.Sink.asOutputStream(response));
    // a small first buffer keeps the status open until the first piece is read
    BufferedOutputStream out = new BufferedOutputStream(counting, 64 << 10);
    try {
      body.write(out);
      out.flush();
      counting.close();
      callback.succeeded();
    } catch (Throwable t) {
      failures.incrementAndGet();
      String msg = (varName != null ? varName + ": " : "") + hidePaths(ServeRequests.oneLine(String.valueOf(t.getMessage())));
      if (counting.n == 0 && !response.isCommitted()) {
        try {
          response.setStatus(500);
          byte[] err = errorMessage(msg);
          counting.write(err, 0, err.length);
          counting.close();
          callback.succeeded();
        } catch (Throwable t2) {
          callback.failed(t2);
        }
      } else {
        try {
          NcStreamOut w = new NcStreamOut(out);
          w.writeError(msg);
          out.flush();
        } catch (Throwable ignored) {
          // the connection is gone
        }
        callback.failed(t);
      }
    }
  }

  static byte[] errorMessage(String msg) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    new NcStreamOut(b).writeError(msg);
    return b.toByteArray();
  }

  private void text(Response response, Callback callback, int status, String line) {
    if (status >= 400) {
      failures.incrementAndGet();
    }
    send(response, callback, status, "text/plain; charset=UTF-8", ServeRequests.oneLine(line) + "\n");
  }

  private static void send(Response response, Callback callback, int status, String type, String body) {
    if (response.isCommitted()) {
      callback.failed(new IOException(body));
      return;
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    if (response instanceof HeadResponse) { // the length the GET's body has, no body
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.getBytes(StandardCharsets.UTF_8).length);
      response.write(true, null, callback);
      return;
    }
    Content.Sink.write(response, true, body, callback);
  }

  /** Messages sent to clients name files relative to the root, never by the server's own paths. */
  String hidePaths(String s) {
    String out = s;
    for (Path p : new Path[] {realRoot, root}) {
      out = out.replace(p.toString() + java.io.File.separator, "").replace(p.toString(), ".");
    }
    return out;
  }

  static String xmlEscape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  // ------------------------------------------------------------------ listing

  private void listing(Request request, Response response, Callback callback) throws IOException {
    List<String[]> ds = listing.datasets();
    String accept = request.getHeaders().get(HttpHeader.ACCEPT);
    if (accept != null && accept.contains("application/json")) {
      send(response, callback, 200, "application/json", DatasetListing.json(ds));
      return;
    }
    send(response, callback, 200, "text/html; charset=UTF-8", DatasetListing.html(ds));
  }

  static String encodePath(String rel) {
    StringBuilder sb = new StringBuilder();
    for (String seg : rel.split("/")) {
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(java.net.URLEncoder.encode(seg, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return sb.toString();
  }
}
