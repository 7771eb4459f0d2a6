package org.chunkcdm.ncstream.iosp;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Dimension;
import ucar.nc2.EnumTypedef;
import ucar.nc2.Group;
import ucar.nc2.Sequence;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/** An ncstream header's groups, dimensions, attributes, enum typedefs, variables and structures as CDM builders. */
final class HeaderDecoder {
  private HeaderDecoder() {}

  static void readGroup(NcStreamProto.Group proto, Group.Builder g) {
    for (NcStreamProto.Dimension d : proto.getDimsList()) {
      if (d.getName().isEmpty()) {
        throw new IllegalArgumentException("group '" + proto.getName() + "' has a dimension without a name");
      }
      g.addDimension(dimension(d));
    }
    for (NcStreamProto.Attribute a : proto.getAttsList()) {
      g.addAttribute(NcStream.decodeAtt(a));
    }
    for (NcStreamProto.EnumTypedef e : proto.getEnumTypesList()) {
      Map<Integer, String> map = new HashMap<>();
      for (NcStreamProto.EnumTypedef.EnumType t : e.getMapList()) {
        map.put(t.getCode(), t.getValue());
      }
      g.addEnumTypedef(new EnumTypedef(e.getName(), map));
    }
    for (NcStreamProto.Variable v : proto.getVarsList()) {
      g.addVariable(variable(v));
    }
    for (NcStreamProto.Structure s : proto.getStructsList()) {
      g.addVariable(structure(s));
    }
    for (NcStreamProto.Group gp : proto.getGroupsList()) {
      Group.Builder ng = g.findGroupLocal(gp.getName()).orElse(null);
      if (ng == null) {
        ng = Group.builder().setName(gp.getName());
        g.addGroup(ng);
      }
      readGroup(gp, ng);
    }
  }

  static Dimension dimension(NcStreamProto.Dimension d) {
    String name = d.getName().isEmpty() ? null : d.getName();
    if (d.getLength() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("dimension " + name + " of length " + d.getLength() + " exceeds CDM's int range");
    }
    return Dimension.builder().setName(name).setIsShared(!d.getIsPrivate()).setIsUnlimited(d.getIsUnlimited())
        .setIsVariableLength(d.getIsVlen()).setLength(d.getIsVlen() ? -1 : (int) d.getLength()).build();
  }

  private static Variable.Builder<?> variable(NcStreamProto.Variable v) {
    DataType t = NcStream.convertDataType(v.getDataType());
    Variable.Builder<?> b = Variable.builder().setName(v.getName()).setDataType(t);
    if (t.isEnum()) {
      b.setEnumTypeName(v.getEnumType());
    }
    List<Dimension> dims = new ArrayList<>();
    int[] shape = new int[v.getShapeCount()];
    for (int i = 0; i < shape.length; i++) {
      Dimension d = dimension(v.getShape(i));
      dims.add(d);
      shape[i] = d.getLength();
    }
    b.addDimensions(dims);
    for (NcStreamProto.Attribute a : v.getAttsList()) {
      b.addAttribute(NcStream.decodeAtt(a));
    }
    if (!v.getData().isEmpty()) {
      // "immediate" data of a small variable, big-endian as netcdf-java writes it
      Array a = Array.factory(t, shape, ByteBuffer.wrap(v.getData().toByteArray()));
      b.setCachedData(a, true);
    }
    return b;
  }

  private static Structure.Builder<?> structure(NcStreamProto.Structure s) {
    Structure.Builder<?> b = s.getDataType() == NcStreamProto.DataType.SEQUENCE ? Sequence.builder() : Structure.builder();
    b.setName(s.getName()).setDataType(NcStream.convertDataType(s.getDataType()));
    List<Dimension> dims = new ArrayList<>();
    for (NcStreamProto.Dimension d : s.getShapeList()) {
      dims.add(dimension(d));
    }
    b.addDimensions(dims);
    for (NcStreamProto.Attribute a : s.getAttsList()) {
      b.addAttribute(NcStream.decodeAtt(a));
    }
    for (NcStreamProto.Variable v : s.getVarsList()) {
      b.addMemberVariable(variable(v));
    }
    for (NcStreamProto.Structure m : s.getStructsList()) {
      b.addMemberVariable(structure(m));
    }
    return b;
  }

  /** A data message's section; a range of size 0 is an empty range, stride 0 means 1 (proto3 default). */
  static Section section(NcStreamProto.Section p) throws InvalidRangeException {
    List<Range> ranges = new ArrayList<>();
    for (NcStreamProto.Range r : p.getRangeList()) {
      long stride = r.getStride() == 0 ? 1 : r.getStride();
      if (r.getSize() == 0) {
        ranges.add(Range.EMPTY);
        continue;
      }
      long last = r.getStart() + (r.getSize() - 1) * stride;
      if (r.getStart() > Integer.MAX_VALUE || last > Integer.MAX_VALUE || stride > Integer.MAX_VALUE || last < 0) {
        throw new InvalidRangeException("range start " + r.getStart() + " size " + r.getSize() + " stride " + stride
            + " exceeds CDM's int range");
      }
      ranges.add(new Range((int) r.getStart(), (int) last, (int) stride));
    }
    return new Section(ranges);
  }
}
