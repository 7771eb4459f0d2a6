package org.chunkcdm.dist;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A minimal object server on 127.0.0.1 for the drop-in jar's remote check: {@code GET}/{@code HEAD}
 * {@code /fixtures/<path under testdata>} with byte ranges, ETag and Last-Modified, as an S3 path-style endpoint
 * and a plain HTTP server both answer single-object reads. No listing.
 */
final class RangeServer implements AutoCloseable {
  private final HttpServer server;
  private final Path root;

  RangeServer(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 16);
    server.createContext("/", this::handle);
    server.start();
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      Path f = path.startsWith("/fixtures/") ? root.resolve(path.substring("/fixtures/".length())).normalize() : null;
      if (f == null || !f.startsWith(root) || !Files.isRegularFile(f) || x.getRequestURI().getQuery() != null) {
        x.sendResponseHeaders(404, -1);
        return;
      }
      long size = Files.size(f);
      long mtime = Files.getLastModifiedTime(f).toMillis();
      x.getResponseHeaders().add("ETag", "\"" + size + "-" + mtime + "\"");
      x.getResponseHeaders().add("Last-Modified",
          DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(mtime).atOffset(ZoneOffset.UTC)));
      x.getResponseHeaders().add("Accept-Ranges", "bytes");
      long from = 0;
      long to = size - 1;
      String range = x.getRequestHeaders().getFirst("Range");
      int status = 200;
      if (range != null && range.startsWith("bytes=")) {
        String[] ft = range.substring(6).split("-", 2);
        from = Long.parseLong(ft[0]);
        to = ft.length > 1 && !ft[1].isEmpty() ? Math.min(Long.parseLong(ft[1]), size - 1) : size - 1;
        if (from >= size) {
          x.getResponseHeaders().add("Content-Range", "bytes */" + size);
          x.sendResponseHeaders(416, -1);
          return;
        }
        status = 206;
        x.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + to + "/" + size);
      }
      long n = to - from + 1;
      boolean head = x.getRequestMethod().equals("HEAD");
      x.getResponseHeaders().add("Content-Length", Long.toString(n));
      x.sendResponseHeaders(status, head ? -1 : n);
      if (!head) {
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "r"); OutputStream out = x.getResponseBody()) {
          byte[] b = new byte[(int) Math.min(n, 1 << 20)];
          r.seek(from);
          for (long left = n; left > 0; ) {
            int k = r.read(b, 0, (int) Math.min(b.length, left));
            out.write(b, 0, k);
            left -= k;
          }
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
