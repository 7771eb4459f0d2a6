package org.chunkcdm.ncstream;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.Slabs;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.ArrayStructureBB;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.Section;
import ucar.ma2.StructureDataDeep;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * ncstream data messages, one section each: the {@code Data} message that heads them and their payloads (numbers
 * and chars as one length-prefixed block, optionally DEFLATE'd; strings and opaque as counted items; structures as
 * a {@code StructureData} message). Payloads larger than one message's bound are read and written in bounded
 * pieces. Not thread-safe.
 */
final class DataMessages {
  /** Version field of data messages (netcdf-java 5: proto3 encoding). */
  static final int DATA_VERSION = 3;

  private final NcStreamOut.Options opt;
  private final Wire wire;
  private Deflater deflater;

  DataMessages(NcStreamOut.Options opt, Wire wire) {
    this.opt = opt;
    this.wire = wire;
  }

  /**
   * Writes {@code s} of {@code v} as one data message; numbers in the chunks' order of {@code raw} (when not null)
   * unless {@code forceBig} or the options ask for big-endian. With {@code forceBig} a payload over the message
   * bound is read in bounded pieces (the first before anything is written).
   */
  long write(Variable v, Section s, ChunkedArray raw, boolean forceBig) throws IOException {
    DataType dt = v.getDataType();
    if (v.isVariableLength()) {
      throw new IOException(v.getFullName() + ": variable-length arrays are not supported by this writer");
    }
    if (dt == DataType.STRING || dt == DataType.OPAQUE) {
      return writeObjects(v, s);
    }
    if (dt == DataType.STRUCTURE) {
      return writeStructure(v, s);
    }
    long payload = s.computeSize() * Payloads.elementBytes(v);
    if (payload > Integer.MAX_VALUE - 64) {
      throw new IOException(v.getFullName() + ": section " + s + " of " + payload + " bytes is too large for one"
          + " ncstream data message (2 GiB)");
    }
    boolean big = forceBig || opt.bigEndian;
    if (!forceBig || payload <= opt.messageBytes) {
      Payloads.Payload p = readPiece(v, s, raw, big);
      return emit(v, s, p.bytes, p.bigEndian, p.length);
    }
    return writePieces(v, s, raw, payload);
  }

  /** The big-endian pieces of one section, read in turn. */
  private final class Pieces {
    final Variable v;
    final Section s;
    final ChunkedArray raw;
    final Slabs slabs;

    Pieces(Variable v, Section s, ChunkedArray raw) {
      this.v = v;
      this.s = s;
      this.raw = raw;
      this.slabs = new Slabs(s.getShape(), Payloads.elementBytes(v), opt.messageBytes);
    }

    Payloads.Payload next() throws IOException {
      int[][] slab = slabs.next();
      return slab == null ? null : readPiece(v, NcStreamOut.slabSection(s, slab), raw, true);
    }
  }

  /** One big-endian message of many pieces (cdmremote): bounded reads, streamed payload. */
  private long writePieces(Variable v, Section s, ChunkedArray raw, long payload) throws IOException {
    Pieces pieces = new Pieces(v, s, raw);
    Payloads.Payload p0 = pieces.next();
    if (opt.deflates() && payload <= NcStreamOut.DEFLATE_ONE_MESSAGE_BYTES) {
      return writeDeflatedPieces(v, s, p0, pieces, payload);
    }
    long n = putDataProto(v, s, true, false, 0);
    n += wire.putVInt((int) payload);
    for (Payloads.Payload p = p0; p != null; p = pieces.next()) {
      n += wire.put(p.bytes, 0, p.length);
      report(p.length);
    }
    return n;
  }

  /** The compressed length precedes the data: every piece is compressed first (at most about the payload). */
  private long writeDeflatedPieces(Variable v, Section s, Payloads.Payload p0, Pieces pieces, long payload)
      throws IOException {
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    Deflater d = deflater();
    d.reset();
    byte[] buf = new byte[64 << 10];
    for (Payloads.Payload p = p0; p != null; p = pieces.next()) {
      d.setInput(p.bytes, 0, p.length);
      while (!d.needsInput()) {
        z.write(buf, 0, d.deflate(buf));
      }
    }
    d.finish();
    while (!d.finished()) {
      z.write(buf, 0, d.deflate(buf));
    }
    long n = putDataProto(v, s, true, true, (int) payload);
    n += wire.putVInt(z.size());
    n += wire.put(z);
    report(payload);
    return n;
  }

  private static Payloads.Payload readPiece(Variable v, Section s, ChunkedArray raw, boolean forceBig)
      throws IOException {
    if (raw != null && raw.dtype().extraDim() > 0 && s.getRange(s.getRank() - 1).length() != raw.dtype().extraDim()) {
      raw = null; // part of each item: the CDM path cuts it
    }
    if (raw != null) {
      return Payloads.readRaw(s, raw, forceBig, null);
    }
    byte[] b = Payloads.primitiveBytes(v.getDataType(), NcStreamOut.read(v, s));
    return new Payloads.Payload(b, b.length, true);
  }

  /** One data message of the first {@code len} bytes of {@code b}. */
  private long emit(Variable v, Section s, byte[] b, boolean big, int len) throws IOException {
    if (opt.deflates()) {
      ByteArrayOutputStream z = new ByteArrayOutputStream(Math.max(64, len / 4));
      Payloads.deflateInto(deflater(), b, len, z);
      long n = putDataProto(v, s, big, true, len);
      n += wire.putVInt(z.size()) + wire.put(z);
      report(len);
      return n;
    }
    long n = putDataProto(v, s, big, false, 0);
    n += wire.putVInt(len) + wire.put(b, 0, len);
    report(len);
    return n;
  }

  /**
   * MAGIC_DATA, the {@code Data} message with its length, and the payload length: everything of a data message
   * of numbers or chars before its {@code payloadLength} payload bytes.
   */
  byte[] dataHead(Variable v, Section s, boolean big, boolean deflated, int uncompressed, int payloadLength) {
    byte[] p = dataProto(v, s, big, deflated, uncompressed);
    ByteArrayOutputStream b = new ByteArrayOutputStream(NcStream.MAGIC_DATA.length + p.length + 10);
    b.write(NcStream.MAGIC_DATA, 0, NcStream.MAGIC_DATA.length);
    Wire.writeVInt(b, p.length);
    b.write(p, 0, p.length);
    Wire.writeVInt(b, payloadLength);
    return b.toByteArray();
  }

  /**
   * The variable's name in its data messages. In an ncstream file: its group path as {@code NetcdfFiles.makeFullName}
   * writes it (escaped), a slash, and its short name as it is, since that is what netcdf-java's file reader
   * ({@code NcStreamIosp}, through {@code Group.Builder.findVariableNested}) looks up: it unescapes the group
   * names but not the variable's, so an escaped {@code \.hidden} or {@code \\back} would name no variable there. For
   * {@link NcStreamOut.Options#remoteNames cdmremote}: the escaped full name, which netcdf-java's cdmremote client
   * compares with {@code Variable.getFullNameEscaped()}. A structure member (never written alone) keeps its full
   * name.
   */
  String dataVarName(Variable v) {
    Group g = v.getParentGroup();
    if (opt.remoteNames || v.getParentStructure() != null) {
      return NetcdfFiles.makeFullName(v);
    }
    return g == null || g.isRoot() ? v.getShortName() : NetcdfFiles.makeFullName(g) + "/" + v.getShortName();
  }

  private byte[] dataProto(Variable v, Section s, boolean big, boolean deflated, int uncompressed) {
    NcStreamProto.Data.Builder b = NcStreamProto.Data.newBuilder();
    b.setVarName(dataVarName(v));
    b.setDataType(NcStream.convertDataType(v.getDataType()));
    b.setSection(NcStream.encodeSection(s));
    if (deflated) {
      b.setCompress(NcStreamProto.Compress.DEFLATE);
      b.setUncompressedSize(uncompressed);
    }
    b.setVdata(v.isVariableLength());
    b.setBigend(big);
    b.setVersion(DATA_VERSION);
    return b.build().toByteArray();
  }

  private long putDataProto(Variable v, Section s, boolean big, boolean deflated, int uncompressed)
      throws IOException {
    return wire.message(NcStream.MAGIC_DATA, dataProto(v, s, big, deflated, uncompressed));
  }

  /** String and opaque data: count, then each item length-prefixed (UTF-8 strings); read in bounded slabs. */
  private long writeObjects(Variable v, Section s) throws IOException {
    long nobj = s.computeSize();
    if (nobj > Integer.MAX_VALUE) {
      throw new IOException(v.getFullName() + ": " + nobj + " items are too many for one data message");
    }
    long n = putDataProto(v, s, true, false, 0);
    n += wire.putVInt((int) nobj);
    long per = v.getDataType() == DataType.STRING ? 64 : 256; // rough bytes per item for slab sizing
    Slabs slabs = new Slabs(s.getShape(), per, opt.messageBytes);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      Array a = NcStreamOut.read(v, NcStreamOut.slabSection(s, slab));
      buf.reset();
      IndexIterator it = a.getIndexIterator();
      while (it.hasNext()) {
        byte[] item = itemBytes(v, it.getObjectNext());
        Wire.writeVInt(buf, item.length);
        buf.write(item, 0, item.length);
      }
      n += wire.put(buf);
      report(buf.size());
    }
    return n;
  }

  /** A string as UTF-8, an opaque item's bytes. */
  private static byte[] itemBytes(Variable v, Object o) throws IOException {
    if (o instanceof String) {
      return ((String) o).getBytes(StandardCharsets.UTF_8);
    }
    if (o instanceof ByteBuffer) {
      ByteBuffer bb = ((ByteBuffer) o).duplicate();
      bb.rewind();
      byte[] item = new byte[bb.remaining()];
      bb.get(item);
      return item;
    }
    throw new IOException(v.getFullName() + ": unexpected item " + (o == null ? "null" : o.getClass().getName()));
  }

  /** A structure slab: length-prefixed {@code StructureData} with a big-endian fixed part and a string heap. */
  private long writeStructure(Variable v, Section s) throws IOException {
    Array a = NcStreamOut.read(v, s);
    ArrayStructureBB bb = StructureDataDeep.copyToArrayBB((ArrayStructure) a, ByteOrder.BIG_ENDIAN, true);
    NcStreamProto.StructureData.Builder sd = NcStreamProto.StructureData.newBuilder();
    ByteBuffer data = bb.getByteBuffer();
    sd.setData(ByteString.copyFrom(data.array(), data.arrayOffset(), data.limit()));
    sd.setNrows(a.getSize());
    sd.setRowLength(bb.getStructureMembers().getStructureSize());
    List<Object> heap = bb.getHeap();
    if (heap != null) {
      for (Object o : heap) {
        addHeap(v, sd, o);
      }
    }
    byte[] p = sd.build().toByteArray();
    long n = putDataProto(v, s, true, false, 0);
    n += wire.putVInt(p.length) + wire.put(p);
    report(p.length);
    return n;
  }

  private static void addHeap(Variable v, NcStreamProto.StructureData.Builder sd, Object o) throws IOException {
    if (o instanceof String) {
      sd.addHeapCount(1);
      sd.addSdata((String) o);
    } else if (o instanceof String[]) {
      String[] ss = (String[]) o;
      sd.addHeapCount(ss.length);
      for (String x : ss) {
        sd.addSdata(x);
      }
    } else {
      throw new IOException(v.getFullName() + ": structure member data of " + o.getClass().getSimpleName()
          + " (variable-length members) is not supported by this writer");
    }
  }

  private Deflater deflater() {
    if (deflater == null) {
      deflater = new Deflater(opt.deflateLevel);
    }
    return deflater;
  }

  /** Tells the progress listener, if any, of {@code bytes} uncompressed payload bytes written. */
  void report(long bytes) {
    if (opt.progress != null) {
      opt.progress.advance(bytes);
    }
  }
}
