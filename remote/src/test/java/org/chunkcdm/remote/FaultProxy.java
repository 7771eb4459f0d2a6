package org.chunkcdm.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of the test S3 server: it logs every request ("GET /bucket/key
 * bytes=0-65535") so tests count exactly what a read cost at the server, and injects faults into the requests
 * whose target contains a given text: 503 SlowDown answers, a delay before the answer, a body cut short, a
 * connection closed without an answer. Requests go upstream one connection each ({@code Connection: close}).
 */
public final class FaultProxy implements AutoCloseable {
  /** What to do with matching requests. */
  public enum Kind {
    NONE,
    STATUS_503,
    STATUS_500,
    DELAY,
    TRUNCATE,
    DROP
  }

  private final ServerSocket server;
  private final String upstreamHost = "127.0.0.1";
  private final int upstreamPort;
  /** Every request: method, target and Range header. */
  public final List<String> log = new CopyOnWriteArrayList<>();
  private volatile Kind kind = Kind.NONE;
  private volatile String match = "";
  private final AtomicInteger remaining = new AtomicInteger();
  private volatile long delayMillis;
  private final Thread acceptor;

  public FaultProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    acceptor = new Thread(this::accept, "fault-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** Injects {@code kind} into the next {@code times} requests whose target contains {@code match}. */
  public void fault(Kind kind, String match, int times, long delayMillis) {
    this.match = match;
    this.delayMillis = delayMillis;
    this.remaining.set(times);
    this.kind = kind;
  }

  public void clear() {
    kind = Kind.NONE;
    remaining.set(0);
  }

  /** Requests logged so far; the log is cleared. */
  public int take() {
    int n = log.size();
    log.clear();
    return n;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        Thread t = new Thread(() -> serve(s), "fault-proxy-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      while (true) {
        byte[] head = readHead(in);
        if (head == null) {
          return;
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\r\n");
        String[] first = lines[0].split(" ");
        String method = first[0];
        String target = first.length > 1 ? first[1] : "";
        long bodyLen = 0;
        String range = "";
        StringBuilder fwd = new StringBuilder(lines[0]).append("\r\n");
        for (int i = 1; i < lines.length; i++) {
          String l = lines[i];
          if (l.isEmpty()) {
            continue;
          }
          String lower = l.toLowerCase(Locale.ROOT);
          if (lower.startsWith("content-length:")) {
            bodyLen = Long.parseLong(l.substring(15).trim());
          }
          if (lower.startsWith("range:")) {
            range = " " + l.substring(6).trim();
          }
          if (lower.startsWith("connection:") || lower.startsWith("keep-alive:")) {
            continue;
          }
          fwd.append(l).append("\r\n");
        }
        fwd.append("Connection: close\r\n\r\n");
        byte[] body = in.readNBytes((int) bodyLen);
        log.add(method + " " + target + range);
        Kind k = kind;
        boolean hit = k != Kind.NONE && target.contains(match) && remaining.getAndDecrement() > 0;
        if (hit && (k == Kind.STATUS_503 || k == Kind.STATUS_500)) {
          String xml = k == Kind.STATUS_503
              ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
              : "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>";
          byte[] b = xml.getBytes(StandardCharsets.UTF_8);
          out.write(((k == Kind.STATUS_503 ? "HTTP/1.1 503 Slow Down" : "HTTP/1.1 500 Internal Server Error")
              + "\r\nContent-Type: application/xml\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
          if (!method.equals("HEAD")) {
            out.write(b);
          }
          out.flush();
          return;
        }
        if (hit && k == Kind.DROP) {
          return; // closed without an answer
        }
        if (hit && k == Kind.DELAY) {
          Thread.sleep(delayMillis);
        }
        try (Socket up = new Socket(upstreamHost, upstreamPort)) {
          OutputStream uo = up.getOutputStream();
          uo.write(fwd.toString().getBytes(StandardCharsets.ISO_8859_1));
          uo.write(body);
          uo.flush();
          InputStream ui = up.getInputStream();
          if (hit && k == Kind.TRUNCATE) {
            byte[] rh = readHead(ui);
            if (rh == null) {
              return;
            }
            out.write(rh);
            byte[] some = ui.readNBytes(Math.max(1, (int) delayMillis)); // delayMillis: bytes of the body kept
            out.write(some, 0, Math.max(0, some.length - 1));
            out.flush();
            return;
          }
          ui.transferTo(out);
          out.flush();
          return; // upstream closed: so does this connection (the client saw Connection: close)
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away
    }
  }

  /** The bytes up to and including the blank line ending a head, or null at the end of the stream. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int state = 0;
    while (true) {
      int c = in.read();
      if (c < 0) {
        return b.size() == 0 ? null : b.toByteArray();
      }
      b.write(c);
      state = c == '\r' ? (state == 2 ? 3 : 1) : c == '\n' ? (state == 1 ? 2 : state == 3 ? 4 : 0) : 0;
      if (state == 4) {
        return b.toByteArray();
      }
      if (b.size() > 1 << 20) {
        throw new IOException("request head too long");
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
