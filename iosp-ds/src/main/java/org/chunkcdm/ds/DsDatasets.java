package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.DatasetVariable;

/**
 * A ds-format {@code .ds} file (format ds-1.x, and the pre-1.0 experimental layout without version line) as a
 * dataset, without netcdf-java. Opening reads the version line and the one-line JSON header, nothing else;
 * every numeric or bool variable is a one-chunk {@link DsArray} reading its bytes from the body on demand.
 * String variables ({@code str}, {@code unicode}) are not fixed-size arrays: they have no chunked array here
 * and are read by {@link DsStrings} in the CDM view ({@link DsIosp}); their {@link DatasetVariable#source()} is
 * a {@link StringSpec}. Each variable is a {@link Template} (its meaning) bound to its place in the file.
 * {@link DsOpener} is the opener.
 */
final class DsDatasets {
  static final String FORMAT = "ds";

  private DsDatasets() {}

  /** Where a string variable's block lies, for {@link DsStrings}. */
  static final class StringSpec {
    final DsFile body;
    final Object what;
    final long[] shape;
    final boolean bytes;
    final ByteOrder order;
    final long blockPos;
    final long len;
    final boolean masked;
    final boolean noData;
    /** A UCS-4 stand-in array giving the CDM view the variable's STRING type and dimensions. */
    final DsArray shapeArray;

    StringSpec(DsFile body, Object what, Template t, long blockPos, long len, DsArray shapeArray) {
      this.body = body;
      this.what = what;
      this.shape = t.shape;
      this.bytes = t.type.equals("str");
      this.order = t.order;
      this.blockPos = blockPos;
      this.len = len;
      this.masked = t.masked;
      this.noData = t.noData;
      this.shapeArray = shapeArray;
    }
  }

  /** True when the first bytes of a file named {@code name} begin a ds file. */
  static boolean looksLikeDs(byte[] head, int n, String name) {
    if (n < 2) {
      return false;
    }
    if (DsHeader.hasVersionPrefix(head, n)) {
      return true;
    }
    // the experimental layout has no magic: only a file named .ds whose first byte opens the JSON header
    return head[0] == '{' && name.toLowerCase(java.util.Locale.ROOT).endsWith(".ds");
  }

  /** Reads the file's header; {@code opening} (may be null) serves the first read. */
  static BasicDataset read(FileHandles files, Path file, DsHeader.Opening opening) throws IOException {
    Opened o = open(files, file, opening);
    List<DatasetVariable> vars = new ArrayList<>(o.vars.size());
    for (Bound b : o.vars) {
      vars.add(new DatasetVariable(b.t.cdmName, b.t.dims, b.array, b.t.attrs, b.spec));
    }
    return new BasicDataset(FORMAT, files.root(), vars, o.global, files);
  }

  /** False: every header takes the reference parse (tests compare the two paths). */
  static volatile boolean useTemplates = true;

  /** A variable of one open file: its template, and its array (or string spec) bound to the file. */
  static final class Bound {
    final Template t;
    final DsArray array; // null for strings
    final StringSpec spec; // null for numbers and bool

    Bound(Template t, DsArray array, StringSpec spec) {
      this.t = t;
      this.array = array;
      this.spec = spec;
    }
  }

  /** An open file's variables in header order and its dataset attributes. */
  static final class Opened {
    final List<Bound> vars;
    final Attributes global;

    Opened(List<Bound> vars, Attributes global) {
      this.vars = vars;
      this.global = global;
    }
  }

  /**
   * Reads the header and binds every variable to the file. A plain header ({@link HeaderScan#scan}) is served
   * member by member from {@link Templates}; any other header, and any header the template path finds wrong,
   * goes through the reference parse ({@link DsHeader#parse}), which reports the error.
   */
  static Opened open(FileHandles files, Path file, DsHeader.Opening opening) throws IOException {
    DsHeader h = DsHeader.read(files, file, opening);
    DsFile body = new DsFile(files, file, h.prefix);
    // a header of very many variables would push the others' templates out of the bounded cache: parsed whole
    if (h.spans != null && useTemplates && h.spans.size() <= Templates.MAX_ENTRIES / 4) {
      try {
        return fromSpans(h, body, file);
      } catch (IOException | RuntimeException e) {
        // the reference path below reads the header again and gives the error its canonical form
      }
    }
    h.parse();
    long bodySize = h.fileSize - h.bodyStart;
    Set<String> names = new HashSet<>();
    String fileName = file.toString();
    List<Bound> vars = new ArrayList<>();
    for (Member m : h.members) {
      Template t = Template.of(m, fileName);
      if (!names.add(t.cdmName)) {
        throw new IOException(what(fileName, t.name) + ": two variables have the CDM name '" + t.cdmName + "'");
      }
      long offset = t.noData ? 0 : integer(m.get(Member.Key.OFFSET), ".offset", what(fileName, t.name));
      long len = t.noData ? 0 : integer(m.get(Member.Key.LEN), ".len", what(fileName, t.name));
      vars.add(bind(t, body, offset, len, h.bodyStart, bodySize, fileName));
    }
    Attributes global = new Attributes();
    if (h.dataset != null) {
      if (!h.dataset.isObject()) {
        throw new IOException(file + ": dataset metadata '.' is not a JSON object");
      }
      global.putJson(h.dataset);
    }
    return new Opened(vars, global);
  }

  private static Opened fromSpans(DsHeader h, DsFile body, Path file) throws IOException {
    long bodySize = h.fileSize - h.bodyStart;
    String fileName = file.toString();
    List<Bound> vars = new ArrayList<>(h.spans.size());
    Attributes global = new Attributes();
    byte[] b = h.buf;
    Set<String> names = h.spans.size() > 16 ? new HashSet<>() : null;
    for (HeaderScan.Span s : h.spans) {
      if (s.dataset) {
        global = datasetAttributes(b, s);
        continue;
      }
      Template t = s.template != null ? s.template : Templates.get(b, s, fileName);
      if (names != null ? !names.add(t.cdmName) : sameName(vars, t.cdmName)) {
        throw new IOException("two variables with one CDM name");
      }
      if (!t.noData && (s.offset < 0 || s.len < 0)) {
        throw new IOException(".offset or .len not a plain integer");
      }
      vars.add(bind(t, body, t.noData ? 0 : s.offset, t.noData ? 0 : s.len, h.bodyStart, bodySize, fileName));
    }
    return new Opened(vars, global);
  }

  /** A handful of variables: a loop beats a set. */
  private static boolean sameName(List<Bound> vars, String cdmName) {
    for (Bound other : vars) {
      if (other.t.cdmName.equals(cdmName)) {
        return true;
      }
    }
    return false;
  }

  /** The attributes of the dataset member the scan found. */
  private static Attributes datasetAttributes(byte[] b, HeaderScan.Span s) throws IOException {
    Attributes global = new Attributes();
    if (HeaderScan.flatAttributes(b, s.valueStart, s.end, global)) {
      return global;
    }
    JsonNode d = HeaderJson.value(b, s);
    if (!d.isObject()) {
      throw new IOException("not an object");
    }
    return new Attributes().putJson(d);
  }

  static String what(String fileName, String name) {
    return fileName + ": variable '" + name + "'";
  }

  /** A template placed in one file: {@code .offset}/{@code .len} checked against the body and the type. */
  static Bound bind(Template t, DsFile body, long offset, long len, long bodyStart, long bodySize, String fileName)
      throws IOException {
    Object what = new Object() { // "<file>: variable '<name>'", made only for an error message
      @Override
      public String toString() {
        return what(fileName, t.name);
      }
    };
    if (!t.noData) {
      if (offset > bodySize || len > bodySize - offset) {
        throw new IOException(what + ": .offset " + offset + " + .len " + len + " lies past the end of the body ("
            + bodySize + " bytes; file truncated?)");
      }
      checkLen(what, t.type, t.isString ? 8 : t.dt.itemSize(), t.n, len, t.masked);
    }
    long blockPos = bodyStart + offset;
    DsArray array = new DsArray(body, what, t.dt, t.isBool, t.grid, t.n, blockPos, len, t.masked, t.noData, t.fill);
    if (t.isString) {
      return new Bound(t, null, new StringSpec(body, what, t, blockPos, len, array));
    }
    return new Bound(t, array, null);
  }

  private static long integer(JsonNode v, String key, String what) throws IOException {
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
      throw new IOException(what + ": " + key + " must be a non-negative integer, not " + v);
    }
    return v.longValue();
  }

  /** {@code .len} against what {@code .size} and {@code .type} need (masked: the bounds the bitmask allows). */
  private static void checkLen(Object what, String type, int itemSize, long n, long len, boolean masked)
      throws IOException {
    long maskBytes = masked ? Bitmask.bytes(n) : 0;
    boolean strings = type.equals("str") || type.equals("unicode");
    boolean bits = type.equals("bool");
    long full; // bytes of all values (strings: of all lengths); MAX_VALUE when beyond a long, hence beyond any file
    try {
      full = bits ? Bitmask.bytes(n) : Math.multiplyExact(n, itemSize);
    } catch (ArithmeticException e) {
      full = Long.MAX_VALUE;
    }
    boolean ok;
    if (strings) {
      ok = masked ? len >= maskBytes : len >= full;
    } else if (masked) {
      long rest = len - maskBytes;
      ok = rest >= 0 && rest <= full && (bits || rest % itemSize == 0);
    } else {
      ok = len == full;
    }
    if (!ok) { // the message is built only when needed (opening many small files checks every variable)
      String need = strings
          ? (masked ? "at least the " + maskBytes + "-byte bitmask" : "at least " + full + " bytes of string lengths")
          : masked ? "a " + maskBytes + "-byte bitmask plus up to " + full + " bytes of values" : full + " bytes";
      throw new IOException(what + ": .len " + len + " does not fit .size (" + n + " elements) and .type " + type
          + ": it needs " + need);
    }
  }
}
