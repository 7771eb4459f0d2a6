package org.chunkcdm.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FormatException;

/**
 * Array metadata of Zarr v2 ({@code .zarray}) and v3 ({@code zarr.json}) as a {@link Node} holding a {@link ZarrArray}:
 * shape, chunk grid, element type, fill value, chunk keys and the decoding pipeline. Malformed metadata is a
 * FormatException naming the document; an element type, chunk grid or codec chunkcdm does not read leaves the array
 * in the dataset with a reason its reads give.
 */
final class ArrayMeta {
  /** Dimensions and chunk entries a metadata document may have. */
  static final int MAX_RANK = 32;

  private ArrayMeta() {}

  // ------------------------------------------------------------------------------------------------ v2

  static Node v2(Store store, String path, String name, JsonNode m, String what) throws IOException {
    Node n = new Node(path, name, true);
    n.format = 2;
    int zf = m.path("zarr_format").asInt(-1);
    if (zf != 2) {
      throw new FormatException(what + ": zarr_format " + m.path("zarr_format") + ", expected 2");
    }
    n.shape = shape(m.get("shape"), what, "shape");
    int rank = n.shape.length;
    int[] chunks = chunks(m.get("chunks"), rank, what, "chunks");
    n.nczarr = m.has("_NCZARR_ARRAY");
    n.dimRefs = nczarrDimRefs(m, rank);
    String prefix = path.isEmpty() ? "" : path + "/";
    JsonNode dt = m.get("dtype");
    DType dtype;
    try {
      if (dt == null || !dt.isTextual()) {
        throw new IOException(dt == null ? "no dtype" : "structured dtype " + dt);
      }
      dtype = DType.parseNumpy(dt.textValue());
    } catch (IOException e) {
      n.unreadable = "element type " + (dt == null ? "(none)" : dt.isTextual() ? "'" + dt.textValue() + "'" : dt.toString())
          + " is not read by chunkcdm (" + e.getMessage() + ")";
      return n;
    }
    n.dtype = dtype;
    n.fill = Fill.parse(m.get("fill_value"), dtype, what);
    String sep = m.path("dimension_separator").asText(".");
    if (!sep.equals(".") && !sep.equals("/")) {
      throw new FormatException(what + ": dimension_separator '" + sep + "' (only '.' and '/' exist)");
    }
    ChunkKeys keys = new ChunkKeys(false, sep.charAt(0));
    String order = m.path("order").asText("C");
    if (!order.equals("C") && !order.equals("F")) {
      throw new FormatException(what + ": order '" + order + "' (only C and F exist)");
    }
    long decoded = elements(chunks) * dtype.itemSize();
    List<Step> steps = new ArrayList<>();
    List<String> desc = new ArrayList<>();
    String unreadable = v2Steps(m, what, steps, desc);
    if (order.equals("F") && rank > 1) {
      steps.add(Transpose.fortran(chunks, dtype.itemSize()));
    }
    if (desc.isEmpty()) {
      desc.add("none");
    }
    Pipeline p = new Pipeline(steps, decoded, String.join(", ", desc));
    byte[] fill = n.fill != null ? n.fill : Fill.missing(dtype);
    n.array = new ZarrArray(store, prefix, path.isEmpty() ? name : path, dtype, n.shape, chunks, fill, keys, p, null,
        unreadable);
    return n;
  }

  /**
   * The v2 compressor and filters as decode steps (the compressor, then the filters last first) added to
   * {@code steps}, their description to {@code desc}; what makes the array unreadable, or null.
   */
  private static String v2Steps(JsonNode m, String what, List<Step> steps, List<String> desc) throws IOException {
    String unreadable = null;
    JsonNode comp = m.get("compressor");
    if (comp != null && !comp.isNull()) {
      String id = comp.path("id").asText("");
      Step s = Compressors.of(id, comp);
      if (s == null || id.equals("crc32c")) {
        unreadable = "compressor '" + id + "' is not supported (config " + comp + ")";
      } else {
        steps.add(s);
        desc.add(s.describe());
      }
    }
    JsonNode filters = m.get("filters");
    if (filters != null && !filters.isNull()) {
      if (!filters.isArray()) {
        throw new FormatException(what + ": filters must be a list or null");
      }
      for (int i = filters.size() - 1; i >= 0 && unreadable == null; i--) {
        JsonNode f = filters.get(i);
        Step s;
        try {
          s = Filters.of(f);
        } catch (IOException e) {
          throw new FormatException(what + ": " + e.getMessage(), e);
        }
        if (s == null) {
          unreadable = "filter '" + f.path("id").asText("?") + "' is not supported (config " + f + ")";
        } else {
          steps.add(s);
        }
      }
      List<String> fd = new ArrayList<>();
      for (JsonNode f : filters) {
        fd.add(f.path("id").asText("?"));
      }
      desc.add("filters " + String.join(" > ", fd));
    }
    return unreadable;
  }

  /** NCZarr's dimension references of an array of {@code rank}, or null. */
  private static List<String> nczarrDimRefs(JsonNode m, int rank) {
    JsonNode refs = m.path("_NCZARR_ARRAY").path("dimrefs");
    if (!refs.isArray() || refs.size() != rank) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (JsonNode r : refs) {
      out.add(r.asText(""));
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------------ v3

  static Node v3(Store store, String path, String name, JsonNode m, String what) throws IOException {
    Node n = new Node(path, name, true);
    n.format = 3;
    n.shape = shape(m.get("shape"), what, "shape");
    int rank = n.shape.length;
    JsonNode dn = m.get("dimension_names");
    if (dn != null && dn.isArray() && dn.size() == rank) {
      n.dimNames = new ArrayList<>();
      for (JsonNode d : dn) {
        n.dimNames.add(d.isTextual() && !d.textValue().isEmpty() ? d.textValue() : null);
      }
    }
    n.attrs = m.get("attributes");
    JsonNode grid = m.path("chunk_grid");
    String prefix = path.isEmpty() ? "" : path + "/";
    String arrayName = path.isEmpty() ? name : path;
    int[] chunks;
    if (!grid.path("name").asText("").equals("regular")) {
      n.unreadable = "chunk grid '" + grid.path("name").asText("?") + "' is not supported (only 'regular')";
      return n;
    }
    chunks = chunks(grid.path("configuration").get("chunk_shape"), rank, what, "chunk_grid.configuration.chunk_shape");
    JsonNode dtj = m.get("data_type");
    DType base = v3Type(dtj);
    if (base == null) {
      n.unreadable = "data type " + (dtj == null ? "(none)" : dtj.toString()) + " is not read by chunkcdm";
      return n;
    }
    ChunkKeys keys = v3Keys(m.path("chunk_key_encoding"), what);
    JsonNode codecs = m.get("codecs");
    if (codecs == null || !codecs.isArray() || codecs.isEmpty()) {
      throw new FormatException(what + ": codecs must be a non-empty list");
    }
    V3Chain chain = new V3Chain();
    String problem = chain.parse(codecs, chunks, base, what, 0);
    DType dtype = base.withOrder(chain.order);
    n.dtype = dtype;
    JsonNode fv = m.get("fill_value");
    if (fv == null || fv.isNull()) {
      throw new FormatException(what + ": fill_value is required in Zarr v3");
    }
    n.fill = Fill.parse(fv, dtype, what);
    if (problem != null) {
      n.array = new ZarrArray(store, prefix, arrayName, dtype, n.shape, chunks, n.fill, keys, Pipeline.raw(0), null, problem);
      return n;
    }
    if (chain.sharding != null) {
      int[] inner = chain.innerShape;
      n.array = new ZarrArray(store, prefix, arrayName, dtype, n.shape, inner, n.fill, keys, null, chain.sharding, null);
    } else {
      n.array = new ZarrArray(store, prefix, arrayName, dtype, n.shape, chunks, n.fill, keys, chain.pipeline, null, null);
    }
    return n;
  }

  /** A v3 data type (little-endian until the {@code bytes} codec says otherwise), or null when not read. */
  static DType v3Type(JsonNode t) {
    if (t == null || !t.isTextual()) {
      return null;
    }
    String s = t.textValue();
    try {
      switch (s) {
        case "bool":
        case "int8":
        case "int16":
        case "int32":
        case "int64":
        case "uint8":
        case "uint16":
        case "uint32":
        case "uint64":
        case "float16":
        case "float32":
        case "float64":
        case "complex64":
        case "complex128":
          return DType.parseNumpy(s);
        default:
          if (s.matches("r[0-9]{1,5}")) {
            int bits = Integer.parseInt(s.substring(1));
            if (bits > 0 && bits % 8 == 0) {
              return DType.of(DType.Kind.OPAQUE, bits / 8, ByteOrder.LITTLE_ENDIAN);
            }
          }
          return null;
      }
    } catch (IOException e) {
      return null;
    }
  }

  static ChunkKeys v3Keys(JsonNode enc, String what) throws IOException {
    String name = enc.path("name").asText("default");
    JsonNode sepNode = enc.path("configuration").path("separator");
    switch (name) {
      case "default": {
        String sep = sepNode.asText("/");
        if (!sep.equals("/") && !sep.equals(".")) {
          throw new FormatException(what + ": chunk key separator '" + sep + "'");
        }
        return new ChunkKeys(true, sep.charAt(0));
      }
      case "v2": {
        String sep = sepNode.asText(".");
        if (!sep.equals("/") && !sep.equals(".")) {
          throw new FormatException(what + ": chunk key separator '" + sep + "'");
        }
        return new ChunkKeys(false, sep.charAt(0));
      }
      default:
        throw new FormatException(what + ": chunk_key_encoding '" + name + "' (only 'default' and 'v2' exist)");
    }
  }

  /** A v3 codec list: array-to-array transposes, one array-to-bytes codec, bytes-to-bytes codecs. */
  static final class V3Chain {
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    Pipeline pipeline;
    Sharding sharding;
    int[] innerShape;
    /** Stored axis k = array axis perm[k] after the transposes. */
    int[] perm;
    /** The transposes' decoding steps, in decode order, for a chunk of the array's chunk shape. */
    List<Step> untranspose = new ArrayList<>();

    /**
     * Parses {@code codecs} for chunks of {@code chunkShape}; returns null, or why the chunks cannot be decoded (an
     * unknown codec). Structural errors are FormatExceptions.
     */
    String parse(JsonNode codecs, int[] chunkShape, DType type, String what, int depth) throws IOException {
      int rank = chunkShape.length;
      perm = new int[rank];
      for (int k = 0; k < rank; k++) {
        perm[k] = k;
      }
      int[] shape = chunkShape.clone();
      int i = 0;
      List<String> desc = new ArrayList<>();
      List<Step> transposes = new ArrayList<>();
      for (; i < codecs.size(); i++) {
        JsonNode c = codecs.get(i);
        String name = c.path("name").asText("");
        if (!name.equals("transpose")) {
          break;
        }
        int[] p = transposeOrder(c.path("configuration").path("order"), rank, what);
        int[] next = Transpose.apply(shape, p);
        transposes.add(0, new Transpose(next, p, type.itemSize()));
        int[] composed = new int[rank];
        for (int k = 0; k < rank; k++) {
          composed[k] = perm[p[k]];
        }
        perm = composed;
        shape = next;
        desc.add("transpose " + java.util.Arrays.toString(p));
      }
      untranspose = transposes;
      if (i >= codecs.size()) {
        throw new FormatException(what + ": codecs have no array-to-bytes codec (bytes or sharding_indexed)");
      }
      JsonNode ab = codecs.get(i++);
      String abName = ab.path("name").asText("");
      List<Step> bb = new ArrayList<>();
      List<String> bbDesc = new ArrayList<>();
      String unreadable = bytesToBytes(codecs, i, bb, bbDesc, what);
      switch (abName) {
        case "bytes": {
          desc.addAll(bbDesc);
          bytes(ab, bb, transposes, elements(chunkShape) * type.itemSize(), desc, what);
          return unreadable;
        }
        case "sharding_indexed": {
          if (depth > 0) {
            return "nested sharding_indexed is not supported";
          }
          if (!bb.isEmpty() || unreadable != null) {
            return unreadable != null ? unreadable : "bytes-to-bytes codecs after sharding_indexed are not supported";
          }
          return sharding(ab.path("configuration"), shape, transposes, type, what);
        }
        default:
          return "codec '" + abName + "' is not supported as array-to-bytes codec";
      }
    }

    /**
     * The bytes-to-bytes codecs from index {@code i} on, as decode steps (the last codec first) into {@code bb}
     * and their descriptions into {@code bbDesc}; the first unsupported one, or null.
     */
    private static String bytesToBytes(JsonNode codecs, int i, List<Step> bb, List<String> bbDesc, String what)
        throws IOException {
      String unreadable = null;
      for (; i < codecs.size(); i++) {
        JsonNode c = codecs.get(i);
        String name = c.path("name").asText("");
        if (name.equals("bytes") || name.equals("sharding_indexed") || name.equals("transpose")) {
          throw new FormatException(what + ": codec '" + name + "' after the array-to-bytes codec");
        }
        String id = name.startsWith("numcodecs.") ? name.substring("numcodecs.".length()) : name;
        Step s = Compressors.of(id, c.path("configuration"));
        if (s == null) {
          unreadable = unreadable != null ? unreadable : "codec '" + name + "' is not supported (config " + c.path("configuration") + ")";
        } else {
          bb.add(0, s);
          bbDesc.add(s.describe());
        }
      }
      return unreadable;
    }

    /** The {@code bytes} array-to-bytes codec: the byte order, and the pipeline of {@code bb} then the transposes. */
    private void bytes(JsonNode ab, List<Step> bb, List<Step> transposes, long decoded, List<String> desc, String what)
        throws IOException {
      String endian = ab.path("configuration").path("endian").asText("little");
      if (!endian.equals("little") && !endian.equals("big")) {
        throw new FormatException(what + ": bytes endian '" + endian + "'");
      }
      order = endian.equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      List<Step> steps = new ArrayList<>(bb);
      for (Step t : transposes) {
        if (!((Transpose) t).identity()) {
          steps.add(t);
        }
      }
      pipeline = new Pipeline(steps, decoded, desc.isEmpty() ? "none" : String.join(", ", desc));
    }

    private String sharding(JsonNode cfg, int[] shardShape, List<Step> outerTransposes, DType type, String what)
        throws IOException {
      int rank = shardShape.length;
      int[] innerStored = chunks(cfg.get("chunk_shape"), rank, what, "sharding_indexed chunk_shape");
      for (int k = 0; k < rank; k++) {
        if (shardShape[k] % innerStored[k] != 0) {
          throw new FormatException(what + ": shard shape " + java.util.Arrays.toString(shardShape)
              + " is not a multiple of the inner chunk shape " + java.util.Arrays.toString(innerStored));
        }
      }
      int[] outerPerm = perm;
      int[] inner = Transpose.invert(innerStored, outerPerm); // in the array's axis order
      int[] perShard = new int[rank];
      int[] shardArray = Transpose.invert(shardShape, outerPerm);
      for (int d = 0; d < rank; d++) {
        perShard[d] = shardArray[d] / inner[d];
      }
      JsonNode innerCodecs = cfg.get("codecs");
      if (innerCodecs == null || !innerCodecs.isArray() || innerCodecs.isEmpty()) {
        throw new FormatException(what + ": sharding_indexed needs its inner codecs");
      }
      V3Chain in = new V3Chain();
      String problem = in.parse(innerCodecs, innerStored, type, what, 1);
      if (problem != null) {
        return problem;
      }
      order = in.order;
      // inner chunk: inner pipeline (C order over the stored inner shape), then the outer transposes undone
      List<Step> steps = new ArrayList<>(in.pipeline.steps);
      int[] cur = innerStored;
      for (Step t : outerTransposes) {
        Transpose tr = (Transpose) t;
        Transpose onInner = new Transpose(cur, tr.perm, type.itemSize());
        if (!onInner.identity()) {
          steps.add(onInner);
        }
        cur = Transpose.invert(cur, tr.perm);
      }
      long innerBytes = elements(inner) * type.itemSize();
      Pipeline innerPipe = new Pipeline(steps, innerBytes, in.pipeline.description);
      // the index: [chunks per shard..., 2] uint64 through its own codecs
      JsonNode ic = cfg.get("index_codecs");
      if (ic == null || !ic.isArray() || ic.isEmpty()) {
        throw new FormatException(what + ": sharding_indexed needs index_codecs");
      }
      JsonNode first = ic.get(0);
      if (!first.path("name").asText("").equals("bytes")) {
        return "shard index codec '" + first.path("name").asText() + "' is not supported";
      }
      boolean bigIndex = first.path("configuration").path("endian").asText("little").equals("big");
      List<Step> idxSteps = new ArrayList<>();
      List<String> idxDesc = new ArrayList<>();
      long n = 1;
      for (int p : perShard) {
        n *= p;
      }
      if (n > (1 << 26)) {
        throw new FormatException(what + ": " + n + " inner chunks per shard");
      }
      long len = 16 * n;
      for (int k = 1; k < ic.size(); k++) {
        String nm = ic.get(k).path("name").asText("");
        if (!nm.equals("crc32c")) {
          return "shard index codec '" + nm + "' is not supported";
        }
        idxSteps.add(0, new Compressors.Crc32c());
        idxDesc.add("crc32c");
        len += 4;
      }
      Pipeline index = new Pipeline(idxSteps, 16 * n, idxDesc.isEmpty() ? "none" : "index " + String.join(", ", idxDesc));
      String loc = cfg.path("index_location").asText("end");
      if (!loc.equals("start") && !loc.equals("end")) {
        throw new FormatException(what + ": index_location '" + loc + "'");
      }
      innerShape = inner;
      sharding = new Sharding(perShard, outerPerm, index, (int) len, bigIndex, loc.equals("start"), innerPipe);
      return null;
    }
  }

  static int[] transposeOrder(JsonNode o, int rank, String what) throws IOException {
    int[] p = new int[rank];
    if (o.isTextual()) { // early drafts: "C" / "F"
      for (int k = 0; k < rank; k++) {
        p[k] = o.textValue().equals("F") ? rank - 1 - k : k;
      }
      return p;
    }
    if (!o.isArray() || o.size() != rank) {
      throw new FormatException(what + ": transpose order " + o + " for rank " + rank);
    }
    for (int k = 0; k < rank; k++) {
      p[k] = o.get(k).asInt(-1);
    }
    if (!Transpose.isPermutation(p, rank)) {
      throw new FormatException(what + ": transpose order " + o + " is not a permutation");
    }
    return p;
  }

  // ------------------------------------------------------------------------------------------------ common

  static long[] shape(JsonNode s, String what, String key) throws IOException {
    if (s == null || !s.isArray() || s.size() > MAX_RANK) {
      throw new FormatException(what + ": " + key + " must be a list of at most " + MAX_RANK + " lengths");
    }
    long[] out = new long[s.size()];
    double total = 1;
    for (int d = 0; d < out.length; d++) {
      JsonNode v = s.get(d);
      if (!v.canConvertToLong() || !v.isIntegralNumber() || v.longValue() < 0 || v.longValue() > Integer.MAX_VALUE) {
        throw new FormatException(what + ": " + key + " entry " + v + " is not a length (0 .. 2^31-1)");
      }
      out[d] = v.longValue();
      total *= out[d];
    }
    if (total > 0x1p56) {
      throw new FormatException(what + ": " + key + " " + s + " has more than 2^56 elements");
    }
    return out;
  }

  static int[] chunks(JsonNode s, int rank, String what, String key) throws IOException {
    if (s == null || !s.isArray() || s.size() != rank) {
      throw new FormatException(what + ": " + key + " must be a list of " + rank + " chunk lengths");
    }
    int[] out = new int[rank];
    double total = 1;
    for (int d = 0; d < rank; d++) {
      JsonNode v = s.get(d);
      if (!v.isIntegralNumber() || v.longValue() < 1 || v.longValue() > Integer.MAX_VALUE) {
        throw new FormatException(what + ": " + key + " entry " + v + " is not a positive chunk length");
      }
      out[d] = v.intValue();
      total *= out[d];
    }
    if (total > 0x1p48) {
      throw new FormatException(what + ": " + key + " " + s + " has more than 2^48 elements a chunk");
    }
    return out;
  }

  static long elements(int[] shape) {
    long n = 1;
    for (int s : shape) {
      n = Math.multiplyExact(n, (long) s);
    }
    return n;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
