package org.chunkcdm.cdm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;

/**
 * CDM sections of a {@link ChunkedArray} as CDM {@link Array}s, through the one section assembly
 * ({@link SectionReader}): numbers by typed read straight into the primitive array the CDM array wraps (byte
 * order converted chunk by chunk), other types as raw bytes converted by {@link Convert}.
 */
public final class CdmReader {
  private CdmReader() {}

  /**
   * Reads a section given in the CDM variable's index space (logical dimensions plus, for S&lt;n&gt;, complex
   * and opaque types, the extra last dimension of {@link DType#extraDim()}); null means everything.
   */
  public static Array read(ChunkedArray a, Section section) throws IOException {
    try {
      return readChecked(a, section);
    } catch (java.io.UncheckedIOException e) { // a lazy grid failed to learn its chunk boundaries
      throw e.getCause();
    }
  }

  private static Array readChecked(ChunkedArray a, Section section) throws IOException {
    DType dt = a.dtype();
    long[] shape = a.grid().shape();
    int rank = shape.length;
    int extra = dt.extraDim();
    int[] cdmShape = SectionReader.cdmShape(shape, extra);
    Section s;
    try {
      s = Sections.checkBounds(section == null ? new Section(cdmShape) : Section.fill(section, cdmShape), cdmShape);
    } catch (InvalidRangeException e) {
      throw new IOException("bad section " + section + ": " + e.getMessage(), e);
    }
    Sections.Box box = Sections.box(s, rank);
    int[] outShape = new int[rank];
    for (int d = 0; d < rank; d++) {
      outShape[d] = (int) box.count[d];
    }
    long n = box.size();
    SectionReader.checkHeap(n, dt.itemSize());
    Array arr;
    boolean numbers = (dt.kind() == DType.Kind.INT || dt.kind() == DType.Kind.UINT) && dt.itemSize() >= 2
        || dt.kind() == DType.Kind.FLOAT && dt.itemSize() >= 4;
    if (numbers && n <= Integer.MAX_VALUE - 16) {
      // numbers go straight into the primitive array, converted chunk by chunk
      Object values = SectionReader.newTypedArray(dt, (int) n);
      SectionReader.readInto(a, box.first, box.count, box.stride, values, 0);
      arr = Array.factory(CdmTypes.of(dt), outShape, values);
    } else {
      arr = Convert.toArray(dt, SectionReader.readBytes(a, box.first, box.count, box.stride), outShape);
    }
    if (extra > 0) {
      Range er = s.getRange(rank);
      if (er.length() != extra) {
        List<Range> ranges = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
          ranges.add(null);
        }
        ranges.add(er);
        try {
          arr = arr.sectionNoReduce(ranges).copy();
        } catch (InvalidRangeException e) {
          throw new IOException(e.getMessage(), e);
        }
      }
    }
    return arr;
  }
}
