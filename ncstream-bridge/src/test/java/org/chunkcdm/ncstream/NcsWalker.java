package org.chunkcdm.ncstream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.InflaterInputStream;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.MAMath;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * A test-side reader of a whole ncstream held in memory, independent of the writer: walks the messages
 * (grammar v2), keyed by each variable's escaped full name, decodes each data message per netcdf-java's encodings (byte order from {@code bigend}, DEFLATE,
 * count-prefixed strings/opaque) and assembles whole variables from their messages.
 */
final class NcsWalker {
  /** One data message. */
  static final class Msg {
    final NcStreamProto.Data proto;
    final Section section;
    final Array data; // in the message's section shape
    final int payloadBytes; // bytes of the payload block as stored

    Msg(NcStreamProto.Data proto, Section section, Array data, int payloadBytes) {
      this.proto = proto;
      this.section = section;
      this.data = data;
      this.payloadBytes = payloadBytes;
    }
  }

  final NcStreamProto.Header header;
  final List<Msg> messages = new ArrayList<>();
  String error; // message of an error message, if the stream has one
  boolean ended; // MAGIC_END seen
  final Map<String, List<Msg>> byVar = new LinkedHashMap<>();

  private final byte[] b;
  private int p;

  /** Walks {@code stream}; {@code nc} gives the types of the variables (the header's types are checked against it). */
  NcsWalker(byte[] stream, NetcdfFile nc) throws IOException {
    this.b = stream;
    expect(NcStream.MAGIC_START, "MAGIC_START");
    expect(NcStream.MAGIC_HEADER, "MAGIC_HEADER");
    header = NcStreamProto.Header.parseFrom(block());
    while (true) {
      if (p == b.length) {
        throw new IOException("stream ends at " + p + " without MAGIC_END or an error message");
      }
      byte[] m = Arrays.copyOfRange(b, p, p + 4);
      p += 4;
      if (Arrays.equals(m, NcStream.MAGIC_END)) {
        ended = true;
        if (p != b.length) {
          throw new IOException((b.length - p) + " bytes after MAGIC_END");
        }
        return;
      }
      if (Arrays.equals(m, NcStream.MAGIC_ERR)) {
        error = NcStreamProto.Error.parseFrom(block()).getMessage();
        return;
      }
      if (!Arrays.equals(m, NcStream.MAGIC_DATA)) {
        throw new IOException("no message magic at " + (p - 4));
      }
      NcStreamProto.Data d = NcStreamProto.Data.parseFrom(block());
      Variable v = variable(nc, d.getVarName());
      if (v == null) {
        throw new IOException("data message for unknown variable " + d.getVarName());
      }
      DataType dt = NcStream.convertDataType(d.getDataType());
      if (dt != v.getDataType()) {
        throw new IOException(d.getVarName() + ": message type " + dt + " != " + v.getDataType());
      }
      Section s = NcStream.decodeSection(d.getSection());
      int[] shape = s.getShape();
      Array a;
      int stored;
      if (dt == DataType.STRING || dt == DataType.OPAQUE) {
        int start = p;
        int n = vint();
        if (n != s.computeSize()) {
          throw new IOException(d.getVarName() + ": " + n + " items for a section of " + s.computeSize());
        }
        a = Array.factory(dt, shape);
        IndexIterator it = a.getIndexIterator();
        for (int i = 0; i < n; i++) {
          byte[] item = block();
          it.setObjectNext(dt == DataType.STRING ? new String(item, StandardCharsets.UTF_8) : ByteBuffer.wrap(item));
        }
        stored = p - start;
      } else {
        byte[] payload = block();
        stored = payload.length;
        if (d.getCompress() == NcStreamProto.Compress.DEFLATE) {
          ByteArrayOutputStream o = new ByteArrayOutputStream();
          try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(payload))) {
            in.transferTo(o);
          }
          payload = o.toByteArray();
          if (payload.length != d.getUncompressedSize()) {
            throw new IOException(d.getVarName() + ": inflated " + payload.length + " != " + d.getUncompressedSize());
          }
        }
        if (payload.length != s.computeSize() * dt.getSize()) {
          throw new IOException(d.getVarName() + ": payload " + payload.length + " bytes for " + s);
        }
        ByteOrder bo = d.getBigendPresentCase() == NcStreamProto.Data.BigendPresentCase.BIGENDPRESENT_NOT_SET
            ? ByteOrder.LITTLE_ENDIAN : d.getBigend() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        a = Array.factory(dt, shape, ByteBuffer.wrap(payload).order(bo));
      }
      Msg msg = new Msg(d, s, a, stored);
      messages.add(msg);
      byVar.computeIfAbsent(ucar.nc2.NetcdfFiles.makeFullName(v), k -> new ArrayList<>()).add(msg);
    }
  }

  /**
   * The variable a data message names: as in an ncstream file (escaped group path, a slash, the short name as
   * it is), else by its escaped full name (cdmremote responses).
   */
  static Variable variable(NetcdfFile nc, String varName) {
    int slash = varName.lastIndexOf('/');
    ucar.nc2.Group g = slash < 0 ? nc.getRootGroup() : nc.findGroup(varName.substring(0, slash));
    Variable v = g == null ? null : g.findVariableLocal(varName.substring(slash + 1));
    return v != null ? v : nc.findVariable(varName);
  }

  /** The whole variable assembled from its messages (later ones win), or null when it has none. */
  Array assemble(Variable v) throws IOException {
    List<Msg> ms = byVar.get(ucar.nc2.NetcdfFiles.makeFullName(v));
    if (ms == null) {
      return null;
    }
    Array all = Array.factory(v.getDataType(), v.getShape());
    for (Msg m : ms) {
      try {
        MAMath.copy(all.sectionNoReduce(m.section.getRanges()), m.data);
      } catch (InvalidRangeException e) {
        throw new IOException(e);
      }
    }
    return all;
  }

  private void expect(byte[] magic, String what) throws IOException {
    if (!Arrays.equals(Arrays.copyOfRange(b, p, p + 4), magic)) {
      throw new IOException("no " + what + " at " + p);
    }
    p += 4;
  }

  private byte[] block() throws IOException {
    int n = vint();
    if (n < 0 || p + n > b.length) {
      throw new IOException("block of " + n + " bytes at " + p + " overruns the stream");
    }
    byte[] out = Arrays.copyOfRange(b, p, p + n);
    p += n;
    return out;
  }

  private int vint() throws IOException {
    int shift = 0;
    int v = 0;
    while (true) {
      if (p >= b.length) {
        throw new IOException("stream ends inside a varint");
      }
      int x = b[p++] & 0xff;
      v |= (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
      shift += 7;
    }
  }
}
