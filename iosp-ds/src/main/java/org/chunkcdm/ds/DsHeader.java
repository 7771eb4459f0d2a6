package org.chunkcdm.ds;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.Names;

/**
 * The start of a {@code .ds} file: the version line {@code ds-<major>.<minor>\n} (absent in the pre-1.0
 * experimental layout, whose header starts the file), then one line of JSON. Reading stops at the header's
 * {@code \n}: the body is never touched when a file is opened.
 *
 * <p>The JSON is read with Jackson's streaming parser straight into {@link Member}s (the format's dot-keys as
 * fields, user attributes as small trees): building a whole JSON tree of the header first cost about half of
 * the header's share of a small-file open.
 */
final class DsHeader {
  /** Largest header accepted (a 200-variable header is 45 kB); documented in docs/RELIABILITY.md. */
  static final int MAX_HEADER = 64 << 20;
  /** First read: enough for the header of every ordinary file. */
  static final int FIRST_READ = 16 << 10;

  // bare NaN / Infinity / -Infinity as Python's json writes them; integers of any size come as BigInteger
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * One member of the header object other than {@code "."}: a variable's escaped key, the values of the
   * format's dot-keys it uses (null when absent), and its user attributes in file order.
   */
  static final class Member {
    final String key;
    /** The member's value when it is not a JSON object (an error the IOSP reports), else null. */
    JsonNode notAnObject;
    JsonNode size;
    JsonNode type;
    JsonNode offset;
    JsonNode len;
    JsonNode missing;
    JsonNode endian;
    JsonNode dims;
    JsonNode time;
    JsonNode dsize;
    final List<Map.Entry<String, JsonNode>> attributes = new ArrayList<>(4);

    Member(String key) {
      this.key = key;
    }
  }

  /** The version line without its newline, or null for the experimental layout. */
  final String version;
  /** Variable members in header order (keys starting with "." other than "." itself are skipped); see {@link #parse}. */
  List<Member> members;
  /** The {@code "."} member (dataset attributes), or null when absent; see {@link #parse}. */
  JsonNode dataset;
  /** File position of the body's first byte. */
  final long bodyStart;
  final long fileSize;
  /** The file's first bytes as read to find the header (kept by {@link DsFile} when small). */
  final byte[] prefix;
  /** The bytes holding the header line ({@link #headerStart} to {@link #headerEnd}). */
  final byte[] buf;
  final int headerStart;
  final int headerEnd;
  /** The header's top-level members as found by {@link #scan} (null when the header is not of that plain shape). */
  final List<Span> spans;
  private final Path file;

  private DsHeader(Path file, String version, byte[] buf, int headerStart, int headerEnd, long fileSize, byte[] prefix) {
    this.file = file;
    this.prefix = prefix;
    this.version = version;
    this.buf = buf;
    this.headerStart = headerStart;
    this.headerEnd = headerEnd;
    this.bodyStart = headerEnd + 1L;
    this.fileSize = fileSize;
    this.spans = scan(buf, headerStart, headerEnd);
  }

  private static final byte[] V10 = "ds-1.0\n".getBytes(StandardCharsets.US_ASCII);

  /** True when these first bytes begin a ds-1.x file ("ds-"). */
  static boolean hasVersionPrefix(byte[] b, int n) {
    return n >= 3 && b[0] == 'd' && b[1] == 's' && b[2] == '-';
  }

  /** The file as already opened by a host (netcdf-java's RandomAccessFile in the IOSP), for the first read. */
  interface Opening {
    long length() throws IOException;

    /** Reads the file's first {@code buf.length} bytes. */
    void readFully(byte[] buf) throws IOException;
  }

  /**
   * Reads the version line and the header. {@code raf} (the file netcdf-java opened, or null) serves the first
   * read: its buffer already holds the file's first bytes, which netcdf-java read to ask the IOSPs.
   */
  static DsHeader read(FileHandles files, Path file, Opening raf) throws IOException {
    long size = raf != null ? raf.length() : files.size(file);
    byte[] buf = new byte[(int) Math.min(size, FIRST_READ)];
    if (raf != null) {
      try {
        raf.readFully(buf);
      } catch (java.io.EOFException e) {
        throw new IOException(file + ": file ended within its first " + buf.length + " bytes while being read", e);
      }
    } else {
      files.readFully(file, 0, buf, 0, buf.length);
    }
    int have = buf.length;
    if (have == 0) {
      throw new FormatException(file + ": empty file, not a ds file");
    }
    String version = null;
    int headerStart = 0;
    if (have >= V10.length && Arrays.equals(buf, 0, V10.length, V10, 0, V10.length)) {
      version = "ds-1.0"; // the usual line, without a String made per file
      headerStart = V10.length;
    } else if (hasVersionPrefix(buf, have)) {
      int nl = indexOf(buf, 0, have, (byte) '\n');
      if (nl < 0 || nl > 32) {
        throw new FormatException(file + ": the version line 'ds-<x>.<y>' is not ended by a newline within 32 bytes");
      }
      version = new String(buf, 0, nl, StandardCharsets.ISO_8859_1);
      if (!isVersion1(version)) {
        throw new FormatException(file + ": unsupported ds format version '" + printable(version)
            + "' (this reader knows ds-1.x)");
      }
      headerStart = nl + 1;
    } else if (buf[0] != '{') {
      throw new FormatException(file + ": not a ds file (no 'ds-' version line and no JSON header)");
    }
    int from = headerStart;
    int end;
    while (true) {
      // the header's end, and a NUL byte before it (one pass): a JSON text never holds one, so a zero-filled
      // (sparse, half-copied) file is refused at once
      int nul = -1;
      end = -1;
      for (int k = cleanWords(buf, from, have); k < have; k++) {
        byte c = buf[k];
        if (c == '\n') {
          end = k;
          break;
        }
        if (c == 0 && nul < 0) {
          nul = k;
        }
      }
      if (nul >= 0) {
        throw new FormatException(file + ": NUL byte at offset " + nul + " inside the JSON header (a corrupt or"
            + " partly written file)");
      }
      if (end >= 0) {
        break;
      }
      if (have >= size) {
        throw new FormatException(file + ": the header line has no terminating newline (file of " + size
            + " bytes truncated?)");
      }
      if (have >= MAX_HEADER) {
        throw new FormatException(file + ": no header end within the first " + MAX_HEADER + " bytes");
      }
      from = have;
      int next = (int) Math.min(Math.min(size, MAX_HEADER), 4L * have);
      // the header buffer is bounded by the file size, MAX_HEADER and the heap, checked before it grows
      Bounds.checkAllocation(next, file + ": header buffer");
      buf = Arrays.copyOf(buf, next);
      files.readFully(file, have, buf, have, next - have);
      have = next;
    }
    return new DsHeader(file, version, buf, headerStart, end, size, buf.length <= FIRST_READ ? buf : new byte[0]);
  }

  /**
   * Parses the header with Jackson's streaming parser into {@link #members} and {@link #dataset} (the reference
   * path: every header goes through it unless {@link DsDatasets} served it from its member templates).
   */
  DsHeader parse() throws IOException {
    if (members != null) {
      return this;
    }
    List<Member> ms = new ArrayList<>();
    JsonNode ds = null;
    try (JsonParser p = JSON.createParser(buf, headerStart, headerEnd - headerStart)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        p.skipChildren(); // a syntax error in there is reported as such
        p.nextToken();
        throw new FormatException(file + ": header is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals(".")) {
          ds = tree(p);
        } else if (key.startsWith(".")) {
          p.skipChildren(); // reserved metadata key, not a variable
        } else {
          ms.add(member(key, p));
        }
      }
      if (p.nextToken() != null) {
        throw new FormatException(file + ": header is not valid JSON: content after the header object");
      }
    } catch (JacksonException e) {
      throw new FormatException(file + ": header is not valid JSON: " + e.getOriginalMessage(), e);
    }
    dataset = ds;
    members = ms;
    return this;
  }

  // ---------------------------------------------------------------- plain-header scan

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
    /** The {@link DsDatasets.Template} whose member this one equals up to the digits, when the scan matched one. */
    Object template;
    DsDatasets.Known known;
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
  }

  private static final byte[] OFFSET = "\".offset\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] LEN = "\".len\"".getBytes(StandardCharsets.US_ASCII);

  /**
   * Splits a plain header without a JSON parser: an object whose keys are printable ASCII without escapes, whose
   * variable members are objects, at most one {@code "."} member and no other reserved key. The members' values
   * are only delimited here (strings, nesting), not checked: {@link DsDatasets} parses each variable member with
   * Jackson unless a byte-identical member (up to its {@code .offset}/{@code .len} digits) was parsed before.
   * Returns null for any other header (the {@link #parse} path then reads it, and reports its errors).
   */
  static List<Span> scan(byte[] b, int from, int to) {
    int i = ws(b, from, to);
    if (i >= to || b[i] != '{') {
      return null;
    }
    List<Span> out = new ArrayList<>();
    i = ws(b, i + 1, to);
    if (i < to && b[i] == '}') {
      return ws(b, i + 1, to) == to ? out : null;
    }
    boolean sawDataset = false;
    DsDatasets.Known[] last = DsDatasets.Templates.last;
    boolean guessed = true;
    int vars = 0;
    while (true) {
      Span s = new Span();
      s.keyStart = i;
      int k = plainKey(b, i, to);
      if (k < 0) {
        return null;
      }
      s.keyEnd = k;
      i = ws(b, k, to);
      if (i >= to || b[i] != ':') {
        return null;
      }
      i = ws(b, i + 1, to);
      s.valueStart = i;
      boolean dot = b[s.keyStart + 1] == '.';
      if (dot) {
        if (k - s.keyStart != 3 || sawDataset) { // a reserved key other than ".", or "." twice
          return null;
        }
        sawDataset = true;
        s.dataset = true;
        s.end = skipValue(b, i, to);
      } else {
        // first guess: the member at this place in the last header served whole from templates; then by name
        DsDatasets.Known known = last != null && vars < last.length ? last[vars] : null;
        s.end = known == null ? -1 : match(b, s.keyStart, to, known.key, s);
        if (s.end < 0) {
          guessed = false;
          known = DsDatasets.Templates.byName(b, s.keyStart, k);
          s.end = known == null ? -1 : match(b, s.keyStart, to, known.key, s);
        }
        vars++;
        if (s.end >= 0) {
          s.template = known.t;
          s.known = known;
        } else {
          s.offStart = s.offEnd = s.lenStart = s.lenEnd = -1;
          s.offset = s.len = -1;
          s.end = member(b, i, to, s);
        }
      }
      if (s.end < 0) {
        return null;
      }
      out.add(s);
      i = ws(b, s.end, to);
      if (i >= to) {
        return null;
      }
      if (b[i] == '}') {
        if (ws(b, i + 1, to) != to) {
          return null;
        }
        if (!guessed || last == null || last.length != vars) {
          DsDatasets.Templates.remember(out, vars);
        }
        return out;
      }
      if (b[i] != ',') {
        return null;
      }
      i = ws(b, i + 1, to);
    }
  }

  /** A variable member's object: its end, with the plain {@code .offset}/{@code .len} digits noted; -1 if not plain. */
  private static int member(byte[] b, int i, int to, Span s) {
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
      boolean off = k - i == OFFSET.length && Arrays.equals(b, i, k, OFFSET, 0, OFFSET.length);
      boolean len = !off && k - i == LEN.length && Arrays.equals(b, i, k, LEN, 0, LEN.length);
      i = ws(b, k, to);
      if (i >= to || b[i] != ':') {
        return -1;
      }
      i = ws(b, i + 1, to);
      int e = skipValue(b, i, to);
      if (e < 0) {
        return -1;
      }
      if (off || len) {
        if ((off ? s.offStart : s.lenStart) >= 0) {
          return -1; // the key twice
        }
        long v = digits(b, i, e);
        if (v >= 0) {
          s.number(off, v, i, e);
        }
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
   * Compares the member at {@code i} with a known member's key: equal bytes, and plain digits where the key's
   * {@code .offset}/{@code .len} digits were cut. Returns the member's end (with the digits noted in {@code s}),
   * or -1 when it differs. A match is a member whose bytes parse exactly as the key's did, up to those numbers.
   */
  static int match(byte[] b, int i, int to, DsDatasets.Key key, Span s) {
    s.offStart = s.offEnd = s.lenStart = s.lenEnd = -1; // nothing left from an earlier attempt
    s.offset = s.len = -1;
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

  /**
   * The start of the first 8-byte word from {@code from} that holds a newline or a NUL byte (or the last
   * bytes that make no whole word): the bytes before it hold neither, so the byte loop can start there.
   */
  private static int cleanWords(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long v = (long) LONGS.get(b, i);
      long nl = v ^ 0x0A0A0A0A0A0A0A0AL;
      long flags = ((v - 0x0101010101010101L) & ~v) | ((nl - 0x0101010101010101L) & ~nl);
      if ((flags & 0x8080808080808080L) != 0) {
        return i;
      }
    }
    return i;
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

  /** Parses one variable member's value (an object) from {@code s} with Jackson. */
  static Member member(byte[] b, Span s) throws IOException {
    try (JsonParser p = JSON.createParser(b, s.valueStart, s.end - s.valueStart)) {
      p.nextToken();
      Member m = member(s.key(b), p);
      if (p.nextToken() != null) {
        throw new FormatException("content after a member");
      }
      return m;
    }
  }

  /**
   * The dataset member's attributes when it is a flat object of plain values — keys of printable ASCII without
   * escapes, each once, values strings of printable ASCII without escapes or integers of up to 9 digits — put
   * into {@code out} as the Jackson path would ({@link Attributes#putJson}: text, int). False, with {@code out}
   * left for the caller to replace, for anything else.
   */
  static boolean flatAttributes(byte[] b, int i, int to, Attributes out) {
    if (i >= to || b[i] != '{') {
      return false;
    }
    i = ws(b, i + 1, to);
    if (i < to && b[i] == '}') {
      return ws(b, i + 1, to) == to;
    }
    while (true) {
      int k = plainKey(b, i, to);
      if (k < 0) {
        return false;
      }
      String name = Names.valid(new String(b, i + 1, k - i - 2, StandardCharsets.ISO_8859_1));
      if (out.has(name)) {
        return false; // a repeated (or same-CDM-named) key: the Jackson path decides
      }
      i = ws(b, k, to);
      if (i >= to || b[i] != ':') {
        return false;
      }
      i = ws(b, i + 1, to);
      if (i >= to) {
        return false;
      }
      if (b[i] == '"') {
        int e = plainString(b, i, to);
        if (e < 0) {
          return false;
        }
        out.put(name, new String(b, i + 1, e - i - 2, StandardCharsets.ISO_8859_1));
        i = e;
      } else {
        int e = i + (b[i] == '-' ? 1 : 0);
        int d0 = e;
        while (e < to && b[e] >= '0' && b[e] <= '9') {
          e++;
        }
        long v = digits(b, d0, e);
        if (v < 0 || e - d0 > 9 || e < to && (b[e] == '.' || b[e] == 'e' || b[e] == 'E')) {
          return false;
        }
        out.put(name, (int) (d0 > i ? -v : v));
        i = e;
      }
      i = ws(b, i, to);
      if (i >= to) {
        return false;
      }
      if (b[i] == '}') {
        return ws(b, i + 1, to) == to;
      }
      if (b[i] != ',') {
        return false;
      }
      i = ws(b, i + 1, to);
    }
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

  /** Parses the dataset member's value from {@code s} with Jackson. */
  static JsonNode value(byte[] b, Span s) throws IOException {
    try (JsonParser p = JSON.createParser(b, s.valueStart, s.end - s.valueStart)) {
      p.nextToken();
      JsonNode v = tree(p);
      if (p.nextToken() != null) {
        throw new FormatException("content after a member");
      }
      return v;
    }
  }

  /** A variable member; the parser is at its value. */
  private static Member member(String key, JsonParser p) throws IOException {
    Member m = new Member(key);
    if (p.currentToken() != JsonToken.START_OBJECT) {
      m.notAnObject = tree(p);
      return m;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String k = p.currentName();
      p.nextToken();
      if (!k.startsWith(".")) {
        m.attributes.add(new AbstractMap.SimpleImmutableEntry<>(k, tree(p)));
        continue;
      }
      switch (k) {
        case ".size":
          m.size = tree(p);
          break;
        case ".type":
          m.type = tree(p);
          break;
        case ".offset":
          m.offset = tree(p);
          break;
        case ".len":
          m.len = tree(p);
          break;
        case ".missing":
          m.missing = tree(p);
          break;
        case ".endian":
          m.endian = tree(p);
          break;
        case ".dims":
          m.dims = tree(p);
          break;
        case ".time":
          m.time = tree(p);
          break;
        case ".dsize":
          m.dsize = tree(p);
          break;
        default:
          p.skipChildren(); // other format metadata: neither used nor an attribute
      }
    }
    return m;
  }

  /** The JSON value the parser is at, as a tree (Jackson's own tree types, numbers as Jackson reads them). */
  private static JsonNode tree(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      throw new JsonParseException(p, "unexpected end of the header");
    }
    switch (t) {
      case START_OBJECT: {
        ObjectNode o = NODES.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String k = p.currentName();
          p.nextToken();
          o.set(k, tree(p));
        }
        return o;
      }
      case START_ARRAY: {
        ArrayNode a = NODES.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          a.add(tree(p));
        }
        return a;
      }
      case VALUE_STRING:
        return TextNode.valueOf(p.getText());
      case VALUE_NUMBER_INT:
        switch (p.getNumberType()) {
          case INT:
            return IntNode.valueOf(p.getIntValue());
          case LONG:
            return LongNode.valueOf(p.getLongValue());
          default:
            return BigIntegerNode.valueOf(p.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        return DoubleNode.valueOf(p.getDoubleValue());
      case VALUE_TRUE:
        return BooleanNode.TRUE;
      case VALUE_FALSE:
        return BooleanNode.FALSE;
      case VALUE_NULL:
        return NullNode.instance;
      default:
        throw new JsonParseException(p, "unexpected JSON token " + t);
    }
  }

  /** {@code ds-1.<digits>}. */
  static boolean isVersion1(String v) {
    if (!v.startsWith("ds-1.") || v.length() == 5) {
      return false;
    }
    for (int i = 5; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] b, int from, int to, byte v) {
    for (int i = from; i < to; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  private static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return sb.toString();
  }
}
