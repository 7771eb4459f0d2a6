package org.chunkcdm.fiji;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;

/**
 * One variable as the viewer sees it: its stored {@link ChunkedArray} (element type, chunk grid, chunks),
 * dimension names in CDM order and attributes (values as {@link org.chunkcdm.open.ChunkedVariable#attributes()}
 * describes them). Made from a chunkcdm opener's variable or, for other files, by the netcdf-java fallback.
 */
public final class ImageVariable {
  private final String name;
  private final List<String> dims;
  private final ChunkedArray array;
  private final Map<String, Object> attributes;
  private final ImageDataset dataset;

  public ImageVariable(ImageDataset dataset, String name, List<String> dims, ChunkedArray array, Map<String, Object> attributes) {
    this.dataset = dataset;
    this.name = name;
    this.dims = List.copyOf(dims);
    this.array = array;
    this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes == null ? Map.of() : attributes));
  }

  public String name() {
    return name;
  }

  /** Dimension names, CDM order (slowest first). */
  public List<String> dimensions() {
    return dims;
  }

  /** The stored array, or null when the variable is not a fixed-size numeric chunked array. */
  public ChunkedArray array() {
    return array;
  }

  public Map<String, Object> attributes() {
    return attributes;
  }

  public ImageDataset dataset() {
    return dataset;
  }

  /** CDM shape (slowest first). */
  public long[] shape() {
    return array == null ? new long[0] : array.grid().shape();
  }

  public int rank() {
    return array == null ? 0 : array.grid().rank();
  }

  /** Null when the variable can be shown as an image, else why not (clear, for the user). */
  public String whyNotAnImage() {
    if (array == null) {
      return "variable '" + name + "' of " + dataset.path() + " is not a numeric chunked array (strings or objects)";
    }
    DType dt = array.dtype();
    if (!Types.isSupported(dt)) {
      return "variable '" + name + "' of " + dataset.path() + " has type " + dt + " (" + dt.kind()
          + "), which has no image pixel type: only (u)int8..(u)int64, float16/32/64 and bool are shown";
    }
    long[] s = shape();
    for (int d = 0; d < s.length; d++) {
      if (s[d] == 0) {
        return "variable '" + name + "' of " + dataset.path() + " is empty (dimension " + d + " has length 0)";
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return name + java.util.Arrays.toString(shape()) + " " + (array == null ? "?" : array.dtype());
  }
}
