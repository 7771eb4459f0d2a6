package org.chunkcdm.bcolz;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.DType;

/**
 * A numpy dtype as Bloscpack's ndarray metadata writes it: the Python repr of {@code dtype.str}
 * ({@code "'<f8'"}) or of {@code dtype.descr} for structured arrays ({@code "[('a', '<i4'), ('b', '>f8')]"}).
 *
 * <p>Structured records become one opaque variable (UBYTE with an extra last dimension of the record size,
 * docs/cdm-contract.md's rule for records without a CDM type) whose bytes are the records with every field
 * in little-endian order; {@link #littleEndianDescr()} describes that layout and is given as an attribute.
 */
final class NumpyDescr {
  final DType dtype;
  /** Offsets and sizes (within a record) of the big-endian elements that must be swapped; empty if none. */
  private final int[] swapAt;
  private final int[] swapSize;
  private final String leDescr;

  private NumpyDescr(DType dtype, int[] swapAt, int[] swapSize, String leDescr) {
    this.dtype = dtype;
    this.swapAt = swapAt;
    this.swapSize = swapSize;
    this.leDescr = leDescr;
  }

  static NumpyDescr parse(String repr) throws IOException {
    Object v;
    try {
      Parser p = new Parser(repr);
      v = p.value();
      p.skipSpace();
      if (p.i != repr.length()) {
        throw new FormatException("trailing text at " + p.i);
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException("unsupported dtype " + repr + ": " + e.getMessage(), e);
    }
    if (v instanceof String) {
      String s = (String) v;
      if (isObject(s)) {
        throw new FormatException("dtype " + repr + " holds Python objects, which cannot be read");
      }
      return new NumpyDescr(DType.parseNumpy(s), new int[0], new int[0], null);
    }
    List<int[]> swaps = new ArrayList<>();
    StringBuilder le = new StringBuilder();
    int size = record(v, 0, swaps, le, repr);
    int[] at = new int[swaps.size()];
    int[] sz = new int[swaps.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = swaps.get(i)[0];
      sz[i] = swaps.get(i)[1];
    }
    return new NumpyDescr(DType.of(DType.Kind.OPAQUE, size, ByteOrder.LITTLE_ENDIAN), at, sz, le.toString());
  }

  static boolean isObject(String numpy) {
    String t = numpy.trim().replaceAll("^['\"]|['\"]$", "");
    return t.equals("object") || t.matches("[|<>=]?O\\d*");
  }

  /** Lays out a descr list starting at {@code base}; returns its size. */
  private static int record(Object v, int base, List<int[]> swaps, StringBuilder le, String repr) throws IOException {
    if (!(v instanceof List) || ((List<?>) v).isEmpty()) {
      throw new FormatException("unsupported dtype " + repr + ": expected a list of fields");
    }
    le.append('[');
    int off = base;
    boolean firstField = true;
    for (Object f : (List<?>) v) {
      if (!(f instanceof List) || ((List<?>) f).size() < 2 || ((List<?>) f).size() > 3
          || !(((List<?>) f).get(0) instanceof String)) {
        throw new FormatException("unsupported dtype " + repr + ": bad field " + f);
      }
      List<?> t = (List<?>) f;
      String name = (String) t.get(0);
      long count = 1;
      String shapeText = "";
      if (t.size() == 3) {
        if (!(t.get(2) instanceof List)) {
          throw new FormatException("unsupported dtype " + repr + ": bad shape of field " + name);
        }
        StringBuilder sh = new StringBuilder(", (");
        for (Object d : (List<?>) t.get(2)) {
          if (!(d instanceof Long) || (Long) d < 0) {
            throw new FormatException("unsupported dtype " + repr + ": bad shape of field " + name);
          }
          count *= (Long) d;
          sh.append(d).append(',');
        }
        shapeText = sh.append(')').toString();
      }
      le.append(firstField ? "" : ", ").append("('").append(name).append("', ");
      firstField = false;
      int fieldSize;
      if (t.get(1) instanceof String) {
        String ts = (String) t.get(1);
        if (isObject(ts)) {
          throw new FormatException("dtype " + repr + ": field " + name + " holds Python objects, which cannot be read");
        }
        DType d = DType.parseNumpy(ts);
        int unit = d.kind() == DType.Kind.UNICODE ? 4 : d.kind() == DType.Kind.COMPLEX ? d.itemSize() / 2 : d.itemSize();
        boolean swap = d.order() == ByteOrder.BIG_ENDIAN && unit > 1
            && d.kind() != DType.Kind.BYTES && d.kind() != DType.Kind.OPAQUE;
        long units = count * d.itemSize() / Math.max(1, unit);
        if (units > (1 << 24)) {
          throw new FormatException("unsupported dtype " + repr + ": field " + name + " is too large");
        }
        if (swap) {
          for (int u = 0; u < units; u++) {
            swaps.add(new int[] {off + u * unit, unit});
          }
        }
        le.append('\'').append(d.withOrder(ByteOrder.LITTLE_ENDIAN)).append('\'');
        fieldSize = Math.toIntExact(count * d.itemSize());
      } else {
        if (count != 1) {
          throw new FormatException("unsupported dtype " + repr + ": arrays of nested records");
        }
        fieldSize = record(t.get(1), off, swaps, le, repr) - off;
      }
      le.append(shapeText).append(')');
      off = Math.addExact(off, fieldSize);
      if (off - base > (1 << 24)) {
        throw new FormatException("unsupported dtype " + repr + ": record too large");
      }
    }
    le.append(']');
    return off;
  }

  /** The record layout with all fields little-endian (null for plain dtypes). */
  String littleEndianDescr() {
    return leDescr;
  }

  /** Chunk content with big-endian record fields turned little-endian (the chunk itself when none). */
  ChunkData littleEndian(ChunkData inner) {
    if (swapAt.length == 0) {
      return inner;
    }
    int rec = dtype.itemSize();
    return new ChunkData() {
      @Override
      public long size() {
        return inner.size();
      }

      @Override
      public int blockSize() { // swapping is per record: blocks that hold whole records stay aligned
        int bs = inner.blockSize();
        return bs > 0 && bs % rec == 0 ? bs : 0;
      }

      @Override
      public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
        long lo = offset - offset % rec;
        long hi = Math.min(inner.size(), (offset + len + rec - 1) / rec * rec);
        if (lo == offset && hi == offset + len) {
          inner.read(offset, dst, dstOff, len);
          swap(dst, dstOff, len);
        } else {
          byte[] tmp = new byte[(int) (hi - lo)];
          inner.read(lo, tmp, 0, tmp.length);
          swap(tmp, 0, tmp.length - (int) ((hi - lo) % rec));
          System.arraycopy(tmp, (int) (offset - lo), dst, dstOff, len);
        }
      }

      private void swap(byte[] b, int off, int len) {
        for (int r = off; r + rec <= off + len; r += rec) {
          for (int i = 0; i < swapAt.length; i++) {
            int a = r + swapAt[i];
            for (int x = 0, y = swapSize[i] - 1; x < y; x++, y--) {
              byte t = b[a + x];
              b[a + x] = b[a + y];
              b[a + y] = t;
            }
          }
        }
      }
    };
  }

  /** A tiny parser for Python literals of strings, integers, lists and tuples (tuples become lists). */
  private static final class Parser {
    final String s;
    int i;

    Parser(String s) {
      this.s = s;
    }

    void skipSpace() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    Object value() throws IOException {
      skipSpace();
      if (i >= s.length()) {
        throw new FormatException("unexpected end");
      }
      char c = s.charAt(i);
      if (c == '\'' || c == '"') {
        int end = s.indexOf(c, i + 1);
        if (end < 0) {
          throw new FormatException("unterminated string");
        }
        String v = s.substring(i + 1, end);
        i = end + 1;
        return v;
      }
      if (c == '[' || c == '(') {
        char close = c == '[' ? ']' : ')';
        i++;
        List<Object> out = new ArrayList<>();
        while (true) {
          skipSpace();
          if (i < s.length() && s.charAt(i) == close) {
            i++;
            return out;
          }
          out.add(value());
          skipSpace();
          if (i < s.length() && s.charAt(i) == ',') {
            i++;
          } else if (i >= s.length() || s.charAt(i) != close) {
            throw new FormatException("expected ',' or '" + close + "' at " + i);
          }
        }
      }
      int st = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '-')) {
        i++;
      }
      if (st == i) {
        throw new FormatException("unexpected '" + c + "' at " + st);
      }
      return Long.parseLong(s.substring(st, i));
    }
  }
}
