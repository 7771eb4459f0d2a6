package org.chunkcdm.cdm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.DatasetVariable;
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
    Variable.Builder<?> v = addBare(g, name, a, dimNames);
    CdmAttributes.toCdm(DatasetVariable.standardAttributes(a, chunkSizes)).forEach(v::addAttribute);
    return v;
  }

  /**
   * As {@link #add(Group.Builder, String, ChunkedArray, List)} without any attribute: type, dimensions (shared
   * ones and the private added last one) and the array as SPobject.
   */
  public static Variable.Builder<?> addBare(Group.Builder g, String name, ChunkedArray a, List<String> dimNames)
      throws IOException {
    DType dt = a.dtype();
    long[] shape = a.grid().shape();
    int[] cdm;
    try {
      cdm = SectionReader.cdmShape(shape, dt.extraDim());
    } catch (IllegalArgumentException e) {
      throw new IOException("variable " + name + ": " + e.getMessage());
    }
    if (dimNames != null && dimNames.size() != shape.length) {
      throw new IOException("variable " + name + ": " + dimNames.size() + " dimension names for rank " + shape.length);
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
    Variable.Builder<?> v = Variable.builder().setName(name).setDataType(CdmTypes.of(dt)).setDimensions(dims);
    v.setSPobject(a);
    g.addVariable(v);
    return v;
  }

  /** Makes a CDM variable for a dataset variable that has no chunked array (a format-specific reader). */
  public interface Unchunked {
    Variable.Builder<?> add(Group.Builder g, ChunkedVariable v) throws IOException;
  }

  /**
   * The CDM view of an opened dataset: its global attributes, and per variable the CDM variable over its
   * array ({@link #addBare}) with its dimension names and attributes converted to CDM ({@link CdmAttributes});
   * variables without an array go to {@code unchunked} (null: they are an IOException).
   */
  public static void addDataset(Group.Builder root, ChunkedDataset ds, Unchunked unchunked) throws IOException {
    for (ChunkedVariable cv : ds.variables()) {
      Variable.Builder<?> v;
      if (cv.array() != null) {
        v = addBare(root, cv.name(), cv.array(), cv.dimensions());
      } else if (unchunked != null) {
        v = unchunked.add(root, cv);
      } else {
        throw new IOException(ds.root() + ": variable " + cv.name() + " has no chunked array");
      }
      CdmAttributes.toCdm(cv.attributes(), cv.unsigned()).forEach(v::addAttribute);
    }
    CdmAttributes.toCdm(ds.attributes(), ds.unsigned()).forEach(root::addAttribute);
  }

  /** A shared dimension of {@code g} (created when missing); another length under that name is an IOException. */
  public static Dimension dimension(Group.Builder g, String name, int len, String var) throws IOException {
    return sharedDim(g, name, len, var);
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
    return DatasetVariable.chunkSizes(grid);
  }
}
