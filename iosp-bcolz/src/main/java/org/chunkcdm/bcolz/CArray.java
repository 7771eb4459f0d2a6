package org.chunkcdm.bcolz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.FetchBuffers;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;

/**
 * A bcolz carray directory ({@code meta/sizes}, {@code meta/storage}, {@code data/__i.blp}: a 16-byte
 * header and one Blosc frame per chunk), or the Blaze "chunked" variant of the same layout whose superchunks
 * {@code data/__N__.bin} are Bloscpack format-3 files. Chunk {@code i} holds rows
 * {@code [i*chunklen, min((i+1)*chunklen, len))}; only the first {@code ceil(len/chunklen)} chunk files are
 * used (stale higher-numbered files are ignored). Opening reads only the two {@code meta} files; chunk
 * files are opened when a read needs them.
 */
final class CArray extends BasicChunkedArray {
  /** Layout of the chunk files. */
  enum Layout {
    /** bcolz: {@code data/__i.blp}, 16-byte header ({@code blpk}, version 1, nchunks 1) + one Blosc frame */
    BCOLZ,
    /** Blaze chunked: {@code data/__N__.bin} Bloscpack format-3 superchunks, numbered from 0 or from 1 */
    BLAZE
  }

  private static final int BLP_HEADER = 16;

  final Path dir;
  final String name;
  final Layout layout;
  final long[] shape;
  final String storageDtype;
  final int chunklen;
  final JsonNode cparams;
  final JsonNode dflt;
  private final FileHandles files;
  private final long rowBytes;
  private final long nchunks;
  private final ChunkGrid.Regular grid;
  private final int blazeBase;
  private final ConcurrentHashMap<Long, Bloscpack> superchunks = new ConcurrentHashMap<>();

  private CArray(FileHandles files, Path dir, String name, Layout layout, long[] shape, DType dtype, String storageDtype,
      int chunklen, JsonNode cparams, JsonNode dflt) throws IOException {
    super(dtype, grid(dir, shape, dtype, chunklen), null, new Object());
    this.files = files;
    this.dir = dir;
    this.name = name;
    this.layout = layout;
    this.shape = shape;
    this.storageDtype = storageDtype;
    this.chunklen = chunklen;
    this.cparams = cparams;
    this.dflt = dflt;
    this.grid = (ChunkGrid.Regular) super.grid();
    this.rowBytes = grid.chunkElements() / chunklen * (dtype == null ? 1 : dtype.itemSize());
    this.nchunks = (shape[0] + chunklen - 1) / chunklen;
    this.blazeBase = layout == Layout.BLAZE && !Files.exists(dir.resolve("data").resolve("__0__.bin")) ? 1 : 0;
  }

  /** Chunks of {@code chunklen} rows (whole trailing dimensions), checked to stay below 2 GiB. */
  private static ChunkGrid.Regular grid(Path dir, long[] shape, DType dtype, int chunklen) throws IOException {
    long row = dtype == null ? 1 : dtype.itemSize();
    int[] chunkShape = new int[shape.length];
    chunkShape[0] = chunklen;
    for (int d = 1; d < shape.length; d++) {
      row = Math.multiplyExact(row, shape[d]);
      if (shape[d] == 0 || shape[d] > Integer.MAX_VALUE) {
        throw new FormatException(dir + ": dimension " + d + " of " + shape[d] + " is not supported");
      }
      chunkShape[d] = (int) shape[d];
    }
    if (Math.multiplyExact(row, (long) chunklen) > Integer.MAX_VALUE - 64) {
      throw new FormatException(dir + ": chunks of " + chunklen + " rows of " + row + " bytes exceed 2 GiB");
    }
    return ChunkGrid.regular(shape, chunkShape);
  }

  /**
   * Reads {@code dir/meta/sizes} and {@code dir/meta/storage}. {@code name} is used in messages (the variable
   * or column name).
   */
  static CArray open(FileHandles files, Path dir, String name, Layout layout) throws IOException {
    Path sizesFile = dir.resolve("meta").resolve("sizes");
    Path storageFile = dir.resolve("meta").resolve("storage");
    JsonNode sizes = Json.object(Json.read(files, sizesFile), sizesFile.toString());
    JsonNode storage = Json.object(Json.read(files, storageFile), storageFile.toString());
    JsonNode sh = sizes.get("shape");
    if (sh == null || !sh.isArray() || sh.size() == 0) {
      throw new FormatException(sizesFile + ": 'shape' must be a non-empty list of lengths");
    }
    long[] shape = new long[sh.size()];
    for (int d = 0; d < shape.length; d++) {
      JsonNode e = sh.get(d);
      if (!e.canConvertToLong() || !e.isIntegralNumber() || e.longValue() < 0 || e.longValue() > Integer.MAX_VALUE) {
        throw new FormatException(sizesFile + ": bad length " + e + " in 'shape'");
      }
      shape[d] = e.longValue();
    }
    JsonNode dt = storage.get("dtype");
    if (dt == null || !dt.isTextual()) {
      throw new FormatException(storageFile + ": 'dtype' must be a string");
    }
    String storageDtype = dt.textValue();
    DType dtype = null;
    if (!NumpyDescr.isObject(storageDtype)) {
      try {
        dtype = DType.parseNumpy(storageDtype);
      } catch (IOException e) {
        throw new IOException(storageFile + ": " + name + ": " + e.getMessage(), e);
      }
    }
    JsonNode cl = storage.get("chunklen");
    if (cl == null || !cl.isIntegralNumber() || cl.longValue() <= 0 || cl.longValue() > Integer.MAX_VALUE) {
      throw new FormatException(storageFile + ": 'chunklen' must be a positive integer, not " + cl);
    }
    JsonNode cparams = storage.get("cparams");
    if (cparams != null && !cparams.isObject()) {
      throw new FormatException(storageFile + ": 'cparams' must be an object");
    }
    return new CArray(files, dir, name, layout, shape, dtype, storageDtype, cl.intValue(), cparams,
        storage.get("dflt"));
  }

  /**
   * Blaze chunked layout when the directory has {@code meta/attributes} or {@code data/__0__.bin}/{@code __1__.bin}
   * and no {@code __attrs__} (bcolz writes one with every carray, Blaze never does; asked first, it settles a
   * bcolz carray without looking for Blaze's files, which for a remote carray would cost a request each).
   */
  static Layout layoutOf(Path dir) {
    if (Files.isRegularFile(dir.resolve("__attrs__"))) {
      return Layout.BCOLZ;
    }
    Path data = dir.resolve("data");
    if (Files.exists(dir.resolve("meta").resolve("attributes"), LinkOption.NOFOLLOW_LINKS)
        || Files.exists(data.resolve("__0__.bin"), LinkOption.NOFOLLOW_LINKS)
        || Files.exists(data.resolve("__1__.bin"), LinkOption.NOFOLLOW_LINKS)) {
      return Layout.BLAZE;
    }
    return Layout.BCOLZ;
  }

  boolean isObjectArray() {
    return dtype() == null;
  }

  @Override
  public ChunkGrid.Regular grid() {
    return grid;
  }

  /** Number of chunk files the shape uses. */
  long chunkFiles() {
    return nchunks;
  }

  /** Decoded bytes chunk i must hold: full chunks, and the leftover rows in the last one. */
  long chunkBytes(long i) {
    long rows = Math.min(chunklen, shape[0] - i * chunklen);
    return rows * rowBytes;
  }

  Path chunkFile(long i) throws IOException {
    String n = layout == Layout.BCOLZ ? "__" + i + ".blp" : "__" + (i + blazeBase) + "__.bin";
    Path p = dir.resolve("data").resolve(n);
    files.checkInside(p);
    return p;
  }

  @Override
  public ChunkData chunk(long i) throws IOException {
    if (i < 0 || i >= nchunks) {
      throw new IOException(dir + ": " + name + ": chunk " + i + " does not exist (" + nchunks + " chunks)");
    }
    // no file-system checks here: FileHandles vets each file (inside the dataset, a regular file) when it opens
    // it, and a missing file is told apart only when the open fails (two stat calls less per chunk read)
    Path p = dir.resolve("data").resolve(layout == Layout.BCOLZ ? "__" + i + ".blp" : "__" + (i + blazeBase) + "__.bin");
    long want = chunkBytes(i);
    ChunkData data = layout == Layout.BCOLZ ? bcolzChunk(p, i, want) : blazeChunk(p, i);
    if (data.size() != want) {
      throw new FormatException(p + ": chunk " + i + " of " + name + " holds " + data.size() + " bytes but meta/sizes needs "
          + want + " (" + Math.min(chunklen, shape[0] - i * chunklen) + " rows) from it");
    }
    return data;
  }

  /** The size of chunk file p, its absence an IOException saying which chunk of the variable is missing. */
  private long chunkFileSize(Path p, long i) throws IOException {
    try {
      return files.size(p);
    } catch (IOException e) {
      if (!Files.exists(p)) {
        throw missing(p, i, e);
      }
      throw e;
    }
  }

  private ChunkData bcolzChunk(Path p, long i, long want) throws IOException {
    if (files.isRemote()) { // one GET of the whole object, refused by its size before the body is read
      byte[] b;
      try {
        b = files.readAll(p, BLP_HEADER + want + 64);
      } catch (java.nio.file.NoSuchFileException e) {
        throw missing(p, i, e);
      }
      long ct = checkBlp(p, i, want, b, b.length);
      return BloscChunkData.of(b, BLP_HEADER, (int) ct, p + ": chunk " + i + " of " + name);
    }
    long size = chunkFileSize(p, i);
    // a Blosc frame is at most its data plus 16 header bytes; allow a little more, refuse absurd files
    if (size < BLP_HEADER + 16 || size > BLP_HEADER + want + 64) {
      throw new FormatException(p + ": chunk " + i + " of " + name + ": file of " + size + " bytes cannot hold a chunk of "
          + want + " bytes");
    }
    // the stored bytes go into a pooled buffer, given back when the reader releases the chunk (a cold point read
    // then allocates no array of the chunk's compressed size); read again from the file if used after that
    byte[] b = FetchBuffers.take((int) size);
    long ct;
    try {
      files.readFully(p, 0, b, 0, (int) size);
      ct = checkBlp(p, i, want, b, size);
    } catch (IOException | RuntimeException e) {
      FetchBuffers.give(b);
      throw e;
    }
    // errors when the chunk is decoded later name the file, chunk and variable too; pooled() owns b from here
    return BloscChunkData.pooled(b, BLP_HEADER, (int) ct, p + ": chunk " + i + " of " + name,
        () -> files.read(p, 0, size));
  }

  /** Checks a bcolz chunk file's 16-byte header and its Blosc frame's size; returns the frame's size. */
  private long checkBlp(Path p, long i, long want, byte[] b, long size) throws IOException {
    if (size < BLP_HEADER + 16 || size > BLP_HEADER + want + 64) {
      throw new FormatException(p + ": chunk " + i + " of " + name + ": file of " + size + " bytes cannot hold a chunk of "
          + want + " bytes");
    }
    if (b[0] != 'b' || b[1] != 'l' || b[2] != 'p' || b[3] != 'k' || b[4] != 1) {
      throw new FormatException(p + ": chunk " + i + " of " + name + ": not a bcolz chunk file (magic 'blpk', version 1)");
    }
    long n = Bloscpack.le64(b, 8);
    if (n != 1) {
      throw new FormatException(p + ": chunk " + i + " of " + name + ": " + n + " Blosc chunks in the file, bcolz writes 1");
    }
    long ct = Bloscpack.le32(b, BLP_HEADER + 12);
    if (ct != size - BLP_HEADER) {
      throw new FormatException(p + ": chunk " + i + " of " + name + ": Blosc frame claims " + ct + " bytes but the file holds "
          + (size - BLP_HEADER) + " after its header");
    }
    return ct;
  }

  private IOException missing(Path p, long i, IOException e) {
    return new IOException(p + ": chunk " + i + " of " + name + " is missing: meta/sizes claims " + shape[0]
        + " rows, which need " + nchunks + " chunk files", e);
  }

  /** Remote: each chunk file the read needs, whole, fetched ahead in parallel (one GET per file). */
  @Override
  public org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
    if (!files.isRemote()) {
      return org.chunkcdm.io.FileHandles.Prefetch.NONE;
    }
    List<org.chunkcdm.io.FileHandles.Range> r = new ArrayList<>(chunks.length);
    for (long i : chunks) {
      if (i >= 0 && i < nchunks) {
        r.add(new org.chunkcdm.io.FileHandles.Range(dir.resolve("data").resolve(layout == Layout.BCOLZ ? "__" + i + ".blp"
            : "__" + (i + blazeBase) + "__.bin"), 0, -1));
      }
    }
    return files.prefetch(r);
  }

  private ChunkData blazeChunk(Path p, long i) throws IOException {
    Bloscpack bp = superchunks.get(i);
    if (bp == null) {
      chunkFileSize(p, i); // a missing file: say which chunk of the variable
      bp = Bloscpack.open(files, p);
      superchunks.putIfAbsent(i, bp);
    }
    return bp.whole();
  }

  /** A readable compression description from {@code cparams}. */
  String compression() {
    if (cparams == null) {
      return "blosc (parameters not recorded)";
    }
    List<String> parts = new ArrayList<>();
    JsonNode cname = cparams.get("cname");
    JsonNode clevel = cparams.get("clevel");
    JsonNode shuffle = cparams.get("shuffle");
    JsonNode quantize = cparams.get("quantize");
    parts.add("blosc " + (cname != null && cname.isTextual() ? cname.textValue() : "blosclz")
        + (clevel != null && clevel.isNumber() ? " clevel " + clevel.asInt() : ""));
    parts.add(shuffleName(shuffle));
    if (quantize != null && quantize.isNumber() && quantize.asInt() != 0) {
      parts.add("quantize " + quantize.asInt() + " significant digits (lossy)");
    }
    return String.join(", ", parts);
  }

  static String shuffleName(JsonNode s) {
    if (s == null) {
      return "shuffle unknown";
    }
    if (s.isBoolean()) {
      return s.booleanValue() ? "byte shuffle" : "no shuffle";
    }
    switch (s.asInt(-1)) {
      case 0:
        return "no shuffle";
      case 1:
        return "byte shuffle";
      case 2:
        return "bit shuffle";
      default:
        return "shuffle " + s.toString().toLowerCase(Locale.ROOT);
    }
  }
}
