package org.chunkcdm.ncstream.iosp;

import java.nio.ByteOrder;
import ucar.ma2.DataType;
import ucar.ma2.Section;

/** Where one data message of a variable lies in the file (its bytes are read only when a section needs them). */
final class DataMessage {
  /** How the payload is laid out. */
  enum Layout {
    /** vlenb + bytes (numbers, chars, enums; or any type when deflated) */
    REGULAR,
    /** vlenn + {vlenb + bytes}*: strings, opaque, vlen arrays */
    OBJECTS,
    /** vlenb + NcStreamProto.StructureData */
    STRUCTURE,
    /** {MAGIC_VDATA vlenb StructureData}* MAGIC_VEND */
    SEQUENCE,
    /** MAGIC_DATA2 vlenb NcStreamProto.DataCol: column-oriented message with its data inside (TDS 5 cdmremote) */
    DATACOL
  }

  final int ordinal; // position among all data messages of the stream (later ones take precedence)
  final long messagePos; // position of the magic number
  final long payloadPos; // first byte after the payload's own length / count
  final long payloadLen; // bytes (REGULAR, STRUCTURE) or the span of the objects (OBJECTS)
  final long count; // number of objects (OBJECTS)
  final Layout layout;
  final DataType dataType;
  final Section section; // null for sequences
  final ByteOrder order;
  final boolean deflate;
  final long uncompressedSize;
  final boolean vlen;
  /** String lengths count UTF-16 chars (netcdf-java's writer), not bytes. */
  final boolean charLengths;

  DataMessage(int ordinal, long messagePos, long payloadPos, long payloadLen, long count, Layout layout, DataType dataType,
      Section section, ByteOrder order, boolean deflate, long uncompressedSize, boolean vlen, boolean charLengths) {
    this.ordinal = ordinal;
    this.messagePos = messagePos;
    this.payloadPos = payloadPos;
    this.payloadLen = payloadLen;
    this.count = count;
    this.layout = layout;
    this.dataType = dataType;
    this.section = section;
    this.order = order;
    this.deflate = deflate;
    this.uncompressedSize = uncompressedSize;
    this.vlen = vlen;
    this.charLengths = charLengths;
  }

  @Override
  public String toString() {
    return "data message at byte " + messagePos;
  }
}
