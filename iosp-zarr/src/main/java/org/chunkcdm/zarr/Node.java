package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.chunk.DType;

/** One node of a Zarr hierarchy: a group with its children, or an array. */
final class Node {
  /** Path inside the store, {@code /}-separated, {@code ""} for the root. */
  final String path;
  /** The node's name (last path segment; a root array is named after the store). */
  final String name;
  final boolean isArray;
  /** User attributes ({@code .zattrs}, v3 {@code attributes}), or null. */
  JsonNode attrs;
  final List<Node> children = new ArrayList<>();

  // ---- arrays
  /** The readable array, or null when its element type is not one chunkcdm reads ({@link #unreadable} says why). */
  ZarrArray array;
  long[] shape;
  DType dtype;
  String unreadable;
  /** Dimension names ({@code _ARRAY_DIMENSIONS}, v3 {@code dimension_names}; entries may be null), or null. */
  List<String> dimNames;
  /** NCZarr dimension references ({@code /group/dim}), or null. */
  List<String> dimRefs;
  /** The fill value element, or null when the metadata gives none ({@code null}). */
  byte[] fill;
  /** True for a v2 array written by netcdf-c's NCZarr ({@code _NCZARR_ARRAY} in its metadata). */
  boolean nczarr;
  /** Zarr format of the node (2 or 3). */
  int format;

  Node(String path, String name, boolean isArray) {
    this.path = path;
    this.name = name;
    this.isArray = isArray;
  }

  /** The group path a child lives in ({@code ""} for the root). */
  String parentPath() {
    int i = path.lastIndexOf('/');
    return i < 0 ? "" : path.substring(0, i);
  }

  /** Every array below (and including) this node, groups first visited in order. */
  void arrays(List<Node> out) {
    if (isArray) {
      out.add(this);
      return;
    }
    for (Node c : children) {
      if (c.isArray) {
        out.add(c);
      }
    }
    for (Node c : children) {
      if (!c.isArray) {
        c.arrays(out);
      }
    }
  }

  @Override
  public String toString() {
    return (isArray ? "array " : "group ") + (path.isEmpty() ? "/" : path);
  }
}
