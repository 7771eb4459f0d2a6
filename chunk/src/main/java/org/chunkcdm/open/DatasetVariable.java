package org.chunkcdm.open;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;

/**
 * The {@link ChunkedVariable} the format openers return: name, dimension names, array and attributes, plus an
 * optional format-private {@link #source()} its own CDM adapter uses (e.g. a {@code .ds} string variable's
 * location).
 */
public final class DatasetVariable implements ChunkedVariable {
  private final String name;
  private final List<String> dims;
  private final ChunkedArray array;
  private final Attributes attrs;
  private final Object source;

  /**
   * @param dims one name per logical dimension; null = {@code <name>_dim0, <name>_dim1, ...}; made valid CDM names
   */
  public DatasetVariable(String name, List<String> dims, ChunkedArray array, Attributes attrs, Object source) {
    this.name = name;
    this.array = array;
    this.attrs = attrs == null ? new Attributes() : attrs;
    this.source = source;
    List<String> d = new ArrayList<>();
    if (dims != null) {
      for (String s : dims) {
        d.add(Names.valid(s));
      }
    } else if (array != null) {
      for (int i = 0; i < array.grid().rank(); i++) {
        d.add(Names.valid(name + "_dim" + i));
      }
    }
    this.dims = Collections.unmodifiableList(d);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<String> dimensions() {
    return dims;
  }

  @Override
  public ChunkedArray array() {
    return array;
  }

  @Override
  public Map<String, Object> attributes() {
    return attrs.map();
  }

  @Override
  public Set<String> unsigned() {
    return attrs.unsigned();
  }

  /** The format's own object behind this variable, for its CDM adapter (null when none). */
  public Object source() {
    return source;
  }

  /** This variable with its array reading through {@code array.withSettings(...)} (same name, dims, attributes). */
  public DatasetVariable withArray(ChunkedArray a) {
    return new DatasetVariable(name, dims, a, attrs, source);
  }

  /**
   * The attributes every chunked variable shows first (what the CDM adapter has always added): {@code _ChunkSizes}
   * when the chunks are N-d boxes and {@code chunkSizes} is true (one entry per CDM dimension, an added last
   * dimension of S&lt;n&gt;/complex/opaque types included), and for bool {@code flag_values = 0, 1} (unsigned
   * bytes) and {@code flag_meanings = "false true"}.
   */
  public static Attributes standardAttributes(ChunkedArray a, boolean chunkSizes) {
    Attributes out = new Attributes();
    DType dt = a.dtype();
    int[] cs = chunkSizes ? chunkSizes(a.grid()) : null;
    if (cs != null && dt.extraDim() > 0) { // the added last dimension is never split across chunks
      cs = Arrays.copyOf(cs, cs.length + 1);
      cs[cs.length - 1] = dt.extraDim();
    }
    if (cs != null) {
      out.put("_ChunkSizes", cs);
    }
    if (dt.kind() == DType.Kind.BOOL) {
      out.putUnsigned("flag_values", new byte[] {0, 1});
      out.put("flag_meanings", "false true");
    }
    return out;
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

  @Override
  public String toString() {
    return name + dims + (array == null ? " (no chunked array)" : " " + array.dtype() + " " + array.grid());
  }
}
