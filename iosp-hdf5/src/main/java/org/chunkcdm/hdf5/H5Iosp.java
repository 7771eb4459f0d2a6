package org.chunkcdm.hdf5;

import java.io.File;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.cdm.CdmReader;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.internal.iosp.hdf5.H5iospNew;
import ucar.nc2.iosp.hdf5.DataBTree;
import ucar.nc2.util.CancelTask;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java 5.5.3's HDF5 / NetCDF-4 reader ({@link H5iospNew}) plus the HDF5 filters it lacks: LZF (32000), LZ4
 * (32004), Bitshuffle (32008), Zstandard (32015), BZip2 (307), Blosc (32001), Blosc2 (32026), N-bit (5) and
 * scale-offset (6), in any order with deflate, shuffle and Fletcher32, each chunk's filter mask honoured; and the
 * reduced-precision datatypes of the N-bit filter, which netcdf-java's header reader cannot open on its own.
 *
 * <p>netcdf-java parses the file and reads every variable exactly as it would on its own, except the chunked
 * numeric variables whose pipeline holds a filter other than deflate, shuffle and Fletcher32, or whose datatype has
 * reduced precision: those are read by chunkcdm through the one section assembly ({@link CdmReader} over an
 * {@link H5ChunkedArray}: shared chunk cache, chunks decoded in parallel for large reads, only the chunks a section
 * touches). A filter chunkcdm does not know (SZIP, ZFP, SZ, ...) leaves its variable in the file; reading a chunk
 * that needs it fails with an IOException naming the file, variable, chunk and filter.
 *
 * <p>netcdf-java asks its built-in HDF5 reader before IOSPs found by {@code ServiceLoader}, so this IOSP must be
 * registered to be asked first: {@code threddsConfig.xml} {@code <ioServiceProvider>}, or {@link #register()}. It
 * claims every file netcdf-java's HDF5 reader claims; variables without those filters read through the very same
 * netcdf-java code.
 */
public class H5Iosp extends H5iospNew {
  private final Map<Object, Object> arrays = Collections.synchronizedMap(new IdentityHashMap<>());
  /** Chunk index of every variable chunkcdm reads, read at open (the B-tree walk seeks the open's file). */
  private final Map<Object, List<DataBTree.DataChunk>> indexes = new IdentityHashMap<>();
  /** Variables whose chunk index could not be read at open: their reads fail with this (the file still opens). */
  private final Map<Object, IOException> indexErrors = new IdentityHashMap<>();
  /** The datatype of every numeric variable whose values HDF5 converts (reduced precision, non-IEEE floats). */
  private final Map<Object, H5Type> types = new IdentityHashMap<>();
  private volatile FileHandles files;
  private Path path;
  /** The object this dataset reads when it is remote (its reads and version checks outlive release()). */
  private volatile org.chunkcdm.cdm.RemoteRandomAccessFile remote;
  private static final Object NONE = new Object();
  private static final int STRING = 3;
  /** Serializes netcdf-java's own reads: they seek the one file pointer of its RandomAccessFile. */
  private final Object netcdfJavaReads = new Object();
  /**
   * Whether a variable netcdf-java reads needs the RandomAccessFile of the open (its B-tree and heap readers keep
   * it, and fail once it is closed): then {@link #release()} keeps that file open.
   */
  private boolean netcdfJavaNeedsHeaderFile;
  private boolean released;
  private static volatile boolean registered;
  private static int building;
  private static boolean warningsBefore;

  /** Registers this IOSP with netcdf-java ahead of the built-in readers (once per class loader). */
  public static synchronized void register() {
    if (registered) {
      return;
    }
    try {
      NetcdfFiles.registerIOProvider(H5Iosp.class);
    } catch (IllegalAccessException | InstantiationException e) {
      throw new IllegalStateException("cannot register " + H5Iosp.class.getName() + ": " + e, e);
    }
    registered = true;
  }

  /**
   * netcdf-java builds the header (with its switch that refuses reduced-precision integer types off, see
   * {@link H5Internals#setHeaderWarnings}); then the chunk index of each variable chunkcdm reads is read, while the
   * RandomAccessFile of the open is still the one netcdf-java's B-tree reader holds (after a TDS release/reacquire
   * cycle that reader's file is closed), so reads never walk the B-tree or seek a shared file pointer.
   */
  @Override
  public void build(RandomAccessFile raf, Group.Builder rootGroup, CancelTask cancelTask) throws IOException {
    if (raf instanceof org.chunkcdm.cdm.RemoteRandomAccessFile) {
      remote = (org.chunkcdm.cdm.RemoteRandomAccessFile) raf;
    }
    synchronized (H5Iosp.class) {
      if (building++ == 0) {
        warningsBefore = H5Internals.setHeaderWarnings(false);
      }
    }
    try {
      super.build(raf, rootGroup, cancelTask);
    } finally {
      synchronized (H5Iosp.class) {
        if (--building == 0) {
          H5Internals.setHeaderWarnings(warningsBefore);
        }
      }
    }
    String loc = raf.getLocation();
    if (loc != null && remote == null) {
      Path p = Paths.get(ChunkedIosp.stripFileUrl(loc)).toAbsolutePath().normalize();
      if (Files.isRegularFile(p)) {
        path = p;
      }
    }
    if (H5Internals.available()) {
      indexGroup(raf, rootGroup);
    }
  }

  private void indexGroup(RandomAccessFile raf, Group.Builder g) throws IOException {
    for (Variable.Builder<?> vb : g.vbuilders) {
      Object sp = vb.spiObject;
      H5Internals.VarInfo vi = H5Internals.of(sp);
      if (vi == null) {
        continue;
      }
      if ((vi.hdfType() == H5Type.FIXED || vi.hdfType() == H5Type.FLOAT) && vi.datatypeMessage() >= 0) {
        try {
          H5Type t = readType(raf, vi.datatypeMessage(), vi.hdfType(), vi.typeSize());
          if (t != null && t.size == vi.typeSize() && !t.isNative()) {
            types.put(sp, t);
          }
        } catch (IOException | RuntimeException e) {
          indexErrors.put(sp, new IOException(location + ": variable '" + vb.getFullName() + "': datatype: "
              + e.getMessage(), e));
          continue;
        }
      }
      if (!readsChunked(vi)) {
        if (vi.chunked() || vi.vstring() || vi.hdfType() != H5Type.FIXED && vi.hdfType() != H5Type.FLOAT
            && vi.hdfType() != STRING) {
          netcdfJavaNeedsHeaderFile = true; // its B-tree or heap reader keeps the file of the open
        }
        continue;
      }
      if (vi.btree() != null) {
        List<DataBTree.DataChunk> all = new ArrayList<>();
        try {
          DataBTree.DataChunkIterator it = vi.btree().getDataChunkIteratorFilter(null);
          while (it.hasNext()) {
            all.add(it.next());
          }
          indexes.put(sp, all);
        } catch (IOException | RuntimeException e) { // the B-tree reader throws IllegalStateException on bad nodes
          indexErrors.put(sp, new IOException(location + ": variable '" + vb.getFullName()
              + "': chunk index (B-tree) unreadable: " + e, e));
        }
      }
    }
    for (Group.Builder sub : g.gbuilders) {
      indexGroup(raf, sub);
    }
  }

  /**
   * The datatype whose message body starts at {@code at}, or null when the bytes there are not the body of a message
   * of this class and size (e.g. a shared, committed datatype, whose message only points to it).
   */
  private static H5Type readType(RandomAccessFile raf, long at, int hdfType, int size) throws IOException {
    if (at < 0 || at > raf.length() - 12) {
      return null;
    }
    byte[] m = new byte[(int) Math.min(20, raf.length() - at)];
    raf.seek(at);
    raf.readFully(m);
    int version = (m[0] & 0xff) >>> 4;
    int msgSize = (m[4] & 0xff) | (m[5] & 0xff) << 8 | (m[6] & 0xff) << 16 | (m[7] & 0xff) << 24;
    if (version < 1 || version > 4 || (m[0] & 0x0f) != hdfType || msgSize != size) {
      return null;
    }
    return H5Type.parse(m);
  }

  /**
   * Whether chunkcdm reads the variable: every chunked variable of numbers (any filters, none included), stored
   * chunks present. netcdf-java reads the others (contiguous and compact data, strings, compound and variable-length
   * types), one read at a time.
   */
  private static boolean readsChunked(H5Internals.VarInfo vi) {
    return vi.chunked() && !vi.useFillValue() && !vi.vstring()
        && (vi.hdfType() == H5Type.FIXED || vi.hdfType() == H5Type.FLOAT);
  }

  /** Whether the pipeline holds a filter netcdf-java 5.5.3 cannot undo (anything but deflate, shuffle, Fletcher32). */
  private static boolean needsChunkcdm(H5Internals.VarInfo vi) {
    for (H5Internals.Filter f : vi.pipeline()) {
      if (f.id() != FilterPipeline.DEFLATE && f.id() != FilterPipeline.SHUFFLE && f.id() != FilterPipeline.FLETCHER32) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String getFileTypeDescription() {
    return super.getFileTypeDescription() + " (with HDF5 filters by chunkcdm)";
  }

  @Override
  public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
    IOException bad = indexErrors.get(v.getSPobject());
    if (bad != null) {
      throw new IOException(bad.getMessage(), bad);
    }
    ChunkedArray a = arrayOf(v);
    if (a != null) {
      return CdmReader.read(a, section);
    }
    H5Internals.VarInfo vi = H5Internals.of(v.getSPobject());
    if (vi != null && vi.chunked() && !vi.useFillValue() && needsChunkcdm(vi)) {
      throw new IOException(location + ": variable '" + v.getFullName() + "' of type " + v.getDataType()
          + " with filters " + filterList(vi) + " cannot be read: chunkcdm's HDF5 reader decodes these filters for "
          + "numeric variables only");
    }
    Array out;
    synchronized (netcdfJavaReads) {
      out = super.readData(v, section);
    }
    H5Type t = types.get(v.getSPobject());
    return t == null ? out : converted(out, t);
  }

  private static String filterList(H5Internals.VarInfo vi) {
    StringBuilder s = new StringBuilder();
    for (H5Internals.Filter f : vi.pipeline()) {
      s.append(s.length() == 0 ? "" : ", ").append(FilterPipeline.describe(f));
    }
    return s.toString();
  }

  /** Values netcdf-java read as stored, converted as HDF5 converts the file's reduced-precision type. */
  private static Array converted(Array a, H5Type t) {
    DataType dt = a.getDataType();
    IndexIterator it = a.getIndexIterator();
    while (it.hasNext()) {
      if (dt == DataType.FLOAT) {
        float f = it.getFloatNext();
        it.setFloatCurrent(Float.intBitsToFloat((int) t.convertBits(Float.floatToRawIntBits(f) & 0xffffffffL)));
      } else if (dt == DataType.DOUBLE) {
        double d = it.getDoubleNext();
        it.setDoubleCurrent(Double.longBitsToDouble(t.convertBits(Double.doubleToRawLongBits(d))));
      } else {
        long raw = it.getLongNext();
        it.setLongCurrent(t.convertBits(t.size == 8 ? raw : raw & ((1L << (8 * t.size)) - 1)));
      }
    }
    return a;
  }

  /** The chunkcdm array of a variable, or null when netcdf-java reads it. */
  ChunkedArray arrayOf(Variable v) {
    Object sp = v.getSPobject();
    if (sp == null) {
      return null;
    }
    Object a = arrays.get(sp);
    if (a == null) {
      ChunkedArray made = make(v, sp);
      a = made == null ? NONE : made;
      arrays.put(sp, a);
    }
    return a == NONE ? null : (ChunkedArray) a;
  }

  private ChunkedArray make(Variable v, Object sp) {
    H5Internals.VarInfo vi = H5Internals.of(sp);
    if (vi == null || vi.useFillValue() || !vi.chunked() || vi.btree() == null || vi.vstring()) {
      return null;
    }
    List<DataBTree.DataChunk> index = indexes.get(sp);
    if (index == null || vi.hdfType() != H5Type.FIXED && vi.hdfType() != H5Type.FLOAT) {
      return null;
    }
    DataType t = v.getDataType();
    DType numeric = CdmTypes.numeric(t, ByteOrder.LITTLE_ENDIAN);
    if (numeric == null) {
      return null;
    }
    int rank = v.getRank();
    int[] ss = vi.storageSize();
    if (rank == 0 || ss == null || ss.length < rank || vi.typeSize() != t.getSize()) {
      return null;
    }
    ByteOrder order = vi.endian() == RandomAccessFile.BIG_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    DType dt = DType.of(numeric.kind(), t.getSize(), order);
    long[] shape = new long[rank];
    int[] chunkShape = new int[rank];
    for (int d = 0; d < rank; d++) {
      shape[d] = v.getShape(d);
      chunkShape[d] = ss[d];
      if (chunkShape[d] <= 0) {
        return null;
      }
    }
    String loc = location;
    File f = loc == null || remote != null ? null : new File(ChunkedIosp.stripFileUrl(loc));
    long modified = f != null ? f.lastModified() : raf == null ? 0 : raf.getLastModified(); // an object's version
    long length;
    try {
      length = f != null ? f.length() : raf == null ? 0 : raf.length();
    } catch (IOException e) {
      length = 0;
    }
    Object key = loc + "#" + v.getFullName() + "@" + modified + ":" + length;
    return new H5ChunkedArray(loc, v.getFullName(), dt, shape, chunkShape, vi.pipeline(), types.get(sp),
        vi.fillBytes(), key, new FileBytes(), () -> index);
  }

  /**
   * Frees the file handles of chunkcdm's reads (TDS file cache; they reopen on the next read), and netcdf-java's
   * RandomAccessFile unless a variable netcdf-java reads still needs it (see {@link #netcdfJavaNeedsHeaderFile}).
   */
  @Override
  public void release() throws IOException {
    closeFiles();
    synchronized (netcdfJavaReads) {
      if (!netcdfJavaNeedsHeaderFile) {
        super.release();
        released = true;
      }
    }
  }

  /** A remote file is opened again as an object (netcdf-java's reacquire opens locations as local files). */
  @Override
  public void reacquire() throws IOException {
    synchronized (netcdfJavaReads) {
      if (released) {
        org.chunkcdm.cdm.RemoteRandomAccessFile r = remote;
        if (r == null) {
          super.reacquire();
        } else {
          org.chunkcdm.cdm.RemoteRandomAccessFile fresh = r.reopen();
          raf = fresh;
          remote = fresh;
        }
        released = false;
      }
    }
  }

  /** A remote file's version now (THREDDS' file cache reopens it when it changed); a local file's modification time. */
  @Override
  public long getLastModified() {
    org.chunkcdm.cdm.RemoteRandomAccessFile r = remote;
    return r != null ? r.currentVersion() : super.getLastModified();
  }

  @Override
  public void close() throws IOException {
    closeFiles();
    super.close();
  }

  private synchronized void closeFiles() throws IOException {
    FileHandles h = files;
    files = null;
    if (h != null) {
      h.close();
    }
  }

  private synchronized FileHandles files() throws IOException {
    FileHandles h = files;
    if (h == null) {
      h = new FileHandles(path);
      files = h;
    }
    return h;
  }

  /**
   * Positional reads of the file: through chunkcdm's {@link FileHandles} for a local file (no shared file pointer),
   * through ranged reads of the object for a remote file, else through netcdf-java's RandomAccessFile of this IOSP,
   * one read at a time.
   */
  private final class FileBytes implements H5ChunkedArray.Bytes {
    @Override
    public void read(long pos, byte[] dst, int off, int len) throws IOException {
      if (path != null) {
        files().readFully(path, pos, dst, off, len);
        return;
      }
      RandomAccessFile r = raf;
      if (r == null) {
        throw new IOException("file is closed");
      }
      if (r instanceof org.chunkcdm.cdm.RemoteRandomAccessFile) { // an object: positional ranged reads, in parallel
        ((org.chunkcdm.cdm.RemoteRandomAccessFile) r).readAt(pos, dst, off, len);
        return;
      }
      synchronized (r) {
        r.seek(pos);
        r.readFully(dst, off, len);
      }
    }

    @Override
    public long length() throws IOException {
      if (path != null) {
        return files().size(path);
      }
      RandomAccessFile r = raf;
      if (r == null) {
        throw new IOException("file is closed");
      }
      return r.length();
    }
  }
}
