package org.chunkcdm.blosc.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * chunkcdm's system properties, all in one place (docs/SETTINGS.md lists them for users): each is read strictly, so
 * that a value outside the allowed ones is refused with an {@link IllegalArgumentException} that names the setting and
 * lists what it accepts, never ignored. Internal to chunkcdm.
 */
public enum Settings {
  /** Which Blosc decoder: pure Java, native c-blosc, or the faster one. */
  BLOSC("chunkcdm.blosc", "CHUNKCDM_BLOSC", "auto", "auto", "java", "native"),
  /** Where the native c-blosc library is (any path; the native module only). */
  BLOSC_LIBRARY("chunkcdm.blosc.library", "CHUNKCDM_BLOSC_LIBRARY", null),
  /** Bytes of the shared decoded-chunk cache; 0 turns it off. */
  CACHE_BYTES("chunkcdm.cache.bytes", 64L << 20, 0, Long.MAX_VALUE),
  /** Threads that decode chunks (and the blocks of a large chunk) at once. */
  DECODE_THREADS("chunkcdm.decode.threads", -1, 1, 1024),
  /** libc calls through Java 22+'s FFM API ({@code pread}, {@code memmove}). */
  FFM("chunkcdm.ffm", null, "auto", "auto", "false"),
  /** The largest single allocation sized from a file; default half the heap. */
  MAX_ALLOCATION("chunkcdm.maxAllocation", -1, 0, Long.MAX_VALUE),
  /** When large reads copy out of a memory mapping of the file. */
  MMAP("chunkcdm.mmap", null, "auto", "auto", "true", "false"),
  /** The CLI's progress display: a bar redrawn in place, or a line per step. */
  PROGRESS("chunkcdm.progress", null, null, "bar", "line"),
  /** Remote datasets: the deadline of one request attempt, in milliseconds. */
  REMOTE_TIMEOUT_MILLIS("chunkcdm.remote.timeoutMillis", 30_000, 100, Integer.MAX_VALUE),
  /** Remote datasets: how often a request is repeated after throttling, a transient server error or a network failure. */
  REMOTE_RETRIES("chunkcdm.remote.retries", 3, 0, 20),
  /** Remote datasets: threads fetching the chunks a read announced ahead of the decode threads. */
  REMOTE_FETCH_THREADS("chunkcdm.remote.fetchThreads", 4, 1, 64),
  /** Remote datasets: seconds what was learnt about an object (size, first and last bytes) serves later opens. */
  REMOTE_STAT_SECONDS("chunkcdm.remote.statSeconds", 5, 0, 3600),
  /** S3: send every request unsigned (public buckets), whatever credentials the AWS chain finds. */
  S3_ANONYMOUS("chunkcdm.s3.anonymous", null, "false", "false", "true");

  private final String property;
  private final String env;
  private final String dflt;
  private final String[] allowed; // null: a number or a free string
  private final long numDefault;
  private final long min;
  private final long max;
  private final boolean number;

  Settings(String property, String env, String dflt, String... allowed) {
    this.property = property;
    this.env = env;
    this.dflt = dflt;
    this.allowed = allowed.length == 0 ? null : allowed;
    this.number = false;
    this.numDefault = 0;
    this.min = 0;
    this.max = 0;
  }

  Settings(String property, long dflt, long min, long max) {
    this.property = property;
    this.env = null;
    this.dflt = null;
    this.allowed = null;
    this.number = true;
    this.numDefault = dflt;
    this.min = min;
    this.max = max;
  }

  public String property() {
    return property;
  }

  /** The value, lower-cased, one of the allowed ones; the default when not set (system property, then environment). */
  public String choice() {
    String v = System.getProperty(property);
    String source = "-D" + property;
    if ((v == null || v.isBlank()) && env != null) {
      v = System.getenv(env);
      source = env;
    }
    if (v == null || v.isBlank()) {
      return dflt;
    }
    if (allowed == null) {
      return v.trim();
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (Arrays.asList(allowed).contains(t)) {
      return t;
    }
    throw new IllegalArgumentException(source + "=" + v + " is not a valid setting: use " + list(allowed));
  }

  /** The numeric value in the allowed range; {@code dflt} when not set. */
  public long number(long dflt) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException("-D" + property + "=" + v + " is not a valid setting: use a whole number from "
        + min + " to " + max);
  }

  /** The numeric value with the setting's own default. */
  public long number() {
    return number(numDefault);
  }

  /**
   * Checks every {@code chunkcdm.*} system property of this JVM: a known name ({@code chunkcdm.test.*} and
   * {@code chunkcdm.bench.*} belong to the build and are left alone) with a valid value. The CLI calls it first.
   */
  public static void checkAll() {
    List<String> known = new ArrayList<>();
    for (Settings s : values()) {
      known.add(s.property);
    }
    for (String name : new TreeSet<>(System.getProperties().stringPropertyNames())) {
      if (!name.startsWith("chunkcdm.") || name.startsWith("chunkcdm.test.") || name.startsWith("chunkcdm.bench.")) {
        continue;
      }
      Settings s = null;
      for (Settings t : values()) {
        if (t.property.equals(name)) {
          s = t;
        }
      }
      if (s == null) {
        throw new IllegalArgumentException("-D" + name + " is not a chunkcdm setting: the settings are "
            + list(known.toArray(new String[0])));
      }
      if (s.number) {
        s.number();
      } else {
        s.choice();
      }
    }
  }

  private static String list(String[] allowed) {
    if (allowed.length == 1) {
      return allowed[0];
    }
    return String.join(", ", Arrays.copyOf(allowed, allowed.length - 1)) + " or " + allowed[allowed.length - 1];
  }
}
