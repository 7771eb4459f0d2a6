package org.chunkcdm.ncstream.iosp;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.chunkcdm.cdm.ChunkedIosp;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.Sequence;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;
import ucar.unidata.io.RandomAccessFile;

/**
 * chunkcdm's reader of ncstream files ({@code .ncs}, the format of netcdf-java's {@code NcStreamWriter} and of
 * chunkcdm's writer). Opening makes one pass over the messages and keeps only where each data message lies
 * (data bytes are skipped, not read). A variable whose data messages are C-order ranges that do not overlap
 * (what both writers produce: slabs along the outer dimension) is a {@link MessageArray}, read by core's
 * {@code SectionReader} with one chunk per message (only the messages a section intersects are read, deflated
 * messages are inflated once and cached); any other variable (strings, opaque, vlen, structures, overlapping or
 * strided messages) is assembled by {@link GeneralReader}, later messages taking precedence. An error message in
 * the stream, a missing end marker or a truncated message is an IOException naming the file.
 *
 * <p>Register it ahead of netcdf-java's own {@code NcStreamIosp} (which returns wrong data for variables of more
 * than one data message): {@code NetcdfFiles.registerIOProvider(NcStreamFileIosp.class)} or, in THREDDS,
 * {@code <ioServiceProvider class="org.chunkcdm.ncstream.iosp.NcStreamFileIosp"/>} in threddsConfig.xml.
 */
public class NcStreamFileIosp extends ChunkedIosp {
  public NcStreamFileIosp() {
    super("ncstream", "netCDF streaming protocol (chunkcdm reader)");
  }

  /** Bytes the last open read from its file while indexing (tests: opening reads message headers only). */
  private volatile long indexBytesRead;
  private volatile int dataMessages;

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    if (raf.isDirectory() || raf.length() < 8) {
      return false;
    }
    raf.seek(0);
    byte[] b = new byte[8];
    raf.readFully(b);
    return Arrays.equals(Arrays.copyOf(b, 4), NcStream.MAGIC_START)
        && (Arrays.equals(Arrays.copyOfRange(b, 4, 8), NcStream.MAGIC_HEADER)
            || Arrays.equals(Arrays.copyOfRange(b, 4, 8), NcStream.MAGIC_DATA));
  }

  /** True when the file starts like an ncstream (start marker, then a header or data message). */
  public static boolean isNcStream(Path p) {
    byte[] b = new byte[8];
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(p)) {
      if (in.readNBytes(b, 0, 8) < 8) {
        return false;
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
    return Arrays.equals(Arrays.copyOf(b, 4), NcStream.MAGIC_START)
        && (Arrays.equals(Arrays.copyOfRange(b, 4, 8), NcStream.MAGIC_HEADER)
            || Arrays.equals(Arrays.copyOfRange(b, 4, 8), NcStream.MAGIC_DATA));
  }

  /**
   * Opens an ncstream file with this IOSP, whatever is registered (no global registration needed):
   * {@code NetcdfFiles.open(path, NcStreamFileIosp.class.getName(), ...)}.
   */
  public static ucar.nc2.NetcdfFile open(String path) throws IOException {
    try {
      return ucar.nc2.NetcdfFiles.open(path, NcStreamFileIosp.class.getName(), -1, null, null);
    } catch (ReflectiveOperationException e) {
      throw new IOException(path + ": cannot instantiate " + NcStreamFileIosp.class.getName(), e);
    }
  }

  /** Bytes read from the file while opening it. */
  public long indexBytesRead() {
    return indexBytesRead;
  }

  /** Number of data messages in the file. */
  public int dataMessageCount() {
    return dataMessages;
  }

  @Override
  protected void build(Path file, Group.Builder root) throws IOException {
    MessageScanner in = new MessageScanner(files(), file);
    if (in.size < 4) {
      throw new IOException(file + ": not an ncstream file (" + in.size + " bytes)");
    }
    byte[] magic = new byte[4];
    in.readFully(magic);
    if (!Arrays.equals(magic, NcStream.MAGIC_START)) {
      throw new IOException(file + ": not an ncstream file (no start marker)");
    }
    Map<String, List<DataMessage>> data = new LinkedHashMap<>();
    if (!scan(in, file, root, data)) {
      throw new IOException(file + ": the stream has no header message");
    }
    checkReferences(file, root, new ArrayList<>());
    indexBytesRead = in.bytesRead;
    for (Map.Entry<String, List<DataMessage>> e : data.entrySet()) {
      Optional<Variable.Builder<?>> vb = root.findVariableNested(e.getKey());
      if (!vb.isPresent() && e.getKey().indexOf('\\') >= 0) { // full names escape special characters
        vb = root.findVariableNested(e.getKey().replaceAll("\\\\(.)", "$1"));
      }
      if (!vb.isPresent()) {
        throw new IOException(file + ": data message at byte " + e.getValue().get(0).messagePos + " is for variable '"
            + e.getKey() + "', which no header message defines");
      }
      attach(file, vb.get(), e.getKey(), e.getValue());
    }
    // variables without data messages read as fill values (or their immediate data from the header)
    attachEmpty(file, root, "");
  }

  /**
   * Reads the messages after the start marker up to the end marker: headers into {@code root}, data messages
   * (indexed, not read) into {@code data} by variable name. Whether there was a header message.
   */
  private boolean scan(MessageScanner in, Path file, Group.Builder root, Map<String, List<DataMessage>> data)
      throws IOException {
    byte[] magic = new byte[4];
    boolean sawHeader = false;
    int ordinal = 0;
    while (true) {
      if (in.atEnd()) {
        throw new IOException(file + ": the stream ends at byte " + in.size + " without its end marker (truncated?)");
      }
      long at = in.position();
      if (in.size - at < 4) {
        throw new IOException(file + ": the stream ends at byte " + in.size + " inside a message marker (truncated?)");
      }
      in.readFully(magic);
      if (Arrays.equals(magic, NcStream.MAGIC_END)) {
        return sawHeader;
      } else if (Arrays.equals(magic, NcStream.MAGIC_HEADER)) {
        readHeader(in, file, at, root);
        sawHeader = true;
      } else if (Arrays.equals(magic, NcStream.MAGIC_DATA)) {
        DataMessage dm = readDataMessage(in, file, at, ordinal++, data);
        if (!sawHeader) {
          throw new IOException(file + ": data message at byte " + at + " comes before any header message");
        }
        dataMessages = ordinal;
        assert dm != null;
      } else if (Arrays.equals(magic, NcStream.MAGIC_ERR)) {
        throw errorMessage(in, file, at);
      } else if (Arrays.equals(magic, NcStream.MAGIC_DATA2)) {
        if (!sawHeader) {
          throw new IOException(file + ": data message at byte " + at + " comes before any header message");
        }
        readDataCol(in, file, at, ordinal++, data);
        dataMessages = ordinal;
      } else {
        throw new IOException(file + ": unknown message marker " + hex(magic) + " at byte " + at + " (corrupt file?)");
      }
    }
  }

  /** The header message at byte {@code at} into {@code root}. */
  private static void readHeader(MessageScanner in, Path file, long at, Group.Builder root) throws IOException {
    byte[] m = in.read(in.readVarint("header length"), "header message");
    NcStreamProto.Header h;
    try {
      h = NcStreamProto.Header.parseFrom(m);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException(file + ": header message at byte " + at + " is corrupt: " + e.getMessage(), e);
    }
    try {
      HeaderDecoder.readGroup(h.getRoot(), root);
    } catch (RuntimeException e) { // netcdf-java's builders given hostile names, sizes, immediate data
      throw new IOException(file + ": header message at byte " + at + " does not describe a valid dataset: " + e.getMessage(), e);
    }
  }

  /** The failure an error message at byte {@code at} reports. */
  private static IOException errorMessage(MessageScanner in, Path file, long at) throws IOException {
    byte[] m = in.read(in.readVarint("error length"), "error message");
    String text;
    try {
      text = NcStreamProto.Error.parseFrom(m).getMessage();
    } catch (InvalidProtocolBufferException e) {
      text = "(unreadable error message)";
    }
    return new IOException(file + ": the stream holds an error message at byte " + at
        + " (its writer failed; the data after it is missing): " + text);
  }

  private void attachEmpty(Path file, Group.Builder g, String prefix) throws IOException {
    for (Variable.Builder<?> vb : g.vbuilders) {
      if (vb.spiObject == null) {
        attach(file, vb, prefix + vb.shortName, new ArrayList<>());
      }
    }
    for (Group.Builder ng : g.gbuilders) {
      attachEmpty(file, ng, prefix + ng.shortName + "/");
    }
  }

  private void attach(Path file, Variable.Builder<?> vb, String name, List<DataMessage> msgs) throws IOException {
    String what = file + ": variable '" + name + "'";
    int[] shape = shapeOf(vb);
    for (DataMessage m : msgs) {
      if (m.dataType != vb.dataType && !(m.dataType.isEnum() && vb.dataType.isEnum())) {
        throw new IOException(what + ": " + m + " holds " + m.dataType + " data but the variable is " + vb.dataType);
      }
      if (m.section != null && !vb.dataType.equals(DataType.SEQUENCE) && !hasVlenDim(vb)) {
        checkSection(what, m, shape);
      }
    }
    Object reader = MessageArray.tryTiling(files(), file, what, vb, shape, msgs);
    if (reader == null) {
      reader = new GeneralReader(files(), file, what, vb, shape, msgs);
    }
    vb.setSPobject(reader);
  }

  /**
   * What netcdf-java requires when it builds the file from the header (else an IllegalStateException escapes
   * NetcdfFiles.open, after this IOSP's build): groups and variables have names and variables a data type, the
   * shared dimensions and enum typedefs variables name exist in their group or a parent group, and a shared
   * dimension has the length the variable was declared with (the reader's shape is the variable's).
   */
  private static void checkReferences(Path file, Group.Builder g, List<Group.Builder> outer) throws IOException {
    outer.add(0, g);
    try {
      checkVariables(file, g.vbuilders, outer);
      for (Group.Builder ng : g.gbuilders) {
        if (ng.shortName == null || ng.shortName.isEmpty()) {
          throw new IOException(file + ": a group without a name");
        }
        checkReferences(file, ng, outer);
      }
    } finally {
      outer.remove(0);
    }
  }

  private static void checkVariables(Path file, List<Variable.Builder<?>> vbs, List<Group.Builder> groups) throws IOException {
    for (Variable.Builder<?> vb : vbs) {
      if (vb.shortName == null || vb.shortName.isEmpty() || vb.dataType == null) {
        throw new IOException(file + ": a variable without a name or data type");
      }
      for (Dimension d : vb.getDimensions()) {
        if (!d.isShared()) {
          continue;
        }
        Dimension found = null;
        for (Group.Builder gb : groups) {
          found = gb.findDimensionLocal(d.getShortName()).orElse(null);
          if (found != null) {
            break;
          }
        }
        if (found == null || found.getLength() != d.getLength() || found.isVariableLength() != d.isVariableLength()) {
          throw new IOException(file + ": variable '" + vb.shortName + "' uses shared dimension " + d
              + (found == null ? ", which no enclosing group defines" : ", but its group defines it as " + found));
        }
      }
      if (vb.dataType != null && vb.dataType.isEnum()) {
        String name = vb.getEnumTypeName();
        boolean found = false;
        for (Group.Builder gb : groups) {
          for (ucar.nc2.EnumTypedef e : gb.enumTypedefs) {
            found |= e.getShortName().equals(name);
          }
        }
        if (!found) {
          throw new IOException(file + ": variable '" + vb.shortName + "' uses enum type '" + name
              + "', which no enclosing group defines");
        }
      }
      if (vb instanceof Structure.Builder) {
        checkVariables(file, ((Structure.Builder<?>) vb).vbuilders, groups);
      }
    }
  }

  static boolean hasVlenDim(Variable.Builder<?> vb) {
    for (Dimension d : vb.getDimensions()) {
      if (d.isVariableLength()) {
        return true;
      }
    }
    return false;
  }

  static int[] shapeOf(Variable.Builder<?> vb) {
    List<Dimension> dims = vb.getDimensions();
    int[] s = new int[dims.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = dims.get(i).isVariableLength() ? -1 : dims.get(i).getLength();
    }
    return s;
  }

  private static void checkSection(String what, DataMessage m, int[] shape) throws IOException {
    Section s = m.section;
    if (s.getRank() != shape.length) {
      throw new IOException(what + ": " + m + " has a section of rank " + s.getRank() + ", the variable has rank " + shape.length);
    }
    for (int d = 0; d < shape.length; d++) {
      Range r = s.getRange(d);
      if (r.length() > 0 && (r.first() < 0 || r.last() >= shape[d])) {
        throw new IOException(what + ": " + m + " has section " + s + " outside the variable's shape " + Arrays.toString(shape));
      }
    }
  }

  private DataMessage readDataMessage(MessageScanner in, Path file, long at, int ordinal, Map<String, List<DataMessage>> data)
      throws IOException {
    byte[] m = in.read(in.readVarint("data message length"), "data message");
    NcStreamProto.Data p;
    try {
      p = NcStreamProto.Data.parseFrom(m);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException(file + ": data message at byte " + at + " is corrupt: " + e.getMessage(), e);
    }
    String var = p.getVarName();
    String what = file + ": data message at byte " + at + " (variable '" + var + "')";
    DataType dt;
    try {
      dt = NcStream.convertDataType(p.getDataType());
    } catch (RuntimeException e) {
      throw new IOException(what + ": unknown data type " + p.getDataTypeValue());
    }
    Section section = null;
    if (dt != DataType.SEQUENCE) {
      try {
        section = HeaderDecoder.section(p.getSection());
      } catch (InvalidRangeException | RuntimeException e) {
        throw new IOException(what + ": bad section: " + e.getMessage(), e);
      }
    }
    try {
      return readPayload(in, p, var, dt, section, at, ordinal, what, data);
    } catch (IOException e) {
      throw e.getMessage() != null && e.getMessage().contains("(variable '") ? e : new IOException(what + ": " + e.getMessage(), e);
    }
  }

  private DataMessage readPayload(MessageScanner in, NcStreamProto.Data p, String var, DataType dt, Section section, long at,
      int ordinal, String what, Map<String, List<DataMessage>> data) throws IOException {
    ByteOrder order = byteOrder(p);
    boolean deflate = p.getCompress() == NcStreamProto.Compress.DEFLATE;
    DataMessage.Layout layout;
    long payloadPos;
    long payloadLen;
    long count = 0;
    boolean charLengths = false;
    if (dt == DataType.SEQUENCE) {
      layout = DataMessage.Layout.SEQUENCE;
      payloadPos = in.position();
      byte[] mk = new byte[4];
      while (true) {
        long mat = in.position();
        if (in.size - mat < 4) {
          throw new IOException(what + ": the stream ends inside the sequence data (truncated?)");
        }
        in.readFully(mk);
        if (Arrays.equals(mk, NcStream.MAGIC_VEND)) {
          break;
        }
        if (!Arrays.equals(mk, NcStream.MAGIC_VDATA)) {
          throw new IOException(what + ": unexpected marker " + hex(mk) + " at byte " + mat + " inside sequence data");
        }
        in.skip(in.readVarint("sequence row length"), "sequence row");
        count++;
      }
      payloadLen = in.position() - payloadPos;
    } else if (dt == DataType.STRUCTURE) {
      layout = DataMessage.Layout.STRUCTURE;
      payloadLen = in.readVarint("structure data length");
      payloadPos = in.position();
      in.skip(payloadLen, "structure data");
    } else if (!deflate && (p.getVdata() || dt == DataType.STRING || dt == DataType.OPAQUE)) {
      layout = DataMessage.Layout.OBJECTS;
      count = in.readVarint("object count");
      payloadPos = in.position();
      IOException byBytes = null;
      try {
        for (long i = 0; i < count; i++) {
          in.skip(in.readVarint("object length"), "object");
        }
      } catch (IOException e) {
        byBytes = e;
      }
      if (dt == DataType.STRING && (byBytes != null || !markerFollows(in))) {
        // netcdf-java's writer gives each string's length in UTF-16 chars, not bytes: walk the strings that way
        in.seek(payloadPos);
        try {
          for (long i = 0; i < count; i++) {
            skipChars(in, in.readVarint("string length"));
          }
        } catch (IOException e) {
          throw byBytes != null ? byBytes : e;
        }
        if (!markerFollows(in)) {
          throw new IOException(what + ": its " + count + " strings do not end where a message starts (corrupt?)");
        }
        charLengths = true;
      } else if (byBytes != null) {
        throw byBytes;
      }
      payloadLen = in.position() - payloadPos;
    } else {
      layout = DataMessage.Layout.REGULAR;
      payloadLen = in.readVarint("data length");
      payloadPos = in.position();
      in.skip(payloadLen, "data");
    }
    DataMessage dm = new DataMessage(ordinal, at, payloadPos, payloadLen, count, layout, dt, section, order, deflate,
        p.getUncompressedSize() & 0xffffffffL, p.getVdata(), charLengths);
    data.computeIfAbsent(var, k -> new ArrayList<>()).add(dm);
    return dm;
  }

  /**
   * A column-oriented data message (what TDS 5's cdmremote sends): its name, type and section come first in the
   * protobuf encoding (fields 1-9), the data after them (fields 10-14), so only a prefix is parsed here.
   */
  private void readDataCol(MessageScanner in, Path file, long at, int ordinal, Map<String, List<DataMessage>> data)
      throws IOException {
    long len = in.readVarint("data message length");
    long start = in.position();
    if (len > in.size - start) {
      throw new IOException(file + ": data message at byte " + at + " of " + len + " bytes lies past the end of the file ("
          + in.size + " bytes; truncated?)");
    }
    String name = null;
    DataType dt = DataType.CHAR; // proto3 leaves out defaults: CHAR is 0
    Section section = new Section(); // and an empty section (a scalar)
    boolean bigend = false;
    boolean vlen = false;
    for (long want = Math.min(len, 4096); ; want = Math.min(len, want * 4)) {
      in.seek(start);
      byte[] prefix = in.read(want, "data message");
      com.google.protobuf.CodedInputStream c = com.google.protobuf.CodedInputStream.newInstance(prefix);
      try {
        while (true) {
          int tag = c.readTag();
          int field = tag >>> 3;
          if (tag == 0 || field >= 10) {
            break;
          }
          switch (field) {
            case 1:
              name = c.readStringRequireUtf8();
              break;
            case 2:
              dt = NcStream.convertDataType(NcStreamProto.DataType.forNumber(c.readEnum()));
              break;
            case 3:
              section = HeaderDecoder.section(NcStreamProto.Section.parseFrom(c.readBytes()));
              break;
            case 4:
              bigend = c.readBool();
              break;
            case 7:
              vlen = c.readBool();
              break;
            default:
              c.skipField(tag);
          }
        }
        break;
      } catch (InvalidProtocolBufferException | InvalidRangeException | RuntimeException e) {
        if (want >= len) {
          throw new IOException(file + ": data message at byte " + at + " is corrupt: " + e.getMessage(), e);
        }
      }
    }
    if (name == null) {
      throw new IOException(file + ": data message at byte " + at + " lacks its variable name");
    }
    in.seek(start);
    in.skip(len, "data message");
    DataMessage dm = new DataMessage(ordinal, at, start, len, 0, DataMessage.Layout.DATACOL, dt, section,
        bigend ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN, false, 0, vlen, false);
    data.computeIfAbsent(name, k -> new ArrayList<>()).add(dm);
  }

  /** True when a message marker (or the end marker) starts at the current position. */
  private static boolean markerFollows(MessageScanner in) throws IOException {
    if (in.size - in.position() < 4) {
      return false;
    }
    long at = in.position();
    byte[] b = new byte[4];
    in.readFully(b);
    in.seek(at);
    return Arrays.equals(b, NcStream.MAGIC_DATA) || Arrays.equals(b, NcStream.MAGIC_END) || Arrays.equals(b, NcStream.MAGIC_HEADER)
        || Arrays.equals(b, NcStream.MAGIC_ERR) || Arrays.equals(b, NcStream.MAGIC_DATA2);
  }

  /** Moves past UTF-8 bytes encoding {@code units} UTF-16 chars. */
  private static void skipChars(MessageScanner in, long units) throws IOException {
    for (long u = 0; u < units; ) {
      int b = in.readByte();
      int extra = b < 0x80 ? 0 : b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
      for (int k = 0; k < extra; k++) {
        in.readByte();
      }
      u += extra == 3 ? 2 : 1;
    }
  }

  /** The data's byte order, as netcdf-java decides it: the flag when present, else big-endian before version 3. */
  static ByteOrder byteOrder(NcStreamProto.Data p) {
    if (p.getBigendPresentCase() == NcStreamProto.Data.BigendPresentCase.BIGENDPRESENT_NOT_SET) {
      return p.getVersion() < 3 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }
    return p.getBigend() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder("0x");
    for (byte x : b) {
      sb.append(String.format("%02x", x & 0xff));
    }
    return sb.toString();
  }

  @Override
  public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
    if (v instanceof Sequence && v.getSPobject() instanceof GeneralReader) {
      GeneralReader r = (GeneralReader) v.getSPobject();
      Sequence s = (Sequence) v;
      ucar.ma2.StructureMembers sm = s.makeStructureMembers();
      return new ucar.ma2.ArraySequence(sm, new Subset(r.sequenceRows(s), sm), r.sequenceLength());
    }
    if (v instanceof Structure && !(v instanceof Sequence) && v.getSPobject() instanceof GeneralReader) {
      return ((GeneralReader) v.getSPobject()).readStructure((Structure) v, section);
    }
    if (v.getSPobject() instanceof ChunkedIosp.VariableReader) { // before ChunkedArray: CHAR and enums are converted
      return ((ChunkedIosp.VariableReader) v.getSPobject()).read(section);
    }
    return super.readData(v, section);
  }

  /** The rows of a sequence, read from the file as the iterator advances. */
  @Override
  public ucar.ma2.StructureDataIterator getStructureIterator(Structure s, int bufferSize) throws IOException {
    if (s instanceof Sequence && s.getSPobject() instanceof GeneralReader) {
      return new Subset(((GeneralReader) s.getSPobject()).sequenceRows(s), s.makeStructureMembers());
    }
    return super.getStructureIterator(s, bufferSize);
  }

  /** Rows with only the members of a (possibly reduced) copy of the structure. */
  private static final class Subset implements ucar.ma2.StructureDataIterator {
    private final ucar.ma2.StructureDataIterator rows;
    private final ucar.ma2.StructureMembers members;

    Subset(ucar.ma2.StructureDataIterator rows, ucar.ma2.StructureMembers members) {
      this.rows = rows;
      this.members = members;
    }

    @Override
    public boolean hasNext() throws IOException {
      return rows.hasNext();
    }

    @Override
    public ucar.ma2.StructureData next() throws IOException {
      ucar.ma2.StructureData sd = rows.next();
      if (sd.getStructureMembers().getMembers().size() == members.getMembers().size()) {
        return sd;
      }
      ucar.ma2.StructureDataW w = new ucar.ma2.StructureDataW(members);
      for (ucar.ma2.StructureMembers.Member m : members.getMembers()) {
        w.setMemberData(m, sd.getArray(m.getName()));
      }
      return w;
    }

    @Override
    public ucar.ma2.StructureDataIterator reset() {
      rows.reset();
      return this;
    }

    @Override
    public int getCurrentRecno() {
      return rows.getCurrentRecno();
    }
  }

  /** The values netcdf-java uses for missing data of each type (netCDF conventions). */
  static Number defaultFill(DataType t) {
    Number n = ucar.nc2.iosp.netcdf3.N3iosp.getFillValueDefault(t);
    return n;
  }
}
