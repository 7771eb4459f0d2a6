package org.chunkcdm.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.chunkcdm.blosc.internal.Settings;
import org.chunkcdm.io.remote.RemoteStats;

/**
 * How every request of the clients is made: a deadline per request ({@code -Dchunkcdm.remote.timeoutMillis},
 * default 30000: connecting, waiting for the answer and reading the body, each attempt), and bounded retries
 * with exponential backoff and jitter ({@code -Dchunkcdm.remote.retries}, default 3 retries; first pause
 * 100 ms, at most 2 s) on throttling (429, 503 SlowDown), transient server errors (500, 502, 504), timeouts,
 * refused or broken connections and truncated bodies. Anything else (403, 404, 412, 416, other 4xx) fails at
 * once. The last error names the URL and how many attempts were made; never credentials.
 */
final class Requests {
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "chunkcdm-remote-deadline");
    t.setDaemon(true);
    return t;
  });

  private Requests() {}

  static int timeoutMillis() {
    return (int) Settings.REMOTE_TIMEOUT_MILLIS.number();
  }

  static int retries() {
    return (int) Settings.REMOTE_RETRIES.number();
  }

  /** A failure worth another attempt (throttling, a transient server error, a network problem). */
  static final class Transient extends IOException {
    private static final long serialVersionUID = 1L;

    Transient(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** One attempt of a request. */
  interface Attempt<T> {
    T run() throws IOException;
  }

  /** Runs {@code attempt} until it succeeds, fails for good, or the retries are used up. */
  static <T> T run(String url, Attempt<T> attempt) throws IOException {
    int retries = retries();
    for (int i = 0; ; i++) {
      RemoteStats.REQUESTS.increment();
      try {
        return attempt.run();
      } catch (Transient e) {
        if (i >= retries) {
          throw new IOException(url + ": " + e.getMessage() + (retries > 0 ? " (" + (i + 1) + " attempts)" : ""), e);
        }
        RemoteStats.RETRIES.increment();
        long cap = Math.min(2000, 100L << Math.min(i, 10));
        long pause = cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1);
        try {
          Thread.sleep(pause);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException(url + ": interrupted while waiting to retry");
        }
      }
    }
  }

  /**
   * Whether a failure to get an answer will not go away by asking again: no such host, a TLS handshake the
   * server's certificate fails (not trusted, wrong name), a malformed URL.
   */
  static boolean permanent(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.UnknownHostException || t instanceof javax.net.ssl.SSLHandshakeException
          || t instanceof javax.net.ssl.SSLPeerUnverifiedException || t instanceof java.net.MalformedURLException) {
        return true;
      }
    }
    return false;
  }

  /** Whether an HTTP status is worth another attempt. */
  static boolean transientStatus(int status) {
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }

  /** Calls {@code abort} at the deadline unless {@link Deadline#close()} came first. */
  static final class Deadline implements AutoCloseable {
    private final ScheduledFuture<?> task;
    private volatile boolean fired;

    Deadline(Runnable abort) {
      task = WATCHDOG.schedule(() -> {
        fired = true;
        abort.run();
      }, timeoutMillis(), TimeUnit.MILLISECONDS);
    }

    boolean fired() {
      return fired;
    }

    @Override
    public void close() {
      task.cancel(false);
    }
  }

  /** A response body, opened when it is read. */
  interface Body {
    InputStream open() throws IOException;
  }

  /**
   * Reads exactly {@code len} bytes of a response body into {@code dst} (counted in {@link RemoteStats}); a body
   * that ends early or fails, or the deadline {@code d} cutting it, is a {@link Transient} failure.
   */
  static void body(Body body, byte[] dst, int off, int len, Deadline d) throws IOException {
    int done = 0;
    try (InputStream in = body.open()) {
      while (done < len) {
        int n = in.read(dst, off + done, len - done);
        if (n < 0) {
          break;
        }
        done += n;
      }
    } catch (IOException | RuntimeException e) { // RuntimeException: the SDK's own stream failures
      throw new Transient(d.fired() ? "no complete answer within " + timeoutMillis() + " ms"
          : "reading the answer failed: " + e.getMessage(), e);
    } finally {
      RemoteStats.BYTES.add(done);
    }
    if (done < len) {
      throw new Transient("the answer ended after " + done + " of " + len + " bytes", null);
    }
  }

  /** An answer for another version of the object than the one asked for ({@code ifMatch}) is a changed object. */
  static void checkVersion(String url, String ifMatch, org.chunkcdm.io.remote.ObjectInfo i)
      throws org.chunkcdm.io.remote.ObjectChangedException {
    if (ifMatch != null && i.etag() != null && !ifMatch.equals(i.etag())) {
      throw new org.chunkcdm.io.remote.ObjectChangedException(url + ": ETag " + i.etag() + ", not the version " + ifMatch
          + " read before");
    }
  }
}
