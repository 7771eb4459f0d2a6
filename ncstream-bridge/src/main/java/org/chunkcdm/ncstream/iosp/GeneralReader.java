package org.chunkcdm.ncstream.iosp;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.Sections;
import org.chunkcdm.io.FileHandles;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.ArrayStructureBB;
import ucar.ma2.ArrayStructureW;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.ma2.StructureData;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamProto;

/**
 * Serves any variable from its data messages in stream order, each later message overwriting what earlier
 * ones said about the elements they share; only messages intersecting the requested section are read, one at a
 * time. Elements no message covers read as the fill value. Used for strings, opaque and vlen data, structures,
 * and numbers whose messages overlap or are strided.
 */
final class GeneralReader implements ChunkedIosp.VariableReader {
  private final FileHandles files;
  private final Path file;
  private final String what;
  private final DataType type;
  private final int[] shape; // without variable-length dimensions
  private final boolean vlen;
  private final List<DataMessage> msgs;
  private final Object fill;

  GeneralReader(FileHandles files, Path file, String what, Variable.Builder<?> vb, int[] fullShape, List<DataMessage> msgs) {
    this.files = files;
    this.file = file;
    this.what = what;
    this.type = vb.dataType;
    this.vlen = NcStreamFileIosp.hasVlenDim(vb);
    int n = 0;
    for (int s : fullShape) {
      n += s >= 0 ? 1 : 0;
    }
    this.shape = new int[n];
    int k = 0;
    for (int s : fullShape) {
      if (s >= 0) {
        shape[k++] = s;
      }
    }
    this.msgs = new ArrayList<>(msgs);
    this.fill = fillObject(vb);
  }

  private static Object fillObject(Variable.Builder<?> vb) {
    DataType t = vb.dataType;
    Attribute a = vb.getAttributeContainer().findAttribute("_FillValue");
    if (t == DataType.STRING) {
      return a != null && a.isString() ? a.getStringValue() : "";
    }
    if (t == DataType.CHAR) {
      return (char) 0;
    }
    if (!t.isNumeric() && !t.isEnum()) {
      return null;
    }
    Number n = a != null && !a.isString() && a.getLength() > 0 ? a.getNumericValue() : NcStreamFileIosp.defaultFill(t);
    return n == null ? 0 : n;
  }

  /** The non-vlen part of a message's section (vlen dimensions have no range in the data). */
  private Section messageSection(DataMessage m) throws IOException {
    Section s = m.section;
    if (s.getRank() == shape.length) {
      return s;
    }
    List<Range> r = new ArrayList<>();
    for (int d = 0; d < s.getRank() && r.size() < shape.length; d++) {
      Range x = s.getRange(d);
      if (x != Range.VLEN) {
        r.add(x);
      }
    }
    if (r.size() != shape.length) {
      throw new IOException(what + ": " + m + " has section " + s + ", which does not fit the variable's shape");
    }
    return new Section(r);
  }

  @Override
  public Array read(Section section) throws IOException {
    if (type == DataType.STRUCTURE || type == DataType.SEQUENCE) {
      throw new IOException(what + ": " + type + " data is read through the structure");
    }
    Section want = fill(section);
    int[] wshape = want.getShape();
    if (isObjectType()) {
      Object[] res = new Object[(int) want.computeSize()];
      if (type == DataType.STRING) {
        java.util.Arrays.fill(res, fill);
      }
      for (DataMessage m : msgs) {
        Section ms = messageSection(m);
        Overlap o = Overlap.of(ms, want);
        if (o != null) {
          Object[] src = objects(m, ms);
          o.forEach((si, di) -> res[di] = src[si]);
        }
      }
      if (vlen) {
        Array[] arrays = new Array[res.length];
        for (int i = 0; i < res.length; i++) {
          arrays[i] = res[i] instanceof Array ? (Array) res[i] : Array.factory(type, new int[] {0});
        }
        return Array.makeVlenArray(wshape, arrays);
      }
      if (type == DataType.OPAQUE) {
        for (int i = 0; i < res.length; i++) {
          res[i] = res[i] == null ? ByteBuffer.allocate(0) : res[i];
        }
      }
      return Array.factory(type, wshape, res);
    }
    Array result = Array.factory(type, wshape);
    if (fill != null) {
      IndexIterator ii = result.getIndexIterator();
      while (ii.hasNext()) {
        ii.setObjectNext(fill);
      }
    }
    for (DataMessage m : msgs) {
      Section ms = messageSection(m);
      Overlap o = Overlap.of(ms, want);
      if (o == null) {
        continue;
      }
      Array src = decode(m, ms);
      Array dst = result;
      o.forEach((srcIdx, dstIdx) -> dst.setObject(dstIdx, src.getObject(srcIdx)));
    }
    return result;
  }

  private Section fill(Section section) throws IOException {
    if (vlen && section != null && section.getRank() > shape.length) { // netcdf-java passes the vlen dimension too
      List<Range> fixed = new ArrayList<>();
      for (Range r : section.getRanges()) {
        if (r != Range.VLEN && r.length() >= 0 && fixed.size() < shape.length) {
          fixed.add(r);
        }
      }
      section = new Section(fixed);
    }
    try {
      return Sections.checkBounds(section == null ? new Section(shape) : Section.fill(section, shape), shape);
    } catch (InvalidRangeException e) {
      throw new IOException(what + ": bad section " + section + ": " + e.getMessage(), e);
    }
  }

  /** The objects (strings, ByteBuffers, Arrays) of an object message, C order over its section. */
  private Object[] objects(DataMessage m, Section ms) throws IOException {
    long n = ms.computeSize();
    if (m.layout == DataMessage.Layout.DATACOL) {
      Array a = dataCol(m);
      if (a.getSize() != n) {
        throw new IOException(what + ": " + m + " holds " + a.getSize() + " objects, its section " + m.section + " has " + n);
      }
      Object[] out = new Object[(int) n];
      for (int i = 0; i < n; i++) {
        out[i] = a.getObject(i);
      }
      return out;
    }
    byte[] b;
    boolean counted;
    if (m.layout == DataMessage.Layout.OBJECTS) {
      if (m.count != n) {
        throw new IOException(what + ": " + m + " holds " + m.count + " objects, its section " + m.section + " has " + n);
      }
      b = files.read(file, m.payloadPos, m.payloadLen);
      counted = false;
    } else if (m.layout == DataMessage.Layout.REGULAR && m.deflate) {
      // inflated content: the objects, with or without their count in front (netcdf-java writes none)
      b = MessageArray.inflateAll(files, file, what, m);
      counted = !objectsFit(b, 0, n);
    } else {
      throw new IOException(what + ": " + m + " holds " + m.layout + " data, unexpected for a " + type + " variable");
    }
    return objects(m, b, counted, n);
  }

  /** A message's elements as an Array of the message section's shape. */
  private Array decode(DataMessage m, Section ms) throws IOException {
    int[] mshape = ms.getShape();
    long n = ms.computeSize();
    if (m.layout == DataMessage.Layout.DATACOL) {
      Array a = dataCol(m);
      if (a.getSize() != n) {
        throw new IOException(what + ": " + m + " holds " + a.getSize() + " values, its section " + m.section + " has " + n);
      }
      return a.reshapeNoCopy(mshape);
    }
    if (m.layout != DataMessage.Layout.REGULAR) {
      throw new IOException(what + ": " + m + " holds " + m.layout + " data, unexpected for a " + type + " variable");
    }
    int item = type.getSize();
    long bytes = n * item;
    byte[] b = m.deflate ? MessageArray.inflate(files, file, what, m, bytes) : files.read(file, m.payloadPos, m.payloadLen);
    if (b.length != bytes) {
      throw new IOException(what + ": " + m + " holds " + b.length + " bytes, but its section " + m.section + " needs " + bytes);
    }
    return Array.factory(type, mshape, ByteBuffer.wrap(b).order(m.order));
  }

  /** A column-oriented message decoded by netcdf-java's own decoder. */
  private Array dataCol(DataMessage m) throws IOException {
    byte[] b = files.read(file, m.payloadPos, m.payloadLen);
    try {
      return new ucar.nc2.stream.NcStreamDataCol().decode(NcStreamProto.DataCol.parseFrom(b), null);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new IOException(what + ": " + m + " is corrupt: " + e.getMessage(), e);
    }
  }

  private boolean isObjectType() {
    return vlen || type == DataType.STRING || type == DataType.OPAQUE;
  }

  private static boolean objectsFit(byte[] b, int pos, long n) {
    for (long i = 0; i < n; i++) {
      long[] v = varint(b, pos);
      if (v == null || v[0] > b.length - v[1]) {
        return false;
      }
      pos = (int) (v[1] + v[0]);
    }
    return pos == b.length;
  }

  /** {value, position after it}, or null when the bytes end first. */
  private static long[] varint(byte[] b, int pos) {
    long v = 0;
    for (int shift = 0; shift < 64 && pos < b.length; shift += 7) {
      int x = b[pos++] & 0xff;
      v |= (long) (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return new long[] {v, pos};
      }
    }
    return null;
  }

  private Object[] objects(DataMessage m, byte[] b, boolean counted, long n) throws IOException {
    int pos = 0;
    if (counted) {
      long[] c = varint(b, 0);
      if (c == null || c[0] != n) {
        throw new IOException(what + ": " + m + " does not hold the " + n + " objects of its section");
      }
      pos = (int) c[1];
    }
    Object[] out = new Object[(int) n];
    for (int i = 0; i < n; i++) {
      long[] v = varint(b, pos);
      if (v == null || v[0] > b.length - v[1]) {
        throw new IOException(what + ": " + m + " ends inside object " + i + " of " + n);
      }
      int start = (int) v[1];
      int len = (int) v[0];
      Object o;
      if (type == DataType.STRING && m.charLengths) {
        int end = start;
        for (int u = 0; u < len && end < b.length; ) {
          int x = b[end] & 0xff;
          int extra = x < 0x80 ? 0 : x >= 0xf0 ? 3 : x >= 0xe0 ? 2 : x >= 0xc0 ? 1 : 0;
          end += 1 + extra;
          u += extra == 3 ? 2 : 1;
        }
        if (end > b.length) {
          throw new IOException(what + ": " + m + " ends inside string " + i + " of " + n);
        }
        o = new String(b, start, end - start, StandardCharsets.UTF_8);
        len = end - start;
      } else if (type == DataType.STRING) {
        o = new String(b, start, len, StandardCharsets.UTF_8);
      } else if (type == DataType.OPAQUE) {
        o = ByteBuffer.wrap(java.util.Arrays.copyOfRange(b, start, start + len));
      } else {
        int item = Math.max(1, type.getSize());
        if (len % item != 0) {
          throw new IOException(what + ": " + m + " object " + i + " of " + len + " bytes is not a whole number of " + type);
        }
        ByteBuffer bb = ByteBuffer.wrap(java.util.Arrays.copyOfRange(b, start, start + len)).order(m.order);
        o = Array.factory(type, new int[] {len / item}, bb);
      }
      out[i] = o;
      pos = start + len;
    }
    return out;
  }

  // ------------------------------------------------------------------ sequences

  /**
   * The data message a sequence's rows come from: its last one (a sequence message has no section, it holds
   * the whole variable, so a later one replaces an earlier one); null when the stream has none (no rows).
   */
  private DataMessage sequenceMessage() throws IOException {
    DataMessage last = null;
    for (DataMessage m : msgs) {
      if (m.layout != DataMessage.Layout.SEQUENCE) {
        throw new IOException(what + ": " + m + " holds " + m.layout + " data, unexpected for a sequence");
      }
      last = m;
    }
    return last;
  }

  /** Rows of the sequence (what {@link #sequenceRows} returns). */
  int sequenceLength() throws IOException {
    DataMessage m = sequenceMessage();
    if (m != null && m.count > Integer.MAX_VALUE) {
      throw new IOException(what + ": " + m + " holds " + m.count + " rows, more than a sequence array can count");
    }
    return m == null ? 0 : (int) m.count;
  }

  /**
   * The rows of a sequence ({@code MAGIC_VDATA, vlenb, StructureData} each, then {@code MAGIC_VEND}), read from
   * the file one row at a time as the iterator advances (nothing is held); a bad row is an IOException naming
   * the file, the variable and the row.
   */
  ucar.ma2.StructureDataIterator sequenceRows(Structure s) throws IOException {
    DataMessage m = sequenceMessage();
    StructureMembers members = fullStructure(s).makeStructureMembers();
    ArrayStructureBB.setOffsets(members);
    long rows = m == null ? 0 : m.count;
    return new ucar.ma2.StructureDataIterator() {
      long row;
      long pos = m == null ? 0 : m.payloadPos;

      @Override
      public boolean hasNext() {
        return row < rows;
      }

      @Override
      public StructureData next() throws IOException {
        if (row >= rows) {
          throw new java.util.NoSuchElementException(what + ": no row " + row + " in a sequence of " + rows);
        }
        String where = what + ": " + m + ", row " + row;
        long end = m.payloadPos + m.payloadLen;
        byte[] h = files.read(file, pos, Math.min(9, end - pos));
        if (h.length < 5 || h[0] != ucar.nc2.stream.NcStream.MAGIC_VDATA[0] || h[1] != ucar.nc2.stream.NcStream.MAGIC_VDATA[1]
            || h[2] != ucar.nc2.stream.NcStream.MAGIC_VDATA[2] || h[3] != ucar.nc2.stream.NcStream.MAGIC_VDATA[3]) {
          throw new IOException(where + ": no row marker (MAGIC_VDATA) at byte " + pos);
        }
        long len = 0;
        int k = 4;
        for (int shift = 0; ; shift += 7, k++) {
          if (k >= h.length || shift > 28) {
            throw new IOException(where + ": bad row length at byte " + (pos + 4));
          }
          len |= (long) (h[k] & 0x7f) << shift;
          if ((h[k] & 0x80) == 0) {
            k++;
            break;
          }
        }
        long at = pos + k;
        if (len > end - at) {
          throw new IOException(where + ": a row of " + len + " bytes at byte " + at + " passes the end of the sequence data");
        }
        byte[] b = files.read(file, at, len);
        NcStreamProto.StructureData p;
        try {
          p = NcStreamProto.StructureData.parseFrom(b);
        } catch (InvalidProtocolBufferException e) {
          throw new IOException(where + ": corrupt row: " + e.getMessage(), e);
        }
        ArrayStructureBB one = rowsOf(members, new int[] {1}, p, m, where);
        pos = at + len;
        row++;
        return one.getStructureData(0);
      }

      @Override
      public ucar.ma2.StructureDataIterator reset() {
        row = 0;
        pos = m == null ? 0 : m.payloadPos;
        return this;
      }

      @Override
      public int getCurrentRecno() {
        return (int) row - 1;
      }
    };
  }

  /** The structure with every member the header defines (netcdf-java may ask through a copy with fewer). */
  private static Structure fullStructure(Structure v) {
    if (v.getNetcdfFile() != null) {
      ucar.nc2.Variable f = v.getNetcdfFile().findVariable(v.getFullNameEscaped());
      if (f instanceof Structure) {
        return (Structure) f;
      }
    }
    return v;
  }

  /** Rows of {@code shape} from a StructureData message: its fixed part in the message's byte order, its string heap. */
  private static ArrayStructureBB rowsOf(StructureMembers members, int[] shape, NcStreamProto.StructureData p, DataMessage m,
      String where) throws IOException {
    long n = 1;
    for (int x : shape) {
      n *= x;
    }
    ByteBuffer bb = ByteBuffer.wrap(p.getData().toByteArray()).order(m.order);
    long need = n * members.getStructureSize();
    if (bb.capacity() < need) {
      throw new IOException(where + " holds " + bb.capacity() + " bytes of rows, " + need + " are needed");
    }
    ArrayStructureBB asbb = new ArrayStructureBB(members, shape, bb, 0);
    List<String> ss = p.getSdataList();
    int sc = 0;
    for (int c : p.getHeapCountList()) {
      if (c < 0 || sc + c > ss.size()) {
        throw new IOException(where + " names more strings than it holds");
      }
      if (c == 1) {
        asbb.addObjectToHeap(ss.get(sc++));
      } else {
        String[] a = new String[c];
        for (int i = 0; i < c; i++) {
          a[i] = ss.get(sc++);
        }
        asbb.addObjectToHeap(a);
      }
    }
    return asbb;
  }

  /** Reads a section of a (non-sequence) structure: rows from the messages holding them, later ones first. */
  Array readStructure(Structure v, Section section) throws IOException {
    Section want = fill(section);
    // rows are packed with every member of the structure as the header defines it, even when netcdf-java asks
    // through a copy with fewer members (Structure.select, how a member variable is read)
    Structure full = fullStructure(v);
    StructureMembers members = full.makeStructureMembers();
    ArrayStructureBB.setOffsets(members);
    StructureData[] rows = new StructureData[(int) want.computeSize()];
    for (DataMessage m : msgs) {
      structureRows(m, members, want, rows);
    }
    for (int i = 0; i < rows.length; i++) {
      if (rows[i] == null) {
        ArrayStructureBB zero = new ArrayStructureBB(members, new int[] {1});
        rows[i] = zero.getStructureData(0);
      }
    }
    if (full != v) {
      StructureMembers subset = v.makeStructureMembers();
      if (subset.getMembers().size() != members.getMembers().size()) {
        return new ArrayStructureW(subset, want.getShape(), subsetRows(subset, rows));
      }
    }
    return new ArrayStructureW(members, want.getShape(), rows);
  }

  /** The rows of structure message {@code m} that {@code want} selects, put at their places in {@code rows}. */
  private void structureRows(DataMessage m, StructureMembers members, Section want, StructureData[] rows)
      throws IOException {
    if (m.layout != DataMessage.Layout.STRUCTURE) {
      throw new IOException(what + ": " + m + " holds " + m.layout + " data, unexpected for a structure");
    }
    Section ms = messageSection(m);
    if (Overlap.of(ms, want) == null) {
      return;
    }
    byte[] b = files.read(file, m.payloadPos, m.payloadLen);
    NcStreamProto.StructureData p;
    try {
      p = NcStreamProto.StructureData.parseFrom(b);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException(what + ": " + m + " holds corrupt structure data: " + e.getMessage(), e);
    }
    long rowsIn = p.getNrows() == 0 ? 1 : p.getNrows();
    if (rowsIn != ms.computeSize()) {
      if (rowsIn == new Section(shape).computeSize()) {
        ms = new Section(shape); // netcdf-java 5.5.3's writer sends the whole structure in every message
      } else {
        throw new IOException(what + ": " + m + " holds " + rowsIn + " rows, its section " + m.section + " has "
            + ms.computeSize());
      }
    }
    Overlap o = Overlap.of(ms, want);
    if (o == null) {
      return;
    }
    ArrayStructure src = rowsOf(members, ms.getShape(), p, m, what + ": " + m);
    o.forEach((si, di) -> rows[di] = src.getStructureData(si));
  }

  /** Rows with only the members of {@code subset}. */
  private static StructureData[] subsetRows(StructureMembers subset, StructureData[] rows) {
    for (int i = 0; i < rows.length; i++) {
      ucar.ma2.StructureDataW w = new ucar.ma2.StructureDataW(subset);
      for (StructureMembers.Member m : subset.getMembers()) {
        w.setMemberData(m, rows[i].getArray(m.getName()));
      }
      rows[i] = w;
    }
    return rows;
  }

  /** The elements two sections share, as pairs of C-order positions in each. */
  static final class Overlap {
    interface Pair {
      void accept(int src, int dst);
    }

    final int[][] srcPos; // per dimension
    final int[][] dstPos;
    final int[] srcStride;
    final int[] dstStride;

    private Overlap(int[][] srcPos, int[][] dstPos, int[] srcStride, int[] dstStride) {
      this.srcPos = srcPos;
      this.dstPos = dstPos;
      this.srcStride = srcStride;
      this.dstStride = dstStride;
    }

    /** Null when the sections share no element. */
    static Overlap of(Section src, Section dst) {
      int rank = dst.getRank();
      if (src.getRank() != rank) {
        return null;
      }
      int[][] sp = new int[rank][];
      int[][] dp = new int[rank][];
      for (int d = 0; d < rank; d++) {
        Range s = src.getRange(d);
        Range w = dst.getRange(d);
        if (s.length() == 0 || w.length() == 0 || s.last() < w.first() || w.last() < s.first()) {
          return null;
        }
        int[] a = new int[w.length()];
        int[] b = new int[w.length()];
        int k = 0;
        for (int j = 0; j < w.length(); j++) {
          int idx = w.first() + j * w.stride();
          if (idx >= s.first() && idx <= s.last() && (idx - s.first()) % s.stride() == 0) {
            a[k] = (idx - s.first()) / s.stride();
            b[k] = j;
            k++;
          }
        }
        if (k == 0) {
          return null;
        }
        sp[d] = java.util.Arrays.copyOf(a, k);
        dp[d] = java.util.Arrays.copyOf(b, k);
      }
      int[] ss = new int[rank];
      int[] ds = new int[rank];
      int x = 1;
      int y = 1;
      for (int d = rank - 1; d >= 0; d--) {
        ss[d] = x;
        ds[d] = y;
        x *= src.getRange(d).length();
        y *= dst.getRange(d).length();
      }
      return new Overlap(sp, dp, ss, ds);
    }

    void forEach(Pair p) {
      int rank = srcPos.length;
      int[] j = new int[rank];
      while (true) {
        int s = 0;
        int t = 0;
        for (int d = 0; d < rank; d++) {
          s += srcPos[d][j[d]] * srcStride[d];
          t += dstPos[d][j[d]] * dstStride[d];
        }
        p.accept(s, t);
        int d = rank - 1;
        while (d >= 0 && ++j[d] == srcPos[d].length) {
          j[d] = 0;
          d--;
        }
        if (d < 0) {
          return;
        }
      }
    }
  }
}
