package org.chunkcdm.zarr;

/**
 * Chunk keys of a Zarr array: v2 (and v3 {@code v2} encoding) join the grid indices with the separator ({@code 0.1},
 * {@code 0/1}; a 0-d array's one chunk is {@code 0}); v3 {@code default} puts {@code c} in front ({@code c/0/1},
 * {@code c.0.1}; 0-d: {@code c}).
 */
final class ChunkKeys {
  final boolean v3Default;
  final char separator;

  ChunkKeys(boolean v3Default, char separator) {
    this.v3Default = v3Default;
    this.separator = separator;
  }

  String key(long[] coords) {
    StringBuilder sb = new StringBuilder(coords.length * 3 + 2);
    if (v3Default) {
      sb.append('c');
      for (long c : coords) {
        sb.append(separator).append(c);
      }
      return sb.toString();
    }
    if (coords.length == 0) {
      return "0";
    }
    for (int d = 0; d < coords.length; d++) {
      if (d > 0) {
        sb.append(separator);
      }
      sb.append(coords[d]);
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return (v3Default ? "default" : "v2") + " '" + separator + "'";
  }
}
