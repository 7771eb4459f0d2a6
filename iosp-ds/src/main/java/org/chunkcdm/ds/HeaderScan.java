package org.chunkcdm.ds;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.Names;

/**
 * Splits a plain header without a JSON parser: an object whose keys are printable ASCII without escapes, whose
 * variable members are objects, at most one {@code "."} member and no other reserved key. The members' values
 * are only delimited here (strings, nesting), not checked: {@link DsDatasets} parses each variable member with
 * Jackson ({@link HeaderJson}) unless a byte-identical member (up to its {@code .offset}/{@code .len} digits) was
 * parsed before ({@link Templates}).
 */
final class HeaderScan {
  private HeaderScan() {}

  /**
   * One top-level member of a plain header, as {@link #scan} found it: the key's bytes (with quotes) start at
   * {@code keyStart}, the value spans {@code [valueStart, end)}. For a variable, {@code offset}/{@code len} are
   * the values of its {@code .offset}/{@code .len} keys when they are plain integers (else -1), and
   * {@code offStart..offEnd}, {@code lenStart..lenEnd} their digits (-1 when absent).
   */
  static final class Span {
    int keyStart;
    int keyEnd; // after the closing quote
    int valueStart;
    int end;
    boolean dataset; // the "." member
    /** The template whose member this one equals up to the digits, when the scan matched one. */
    Template template;
    Templates.Known known;
    long offset = -1;
    long len = -1;
    int offStart = -1;
    int offEnd = -1;
    int lenStart = -1;
    int lenEnd = -1;

    /** The key without quotes (plain ASCII, no escapes: {@link #scan} takes no other). */
    String key(byte[] b) {
      return new String(b, keyStart + 1, keyEnd - keyStart - 2, StandardCharsets.ISO_8859_1);
    }

    /** Notes the {@code .offset} ({@code off}) or {@code .len} number {@code v} found at {@code [start, end)}. */
    void number(boolean off, long v, int start, int end) {
      if (off) {
        offset = v;
        offStart = start;
        offEnd = end;
      } else {
        len = v;
        lenStart = start;
        lenEnd = end;
      }
    }

    /** Forgets the numbers noted so far. */
    void noNumbers() {
      offStart = offEnd = lenStart = lenEnd = -1;
      offset = len = -1;
    }
  }

  private static final byte[] OFFSET = "\".offset\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] LEN = "\".len\"".getBytes(StandardCharsets.US_ASCII);

  /** One member of a plain object: its key's bytes (quotes included) and where its value starts. */
  private interface Members {
    /** The end of the member's value, or -1 when the object is not plain. */
    int member(int keyStart, int keyEnd, int valueStart);
  }

  /**
   * The object at {@code b[i, to)} whose keys are plain ({@link #plainKey}), each member handed to {@code m}: the
   * index after its closing brace, or -1 when it is not such an object.
   */
  private static int object(byte[] b, int i, int to, Members m) {
    if (i >= to || b[i] != '{') {
      return -1;
    }
    i = ws(b, i + 1, to);
    if (i < to && b[i] == '}') {
      return i + 1;
    }
    while (true) {
      int k = plainKey(b, i, to);
      if (k < 0) {
        return -1;
      }
      int colon = ws(b, k, to);
      if (colon >= to || b[colon] != ':') {
        return -1;
      }
      int e = m.member(i, k, ws(b, colon + 1, to));
      if (e < 0) {
        return -1;
      }
      i = ws(b, e, to);
      if (i >= to) {
        return -1;
      }
      if (b[i] == '}') {
        return i + 1;
      }
      if (b[i] != ',') {
        return -1;
      }
      i = ws(b, i + 1, to);
    }
  }

  /**
   * The members of the plain header at {@code b[from, to)}, or null for any other header (the
   * {@link DsHeader#parse} path then reads it, and reports its errors).
   */
  static List<Span> scan(byte[] b, int from, int to) {
    TopLevel top = new TopLevel(b, to);
    int end = object(b, ws(b, from, to), to, top);
    if (end < 0 || ws(b, end, to) != to) {
      return null;
    }
    if (!top.out.isEmpty() && (!top.guessed || top.last == null || top.last.length != top.vars)) {
      Templates.remember(top.out, top.vars);
    }
    return top.out;
  }

  /** The header object's members, each matched against the templates of members seen before. */
  private static final class TopLevel implements Members {
    final byte[] b;
    final int to;
    final List<Span> out = new ArrayList<>();
    final Templates.Known[] last = Templates.last;
    boolean sawDataset;
    boolean guessed = true;
    int vars;

    TopLevel(byte[] b, int to) {
      this.b = b;
      this.to = to;
    }

    @Override
    public int member(int keyStart, int keyEnd, int valueStart) {
      Span s = new Span();
      s.keyStart = keyStart;
      s.keyEnd = keyEnd;
      s.valueStart = valueStart;
      if (b[keyStart + 1] == '.') {
        if (keyEnd - keyStart != 3 || sawDataset) { // a reserved key other than ".", or "." twice
          return -1;
        }
        sawDataset = true;
        s.dataset = true;
        s.end = skipValue(b, valueStart, to);
      } else {
        s.end = variable(s);
      }
      if (s.end >= 0) {
        out.add(s);
      }
      return s.end;
    }

    /**
     * A variable member's end. First guess: the member at this place in the last header served whole from
     * templates; then the template last used for its name; else the member's own plain scan.
     */
    private int variable(Span s) {
      Templates.Known known = last != null && vars < last.length ? last[vars] : null;
      int end = known == null ? -1 : match(b, s.keyStart, to, known.key(), s);
      if (end < 0) {
        guessed = false;
        known = Templates.byName(b, s.keyStart, s.keyEnd);
        end = known == null ? -1 : match(b, s.keyStart, to, known.key(), s);
      }
      vars++;
      if (end >= 0) {
        s.template = known.t();
        s.known = known;
        return end;
      }
      s.noNumbers();
      return object(b, s.valueStart, to, (keyStart, keyEnd, valueStart) -> number(b, keyStart, keyEnd, valueStart, to, s));
    }
  }

  /**
   * A member of a variable's object: the end of its value, with a plain {@code .offset}/{@code .len} number
   * noted in {@code s}; -1 when a number key stands twice.
   */
  private static int number(byte[] b, int keyStart, int keyEnd, int i, int to, Span s) {
    int n = keyEnd - keyStart;
    boolean off = n == OFFSET.length && Arrays.equals(b, keyStart, keyEnd, OFFSET, 0, OFFSET.length);
    boolean len = !off && n == LEN.length && Arrays.equals(b, keyStart, keyEnd, LEN, 0, LEN.length);
    int e = skipValue(b, i, to);
    if (e >= 0 && (off || len)) {
      if ((off ? s.offStart : s.lenStart) >= 0) {
        return -1; // the key twice
      }
      long v = digits(b, i, e);
      if (v >= 0) {
        s.number(off, v, i, e);
      }
    }
    return e;
  }

  /**
   * Compares the member at {@code i} with a known member's key: equal bytes, and plain digits where the key's
   * {@code .offset}/{@code .len} digits were cut. Returns the member's end (with the digits noted in {@code s}),
   * or -1 when it differs. A match is a member whose bytes parse exactly as the key's did, up to those numbers.
   */
  static int match(byte[] b, int i, int to, Templates.Key key, Span s) {
    s.noNumbers(); // nothing left from an earlier attempt
    byte[] k = key.b;
    int kp = 0;
    for (int c = 0; c < 2; c++) {
      int cut = c == 0 ? key.cut1 : key.cut2;
      if (cut < 0) {
        break;
      }
      int seg = cut - kp;
      if (i + seg > to || !Arrays.equals(b, i, i + seg, k, kp, cut)) {
        return -1;
      }
      i += seg;
      kp = cut;
      int d0 = i;
      while (i < to && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      long v = digits(b, d0, i);
      if (v < 0) {
        return -1;
      }
      s.number((c == 0) == key.off1, v, d0, i);
    }
    int seg = k.length - kp;
    if (i + seg > to || !Arrays.equals(b, i, i + seg, k, kp, k.length)) {
      return -1;
    }
    return i + seg;
  }

  /**
   * The dataset member's attributes when it is a flat object of plain values — keys of printable ASCII without
   * escapes, each once, values strings of printable ASCII without escapes or integers of up to 9 digits — put
   * into {@code out} as the Jackson path would ({@link Attributes#putJson}: text, int). False, with {@code out}
   * left for the caller to replace, for anything else.
   */
  static boolean flatAttributes(byte[] b, int i, int to, Attributes out) {
    int end = object(b, i, to, (keyStart, keyEnd, valueStart) -> flatValue(b, keyStart, keyEnd, valueStart, to, out));
    return end >= 0 && ws(b, end, to) == to;
  }

  /** One plain member of the dataset object into {@code out}: the end of its value, or -1. */
  private static int flatValue(byte[] b, int keyStart, int keyEnd, int i, int to, Attributes out) {
    String name = Names.valid(new String(b, keyStart + 1, keyEnd - keyStart - 2, StandardCharsets.ISO_8859_1));
    if (out.has(name) || i >= to) {
      return -1; // a repeated (or same-CDM-named) key: the Jackson path decides
    }
    if (b[i] == '"') {
      int e = plainString(b, i, to);
      if (e >= 0) {
        out.put(name, new String(b, i + 1, e - i - 2, StandardCharsets.ISO_8859_1));
      }
      return e;
    }
    int e = i + (b[i] == '-' ? 1 : 0);
    int d0 = e;
    while (e < to && b[e] >= '0' && b[e] <= '9') {
      e++;
    }
    long v = digits(b, d0, e);
    if (v < 0 || e - d0 > 9 || e < to && (b[e] == '.' || b[e] == 'e' || b[e] == 'E')) {
      return -1;
    }
    out.put(name, (int) (d0 > i ? -v : v));
    return e;
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /** A hash of {@code b[from, to)}, eight bytes a step (Arrays.hashCode goes one byte a step). */
  static int hash(byte[] b, int from, int to) {
    long h = to - from;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
    }
    for (; i < to; i++) {
      h = (h ^ b[i]) * 0x100000001B3L;
    }
    h ^= h >>> 32;
    return (int) h;
  }

  /** A JSON integer token of 1 to 18 digits without sign or leading zero, else -1. */
  private static long digits(byte[] b, int from, int to) {
    int n = to - from;
    if (n < 1 || n > 18 || (b[from] == '0' && n > 1)) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = 10 * v + d;
    }
    return v;
  }

  /** A key of printable ASCII without escapes starting at {@code i}: the index after its closing quote, else -1. */
  private static int plainKey(byte[] b, int i, int to) {
    if (i >= to || b[i] != '"') {
      return -1;
    }
    for (int k = i + 1; k < to; k++) {
      byte c = b[k];
      if (c == '"') {
        return k > i + 1 ? k + 1 : -1; // an empty key goes the reference path
      }
      if (c < 0x20 || c == '\\' || c >= 0x7f) { // (bytes >= 0x80 are negative)
        return -1;
      }
    }
    return -1;
  }

  /** A string of printable ASCII without escapes starting at {@code i}: the index after its closing quote, else -1. */
  private static int plainString(byte[] b, int i, int to) {
    for (int k = i + 1; k < to; k++) {
      byte c = b[k];
      if (c == '"') {
        return k + 1;
      }
      if (c < 0x20 || c == '\\' || c == 0x7f) {
        return -1;
      }
    }
    return -1;
  }

  /** The end of the JSON value starting at {@code i} (strings and nesting delimited, content not checked), else -1. */
  private static int skipValue(byte[] b, int i, int to) {
    if (i >= to) {
      return -1;
    }
    byte c = b[i];
    if (c == '"') {
      return skipString(b, i, to);
    }
    if (c == '{' || c == '[') {
      return skipNested(b, i, to);
    }
    int k = i;
    while (k < to) {
      byte x = b[k];
      if (x == ',' || x == '}' || x == ']' || x == ' ' || x == '\t' || x == '\r' || x == '"' || x == '{' || x == '[' || x == ':') {
        break;
      }
      k++;
    }
    return k > i ? k : -1;
  }

  private static int skipNested(byte[] b, int i, int to) {
    int depth = 0;
    for (int k = i; k < to; k++) {
      byte x = b[k];
      if (x == '"') {
        k = skipString(b, k, to);
        if (k < 0) {
          return -1;
        }
        k--;
      } else if (x == '{' || x == '[') {
        depth++;
      } else if (x == '}' || x == ']') {
        if (--depth == 0) {
          return k + 1;
        }
      }
    }
    return -1;
  }

  private static int skipString(byte[] b, int i, int to) {
    for (int k = i + 1; k < to; k++) {
      byte c = b[k];
      if (c == '\\') {
        k++;
      } else if (c == '"') {
        return k + 1;
      }
    }
    return -1;
  }

  private static int ws(byte[] b, int i, int to) {
    while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r')) {
      i++;
    }
    return i;
  }
}
