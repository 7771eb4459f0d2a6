package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.Names;

/**
 * A Zarr store as chunkcdm shows it (docs/cdm-contract.md): groups with attributes, and per array its variable name,
 * shared dimensions and attributes. Both the netcdf-java-free opener and the IOSP are views of this one model.
 *
 * <ul>
 *   <li>Dimensions: xarray's {@code _ARRAY_DIMENSIONS} (v2), {@code dimension_names} (v3) or NCZarr's
 *       {@code dimrefs}; a name is shared with the array's group or an enclosing group where one of that name and
 *       length exists, else defined in the array's group; a name taken there with another length stays the name of
 *       a dimension of the array's own (not shared); a null name or no names at all give {@code <array>_dim<k>}.
 *   <li>Attributes: {@code _ChunkSizes} (and bool flags) first, the user's attributes (without
 *       {@code _ARRAY_DIMENSIONS} and NCZarr's bookkeeping, typed by NCZarr's {@code _NCZARR_ATTR.types} where
 *       given), {@code _FillValue} (the user's one in the variable's type; for xarray-written v2 arrays the
 *       {@code fill_value}; for a v2 {@code fill_value} of null the missing value never-written elements read as),
 *       then {@code compression}.
 * </ul>
 */
final class ZarrTree {
  /** Attribute names that are Zarr/xarray/NCZarr bookkeeping, not user attributes. */
  static final Set<String> RESERVED = Set.of("_ARRAY_DIMENSIONS", "_NCZARR_ATTR", "_NCZARR_ARRAY", "_NCZARR_GROUP",
      "_NCZARR_SUPERBLOCK");

  final Store store;
  final Node root;
  /** Defined dimensions per group path, name → length, in order of definition. */
  final Map<String, LinkedHashMap<String, Long>> dims = new LinkedHashMap<>();
  /** Third entry of a dimension reference that is the array's own (not a shared dimension of the group). */
  static final String PRIVATE = "private";
  /** Per array node: the group path and name of each of its dimensions ({@link #PRIVATE} third for own ones). */
  final Map<Node, List<String[]>> arrayDims = new LinkedHashMap<>();
  final Map<Node, Attributes> arrayAttrs = new LinkedHashMap<>();

  private ZarrTree(Store store, Node root) {
    this.store = store;
    this.root = root;
  }

  static ZarrTree read(Store store, String storeName) throws IOException {
    ZarrTree t = new ZarrTree(store, Hierarchy.read(store, storeName));
    t.dims.put("", new LinkedHashMap<>());
    List<Node> arrays = new ArrayList<>();
    t.root.arrays(arrays);
    for (Node a : arrays) {
      t.arrayDims.put(a, t.resolveDims(a));
      t.arrayAttrs.put(a, t.attributes(a));
    }
    return t;
  }

  /** The group path of an array node ({@code ""} also for a root array). */
  static String groupOf(Node a) {
    return a.path.isEmpty() ? "" : a.parentPath();
  }

  /** The variable name in the netcdf-java-free view: the array's path inside the store (or the store name). */
  static String pathName(Node a) {
    return a.path.isEmpty() ? a.name : a.path;
  }

  private List<String> dimNames(Node a) {
    if (a.format == 2 && a.attrs != null) {
      JsonNode d = a.attrs.get("_ARRAY_DIMENSIONS");
      if (d != null && d.isArray() && d.size() == a.shape.length) {
        List<String> out = new ArrayList<>();
        for (JsonNode x : d) {
          out.add(x.isTextual() && !x.textValue().isEmpty() ? x.textValue() : null);
        }
        return out;
      }
    }
    return a.dimNames;
  }

  private List<String[]> resolveDims(Node a) {
    String group = groupOf(a);
    List<String> names = dimNames(a);
    List<String[]> out = new ArrayList<>();
    String var = Names.valid(a.name);
    for (int d = 0; d < a.shape.length; d++) {
      long len = a.shape[d];
      String[] found = null;
      if (names == null && a.dimRefs != null) {
        found = dimRef(a.dimRefs.get(d), len);
      } else if (names != null && names.get(d) != null) {
        String n = Names.valid(names.get(d));
        found = shared(group, n, len);
        if (found == null) {
          // the name is taken in this group with another length: the array keeps the name on a dimension of its
          // own (not shared), as the store writes it
          found = new String[] {group, n, PRIVATE};
        }
      }
      if (found == null) {
        found = generated(group, var + "_dim" + d, len);
      }
      out.add(found);
    }
    return out;
  }

  /** NCZarr {@code /grp/sub/name}: the dimension defined in that group (kept when its length agrees). */
  private String[] dimRef(String ref, long len) {
    if (ref == null || !ref.startsWith("/") || ref.length() < 2) {
      return null;
    }
    String inner = ref.substring(1);
    int i = inner.lastIndexOf('/');
    String g = i < 0 ? "" : inner.substring(0, i);
    String n = Names.valid(inner.substring(i + 1));
    try {
      Hierarchy.checkPath(g, "dimrefs");
    } catch (IOException e) {
      return null;
    }
    if (!g.isEmpty() && find(root, g) == null) {
      return null;
    }
    return define(g, n, len) ? new String[] {g, n} : null;
  }

  private static Node find(Node n, String path) {
    if (n.path.equals(path)) {
      return n.isArray ? null : n;
    }
    for (Node c : n.children) {
      if (!c.isArray && (path.equals(c.path) || path.startsWith(c.path + "/"))) {
        return find(c, path);
      }
    }
    return null;
  }

  /** The group where {@code name} of length {@code len} is (or is now) defined for an array of {@code group}. */
  private String[] shared(String group, String name, long len) {
    Long here = dims.computeIfAbsent(group, g -> new LinkedHashMap<>()).get(name);
    if (here != null) {
      return here == len ? new String[] {group, name} : null;
    }
    for (String g = group; !g.isEmpty(); ) {
      g = g.contains("/") ? g.substring(0, g.lastIndexOf('/')) : "";
      Long l = dims.computeIfAbsent(g, x -> new LinkedHashMap<>()).get(name);
      if (l != null && l == len) {
        return new String[] {g, name};
      }
    }
    define(group, name, len);
    return new String[] {group, name};
  }

  private boolean define(String group, String name, long len) {
    LinkedHashMap<String, Long> m = dims.computeIfAbsent(group, g -> new LinkedHashMap<>());
    Long have = m.get(name);
    if (have == null) {
      m.put(name, len);
      return true;
    }
    return have == len;
  }

  private String[] generated(String group, String name, long len) {
    String n = name;
    for (int k = 2; !define(group, n, len); k++) {
      n = name + "_" + k;
    }
    return new String[] {group, n};
  }

  // ------------------------------------------------------------------------------------------------ attributes

  /** User attributes of a node (groups too) without bookkeeping, typed by NCZarr where it says. */
  static Attributes userAttributes(JsonNode attrs) {
    Attributes out = new Attributes();
    if (attrs == null || !attrs.isObject()) {
      return out;
    }
    JsonNode types = attrs.path("_NCZARR_ATTR").path("types");
    Iterator<Map.Entry<String, JsonNode>> it = attrs.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (RESERVED.contains(e.getKey())) {
        continue;
      }
      if (types.isObject() && types.has(e.getKey()) && typed(out, e.getKey(), e.getValue(), types.get(e.getKey()).asText(""))) {
        continue;
      }
      out.putJson(e.getKey(), e.getValue());
    }
    return out;
  }

  /** An attribute of a numeric NCZarr type as that type; false when it is not one (then the JSON rules apply). */
  private static boolean typed(Attributes out, String name, JsonNode v, String type) {
    DType t;
    try {
      t = DType.parseNumpy(type);
    } catch (IOException e) {
      return false;
    }
    if (!Fill.numeric(t) || t.kind() == DType.Kind.BOOL) {
      return false;
    }
    List<JsonNode> vals = new ArrayList<>();
    if (v.isArray()) {
      v.forEach(vals::add);
    } else {
      vals.add(v);
    }
    if (vals.isEmpty()) {
      return false;
    }
    Object[] boxed = new Object[vals.size()];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = Fill.boxed(t, vals.get(i));
      if (boxed[i] == null) {
        return false;
      }
    }
    Object value = boxed.length == 1 && !v.isArray() ? boxed[0] : array(boxed);
    String n = Names.valid(name);
    if (t.kind() == DType.Kind.UINT) {
      out.putUnsigned(n, value);
    } else {
      out.put(n, value);
    }
    return true;
  }

  private static Object array(Object[] b) {
    int n = b.length;
    if (b[0] instanceof Byte) {
      byte[] a = new byte[n];
      for (int i = 0; i < n; i++) {
        a[i] = (Byte) b[i];
      }
      return a;
    }
    if (b[0] instanceof Short) {
      short[] a = new short[n];
      for (int i = 0; i < n; i++) {
        a[i] = (Short) b[i];
      }
      return a;
    }
    if (b[0] instanceof Integer) {
      int[] a = new int[n];
      for (int i = 0; i < n; i++) {
        a[i] = (Integer) b[i];
      }
      return a;
    }
    if (b[0] instanceof Long) {
      long[] a = new long[n];
      for (int i = 0; i < n; i++) {
        a[i] = (Long) b[i];
      }
      return a;
    }
    if (b[0] instanceof Float) {
      float[] a = new float[n];
      for (int i = 0; i < n; i++) {
        a[i] = (Float) b[i];
      }
      return a;
    }
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = (Double) b[i];
    }
    return a;
  }

  private Attributes attributes(Node a) {
    Attributes out = new Attributes();
    if (a.array != null) {
      out.putAll(DatasetVariable.standardAttributes(a.array, true));
    }
    Attributes user = userAttributes(a.attrs);
    out.putAll(user);
    DType dt = a.dtype;
    if (dt != null && Fill.numeric(dt)) {
      JsonNode userFill = a.attrs == null ? null : a.attrs.get("_FillValue");
      // xarray keeps _FillValue in fill_value; NCZarr (which also writes _ARRAY_DIMENSIONS) keeps it in .zattrs and
      // writes netCDF's default fill as fill_value
      boolean xarray = a.format == 2 && a.attrs != null && a.attrs.has("_ARRAY_DIMENSIONS") && !a.nczarr
          && !a.attrs.has("_NCZARR_ATTR");
      if (userFill != null) {
        Object v = Fill.boxed(dt, userFill);
        if (v != null) {
          out.remove("_FillValue");
          if (dt.kind() == DType.Kind.UINT || dt.kind() == DType.Kind.BOOL) {
            out.putUnsigned("_FillValue", v);
          } else {
            out.put("_FillValue", v);
          }
        }
      } else if (a.fill != null && xarray) {
        Fill.putFillValue(out, dt, a.fill);
      } else if (a.fill == null && a.format == 2) {
        Fill.putFillValue(out, dt, Fill.missing(dt));
      }
    }
    if (a.array != null) {
      out.put("compression", a.array.compression());
    }
    if (a.unreadable != null || a.array != null && a.array.unreadable != null) {
      out.put("unreadable", a.unreadable != null ? a.unreadable : a.array.unreadable);
    }
    return out;
  }

  /** Newest modification time of the store's files. */
  long lastModified() {
    return store.lastModified();
  }
}
