package org.chunkcdm.ds;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Templates of the variable members seen so far, keyed by the member's bytes without its {@code .offset} and
 * {@code .len} digits: the files of one collection repeat their variables' definitions, so after the first
 * file a member costs a hash and a comparison instead of a JSON parse. The key holds every byte the template
 * depends on, so a hit is exactly what parsing would give; nothing depends on file names or times. Bounded:
 * at most {@link #MAX_ENTRIES} members of at most {@link #MAX_KEY} bytes (emptied when full).
 */
final class Templates {
  static final int MAX_ENTRIES = 1024;
  static final int MAX_KEY = 4096;
  private static final ConcurrentHashMap<Key, Template> MAP = new ConcurrentHashMap<>();
  /** Per member name, the template last made or used for it: {@link HeaderScan#scan} tries it first. */
  private static final ConcurrentHashMap<NameKey, Known> NAMES = new ConcurrentHashMap<>();
  /** Templates made (a parse each), for tests. */
  static final AtomicLong MADE = new AtomicLong();

  private Templates() {}

  static Template get(byte[] b, HeaderScan.Span s, String fileName) throws IOException {
    int n = s.end - s.keyStart - (s.offEnd - s.offStart) - (s.lenEnd - s.lenStart);
    if (n > MAX_KEY) {
      MADE.incrementAndGet();
      return Template.of(HeaderJson.member(b, s), fileName);
    }
    Key k = new Key(b, s, n);
    Template t = MAP.get(k);
    if (t != null) {
      NAMES.put(NameKey.probe(b, s.keyStart, s.keyEnd).copy(), new Known(t, k));
      return t;
    }
    MADE.incrementAndGet();
    Member m = HeaderJson.member(b, s);
    // the scan and the parser must agree on where the file places the variable
    if (!agree(m.get(Member.Key.OFFSET), s.offStart, s.offset) || !agree(m.get(Member.Key.LEN), s.lenStart, s.len)) {
      throw new IOException("scan and parse disagree");
    }
    t = Template.of(m, fileName);
    if (MAP.size() >= MAX_ENTRIES) {
      MAP.clear();
    }
    if (NAMES.size() >= MAX_ENTRIES) {
      NAMES.clear();
    }
    MAP.put(k, t);
    NAMES.put(NameKey.probe(b, s.keyStart, s.keyEnd).copy(), new Known(t, k));
    return t;
  }

  /** Whether the parsed number {@code v} is the one the scan found at {@code start} ({@code value}). */
  private static boolean agree(com.fasterxml.jackson.databind.JsonNode v, int start, long value) {
    return (v != null) == (start >= 0) && (v == null || v.asLong(-2) == value);
  }

  /**
   * The templates of the last header whose variable members were all found by the scan, in header order:
   * the scan tries the member at the same place first (the files of a collection list the same variables).
   */
  static volatile Known[] last;

  /** Notes the variable members of a header the scan found all of (else nothing). */
  static void remember(List<HeaderScan.Span> spans, int vars) {
    Known[] k = new Known[vars];
    int j = 0;
    for (HeaderScan.Span s : spans) {
      if (!s.dataset) {
        if (s.known == null) {
          return;
        }
        k[j++] = s.known;
      }
    }
    last = k;
  }

  /** The template last used for the member name at {@code b[from, to)} (quotes included), or null. */
  static Known byName(byte[] b, int from, int to) {
    return NAMES.get(NameKey.probe(b, from, to));
  }

  static void clear() {
    MAP.clear();
    NAMES.clear();
    last = null;
  }

  /**
   * A member's bytes from its key to its end, without the {@code .offset}/{@code .len} digits, and where in them
   * the digits were ({@code cut1}, {@code cut2}: key positions, -1 when absent; {@code off1}: the first is
   * {@code .offset}'s).
   */
  static final class Key {
    final byte[] b;
    private final int hash;
    final int cut1;
    final int cut2;
    final boolean off1;

    Key(byte[] src, HeaderScan.Span s, int n) {
      byte[] k = new byte[n];
      boolean offFirst = s.lenStart < 0 || s.offStart >= 0 && s.offStart < s.lenStart;
      int[] cut = offFirst ? new int[] {s.offStart, s.offEnd, s.lenStart, s.lenEnd}
          : new int[] {s.lenStart, s.lenEnd, s.offStart, s.offEnd};
      int[] at = {-1, -1};
      int w = 0;
      int from = s.keyStart;
      for (int c = 0; c < 4; c += 2) {
        if (cut[c] >= 0) {
          System.arraycopy(src, from, k, w, cut[c] - from);
          w += cut[c] - from;
          at[c / 2] = w;
          from = cut[c + 1];
        }
      }
      System.arraycopy(src, from, k, w, s.end - from);
      this.b = k;
      this.hash = HeaderScan.hash(k, 0, n);
      this.off1 = offFirst && s.offStart >= 0;
      this.cut1 = at[0] >= 0 ? at[0] : at[1];
      this.cut2 = at[0] >= 0 ? at[1] : -1;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && ((Key) o).hash == hash && Arrays.equals(((Key) o).b, b);
    }
  }

  /** A member's quoted name as a map key; a probe ({@link #probe}) looks up without copying. */
  static final class NameKey {
    private final byte[] b;
    private final int from;
    private final int to;
    private final int hash;

    private NameKey(byte[] b, int from, int to) {
      this.b = b;
      this.from = from;
      this.to = to;
      this.hash = HeaderScan.hash(b, from, to);
    }

    static NameKey probe(byte[] b, int from, int to) {
      return new NameKey(b, from, to);
    }

    NameKey copy() {
      return new NameKey(Arrays.copyOfRange(b, from, to), 0, to - from);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof NameKey)) {
        return false;
      }
      NameKey k = (NameKey) o;
      return k.hash == hash && Arrays.equals(b, from, to, k.b, k.from, k.to);
    }
  }

  /** The template last made or used for a member name, with the key it was made from (see {@link HeaderScan#scan}). */
  record Known(Template t, Key key) {}
}
