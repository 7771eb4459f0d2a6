package org.chunkcdm.cdm;

import java.nio.ByteOrder;
import org.chunkcdm.chunk.DType;
import ucar.ma2.DataType;

/** How a {@link DType} appears in CDM (docs/cdm-contract.md, section 3). */
public final class CdmTypes {
  private CdmTypes() {}

  /** The CDM data type of a variable of element type {@code dt}. */
  public static DataType of(DType dt) {
    int itemSize = dt.itemSize();
    switch (dt.kind()) {
      case INT:
        return itemSize == 1 ? DataType.BYTE : itemSize == 2 ? DataType.SHORT : itemSize == 4 ? DataType.INT : DataType.LONG;
      case UINT:
        return itemSize == 1 ? DataType.UBYTE : itemSize == 2 ? DataType.USHORT : itemSize == 4 ? DataType.UINT : DataType.ULONG;
      case FLOAT:
        return itemSize == 8 ? DataType.DOUBLE : DataType.FLOAT;
      case COMPLEX:
        return itemSize == 16 ? DataType.DOUBLE : DataType.FLOAT;
      case BOOL:
      case OPAQUE:
        return DataType.UBYTE;
      case BYTES:
        return DataType.CHAR;
      case UNICODE:
        return DataType.STRING;
      default:
        throw new IllegalStateException();
    }
  }

  /** The element type of numeric CDM type {@code t} (integer or floating) in {@code order}; null for others. */
  public static DType numeric(DataType t, ByteOrder order) {
    DType.Kind kind = switch (t) {
      case BYTE, SHORT, INT, LONG -> DType.Kind.INT;
      case UBYTE, USHORT, UINT, ULONG -> DType.Kind.UINT;
      case FLOAT, DOUBLE -> DType.Kind.FLOAT;
      default -> null;
    };
    return kind == null ? null : DType.of(kind, t.getSize(), order);
  }
}
