package org.chunkcdm.ncstream;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.EnumTypedef;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * The ncstream {@code Header} message of a {@link NetcdfFile}: groups, dimensions, attributes, enum typedefs,
 * variables and structures (optionally only some variables), and small numeric variables' values.
 */
final class HeaderEncoder {
  /** Version field of the header message (as netcdf-java's writer). */
  static final int HEADER_VERSION = 1;

  private final long headerDataBytes;

  /** {@code headerDataBytes}: numeric variables smaller than this carry their values in the header (0 = never). */
  HeaderEncoder(long headerDataBytes) {
    this.headerDataBytes = headerDataBytes;
  }

  /**
   * The header message's bytes: the variables in {@code vars} (null = all; a structure goes whole with its
   * members); {@code location} null = the file's.
   */
  byte[] encode(NetcdfFile nc, String location, Collection<? extends Variable> vars) throws IOException {
    Set<String> keep = null;
    if (vars != null) {
      keep = new HashSet<>();
      for (Variable v : vars) {
        keep.add(v.getFullName());
      }
    }
    NcStreamProto.Header.Builder h = NcStreamProto.Header.newBuilder();
    String loc = location != null ? location : nc.getLocation();
    if (loc != null) {
      h.setLocation(loc);
    }
    if (nc.getTitle() != null) {
      h.setTitle(nc.getTitle());
    }
    if (nc.getId() != null) {
      h.setId(nc.getId());
    }
    h.setRoot(encodeGroup(nc.getRootGroup(), keep));
    h.setVersion(HEADER_VERSION);
    return h.build().toByteArray();
  }

  private NcStreamProto.Group.Builder encodeGroup(Group g, Set<String> keep) throws IOException {
    NcStreamProto.Group.Builder gb = NcStreamProto.Group.newBuilder();
    gb.setName(g.getShortName() == null ? "" : g.getShortName());
    for (Dimension d : g.getDimensions()) {
      gb.addDims(encodeDim(d));
    }
    for (Attribute a : g.attributes()) {
      gb.addAtts(NcStream.encodeAtt(a));
    }
    for (EnumTypedef e : g.getEnumTypedefs()) {
      gb.addEnumTypes(encodeEnum(e));
    }
    for (Variable v : g.getVariables()) {
      if (keep != null && !keep.contains(v.getFullName())) {
        continue;
      }
      if (v instanceof Structure) {
        gb.addStructs(encodeStructure((Structure) v));
      } else {
        gb.addVars(encodeVar(v, headerDataBytes));
      }
    }
    for (Group sub : g.getGroups()) {
      gb.addGroups(encodeGroup(sub, keep));
    }
    return gb;
  }

  private static NcStreamProto.Dimension.Builder encodeDim(Dimension d) {
    NcStreamProto.Dimension.Builder b = NcStreamProto.Dimension.newBuilder();
    if (d.getShortName() != null) {
      b.setName(d.getShortName());
    }
    if (!d.isVariableLength()) {
      b.setLength(d.getLength());
    }
    b.setIsPrivate(!d.isShared());
    b.setIsVlen(d.isVariableLength());
    b.setIsUnlimited(d.isUnlimited());
    return b;
  }

  private static NcStreamProto.EnumTypedef.Builder encodeEnum(EnumTypedef e) {
    NcStreamProto.EnumTypedef.Builder b = NcStreamProto.EnumTypedef.newBuilder();
    b.setName(e.getShortName());
    for (Map.Entry<Integer, String> en : new TreeMap<>(e.getMap()).entrySet()) {
      b.addMap(NcStreamProto.EnumTypedef.EnumType.newBuilder().setCode(en.getKey()).setValue(en.getValue()));
    }
    return b;
  }

  private static NcStreamProto.Variable.Builder encodeVar(Variable v, long headerData) throws IOException {
    NcStreamProto.Variable.Builder b = NcStreamProto.Variable.newBuilder();
    b.setName(v.getShortName());
    b.setDataType(NcStream.convertDataType(v.getDataType()));
    if (v.getDataType().isEnum() && v.getEnumTypedef() != null) {
      b.setEnumType(v.getEnumTypedef().getShortName());
    }
    for (Dimension d : v.getDimensions()) {
      b.addShape(encodeDim(d));
    }
    for (Attribute a : v.attributes()) {
      b.addAtts(NcStream.encodeAtt(a));
    }
    if (headerData > 0 && v.getDataType().isNumeric() && !v.isVariableLength() && v.getParentStructure() == null
        && NcStreamOut.dataBytes(v) < headerData) {
      // netcdf-java's decoder wraps these bytes in a big-endian buffer
      b.setData(ByteString.copyFrom(Payloads.primitiveBytes(v.getDataType(), v.read())));
    }
    return b;
  }

  private static NcStreamProto.Structure.Builder encodeStructure(Structure s) throws IOException {
    NcStreamProto.Structure.Builder b = NcStreamProto.Structure.newBuilder();
    b.setName(s.getShortName());
    b.setDataType(NcStream.convertDataType(s.getDataType()));
    for (Dimension d : s.getDimensions()) {
      b.addShape(encodeDim(d));
    }
    for (Attribute a : s.attributes()) {
      b.addAtts(NcStream.encodeAtt(a));
    }
    for (Variable m : s.getVariables()) {
      if (m instanceof Structure) {
        b.addStructs(encodeStructure((Structure) m));
      } else {
        b.addVars(encodeVar(m, 0));
      }
    }
    return b;
  }
}
