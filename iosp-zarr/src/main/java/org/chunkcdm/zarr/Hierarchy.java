package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.chunkcdm.io.FormatException;

/**
 * Reads the node tree of a Zarr store from metadata only (no chunk is touched): v3 {@code zarr.json} nodes (with
 * inline consolidated metadata when present), v2 consolidated {@code .zmetadata} (one document for the whole store),
 * or v2 {@code .zgroup}/{@code .zarray}/{@code .zattrs} found by listing. Directories without metadata between
 * groups and arrays are implicit groups (kept only when they hold arrays).
 */
final class Hierarchy {
  /** Nodes (groups, arrays, directories looked at) a store may have. */
  static final int MAX_NODES = 2_000_000;
  static final int MAX_DEPTH = 64;

  private final Store store;
  private final String storeName;
  private int visited;

  private Hierarchy(Store store, String storeName) {
    this.store = store;
    this.storeName = storeName;
  }

  /** The root node of the store; a store without Zarr metadata at its root is a FormatException. */
  static Node read(Store store, String storeName) throws IOException {
    return new Hierarchy(store, storeName).root();
  }

  private JsonNode json(String key) throws IOException {
    byte[] b = store.get(key, Store.MAX_METADATA);
    return b == null ? null : Json.parse(b, store.describe(key));
  }

  private Node root() throws IOException {
    JsonNode v3 = json("zarr.json");
    if (v3 != null) {
      return v3Node("", v3);
    }
    JsonNode cons = json(".zmetadata");
    if (cons != null && cons.path("metadata").isObject()) {
      return consolidated(cons.get("metadata"));
    }
    JsonNode za = json(".zarray");
    if (za != null) {
      Node n = ArrayMeta.v2(store, "", storeName, za, store.describe(".zarray"));
      n.attrs = json(".zattrs");
      return n;
    }
    JsonNode zg = json(".zgroup");
    if (zg == null) {
      throw new FormatException(store.root() + ": not a Zarr store (no zarr.json, .zmetadata, .zgroup or .zarray at its root)");
    }
    checkGroup(zg, 2, store.describe(".zgroup"));
    Node g = new Node("", storeName, false);
    g.format = 2;
    g.attrs = json(".zattrs");
    walkV2(g, 0);
    return g;
  }

  private static void checkGroup(JsonNode g, int format, String what) throws IOException {
    int zf = g.path("zarr_format").asInt(-1);
    if (zf != format) {
      throw new FormatException(what + ": zarr_format " + g.path("zarr_format") + ", expected " + format);
    }
  }

  private void count() throws FormatException {
    if (++visited > MAX_NODES) {
      throw new FormatException(store.root() + ": more than " + MAX_NODES + " nodes");
    }
  }

  /** The child names of a group key prefix, as listed, checked and sorted. */
  private List<String> children(String prefix) throws IOException {
    List<String> names = store.list(prefix);
    List<String> out = new ArrayList<>();
    if (names == null) {
      throw new FormatException(store.describe(prefix) + ": a Zarr group without consolidated metadata; finding "
          + "its arrays needs a listing of the store, which a plain HTTP server cannot give (open it through S3, "
          + "e.g. s3://bucket/path, or consolidate its metadata)");
    }
    for (String n : names) {
      if (!n.isEmpty() && !n.startsWith(".") && n.indexOf('\0') < 0 && n.indexOf('\\') < 0) {
        out.add(n);
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** The node of a child directory read from its metadata, or null when it has none (an implicit group). */
  private interface ChildReader {
    Node read(String path, String name) throws IOException;
  }

  /** Adds the nodes below {@code group} found by listing; implicit groups are kept when they hold arrays. */
  private void walk(Node group, int depth, ChildReader reader) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new FormatException(store.root() + ": groups nested deeper than " + MAX_DEPTH);
    }
    String prefix = group.path.isEmpty() ? "" : group.path + "/";
    for (String name : children(prefix)) {
      count();
      String path = prefix + name;
      Node n = reader.read(path, name);
      boolean implicit = n == null;
      if (implicit) {
        n = new Node(path, name, false);
        n.format = group.format;
      }
      if (!n.isArray) {
        walk(n, depth + 1, reader);
      }
      if (!implicit || hasArrays(n)) {
        group.children.add(n);
      }
    }
  }

  private void walkV2(Node group, int depth) throws IOException {
    walk(group, depth, (path, name) -> {
      JsonNode za = json(path + "/.zarray");
      if (za != null) {
        Node a = ArrayMeta.v2(store, path, name, za, store.describe(path + "/.zarray"));
        a.attrs = json(path + "/.zattrs");
        return a;
      }
      JsonNode zg = json(path + "/.zgroup");
      if (zg == null) {
        return null;
      }
      checkGroup(zg, 2, store.describe(path + "/.zgroup"));
      Node g = new Node(path, name, false);
      g.format = 2;
      g.attrs = json(path + "/.zattrs");
      return g;
    });
  }

  private static boolean hasArrays(Node g) {
    List<Node> a = new ArrayList<>();
    g.arrays(a);
    return !a.isEmpty();
  }

  private Node consolidated(JsonNode meta) throws IOException {
    String what = store.describe(".zmetadata");
    TreeMap<String, JsonNode[]> byPath = new TreeMap<>(); // path -> {.zgroup, .zarray, .zattrs}
    Iterator<Map.Entry<String, JsonNode>> it = meta.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      int slot = key.endsWith(".zgroup") ? 0 : key.endsWith(".zarray") ? 1 : key.endsWith(".zattrs") ? 2 : -1;
      if (slot < 0) {
        continue;
      }
      String path = key.substring(0, key.length() - 7);
      if (path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      } else if (!path.isEmpty()) {
        continue; // e.g. "x.zarray": not a metadata key
      }
      checkPath(path, what);
      if (!e.getValue().isObject()) {
        throw new FormatException(what + ": metadata of '" + key + "' is not a JSON object");
      }
      count();
      byPath.computeIfAbsent(path, p -> new JsonNode[3])[slot] = e.getValue();
    }
    JsonNode[] root = byPath.get("");
    if (root != null && root[1] != null) {
      Node n = ArrayMeta.v2(store, "", storeName, root[1], what + " (.zarray)");
      n.attrs = root[2];
      return n;
    }
    if (root == null || root[0] == null) {
      throw new FormatException(what + ": no root .zgroup in the consolidated metadata");
    }
    checkGroup(root[0], 2, what + " (.zgroup)");
    Node top = new Node("", storeName, false);
    top.format = 2;
    top.attrs = root[2];
    TreeMap<String, Node> nodes = new TreeMap<>();
    nodes.put("", top);
    for (Map.Entry<String, JsonNode[]> e : byPath.entrySet()) {
      String path = e.getKey();
      if (path.isEmpty()) {
        continue;
      }
      JsonNode[] m = e.getValue();
      Node n;
      String name = path.substring(path.lastIndexOf('/') + 1);
      if (m[1] != null) {
        n = ArrayMeta.v2(store, path, name, m[1], what + " (" + path + "/.zarray)");
      } else if (m[0] != null) {
        checkGroup(m[0], 2, what + " (" + path + "/.zgroup)");
        n = new Node(path, name, false);
        n.format = 2;
      } else {
        continue; // attributes without a node
      }
      n.attrs = m[2];
      attach(nodes, n);
    }
    return top;
  }

  /** Adds a node under its parent group, creating implicit groups on the way. */
  private static void attach(TreeMap<String, Node> nodes, Node n) throws FormatException {
    String parentPath = n.parentPath();
    Node parent = nodes.get(parentPath);
    if (parent == null) {
      String name = parentPath.substring(parentPath.lastIndexOf('/') + 1);
      parent = new Node(parentPath, name, false);
      parent.format = n.format;
      attach(nodes, parent);
    }
    if (parent.isArray) {
      throw new FormatException("node '" + n.path + "' lies inside array '" + parent.path + "'");
    }
    nodes.put(n.path, n);
    parent.children.add(n);
  }

  /** A node path from metadata: segments that are real names (no empty, {@code .} or {@code ..} segment). */
  static void checkPath(String path, String what) throws FormatException {
    if (path.isEmpty()) {
      return;
    }
    for (String seg : path.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..") || seg.indexOf('\0') >= 0 || seg.indexOf('\\') >= 0) {
        throw new FormatException(what + ": node path '" + path + "' is not a valid Zarr path");
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ v3

  private Node v3Node(String path, JsonNode m) throws IOException {
    Node n = v3NodeNoRecurse(path, m);
    if (n.isArray) {
      return n;
    }
    JsonNode cm = m.path("consolidated_metadata");
    if (path.isEmpty() && cm.path("metadata").isObject()) {
      consolidatedV3(n, cm.get("metadata"), store.describe("zarr.json"));
    } else {
      walkV3(n, 0);
    }
    return n;
  }

  private void consolidatedV3(Node top, JsonNode meta, String what) throws IOException {
    TreeMap<String, Node> nodes = new TreeMap<>();
    nodes.put("", top);
    TreeMap<String, JsonNode> sorted = new TreeMap<>();
    meta.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
    for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
      String path = e.getKey();
      checkPath(path, what);
      count();
      JsonNode m = e.getValue();
      String name = path.substring(path.lastIndexOf('/') + 1);
      Node n;
      if (m.path("node_type").asText("").equals("array")) {
        n = ArrayMeta.v3(store, path, name, m, what + " (" + path + ")");
      } else {
        n = new Node(path, name, false);
        n.format = 3;
        n.attrs = m.get("attributes");
      }
      attach(nodes, n);
    }
  }

  private void walkV3(Node group, int depth) throws IOException {
    walk(group, depth, (path, name) -> {
      JsonNode m = json(path + "/zarr.json");
      return m == null ? null : v3NodeNoRecurse(path, m);
    });
  }

  private Node v3NodeNoRecurse(String path, JsonNode m) throws IOException {
    String what = store.describe(path.isEmpty() ? "zarr.json" : path + "/zarr.json");
    if (m.path("zarr_format").asInt(-1) != 3) {
      throw new FormatException(what + ": zarr_format " + m.path("zarr_format") + ", expected 3");
    }
    String name = path.isEmpty() ? storeName : path.substring(path.lastIndexOf('/') + 1);
    String type = m.path("node_type").asText("");
    if (type.equals("array")) {
      return ArrayMeta.v3(store, path, name, m, what);
    }
    if (!type.equals("group")) {
      throw new FormatException(what + ": node_type '" + type + "' (expected group or array)");
    }
    Node g = new Node(path, name, false);
    g.format = 3;
    g.attrs = m.get("attributes");
    return g;
  }
}
