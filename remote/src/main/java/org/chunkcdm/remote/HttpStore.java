package org.chunkcdm.remote;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.nio.file.NoSuchFileException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.remote.ObjectChangedException;
import org.chunkcdm.io.remote.ObjectInfo;
import org.chunkcdm.io.remote.ObjectStore;
import org.chunkcdm.io.remote.RemoteLocation;

/**
 * Objects on a plain HTTP(S) server: ranged GETs ({@code Range: bytes=a-b}, {@code If-Match} with the ETag a
 * dataset pinned), HEAD for version checks, no listing. Through the JDK's {@link HttpURLConnection} (its
 * keep-alive pool, its TLS trust settings); see {@link Requests} for timeouts and retries.
 */
final class HttpStore implements ObjectStore {
  private final URI endpoint;
  private final String userAgent;

  HttpStore(RemoteLocation.Root root) {
    this.endpoint = root.endpoint();
    this.userAgent = "chunkcdm/" + RemoteProvider.version();
  }

  @Override
  public String describe(String key) {
    int q = key.indexOf('?');
    return endpoint + "/" + RemoteLocation.encodePath(q < 0 ? key : key.substring(0, q));
  }

  private URL url(String key) throws IOException {
    int q = key.indexOf('?');
    String path = RemoteLocation.encodePath(q < 0 ? key : key.substring(0, q));
    return URI.create(endpoint + "/" + path + (q < 0 ? "" : key.substring(q))).toURL();
  }

  private HttpURLConnection open(String key, String method) throws IOException {
    HttpURLConnection c = (HttpURLConnection) url(key).openConnection();
    c.setRequestMethod(method);
    int t = Requests.timeoutMillis();
    c.setConnectTimeout(Math.min(t, 10_000));
    c.setReadTimeout(t);
    c.setUseCaches(false);
    c.setRequestProperty("User-Agent", userAgent);
    c.setRequestProperty("Accept-Encoding", "identity");
    return c;
  }

  /** A response's object info: size from Content-Range's total (206) or Content-Length (200). */
  private static ObjectInfo info(HttpURLConnection c, long fallbackSize) {
    long size = fallbackSize;
    String cr = c.getHeaderField("Content-Range");
    if (cr != null) {
      int slash = cr.lastIndexOf('/');
      if (slash >= 0 && !cr.endsWith("*")) {
        try {
          size = Long.parseLong(cr.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
          // keep the fallback
        }
      }
    }
    return new ObjectInfo(size, c.getHeaderField("ETag"), lastModified(c.getHeaderField("Last-Modified")));
  }

  static long lastModified(String h) {
    if (h == null) {
      return 0;
    }
    try {
      return ZonedDateTime.parse(h.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }

  /** The status of a response, with the failures every request shares mapped to their exceptions. */
  private int status(HttpURLConnection c, String key, String ifMatch) throws IOException {
    int s;
    try {
      s = c.getResponseCode();
    } catch (SocketTimeoutException e) {
      throw new Requests.Transient("no answer within " + Requests.timeoutMillis() + " ms", e);
    } catch (IOException e) {
      if (Requests.permanent(e)) {
        throw new IOException(describe(key) + ": " + e.getMessage(), e);
      }
      throw new Requests.Transient("request failed: " + e.getMessage(), e);
    }
    if (s == 404 || s == 410) {
      drain(c);
      throw new NoSuchFileException(describe(key));
    }
    if (s == 412) {
      drain(c);
      throw new ObjectChangedException(describe(key) + ": the server no longer has the version " + ifMatch + " of this object");
    }
    if (Requests.transientStatus(s)) {
      drain(c);
      throw new Requests.Transient("HTTP " + s + (s == 503 || s == 429 ? " (busy or throttling)" : " (server error)"), null);
    }
    if (s == 401 || s == 403) {
      drain(c);
      throw new IOException(describe(key) + ": HTTP " + s + ", access denied");
    }
    return s;
  }

  private static void drain(HttpURLConnection c) {
    try (InputStream in = c.getErrorStream()) {
      if (in != null) {
        in.readNBytes(64 << 10); // a short error body: the connection can be reused
      }
    } catch (IOException e) {
      c.disconnect();
    }
  }

  @Override
  public Read read(String key, long pos, byte[] dst, int off, int len, String ifMatch) throws IOException {
    if (len == 0) {
      return new Read(head(key), 0);
    }
    return Requests.run(describe(key), () -> {
      HttpURLConnection c = open(key, "GET");
      c.setRequestProperty("Range", "bytes=" + pos + "-" + (pos + len - 1));
      if (ifMatch != null) {
        c.setRequestProperty("If-Match", ifMatch);
      }
      try (Requests.Deadline d = new Requests.Deadline(c::disconnect)) {
        int s = status(c, key, ifMatch);
        if (s == 416) {
          ObjectInfo i = info(c, -1);
          drain(c);
          return new Read(i.size() >= 0 ? i : head(key), 0);
        }
        if (s != 206 && !(s == 200 && pos == 0)) {
          drain(c);
          throw new IOException(describe(key) + ": HTTP " + s + (s == 200 ? ": the server does not serve byte ranges" : ""));
        }
        ObjectInfo i = info(c, c.getContentLengthLong());
        Requests.checkVersion(describe(key), ifMatch, i);
        int want = (int) Math.max(0, Math.min(len, i.size() - pos));
        Requests.body(c::getInputStream, dst, off, want, d);
        if (s == 200) {
          c.disconnect(); // the rest of a whole-object answer is not wanted
        }
        return new Read(i, want);
      }
    });
  }

  @Override
  public Whole readStart(String key, long maxBytes, String ifMatch) throws IOException {
    return Requests.run(describe(key), () -> {
      HttpURLConnection c = open(key, "GET");
      if (maxBytes < Long.MAX_VALUE / 2) {
        c.setRequestProperty("Range", "bytes=0-" + (Math.max(1, maxBytes) - 1));
      }
      if (ifMatch != null) {
        c.setRequestProperty("If-Match", ifMatch);
      }
      try (Requests.Deadline d = new Requests.Deadline(c::disconnect)) {
        int s = status(c, key, ifMatch);
        if (s == 416) { // an empty object
          drain(c);
          ObjectInfo h = head(key);
          if (h == null) {
            throw new NoSuchFileException(describe(key));
          }
          return new Whole(h, new byte[0]);
        }
        if (s != 200 && s != 206) {
          drain(c);
          throw new IOException(describe(key) + ": HTTP " + s);
        }
        long body = c.getContentLengthLong();
        ObjectInfo i = info(c, s == 200 ? body : -1);
        Requests.checkVersion(describe(key), ifMatch, i);
        long want = s == 206 ? body : Math.min(maxBytes, i.size());
        if (want < 0) {
          throw new IOException(describe(key) + ": the answer has no Content-Length");
        }
        Bounds.checkAllocation(want, describe(key));
        byte[] b = new byte[(int) want];
        Requests.body(c::getInputStream, b, 0, b.length, d);
        if (s == 200 && i.size() > want) {
          c.disconnect();
        }
        return new Whole(i.size() < 0 ? new ObjectInfo(want, i.etag(), i.lastModified()) : i, b);
      }
    });
  }

  @Override
  public ObjectInfo head(String key) throws IOException {
    return Requests.run(describe(key), () -> {
      HttpURLConnection c = open(key, "HEAD");
      try (Requests.Deadline d = new Requests.Deadline(c::disconnect)) {
        try {
          status(c, key, null);
        } catch (NoSuchFileException e) {
          return null;
        }
        return info(c, c.getContentLengthLong());
      }
    });
  }

  /** Plain HTTP cannot list. */
  @Override
  public Listing list(String prefix, String next, int maxKeys) {
    return null;
  }
}
