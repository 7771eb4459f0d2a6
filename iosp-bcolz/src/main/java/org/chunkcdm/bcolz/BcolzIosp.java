package org.chunkcdm.bcolz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for the bcolz family: bcolz carray and ctable directories, the Blaze "chunked" variant
 * ({@code data/__N__.bin} Bloscpack superchunks, {@code meta/attributes}) and Bloscpack format-3 files.
 *
 * <p>Entry files: a carray opens from {@code meta/sizes}, {@code meta/storage}, {@code __attrs__} (Blaze:
 * also {@code meta/attributes}); a ctable from {@code __rootdirs__} (or its {@code __attrs__}); directories
 * open through {@link BcolzDirectoryProvider}. A Bloscpack file is its own entry file.
 *
 * <p>ctables: at open each column's {@code meta/sizes}, {@code meta/storage} and {@code __attrs__} (three
 * small JSON files) are read, because netcdf-java needs every variable's type, shape and attributes when the
 * dataset is built. No chunk file of any column is opened before a read of that column needs it, so a user
 * reading 3 of 100,000 columns reads the data of 3 columns only.
 */
public class BcolzIosp extends ChunkedIosp {
  /** Name of the shared row dimension of a ctable's columns. */
  public static final String ROW_DIM = "row";

  enum Kind {
    CARRAY,
    CTABLE,
    BLOSCPACK
  }

  /** What an entry file opens (null: not ours), judged from names and, for other files, the first bytes. */
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

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    Path p;
    try {
      p = Paths.get(stripFileUrl(raf.getLocation())).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      return false;
    }
    if (classify(p) != null) {
      return true;
    }
    if (raf.length() < Bloscpack.HEADER) {
      return false;
    }
    byte[] head = new byte[5];
    raf.seek(0);
    raf.readFully(head);
    return Bloscpack.isBloscpack(head, head.length);
  }

  /** File handles of the open dataset (tests check which files were touched). */
  org.chunkcdm.io.FileHandles handles() {
    return files();
  }

  @Override
  public String getFileTypeId() {
    return "bcolz";
  }

  @Override
  public String getFileTypeDescription() {
    return "bcolz carray/ctable, Blaze chunked array or Bloscpack file (chunkcdm)";
  }

  @Override
  protected Path datasetRoot(Path entry) throws IOException {
    Kind k = classify(entry);
    if (k == null) {
      return entry; // a Bloscpack file is the whole dataset
    }
    String n = entry.getFileName().toString();
    return n.equals("__rootdirs__") || n.equals("__attrs__") ? entry.getParent() : entry.getParent().getParent();
  }

  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    Kind k = classify(entry);
    Path dir = datasetRoot(entry);
    if (k == null) {
      buildBloscpack(entry, root);
    } else if (k == Kind.CTABLE) {
      buildCtable(dir, root);
    } else {
      CArray.Layout layout = CArray.layoutOf(dir);
      String name = CdmNames.fromFileName(dir.getFileName().toString());
      CArray a = CArray.open(files(), dir, name, layout);
      Path attrs = layout == CArray.Layout.BCOLZ ? dir.resolve("__attrs__") : dir.resolve("meta").resolve("attributes");
      addCArray(root, name, a, null, readAttrs(attrs));
      root.addAttribute(new Attribute("bcolz_layout", layout == CArray.Layout.BCOLZ ? "bcolz carray" : "Blaze chunked"));
    }
  }

  /** Attributes JSON file (optional: a missing file means none). */
  private JsonNode readAttrs(Path p) throws IOException {
    files().checkInside(p);
    if (!Files.exists(p)) {
      return null;
    }
    JsonNode n = Json.read(files(), p);
    if (!n.isObject()) {
      throw new IOException(p + ": attributes must be a JSON object");
    }
    return n;
  }

  private void buildCtable(Path dir, Group.Builder root) throws IOException {
    Path rootdirs = dir.resolve("__rootdirs__");
    JsonNode rd = Json.object(Json.read(files(), rootdirs), rootdirs.toString());
    JsonNode names = rd.get("names");
    if (names == null || !names.isArray()) {
      throw new IOException(rootdirs + ": 'names' must be a list of column names");
    }
    List<Attribute> global = CdmAttributes.fromJson(readAttrs(dir.resolve("__attrs__")));
    global.forEach(root::addAttribute);
    root.addAttribute(new Attribute("bcolz_layout", "bcolz ctable"));
    Set<String> seen = new HashSet<>();
    long rows = -1;
    for (JsonNode n : names) {
      if (!n.isTextual()) {
        throw new IOException(rootdirs + ": column name " + n + " is not a string");
      }
      String col = n.textValue();
      if (col.isEmpty() || col.equals(".") || col.contains("/") || col.contains("\\")) {
        throw new IOException(rootdirs + ": column name '" + col + "' is not a plain directory name inside the ctable");
      }
      Path colDir;
      try {
        colDir = files().resolve(col); // refuses '..', absolute names and symbolic links leading out of the ctable
      } catch (IOException e) {
        throw new IOException(rootdirs + ": column '" + col + "' escapes the ctable: " + e.getMessage(), e);
      }
      if (!Files.isDirectory(colDir)) {
        throw new IOException(rootdirs + ": column '" + col + "' has no directory " + colDir);
      }
      String var = CdmNames.valid(col);
      if (!seen.add(var)) {
        throw new IOException(rootdirs + ": two columns are named '" + var + "'");
      }
      CArray a = CArray.open(files(), colDir, col, CArray.Layout.BCOLZ);
      if (rows >= 0 && a.shape[0] != rows) {
        throw new IOException(colDir + ": column '" + col + "' has " + a.shape[0] + " rows, the table " + rows);
      }
      rows = a.shape[0];
      List<String> dims = new ArrayList<>();
      dims.add(ROW_DIM);
      for (int d = 1; d < a.shape.length; d++) {
        dims.add(var + "_dim" + d);
      }
      addCArray(root, var, a, dims, readAttrs(colDir.resolve("__attrs__")));
    }
  }

  private void addCArray(Group.Builder g, String name, CArray a, List<String> dims, JsonNode userAttrs)
      throws IOException {
    List<Attribute> ours = new ArrayList<>();
    ours.add(new Attribute("compression", a.compression()));
    if (a.cparams != null) {
      ours.addAll(CdmAttributes.fromJson("cparams", a.cparams));
    }
    ours.add(new Attribute("bcolz_dtype", a.storageDtype));
    ours.add(new Attribute("chunklen", a.chunklen));
    Variable.Builder<?> v;
    if (a.isObjectArray()) {
      v = addObjectVariable(g, name, a, dims);
    } else {
      if (a.dflt != null && !a.dflt.isNull()) {
        ours.add(dfltAttribute(a));
      }
      v = ChunkedVariables.add(g, name, a, dims);
    }
    Set<String> taken = new HashSet<>();
    ours.forEach(at -> taken.add(at.getShortName()));
    v.getAttributeContainer().forEach(at -> taken.add(at.getShortName()));
    for (Attribute at : CdmAttributes.fromJson(userAttrs)) {
      if (!taken.contains(at.getShortName())) {
        v.addAttribute(at);
      }
    }
    ours.forEach(v::addAttribute);
  }

  /** bcolz's {@code dflt} (the value resize fills in) in the variable's type. Not a _FillValue: it is data. */
  private static Attribute dfltAttribute(CArray a) {
    JsonNode d = a.dflt;
    DType dt = a.dtype;
    DataType t = dt.cdmType();
    switch (dt.kind()) {
      case INT:
      case UINT:
        if (d.isIntegralNumber()) {
          BigInteger b = d.bigIntegerValue();
          Array arr = Array.factory(t, new int[] {1});
          arr.setLong(0, b.longValue());
          return Attribute.builder("dflt").setValues(arr).build();
        }
        break;
      case FLOAT:
        if (d.isNumber()) {
          Array arr = Array.factory(t, new int[] {1});
          arr.setDouble(0, d.doubleValue());
          return Attribute.builder("dflt").setValues(arr).build();
        }
        break;
      case BOOL:
        if (d.isBoolean() || d.isNumber()) {
          boolean on = d.isBoolean() ? d.booleanValue() : d.doubleValue() != 0;
          return Attribute.builder("dflt")
              .setValues(Array.factory(DataType.UBYTE, new int[] {1}, new byte[] {(byte) (on ? 1 : 0)})).build();
        }
        break;
      case BYTES:
      case UNICODE:
        if (d.isTextual()) {
          return new Attribute("dflt", d.textValue());
        }
        break;
      default:
        break;
    }
    return new Attribute("dflt", CdmAttributes.text(d));
  }

  /** A Python-object carray/column: declared so the rest of the dataset opens, but every read fails clearly. */
  private static Variable.Builder<?> addObjectVariable(Group.Builder g, String name, CArray a, List<String> dimNames)
      throws IOException {
    List<Dimension> dims = new ArrayList<>();
    for (int d = 0; d < a.shape.length; d++) {
      String dn = CdmNames.valid(dimNames != null ? dimNames.get(d) : name + "_dim" + d);
      Dimension have = g.findDimensionLocal(dn).orElse(null);
      if (have == null) {
        have = Dimension.builder(dn, (int) a.shape[d]).build();
        g.addDimension(have);
      } else if (have.getLength() != a.shape[d]) {
        throw new IOException(a.dir + ": " + name + ": dimension " + dn + " length mismatch");
      }
      dims.add(have);
    }
    Variable.Builder<?> v = Variable.builder().setName(name).setDataType(DataType.STRING).setDimensions(dims);
    String msg = a.dir + ": column/array '" + a.name + "' holds pickled Python objects (dtype '" + a.storageDtype
        + "'), which chunkcdm does not read";
    v.setSPobject((VariableReader) section -> {
      throw new IOException(msg);
    });
    v.addAttribute(new Attribute("unreadable", "pickled Python objects (dtype " + a.storageDtype + ")"));
    g.addVariable(v);
    return v;
  }

  private void buildBloscpack(Path file, Group.Builder root) throws IOException {
    Bloscpack bp = Bloscpack.open(files(), file);
    String name = CdmNames.fromFileName(file.getFileName().toString());
    JsonNode meta = bp.metadata;
    boolean ndarray = meta != null && meta.isObject() && meta.path("dtype").isTextual() && meta.path("shape").isArray()
        && meta.has("order");
    NumpyDescr descr;
    long[] shape;
    boolean fortran = false;
    if (ndarray) {
      try {
        descr = NumpyDescr.parse(meta.get("dtype").textValue());
      } catch (IOException e) {
        throw new IOException(file + ": variable " + name + ": " + e.getMessage(), e);
      }
      JsonNode sh = meta.get("shape");
      shape = new long[sh.size()];
      for (int d = 0; d < shape.length; d++) {
        if (!sh.get(d).isIntegralNumber() || sh.get(d).longValue() < 0) {
          throw new IOException(file + ": bad shape " + sh + " in the ndarray metadata");
        }
        shape[d] = sh.get(d).longValue();
      }
      String order = meta.get("order").asText();
      if (!order.equals("C") && !order.equals("F")) {
        throw new IOException(file + ": array order '" + order + "' is neither C nor F");
      }
      fortran = order.equals("F");
    } else {
      descr = NumpyDescr.parse("'|u1'");
      shape = new long[] {bp.totalBytes()};
    }
    int item = descr.dtype.itemSize();
    long items = 1;
    for (long s : shape) {
      items = Math.multiplyExact(items, s);
    }
    if (Math.multiplyExact(items, (long) item) != bp.totalBytes()) {
      throw new IOException(file + ": variable " + name + ": the chunks hold " + bp.totalBytes() + " bytes but shape "
          + java.util.Arrays.toString(shape) + " of " + descr.dtype + " needs " + items * item);
    }
    if (items > 0 && (item == 0 || bp.chunkSize % item != 0)) {
      throw new IOException(file + ": variable " + name + ": chunk_size " + bp.chunkSize + " is not a multiple of the "
          + item + "-byte item size");
    }
    ChunkGrid.Flat grid = ChunkGrid.flat(shape, item == 0 ? 0 : bp.chunkSize / item, fortran);
    if (items > 0 && grid.chunkCount() != bp.nchunks) {
      throw new IOException(file + ": " + bp.nchunks + " chunks in the header, but " + grid.chunkCount()
          + " chunks of " + bp.chunkSize + " bytes make the array");
    }
    Object key = new Object();
    ChunkedArray a = new ChunkedArray() {
      @Override
      public DType dtype() {
        return descr.dtype;
      }

      @Override
      public ChunkGrid grid() {
        return grid;
      }

      @Override
      public ChunkData chunk(long index) throws IOException {
        return descr.littleEndian(bp.chunk((int) index));
      }

      @Override
      public Object cacheKey() {
        return key;
      }
    };
    if (meta != null) {
      CdmAttributes.fromJson(meta).forEach(root::addAttribute);
    }
    root.addAttribute(new Attribute("bcolz_layout", ndarray ? "Bloscpack ndarray" : "Bloscpack bytes"));
    Variable.Builder<?> v = ChunkedVariables.add(root, name, a, null);
    v.addAttribute(new Attribute("compression", describe(bp)));
    if (descr.littleEndianDescr() != null) {
      v.addAttribute(new Attribute("numpy_dtype", descr.littleEndianDescr()));
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
