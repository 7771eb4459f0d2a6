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
  /** Variable members in header order (keys starting with "." other than "." itself are skipped). */
  final List<Member> members;
  /** The {@code "."} member (dataset attributes), or null when absent. */
  final JsonNode dataset;
  /** File position of the body's first byte. */
  final long bodyStart;
  final long fileSize;
  /** The file's first bytes as read to find the header (kept by {@link DsFile} when small). */
  final byte[] prefix;

  private DsHeader(String version, List<Member> members, JsonNode dataset, long bodyStart, long fileSize,
      byte[] prefix) {
    this.prefix = prefix;
    this.version = version;
    this.members = members;
    this.dataset = dataset;
    this.bodyStart = bodyStart;
    this.fileSize = fileSize;
  }

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
    if (hasVersionPrefix(buf, have)) {
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
      // the header's end, and a NUL byte before it: a JSON text never holds one, so a zero-filled (sparse,
      // half-copied) file is refused at once
      int nul = -1;
      end = -1;
      for (int k = from; k < have; k++) {
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
    Parsed parsed = new Fast(buf, headerStart, end);
    if (!((Fast) parsed).parse()) {
      parsed = jackson(buf, headerStart, end, file);
    }
    return new DsHeader(version, parsed.members, parsed.dataset, end + 1L, size,
        buf.length <= FIRST_READ ? buf : new byte[0]);
  }

  /** The header's members and dataset attributes. */
  static class Parsed {
    final List<Member> members = new ArrayList<>();
    JsonNode dataset;
  }

  /** The header JSON {@code buf[from, to)} read by Jackson's streaming parser (every header; reports errors). */
  static Parsed jackson(byte[] buf, int from, int to, Path file) throws IOException {
    Parsed out = new Parsed();
    try (JsonParser p = JSON.createParser(buf, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        p.skipChildren(); // a syntax error in there is reported as such
        p.nextToken();
        throw new FormatException(file + ": header is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals(".")) {
          out.dataset = tree(p);
        } else if (key.startsWith(".")) {
          p.skipChildren(); // reserved metadata key, not a variable
        } else {
          out.members.add(member(key, p));
        }
      }
      if (p.nextToken() != null) {
        throw new FormatException(file + ": header is not valid JSON: content after the header object");
      }
    } catch (JacksonException e) {
      throw new FormatException(file + ": header is not valid JSON: " + e.getOriginalMessage(), e);
    }
    return out;
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

  /**
   * A parser of the plain headers nearly every file has (printable ASCII strings without escapes, JSON numbers
   * of at most 18 digits, no NaN/Infinity) that gives exactly the members Jackson's path gives, several times
   * faster; anything else — also any syntax error — makes {@link #parse()} return false, and the header is
   * read by Jackson (which reports the errors). For the many-small-files case, where the header is a large
   * share of an open.
   */
  static final class Fast extends Parsed {
    private final byte[] b;
    private final int end;
    private int i;
    private int depth;

    /** Bails out of the parse (no stack trace: control flow). */
    private static final class Bail extends RuntimeException {
      Bail() {
        super(null, null, false, false);
      }
    }

    private static final Bail BAIL = new Bail();

    Fast(byte[] b, int from, int end) {
      this.b = b;
      this.i = from;
      this.end = end;
    }

    /** True when the header was read; false: not plain enough (or invalid), read it with Jackson. */
    boolean parse() {
      try {
        ws();
        expect('{');
        ws();
        if (peek() == '}') {
          i++;
        } else {
          while (true) {
            String key = string();
            ws();
            expect(':');
            ws();
            if (key.equals(".")) {
              dataset = value();
            } else if (key.startsWith(".")) {
              value(); // reserved metadata key, not a variable
            } else {
              members.add(member(key));
            }
            ws();
            byte c = next();
            if (c == '}') {
              break;
            }
            if (c != ',') {
              throw BAIL;
            }
            ws();
          }
        }
        ws();
        return i == end;
      } catch (Bail e) {
        return false;
      }
    }

    private Member member(String key) {
      Member m = new Member(key);
      if (peek() != '{') {
        m.notAnObject = value();
        return m;
      }
      i++;
      ws();
      if (peek() == '}') {
        i++;
        return m;
      }
      while (true) {
        int ks = stringBounds();
        int ke = i - 1;
        int dot = b[ks] == '.' ? dotKey(ks, ke) : -1;
        String k = dot < 0 ? new String(b, ks, ke - ks, StandardCharsets.ISO_8859_1) : null;
        ws();
        expect(':');
        ws();
        JsonNode v = value();
        if (k != null && !k.startsWith(".")) {
          m.attributes.add(new AbstractMap.SimpleImmutableEntry<>(k, v));
        } else {
          switch (dot) {
            case 0:
              m.size = v;
              break;
            case 1:
              m.type = v;
              break;
            case 2:
              m.offset = v;
              break;
            case 3:
              m.len = v;
              break;
            case 4:
              m.missing = v;
              break;
            case 5:
              m.endian = v;
              break;
            case 6:
              m.dims = v;
              break;
            case 7:
              m.time = v;
              break;
            case 8:
              m.dsize = v;
              break;
            default: // other format metadata: neither used nor an attribute
          }
        }
        ws();
        byte c = next();
        if (c == '}') {
          return m;
        }
        if (c != ',') {
          throw BAIL;
        }
        ws();
      }
    }

    private JsonNode value() {
      if (++depth > 64) {
        throw BAIL; // deep nesting: Jackson applies its limits
      }
      try {
        return plainValue();
      } finally {
        depth--;
      }
    }

    private JsonNode plainValue() {
      byte c = peek();
      switch (c) {
        case '{': {
          i++;
          ObjectNode o = NODES.objectNode();
          ws();
          if (peek() == '}') {
            i++;
            return o;
          }
          while (true) {
            String k = string();
            ws();
            expect(':');
            ws();
            o.set(k, value());
            ws();
            byte d = next();
            if (d == '}') {
              return o;
            }
            if (d != ',') {
              throw BAIL;
            }
            ws();
          }
        }
        case '[': {
          i++;
          ArrayNode a = NODES.arrayNode();
          ws();
          if (peek() == ']') {
            i++;
            return a;
          }
          while (true) {
            a.add(value());
            ws();
            byte d = next();
            if (d == ']') {
              return a;
            }
            if (d != ',') {
              throw BAIL;
            }
            ws();
          }
        }
        case '"':
          return TextNode.valueOf(string());
        case 't':
          word("true");
          return BooleanNode.TRUE;
        case 'f':
          word("false");
          return BooleanNode.FALSE;
        case 'n':
          word("null");
          return NullNode.instance;
        default:
          return number();
      }
    }

    /** A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, integers of at most 18 digits. */
    private JsonNode number() {
      int s = i;
      if (peek() == '-') {
        i++;
      }
      int d0 = i;
      if (peek() == '0') {
        i++;
      } else {
        digits();
      }
      int intDigits = i - d0;
      if (intDigits == 0) {
        throw BAIL;
      }
      boolean isFloat = false;
      if (i < end && b[i] == '.') {
        i++;
        if (digits() == 0) {
          throw BAIL;
        }
        isFloat = true;
      }
      if (i < end && (b[i] == 'e' || b[i] == 'E')) {
        i++;
        if (i < end && (b[i] == '+' || b[i] == '-')) {
          i++;
        }
        if (digits() == 0) {
          throw BAIL;
        }
        isFloat = true;
      }
      if (i < end && (b[i] >= '0' && b[i] <= '9')) {
        throw BAIL; // "01"
      }
      if (isFloat) {
        if (i - s > 64) {
          throw BAIL;
        }
        return DoubleNode.valueOf(Double.parseDouble(new String(b, s, i - s, StandardCharsets.ISO_8859_1)));
      }
      if (intDigits > 18) {
        throw BAIL; // Jackson decides between long and BigInteger
      }
      long v = 0;
      for (int k = d0; k < i; k++) {
        v = 10 * v + (b[k] - '0');
      }
      if (b[s] == '-') {
        v = -v;
      }
      return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? IntNode.valueOf((int) v) : LongNode.valueOf(v);
    }

    private int digits() {
      int s = i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      return i - s;
    }

    private static final byte[][] DOT_KEYS = {
      bytes(".size"), bytes(".type"), bytes(".offset"), bytes(".len"), bytes(".missing"), bytes(".endian"),
      bytes(".dims"), bytes(".time"), bytes(".dsize")
    };

    private static byte[] bytes(String s) {
      return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The index in {@link #DOT_KEYS} of the key {@code b[ks, ke)}, 9 for another dot-key, -1 for no dot-key. */
    private int dotKey(int ks, int ke) {
      if (ke == ks || b[ks] != '.') {
        return -1;
      }
      for (int d = 0; d < DOT_KEYS.length; d++) {
        if (java.util.Arrays.equals(b, ks, ke, DOT_KEYS[d], 0, DOT_KEYS[d].length)) {
          return d;
        }
      }
      return DOT_KEYS.length;
    }

    /** A string of printable ASCII without escapes (else bail): its first byte; {@code i} is after the quote. */
    private int stringBounds() {
      expect('"');
      int s = i;
      while (true) {
        if (i >= end) {
          throw BAIL;
        }
        byte c = b[i];
        if (c == '"') {
          break;
        }
        if (c == '\\' || c < 0x20 || c >= 0x7f) {
          throw BAIL;
        }
        i++;
      }
      if (i - s > 4096) {
        throw BAIL; // long strings: Jackson applies its limits
      }
      i++;
      return s;
    }

    /** A string of printable ASCII without escapes (else bail). */
    private String string() {
      expect('"');
      int s = i;
      while (true) {
        if (i >= end) {
          throw BAIL;
        }
        byte c = b[i];
        if (c == '"') {
          break;
        }
        if (c == '\\' || c < 0x20 || c >= 0x7f) {
          throw BAIL;
        }
        i++;
      }
      if (i - s > 4096) {
        throw BAIL; // long strings: Jackson applies its limits
      }
      String str = new String(b, s, i - s, StandardCharsets.ISO_8859_1);
      i++;
      return str;
    }

    private void word(String w) {
      if (end - i < w.length()) {
        throw BAIL;
      }
      for (int k = 0; k < w.length(); k++) {
        if (b[i + k] != w.charAt(k)) {
          throw BAIL;
        }
      }
      i += w.length();
      if (i < end && (Character.isLetterOrDigit(b[i]) || b[i] == '_')) {
        throw BAIL;
      }
    }

    private void ws() {
      while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
        i++;
      }
    }

    private byte peek() {
      if (i >= end) {
        throw BAIL;
      }
      return b[i];
    }

    private byte next() {
      if (i >= end) {
        throw BAIL;
      }
      return b[i++];
    }

    private void expect(char c) {
      if (next() != c) {
        throw BAIL;
      }
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
