package org.chunkcdm.io.remote;

import java.util.concurrent.atomic.LongAdder;

/** Process-wide counts of the requests the object-store clients made (benchmarks and diagnostics). */
public final class RemoteStats {
  /** Requests sent (each attempt of a retried request counts). */
  public static final LongAdder REQUESTS = new LongAdder();
  /** Response body bytes received. */
  public static final LongAdder BYTES = new LongAdder();
  /** Requests repeated after throttling, a transient server error, a timeout or a broken connection. */
  public static final LongAdder RETRIES = new LongAdder();

  private RemoteStats() {}

  /** Requests and bytes so far, e.g. "12 requests, 3456789 bytes". */
  public static String summary() {
    return REQUESTS.sum() + " requests, " + BYTES.sum() + " bytes" + (RETRIES.sum() > 0 ? ", " + RETRIES.sum() + " retries" : "");
  }

  /** Sets the counts to zero. */
  public static void reset() {
    REQUESTS.reset();
    BYTES.reset();
    RETRIES.reset();
  }
}
