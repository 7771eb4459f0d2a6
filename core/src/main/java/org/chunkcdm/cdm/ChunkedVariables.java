package org.chunkcdm.cdm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.Variable;

/** Builds CDM variables over {@link ChunkedArray}s per docs/cdm-contract.md (types, dimensions, attributes). */
public final class ChunkedVariables {
  private ChunkedVariables() {}

  /**
   * Adds a variable named {@code name} (already a valid CDM name) to {@code g}. {@code dimNames} gives one
   * shared dimension name per logical dimension (null: {@code <name>_dim0, ...}); a dimension name already in
   * the group with another length is an IOException. Types adding a last dimension (S&lt;n&gt;, complex,
   * opaque) get a private one named {@code <name>_strlen}, {@code <name>_complex} or {@code <name>_bytes}.
   * Adds {@code _ChunkSizes} when the chunks are N-d boxes (one entry per CDM dimension, the added last one
   * included), and the bool flag attributes.
   */
  public static Variable.Builder<?> add(Group.Builder g, String name, ChunkedArray a, List<String> dimNames)
      throws IOException {
    return add(g, name, a, dimNames, true);
  }

  /**
   * As {@link #add(Group.Builder, String, ChunkedArray, List)}; {@code chunkSizes} false leaves out
   * {@code _ChunkSizes} (for storage that is not chunked, e.g. a {@code .ds} variable's one contiguous block).
   */
  public static Variable.Builder<?> add(Group.Builder g, String name, ChunkedArray a, List<String> dimNames,
      boolean chunkSizes) throws IOException {
    DType dt = a.dtype();
    long[] shape = a.grid().shape();
    int[] cdm;
    try {
      cdm = SectionReader.cdmShape(shape, dt.extraDim());
    } catch (IllegalArgumentException e) {
      throw new IOException("variable " + name + ": " + e.getMessage());
    }
    List<Dimension> dims = new ArrayList<>();
    for (int d = 0; d < shape.length; d++) {
      String dn = dimNames != null ? dimNames.get(d) : name + "_dim" + d;
      dims.add(sharedDim(g, dn, cdm[d], name));
    }
    if (dt.extraDim() > 0) {
      String suffix = dt.kind() == DType.Kind.BYTES ? "_strlen" : dt.kind() == DType.Kind.COMPLEX ? "_complex" : "_bytes";
      dims.add(sharedDim(g, name + suffix, dt.extraDim(), name));
    }
    Variable.Builder<?> v = Variable.builder().setName(name).setDataType(dt.cdmType()).setDimensions(dims);
    v.setSPobject(a);
    int[] cs = chunkSizes ? chunkSizes(a.grid()) : null;
    if (cs != null && dt.extraDim() > 0) { // the added last dimension is never split across chunks
      cs = java.util.Arrays.copyOf(cs, cs.length + 1);
      cs[cs.length - 1] = dt.extraDim();
    }
    if (cs != null) {
      v.addAttribute(Attribute.builder("_ChunkSizes")
          .setValues(Array.factory(DataType.INT, new int[] {cs.length}, cs)).build());
    }
    if (dt.kind() == DType.Kind.BOOL) {
      v.addAttribute(Attribute.builder("flag_values")
          .setValues(Array.factory(DataType.UBYTE, new int[] {2}, new byte[] {0, 1})).build());
      v.addAttribute(new Attribute("flag_meanings", "false true"));
    }
    g.addVariable(v);
    return v;
  }

  private static Dimension sharedDim(Group.Builder g, String dn, int len, String var) throws IOException {
    String valid = CdmNames.valid(dn);
    for (Dimension have : g.getDimensions()) { // a loop, not findDimensionLocal's stream: opening many small files
      if (have.getShortName().equals(valid)) {
        if (have.getLength() != len) {
          throw new IOException("variable " + var + ": dimension " + valid + " has length " + have.getLength()
              + " elsewhere but " + len + " here");
        }
        return have;
      }
    }
    // netcdf-java accepts a zero length only on an unlimited dimension
    Dimension d = Dimension.builder().setName(valid).setIsUnlimited(len == 0).setLength(len).build();
    g.addDimension(d);
    return d;
  }

  /**
   * The chunk shape as {@code _ChunkSizes} reports it: the chunk shape of a regular grid; for a flat C-order
   * layout of equal chunks holding whole rows, {@code [rows, shape[1:]...]}; otherwise null.
   */
  public static int[] chunkSizes(ChunkGrid grid) {
    long[] shape = grid.shape();
    if (shape.length == 0) {
      return null;
    }
    if (grid instanceof ChunkGrid.Regular) {
      return ((ChunkGrid.Regular) grid).chunkShape();
    }
    ChunkGrid.Flat f = (ChunkGrid.Flat) grid;
    if (!f.isEqualChunks() || f.fortranOrder()) {
      return null;
    }
    long row = 1;
    for (int d = 1; d < shape.length; d++) {
      row *= shape[d];
    }
    if (row == 0 || f.chunkItems() % row != 0 || f.chunkItems() / row > Integer.MAX_VALUE) {
      return null;
    }
    int[] cs = new int[shape.length];
    cs[0] = (int) Math.min(f.chunkItems() / row, Math.max(1, shape[0]));
    for (int d = 1; d < shape.length; d++) {
      cs[d] = (int) shape[d];
    }
    return cs;
  }
}
