package org.chunkcdm.bcolz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.BasicDataset;
import org.chunkcdm.open.DatasetVariable;
import org.chunkcdm.open.Names;

/**
 * The bcolz family as datasets, without netcdf-java: bcolz carray and ctable directories, the Blaze "chunked"
 * variant ({@code data/__N__.bin} Bloscpack superchunks, {@code meta/attributes}) and Bloscpack format-3 files.
 * {@link BcolzIosp} is its CDM view, {@link BcolzOpener} its opener.
 *
 * <p>Entry files: a carray opens from {@code meta/sizes}, {@code meta/storage}, {@code __attrs__} (Blaze:
 * also {@code meta/attributes}); a ctable from {@code __rootdirs__} (or its {@code __attrs__}). A Bloscpack
 * file is its own entry file.
 *
 * <p>ctables: at open each column's {@code meta/sizes}, {@code meta/storage} and {@code __attrs__} (three
 * small JSON files) are read, because every variable's type, shape and attributes are part of the dataset. No
 * chunk file of any column is opened before a read of that column needs it, so a user reading 3 of 100,000
 * columns reads the data of 3 columns only.
 */
final class Bcolz {
  static final String FORMAT = "bcolz";
  /** Name of the shared row dimension of a ctable's columns. */
  static final String ROW_DIM = "row";

  enum Kind {
    CARRAY,
    CTABLE,
    BLOSCPACK
  }

  private Bcolz() {}

  /** What an entry file opens (null: not ours), judged from names. */
  static Kind classify(Path p) {
    Path name = p.getFileName();
    Path parent = p.getParent();
    if (name == null || parent == null) {
      return null;
    }
    switch (name.toString()) {
      case "__rootdirs__":
        return Files.isRegularFile(p) ? Kind.CTABLE : null;
      case "__attrs__":
        if (Files.isRegularFile(parent.resolve("__rootdirs__"))) {
          return Kind.CTABLE;
        }
        return isCarrayDir(parent) ? Kind.CARRAY : null;
      case "sizes":
      case "storage":
      case "attributes":
        Path meta = parent.getFileName();
        return meta != null && meta.toString().equals("meta") && parent.getParent() != null
            && isCarrayDir(parent.getParent()) ? Kind.CARRAY : null;
      default:
        return null;
    }
  }

  static boolean isCarrayDir(Path dir) {
    return Files.isRegularFile(dir.resolve("meta").resolve("sizes"))
        && Files.isRegularFile(dir.resolve("meta").resolve("storage"));
  }

  /**
   * The entry file of a dataset directory (carray {@code meta/sizes}, else ctable {@code __rootdirs__}), or null.
   * The carray is asked about first: its two meta files are read by the open anyway, so a remote carray costs no
   * request for the question (a ctable's top level has no {@code meta} directory).
   */
  static Path entryOfDirectory(Path dir) {
    if (isCarrayDir(dir)) {
      return dir.resolve("meta").resolve("sizes");
    }
    Path rootdirs = dir.resolve("__rootdirs__");
    return Files.isRegularFile(rootdirs) ? rootdirs : null;
  }

  /** The directory of a carray/ctable entry file; the file itself for a Bloscpack file. */
  static Path datasetRoot(Path entry) {
    Kind k = classify(entry);
    if (k == null) {
      return entry; // a Bloscpack file is the whole dataset
    }
    String n = entry.getFileName().toString();
    return n.equals("__rootdirs__") || n.equals("__attrs__") ? entry.getParent() : entry.getParent().getParent();
  }

  /** Reads the dataset whose entry file is given, through {@code files} (rooted at {@link #datasetRoot}). */
  static BasicDataset read(FileHandles files, Path entry) throws IOException {
    Kind k = classify(entry);
    Path dir = datasetRoot(entry);
    List<DatasetVariable> vars = new ArrayList<>();
    Attributes global = new Attributes();
    if (k == null) {
      readBloscpack(files, entry, vars, global);
    } else if (k == Kind.CTABLE) {
      readCtable(files, dir, vars, global);
    } else {
      CArray.Layout layout = CArray.layoutOf(dir);
      String name = Names.fromFileName(dir.getFileName().toString());
      CArray a = CArray.open(files, dir, name, layout);
      Path attrs = layout == CArray.Layout.BCOLZ ? dir.resolve("__attrs__") : dir.resolve("meta").resolve("attributes");
      vars.add(carray(name, a, null, readAttrs(files, attrs)));
      global.put("bcolz_layout", layout == CArray.Layout.BCOLZ ? "bcolz carray" : "Blaze chunked");
    }
    return new BasicDataset(FORMAT, files.root(), vars, global, files);
  }

  /** Attributes JSON file (optional: a missing file means none). */
  private static JsonNode readAttrs(FileHandles files, Path p) throws IOException {
    files.checkInside(p);
    if (!Files.exists(p)) {
      return null;
    }
    JsonNode n = Json.read(files, p);
    if (!n.isObject()) {
      throw new FormatException(p + ": attributes must be a JSON object");
    }
    return n;
  }

  private static void readCtable(FileHandles files, Path dir, List<DatasetVariable> vars, Attributes global)
      throws IOException {
    Path rootdirs = dir.resolve("__rootdirs__");
    JsonNode rd = Json.object(Json.read(files, rootdirs), rootdirs.toString());
    JsonNode names = rd.get("names");
    if (names == null || !names.isArray()) {
      throw new FormatException(rootdirs + ": 'names' must be a list of column names");
    }
    global.putJson(readAttrs(files, dir.resolve("__attrs__")));
    global.put("bcolz_layout", "bcolz ctable");
    Set<String> seen = new HashSet<>();
    long rows = -1;
    for (JsonNode n : names) {
      if (!n.isTextual()) {
        throw new FormatException(rootdirs + ": column name " + n + " is not a string");
      }
      String col = n.textValue();
      if (col.isEmpty() || col.equals(".") || col.contains("/") || col.contains("\\")) {
        throw new FormatException(rootdirs + ": column name '" + col + "' is not a plain directory name inside the ctable");
      }
      Path colDir;
      try {
        colDir = files.resolve(col); // refuses '..', absolute names and symbolic links leading out of the ctable
      } catch (IOException e) {
        throw new IOException(rootdirs + ": column '" + col + "' escapes the ctable: " + e.getMessage(), e);
      }
      // (a remote column is a key prefix that cannot be asked about: its meta/sizes read says when it is missing)
      if (!files.isRemote() && !Files.isDirectory(colDir)) {
        throw new FormatException(rootdirs + ": column '" + col + "' has no directory " + colDir);
      }
      String var = Names.valid(col);
      if (!seen.add(var)) {
        throw new FormatException(rootdirs + ": two columns are named '" + var + "'");
      }
      CArray a = CArray.open(files, colDir, col, CArray.Layout.BCOLZ);
      if (rows >= 0 && a.shape[0] != rows) {
        throw new FormatException(colDir + ": column '" + col + "' has " + a.shape[0] + " rows, the table " + rows);
      }
      rows = a.shape[0];
      List<String> dims = new ArrayList<>();
      dims.add(ROW_DIM);
      for (int d = 1; d < a.shape.length; d++) {
        dims.add(var + "_dim" + d);
      }
      vars.add(carray(var, a, dims, readAttrs(files, colDir.resolve("__attrs__"))));
    }
  }

  /**
   * A carray or column: the attributes the CDM view has always shown, in its order: {@code _ChunkSizes} (and
   * the bool flags), the user's attributes whose names are not taken, then compression, cparams.*, bcolz_dtype,
   * chunklen and dflt. A Python-object array has no chunked array (its reads fail clearly in the CDM view) and
   * an {@code unreadable} attribute first.
   */
  private static DatasetVariable carray(String name, CArray a, List<String> dims, JsonNode userAttrs) {
    Attributes ours = new Attributes();
    ours.put("compression", a.compression());
    if (a.cparams != null) {
      ours.putJson("cparams", a.cparams);
    }
    ours.put("bcolz_dtype", a.storageDtype);
    ours.put("chunklen", a.chunklen);
    Attributes attrs;
    if (a.isObjectArray()) {
      attrs = new Attributes().put("unreadable", "pickled Python objects (dtype " + a.storageDtype + ")");
      if (dims == null) {
        dims = new ArrayList<>();
        for (int d = 0; d < a.shape.length; d++) {
          dims.add(name + "_dim" + d);
        }
      }
    } else {
      if (a.dflt != null && !a.dflt.isNull()) {
        dflt(a, ours);
      }
      attrs = DatasetVariable.standardAttributes(a, true);
    }
    Attributes user = Attributes.fromJson(userAttrs);
    for (Map.Entry<String, Object> e : user.map().entrySet()) {
      String k = e.getKey();
      if (!ours.has(k) && !attrs.has(k)) {
        if (user.unsigned().contains(k)) {
          attrs.putUnsigned(k, e.getValue());
        } else {
          attrs.put(k, e.getValue());
        }
      }
    }
    attrs.putAll(ours);
    return new DatasetVariable(name, dims, a.isObjectArray() ? null : a, attrs, a);
  }

  /** bcolz's {@code dflt} (the value resize fills in) in the variable's type. Not a _FillValue: it is data. */
  private static void dflt(CArray a, Attributes out) {
    JsonNode d = a.dflt;
    DType dt = a.dtype();
    switch (dt.kind()) {
      case INT:
      case UINT:
        if (d.isIntegralNumber()) {
          long v = d.bigIntegerValue().longValue();
          Object boxed = dt.itemSize() == 1 ? (Object) (byte) v : dt.itemSize() == 2 ? (Object) (short) v
              : dt.itemSize() == 4 ? (Object) (int) v : (Object) v;
          if (dt.kind() == DType.Kind.UINT) {
            out.putUnsigned("dflt", boxed);
          } else {
            out.put("dflt", boxed);
          }
          return;
        }
        break;
      case FLOAT:
        if (d.isNumber()) {
          out.put("dflt", dt.itemSize() == 8 ? (Object) d.doubleValue() : (Object) (float) d.doubleValue());
          return;
        }
        break;
      case BOOL:
        if (d.isBoolean() || d.isNumber()) {
          boolean on = d.isBoolean() ? d.booleanValue() : d.doubleValue() != 0;
          out.putUnsigned("dflt", (byte) (on ? 1 : 0));
          return;
        }
        break;
      case BYTES:
      case UNICODE:
        if (d.isTextual()) {
          out.put("dflt", d.textValue());
          return;
        }
        break;
      default:
        break;
    }
    out.put("dflt", Attributes.text(d));
  }

  private static void readBloscpack(FileHandles files, Path file, List<DatasetVariable> vars, Attributes global)
      throws IOException {
    Bloscpack bp = Bloscpack.open(files, file);
    String name = Names.fromFileName(file.getFileName().toString());
    PackedArray pa = PackedArray.of(bp, file, name);
    ChunkGrid.Flat grid = pa.grid(bp, file, name);
    NumpyDescr descr = pa.descr;
    ChunkedArray a = new BasicChunkedArray(descr.dtype, grid, null, new Object()) {
      @Override
      public ChunkData chunk(long index) throws IOException {
        return descr.littleEndian(bp.chunk((int) index));
      }

      @Override
      public org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
        return bp.prefetch(chunks);
      }
    };
    if (bp.metadata != null) {
      global.putJson(bp.metadata);
    }
    global.put("bcolz_layout", pa.ndarray ? "Bloscpack ndarray" : "Bloscpack bytes");
    Attributes attrs = DatasetVariable.standardAttributes(a, true);
    attrs.put("compression", describe(bp));
    if (descr.littleEndianDescr() != null) {
      attrs.put("numpy_dtype", descr.littleEndianDescr());
    }
    vars.add(new DatasetVariable(name, null, a, attrs, null));
  }

  /** The array a Bloscpack file holds: as its ndarray metadata describes it, else its bytes as one uint8 row. */
  private static final class PackedArray {
    final boolean ndarray;
    final NumpyDescr descr;
    final long[] shape;
    final boolean fortran;

    private PackedArray(boolean ndarray, NumpyDescr descr, long[] shape, boolean fortran) {
      this.ndarray = ndarray;
      this.descr = descr;
      this.shape = shape;
      this.fortran = fortran;
    }

    static PackedArray of(Bloscpack bp, Path file, String name) throws IOException {
      JsonNode meta = bp.metadata;
      boolean ndarray = meta != null && meta.isObject() && meta.path("dtype").isTextual()
          && meta.path("shape").isArray() && meta.has("order");
      if (!ndarray) {
        return new PackedArray(false, NumpyDescr.parse("'|u1'"), new long[] {bp.totalBytes()}, false);
      }
      NumpyDescr descr;
      try {
        descr = NumpyDescr.parse(meta.get("dtype").textValue());
      } catch (IOException e) {
        throw new IOException(file + ": variable " + name + ": " + e.getMessage(), e);
      }
      JsonNode sh = meta.get("shape");
      long[] shape = new long[sh.size()];
      for (int d = 0; d < shape.length; d++) {
        if (!sh.get(d).isIntegralNumber() || sh.get(d).longValue() < 0) {
          throw new FormatException(file + ": bad shape " + sh + " in the ndarray metadata");
        }
        shape[d] = sh.get(d).longValue();
      }
      String order = meta.get("order").asText();
      if (!order.equals("C") && !order.equals("F")) {
        throw new FormatException(file + ": array order '" + order + "' is neither C nor F");
      }
      return new PackedArray(true, descr, shape, order.equals("F"));
    }

    /** The flat grid of the file's chunks over the array, checked against the chunks' sizes and count. */
    ChunkGrid.Flat grid(Bloscpack bp, Path file, String name) throws IOException {
      int item = descr.dtype.itemSize();
      long items = 1;
      for (long s : shape) {
        items = Math.multiplyExact(items, s);
      }
      if (Math.multiplyExact(items, (long) item) != bp.totalBytes()) {
        throw new FormatException(file + ": variable " + name + ": the chunks hold " + bp.totalBytes()
            + " bytes but shape " + java.util.Arrays.toString(shape) + " of " + descr.dtype + " needs " + items * item);
      }
      if (items > 0 && (item == 0 || bp.chunkSize % item != 0)) {
        throw new FormatException(file + ": variable " + name + ": chunk_size " + bp.chunkSize
            + " is not a multiple of the " + item + "-byte item size");
      }
      ChunkGrid.Flat grid = ChunkGrid.flat(shape, item == 0 ? 0 : bp.chunkSize / item, fortran);
      if (items > 0 && grid.chunkCount() != bp.nchunks) {
        throw new FormatException(file + ": " + bp.nchunks + " chunks in the header, but " + grid.chunkCount()
            + " chunks of " + bp.chunkSize + " bytes make the array");
      }
      return grid;
    }
  }

  private static final String[] CODECS = {"blosclz", "lz4", "snappy", "zlib", "zstd"};

  /** e.g. "blosc lz4, byte shuffle, typesize 8; chunk checksum adler32" (from chunk 0's Blosc header). */
  static String describe(Bloscpack bp) throws IOException {
    StringBuilder sb = new StringBuilder("blosc");
    if (bp.nchunks > 0) {
      byte[] h = bp.frameHeader(0);
      int flags = h[2] & 0xff;
      if ((flags & 0x02) != 0) {
        sb.append(" uncompressed (memcpy)");
      } else {
        int c = flags >> 5;
        sb.append(' ').append(c < CODECS.length ? CODECS[c] : "codec " + c);
        sb.append((flags & 0x01) != 0 ? ", byte shuffle" : (flags & 0x04) != 0 ? ", bit shuffle" : ", no shuffle");
      }
      sb.append(", typesize ").append(h[3] & 0xff);
    }
    return sb.append("; chunk checksum ").append(Bloscpack.checksumName(bp.checksum)).toString();
  }
}
