package org.chunkcdm.blosc2stores;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.ZipIndex;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.Names;
import org.chunkcdm.open.OpenOptions;
import org.chunkcdm.sframe.ContiguousFrame;

/**
 * python-blosc2's containers as datasets (docs/specs/blosc2-stores.md): a DictStore or TreeStore ({@code .b2d}
 * directory or {@code .b2z} zip), an EmbedStore ({@code .b2e}), a CTable (a TreeStore holding {@code /_meta} of
 * kind "ctable"). The store marker of the key-map frame decides, as in python-blosc2; the suffix only when the frame
 * carries none.
 *
 * <ul>
 *   <li>Each stored value (key {@code /dir/arr}) is the variable {@code dir/arr}: the value's frame read by
 *       iosp-sframe exactly as a {@code .b2nd} / {@code .b2f} file (its vlmeta become its attributes).
 *   <li>TreeStore: keys ending in {@code /__vlmeta__} are not variables; their vlmeta are the attributes of the
 *       root (global) or of the group. Inline CTables ({@code _object_registry}, else probed) become a group
 *       holding their columns.
 *   <li>CTable: one variable per schema column, all on the dimension {@code row} of the live rows (those python-blosc2
 *       shows: {@code _valid_rows} true, in physical order, see {@link LiveRows}); its {@code /_vlmeta} are the
 *       attributes of the table.
 *   <li>Values python-blosc2 reads as Python objects (BatchArray, ObjectArray, list/dictionary/string columns of
 *       variable length) and references to remote arrays are listed in the global attribute
 *       {@code blosc2_not_read} instead.
 * </ul>
 * Opening reads the zip directory or walks the directory, the key-map frame's header, index and trailer, and each
 * value's header, index and trailer; no chunk of any array.
 */
final class Blosc2Stores {
  static final String FORMAT = "blosc2-store";
  /** The shared dimension of a CTable's columns. */
  static final String ROW_DIM = "row";
  static final String CARRIER = "__vlmeta__";
  /** Column kinds python-blosc2 stores as Python objects or variable-length values. */
  static final Set<String> OBJECT_KINDS = Set.of("list", "vlstring", "vlbytes", "object", "dictionary", "utf8");
  /** Leaves opened between two closes of a directory store's file handles (bounds open files while opening). */
  static final int OPEN_BATCH = 256;

  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private Blosc2Stores() {}

  // ------------------------------------------------------------------ recognising

  /** The frame magic, a store marker, a zip start: what an entry path is. */
  enum Kind {
    /** A directory holding {@code embed.b2e} with a DictStore/TreeStore marker. */
    DIRECTORY,
    /** The {@code embed.b2e} of such a directory: the whole directory opens. */
    DIRECTORY_ENTRY,
    /** A zip archive with a stored {@code embed.b2e} member. */
    ZIP,
    /** An EmbedStore frame file. */
    EMBED
  }

  /** What {@code path} is, or null when it is not a python-blosc2 container. Reads a few hundred bytes. */
  static Kind kind(Path path) {
    try {
      Path p = path.toAbsolutePath().normalize();
      if (!Files.isRegularFile(p)) { // a directory, or (over HTTP) a path known only by its embed.b2e
        Path e = p.resolve(Container.EMBED);
        return Locations.mayBeDirectory(p) && Locations.isObject(e) && directoryMarker(head(e), p) ? Kind.DIRECTORY : null;
      }
      byte[] h = head(p);
      if (Container.startsWithMagic(h)) {
        String m = marker(h);
        if (p.getFileName().toString().equals(Container.EMBED) && p.getParent() != null
            && directoryMarker(h, p.getParent())) {
          return Kind.DIRECTORY_ENTRY;
        }
        return "b2embed".equals(m) ? Kind.EMBED : null;
      }
      if (h.length >= 4 && h[0] == 'P' && h[1] == 'K' && (h[2] == 3 && h[3] == 4 || h[2] == 5 && h[3] == 6)) {
        // a .b2z is claimed even when damaged, so that opening it says what is wrong
        return p.getFileName().toString().endsWith(".b2z") || isStoreZip(p) ? Kind.ZIP : null;
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** A key-map frame a directory store has: a DictStore/TreeStore marker (or none, in a {@code .b2d}). */
  private static boolean directoryMarker(byte[] h, Path dir) {
    if (!Container.startsWithMagic(h)) {
      return false;
    }
    String m = marker(h);
    return "b2dict".equals(m) || "b2tree".equals(m) || m == null && dir.getFileName() != null
        && dir.getFileName().toString().endsWith(".b2d");
  }

  private static String marker(byte[] h) {
    for (String n : ContiguousFrame.metalayerNames(h)) {
      if (ContiguousFrame.STORE_MARKERS.contains(n)) {
        return n;
      }
    }
    return null;
  }

  private static byte[] head(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      return in.readNBytes(ContiguousFrame.PROBE_BYTES);
    }
  }

  /** A zip archive whose stored member {@code embed.b2e} starts a frame with a store marker (or none, in a .b2z). */
  private static boolean isStoreZip(Path p) throws IOException {
    try (FileHandles files = new FileHandles(p)) {
      ZipIndex z = ZipIndex.read(files, p, Container.MAX_LEAVES);
      ZipIndex.Entry e = z.entry(Container.EMBED);
      if (e == null) {
        return false;
      }
      if (e.method() != ZipIndex.STORED) {
        return true; // a store, refused with its reason when opened
      }
      byte[] h = files.read(p, z.dataOffset(e), Math.min(e.size(), ContiguousFrame.PROBE_BYTES));
      if (!Container.startsWithMagic(h)) {
        return false;
      }
      String m = marker(h);
      return m != null || p.getFileName().toString().endsWith(".b2z");
    }
  }

  /** The directory of a directory store (also for its {@code embed.b2e}), else the file itself. */
  static Path datasetRoot(Path entry) {
    Path p = entry.toAbsolutePath().normalize();
    return kind(p) == Kind.DIRECTORY_ENTRY ? p.getParent() : p;
  }

  // ------------------------------------------------------------------ reading

  /**
   * Reads the container at {@code files.root()} (the directory or file {@link #datasetRoot} gives); {@code options}
   * give the cache and decode threads of the reads made for the dataset itself (a CTable's live rows).
   */
  static StoreDataset read(FileHandles files, OpenOptions options) throws IOException {
    Path root = files.root();
    Container c;
    if (!Files.isRegularFile(root)) {
      c = Container.directory(files, root);
    } else {
      byte[] h = files.read(root, 0, Math.min(4, files.size(root)));
      boolean zip = h.length == 4 && h[0] == 'P' && h[1] == 'K';
      c = zip ? Container.zip(files, root) : Container.frame(files, root);
    }
    try {
      return new Builder(c, options == null ? ReadSettings.defaults() : options.readSettings()).build();
    } finally {
      if (c.storage == Container.Storage.DIRECTORY) {
        files.close(); // the leaves' files reopen on the first read that needs them
      }
    }
  }

  /** A key's variable or group path: "/a b/c" → "a_b/c" (each level a valid CDM name). */
  static String path(String key) {
    StringBuilder sb = new StringBuilder();
    for (String seg : key.split("/")) {
      if (!seg.isEmpty()) {
        sb.append(sb.length() > 0 ? "/" : "").append(Names.valid(seg));
      }
    }
    return sb.toString();
  }

  /** Paths level by level: "a" &lt; "a/b" &lt; "a-b" (a parent and its subtree before the next sibling). */
  static final java.util.Comparator<String> BY_LEVELS = (x, y) -> {
    String[] a = x.isEmpty() ? new String[0] : x.split("/");
    String[] b = y.isEmpty() ? new String[0] : y.split("/");
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int c = a[i].compareTo(b[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.length, b.length);
  };

  /** The group part of a path ("" for the root). */
  static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i < 0 ? "" : path.substring(0, i);
  }

  /** The last level of a path. */
  static String last(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Builds the dataset of one container. */
  private static final class Builder {
    private final Container c;
    private final List<DatasetVariable> vars = new ArrayList<>();
    private final Map<String, Attributes> groups = new LinkedHashMap<>();
    private final Attributes global = new Attributes();
    private final List<String> notRead = new ArrayList<>();
    private final ReadSettings settings;
    private int opened;

    Builder(Container c, ReadSettings settings) {
      this.c = c;
      this.settings = settings;
      notRead.addAll(c.ignored);
    }

    StoreDataset build() throws IOException {
      String kind = containerKind();
      Attributes user = null;
      if (kind.equals("TreeStore") && rootIsTable()) {
        kind = "CTable";
        user = table("", "");
      } else if (kind.equals("TreeStore")) {
        user = tree();
      } else {
        for (Container.Leaf leaf : c.leaves.values()) {
          leafVariable(leaf);
        }
      }
      if (user != null) {
        global.putAll(user);
      }
      global.put("blosc2_container", kind);
      global.put("blosc2_storage", c.storage.text);
      if (!notRead.isEmpty()) {
        global.put("blosc2_not_read", notRead.toArray(new String[0]));
      }
      for (DatasetVariable v : vars) { // every group holding a variable exists, parents first
        group(parent(v.name()));
      }
      // the order of the CDM view's variables: a group's own (in the order found) before its subgroups'
      vars.sort((a, b) -> BY_LEVELS.compare(parent(a.name()), parent(b.name())));
      return new StoreDataset(new BasicDataset(FORMAT, c.files.root(), vars, global, c.files), sorted(groups));
    }

    /** Groups in the order netcdf-java lists them: parents before children, siblings by name. */
    private static Map<String, Attributes> sorted(Map<String, Attributes> groups) {
      Map<String, Attributes> out = new java.util.TreeMap<>(BY_LEVELS);
      out.putAll(groups);
      return new LinkedHashMap<>(out);
    }

    private Attributes group(String path) {
      if (path.isEmpty()) {
        return global;
      }
      group(parent(path));
      return groups.computeIfAbsent(path, k -> new Attributes());
    }

    /** EmbedStore, DictStore or TreeStore: the marker, else the suffix (python-blosc2's fallback). */
    private String containerKind() {
      if (c.marker != null) {
        return c.marker.equals("b2embed") ? "EmbedStore" : c.marker.equals("b2dict") ? "DictStore" : "TreeStore";
      }
      String n = c.files.root().getFileName().toString();
      return n.endsWith(".b2e") ? "EmbedStore" : n.endsWith(".b2d") ? "DictStore" : "TreeStore";
    }

    private ContiguousFrame open(Container.Leaf leaf) throws IOException {
      if (c.storage == Container.Storage.DIRECTORY && ++opened % OPEN_BATCH == 0) {
        c.files.close(); // a store of many files never holds more than a batch of them open while it opens
      }
      return leaf.open();
    }

    /** One stored value as the variable of its key. */
    private void leafVariable(Container.Leaf leaf) throws IOException {
      String why = c.notAnArray(leaf);
      if (why != null) {
        notRead.add(leaf.key + ": " + why);
        return;
      }
      ContiguousFrame f = open(leaf);
      String name = path(leaf.key);
      if (name.isEmpty()) {
        throw new FormatException(leaf.name() + ": the key names no variable");
      }
      int rank = f.isB2nd() ? f.shape().length : 1;
      List<String> dims = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        dims.add(last(name) + "_dim" + d);
      }
      vars.add(f.variable(name, dims));
    }

    // -------------------------------------------------------------- TreeStore

    /** A TreeStore: its values, group attributes, inline tables; returns the root attributes. */
    private Attributes tree() throws IOException {
      Map<String, String> objects = objectRoots();
      Attributes root = new Attributes();
      for (Container.Leaf leaf : c.leaves.values()) {
        String k = leaf.key;
        if (inside(k, objects)) {
          continue;
        }
        if (k.equals("/" + CARRIER) || k.endsWith("/" + CARRIER)) {
          String g = path(k.substring(0, k.length() - CARRIER.length() - 1));
          ContiguousFrame f = open(leaf);
          Attributes a = f.vlmetaAttributes();
          if (g.isEmpty()) {
            root.putAll(a);
          } else {
            group(g).putAll(a);
          }
          continue;
        }
        leafVariable(leaf);
      }
      for (Map.Entry<String, String> o : objects.entrySet()) {
        if (o.getValue().equals("ctable")) {
          group(path(o.getKey())).putAll(table(o.getKey(), path(o.getKey())));
        } else {
          notRead.add(o.getKey() + ": an object of kind '" + o.getValue() + "'");
        }
      }
      return root;
    }

    private static boolean inside(String key, Map<String, String> roots) {
      for (String r : roots.keySet()) {
        if (key.startsWith(r + "/")) {
          return true;
        }
      }
      return false;
    }

    /**
     * The object roots of a TreeStore (key → kind): the {@code _object_registry} of the key-map frame, else (no
     * registry, as python-blosc2 does) every {@code <key>/_meta} SChunk whose vlmeta kind is "ctable".
     */
    private Map<String, String> objectRoots() throws IOException {
      Map<String, String> out = new LinkedHashMap<>();
      JsonNode reg = c.embed.vlmetaJson("_object_registry");
      if (reg != null && reg.isObject() && reg.size() > 0) {
        Iterator<Map.Entry<String, JsonNode>> it = reg.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          String kind = e.getValue().path("kind").asText("");
          if (!e.getKey().startsWith("/") || e.getKey().length() < 2) {
            throw new FormatException(c.label + ": the object registry names the key '" + e.getKey() + "'");
          }
          out.put(e.getKey(), kind);
        }
        return out;
      }
      for (Container.Leaf leaf : c.leaves.values()) {
        if (leaf.key.endsWith("/_meta") && leaf.key.length() > "/_meta".length()) {
          ContiguousFrame f = open(leaf);
          if (!f.isB2nd() && "ctable".equals(text(f.vlmetaJson("kind")))) {
            out.put(leaf.key.substring(0, leaf.key.length() - "/_meta".length()), "ctable");
          }
        }
      }
      return out;
    }

    /** A TreeStore whose {@code /_meta} is a CTable manifest is a CTable (python-blosc2's root object). */
    private boolean rootIsTable() throws IOException {
      Container.Leaf meta = c.leaves.get("/_meta");
      if (meta == null) {
        return false;
      }
      ContiguousFrame f = open(meta);
      if (f.isB2nd()) {
        throw new FormatException(meta.name() + ": the root manifest '/_meta' must be an SChunk, not an NDArray");
      }
      String kind = text(f.vlmetaJson("kind"));
      if (kind == null) {
        throw new FormatException(meta.name() + ": the root manifest '/_meta' has no vlmeta 'kind'");
      }
      return kind.equals("ctable");
    }

    /** A msgpack str (or bin, as hex text: compared as such) value's text, or null. */
    private static String text(JsonNode n) {
      return n != null && n.isTextual() ? n.textValue() : null;
    }

    // -------------------------------------------------------------- CTable

    private Container.Leaf need(String key, String what) throws FormatException {
      Container.Leaf l = c.leaves.get(key);
      if (l == null) {
        throw new FormatException(c.label + ": key '" + key + "' (" + what + ") is missing from the store");
      }
      return l;
    }

    /**
     * The CTable at {@code prefix} ("" for the root) as variables under group {@code group}: one per column, on
     * the row dimension; returns the table's user attributes ({@code prefix/_vlmeta}).
     */
    private Attributes table(String prefix, String group) throws IOException {
      Container.Leaf metaLeaf = need(prefix + "/_meta", "the table's manifest");
      ContiguousFrame meta = open(metaLeaf);
      String kind = text(meta.vlmetaJson("kind"));
      if (!"ctable".equals(kind)) {
        throw new FormatException(metaLeaf.name() + ": the table manifest's kind is " + kind + ", not 'ctable'");
      }
      String schemaText = text(meta.vlmetaJson("schema"));
      JsonNode schema;
      try {
        schema = schemaText == null ? null : JSON.readTree(schemaText);
      } catch (IOException e) {
        throw new FormatException(metaLeaf.name() + ": the table schema is not JSON: " + e.getMessage(), e);
      }
      if (schema == null || !schema.path("columns").isArray()) {
        throw new FormatException(metaLeaf.name() + ": no table schema with a 'columns' list (vlmeta 'schema')");
      }
      JsonNode n = schema.path("n_rows");
      long nRows = n.isIntegralNumber() && n.canConvertToLong() && n.longValue() >= 0 ? n.longValue() : -1;
      Container.Leaf validLeaf = need(prefix + "/_valid_rows", "the table's live-row mask");
      ContiguousFrame vf = open(validLeaf);
      if (!vf.isB2nd() || vf.shape().length != 1) {
        throw new FormatException(validLeaf.name() + ": the live-row mask must be a 1-D b2nd array");
      }
      ChunkedArray valid = vf.variable("_valid_rows", null).array().withSettings(settings);
      String label = c.label + (prefix.isEmpty() ? "" : ": table '" + prefix + "'");
      LiveRows rows = new LiveRows(label, valid, nRows);
      Set<String> names = new LinkedHashSet<>();
      for (JsonNode col : schema.path("columns")) {
        String name = col.path("name").asText(null);
        String colKind = col.path("kind").asText("");
        if (name == null) {
          throw new FormatException(metaLeaf.name() + ": a schema column without a name: " + col);
        }
        String key = prefix + "/_cols/" + columnPath(name);
        if (OBJECT_KINDS.contains(colKind) || colKind.equals("struct")) {
          notRead.add(key + ": a column of kind '" + colKind + "' (variable-length values)");
          continue;
        }
        Container.Leaf leaf = need(key, "column '" + name + "'");
        ContiguousFrame f = open(leaf);
        if (!f.isB2nd()) {
          throw new FormatException(leaf.name() + ": column '" + name + "' is not a b2nd array");
        }
        String varName = (group.isEmpty() ? "" : group + "/") + Names.valid(name);
        if (!names.add(varName)) {
          throw new FormatException(metaLeaf.name() + ": two columns are named '" + name + "'");
        }
        List<String> dims = new ArrayList<>();
        dims.add(ROW_DIM);
        for (int d = 1; d < f.shape().length; d++) {
          dims.add(Names.valid(name) + "_dim" + d);
        }
        DatasetVariable base = f.variable(varName, dims);
        ChunkedArray arr;
        try {
          arr = rows.column(base.array(), leaf.name());
        } catch (ArithmeticException e) {
          throw new FormatException(leaf.name() + ": sizes overflow: " + e.getMessage());
        }
        vars.add(new DatasetVariable(varName, dims, arr, columnAttributes(col, colKind, base), null));
      }
      Container.Leaf user = c.leaves.get(prefix + "/_vlmeta");
      return user == null ? new Attributes() : open(user).vlmetaAttributes();
    }
  }

  /** A column's attributes: CF units of a timestamp column, then the column array's own. */
  private static Attributes columnAttributes(JsonNode col, String colKind, DatasetVariable base) {
    Attributes attrs = new Attributes();
    if (colKind.equals("timestamp")) {
      String unit = TIME_UNITS.get(col.path("unit").asText("ns"));
      if (unit != null) {
        attrs.put("units", unit + " since 1970-01-01T00:00:00Z");
      }
    }
    return attrs.putAbsent(base.attributes(), base.unsigned());
  }

  private static final Map<String, String> TIME_UNITS = Map.of("s", "seconds", "ms", "milliseconds", "us",
      "microseconds", "ns", "nanoseconds");

  /**
   * Where python-blosc2 stores a column under {@code _cols}: the name split at unescaped dots (a backslash escapes
   * the next character), each part with {@code % / . \} percent-encoded, joined by "/".
   */
  static String columnPath(String name) {
    List<String> parts = new ArrayList<>();
    StringBuilder buf = new StringBuilder();
    boolean escaped = false;
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (escaped) {
        buf.append(ch);
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '.') {
        parts.add(buf.toString());
        buf.setLength(0);
      } else {
        buf.append(ch);
      }
    }
    if (escaped) {
      buf.append('\\');
    }
    parts.add(buf.toString());
    StringBuilder out = new StringBuilder();
    for (String p : parts) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(p.replace("%", "%25").replace("/", "%2F").replace(".", "%2E").replace("\\", "%5C"));
    }
    return out.toString();
  }
}
