package org.chunkcdm.hdf5blosc;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.cdm.CdmReader;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import ucar.ma2.Array;
import ucar.ma2.DataType;
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
 * netcdf-java 5.5.3's HDF5 / NetCDF-4 reader ({@link H5iospNew}) plus the Blosc (32001) and Blosc2 (32026)
 * filters. netcdf-java parses the file and reads every variable exactly as it would on its own, except the
 * chunked numeric variables whose filter pipeline holds Blosc or Blosc2: those are read by chunkcdm through
 * core's one section assembly ({@link CdmReader} over an {@link H5BloscArray}: shared chunk cache, parallel
 * decode, block-level partial decode), with deflate, shuffle and Fletcher32 around Blosc in any order and the
 * per-chunk filter masks honoured.
 *
 * <p>netcdf-java asks its built-in HDF5 reader before IOSPs found by {@code ServiceLoader}, so this IOSP must be
 * registered to be asked first: {@code threddsConfig.xml} {@code <ioServiceProvider>}, or {@link #register()}.
 * It claims every file netcdf-java's HDF5 reader claims; files without Blosc read through the very same code.
 */
public class H5BloscIosp extends H5iospNew {
  private final Map<Object, Object> arrays = Collections.synchronizedMap(new IdentityHashMap<>());
  /** Chunk index of every Blosc variable, read at open (the B-tree walk seeks the RandomAccessFile of the open). */
  private final Map<Object, List<DataBTree.DataChunk>> indexes = new IdentityHashMap<>();
  /** Variables whose chunk index could not be read at open: their reads fail with this (the file still opens). */
  private final Map<Object, IOException> indexErrors = new IdentityHashMap<>();
  private static final Object NONE = new Object();
  private static volatile boolean registered;

  /** Registers this IOSP with netcdf-java ahead of the built-in readers (once per class loader). */
  public static synchronized void register() {
    if (registered) {
      return;
    }
    try {
      NetcdfFiles.registerIOProvider(H5BloscIosp.class);
    } catch (IllegalAccessException | InstantiationException e) {
      throw new IllegalStateException("cannot register " + H5BloscIosp.class.getName() + ": " + e, e);
    }
    registered = true;
  }

  /**
   * netcdf-java builds the header; then the chunk index of each Blosc / Blosc2 variable is read, while the
   * RandomAccessFile of the open is still the one netcdf-java's B-tree reader holds (after a TDS
   * release/reacquire cycle that reader's file is closed), so reads never walk the B-tree or seek a shared
   * file pointer.
   */
  /** The object this dataset reads when it is remote (its reads and version checks outlive release()). */
  private volatile org.chunkcdm.cdm.RemoteRandomAccessFile remote;

  @Override
  public void build(RandomAccessFile raf, Group.Builder rootGroup, CancelTask cancelTask) throws IOException {
    if (raf instanceof org.chunkcdm.cdm.RemoteRandomAccessFile) {
      remote = (org.chunkcdm.cdm.RemoteRandomAccessFile) raf;
    }
    super.build(raf, rootGroup, cancelTask);
    if (H5Internals.available()) {
      indexGroup(rootGroup);
    }
  }

  private void indexGroup(Group.Builder g) throws IOException {
    for (Variable.Builder<?> vb : g.vbuilders) {
      Object sp = vb.spiObject;
      H5Internals.VarInfo vi = H5Internals.of(sp);
      if (vi != null && vi.btree() != null && hasBlosc(vi) && !vi.useFillValue()) {
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
      indexGroup(sub);
    }
  }

  private static boolean hasBlosc(H5Internals.VarInfo vi) {
    for (H5Internals.Filter f : vi.pipeline()) {
      if (f.id() == H5BloscArray.BLOSC || f.id() == H5BloscArray.BLOSC2) {
        return true;
      }
    }
    return false;
  }

  /** A remote file's version now (THREDDS' file cache reopens it when it changed); a local file's modification time. */
  @Override
  public long getLastModified() {
    org.chunkcdm.cdm.RemoteRandomAccessFile r = remote;
    return r != null ? r.currentVersion() : super.getLastModified();
  }

  /** A remote file is opened again as an object (netcdf-java's reacquire opens locations as local files). */
  @Override
  public void reacquire() throws IOException {
    org.chunkcdm.cdm.RemoteRandomAccessFile r = remote;
    if (r == null) {
      super.reacquire();
      return;
    }
    org.chunkcdm.cdm.RemoteRandomAccessFile fresh = r.reopen();
    raf = fresh;
    remote = fresh;
  }

  @Override
  public String getFileTypeDescription() {
    return super.getFileTypeDescription() + " (with Blosc/Blosc2 filters by chunkcdm)";
  }

  @Override
  public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
    IOException bad = indexErrors.get(v.getSPobject());
    if (bad != null) {
      throw new IOException(bad.getMessage(), bad);
    }
    ChunkedArray a = arrayOf(v);
    if (a == null) {
      return super.readData(v, section);
    }
    return CdmReader.read(a, section);
  }

  /** The chunkcdm array of a Blosc/Blosc2 variable, or null when netcdf-java reads it. */
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
    if (vi == null || vi.useFillValue() || !vi.chunked() || vi.btree() == null || vi.vstring() || vi.pipeline().length == 0) {
      return null;
    }
    List<DataBTree.DataChunk> index = indexes.get(sp);
    if (index == null || !hasBlosc(vi) || vi.hdfType() != 0 && vi.hdfType() != 1) { // fixed-point or floating-point only
      return null;
    }
    DType.Kind kind;
    DataType t = v.getDataType();
    switch (t) {
      case BYTE:
      case SHORT:
      case INT:
      case LONG:
        kind = DType.Kind.INT;
        break;
      case UBYTE:
      case USHORT:
      case UINT:
      case ULONG:
        kind = DType.Kind.UINT;
        break;
      case FLOAT:
      case DOUBLE:
        kind = DType.Kind.FLOAT;
        break;
      default:
        return null;
    }
    int rank = v.getRank();
    int[] ss = vi.storageSize();
    if (rank == 0 || ss == null || ss.length < rank) {
      return null;
    }
    ByteOrder order = vi.endian() == RandomAccessFile.BIG_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    DType dt = DType.of(kind, t.getSize(), order);
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
    File f = loc == null ? null : new File(loc);
    long modified = f != null && f.isFile() ? f.lastModified() : raf == null ? 0 : raf.getLastModified(); // an object's version
    long length;
    try {
      length = f != null && f.isFile() ? f.length() : raf == null ? 0 : raf.length();
    } catch (IOException e) {
      length = 0;
    }
    Object key = loc + "#" + v.getFullName() + "@" + modified + ":" + length;
    return new H5BloscArray(loc, v.getFullName(), dt, shape, chunkShape, vi.pipeline(),
        H5BloscArray.fillBytes(vi.fillValue(), dt), key, new RafBytes(), () -> index);
  }

  /** Positional reads through the channel of this IOSP's current RandomAccessFile (reopened by reacquire). */
  private final class RafBytes implements H5BloscArray.Bytes {
    @Override
    public byte[] read(long pos, int len) throws IOException {
      RandomAccessFile r = raf;
      if (r == null) {
        throw new IOException("file is closed");
      }
      byte[] b = new byte[len];
      if (r instanceof org.chunkcdm.cdm.RemoteRandomAccessFile) { // an object: positional ranged reads, in parallel
        ((org.chunkcdm.cdm.RemoteRandomAccessFile) r).readAt(pos, b, 0, len);
        return b;
      }
      java.io.RandomAccessFile jf = r.getRandomAccessFile();
      if (jf != null) {
        FileChannel ch = jf.getChannel();
        ByteBuffer bb = ByteBuffer.wrap(b);
        long p = pos;
        while (bb.hasRemaining()) {
          int n = ch.read(bb, p);
          if (n < 0) {
            throw new IOException("unexpected end of file at offset " + p);
          }
          p += n;
        }
      } else {
        synchronized (r) { // not a local file (e.g. remote): netcdf-java's shared file pointer
          r.seek(pos);
          r.readFully(b);
        }
      }
      return b;
    }

    @Override
    public long length() throws IOException {
      RandomAccessFile r = raf;
      if (r == null) {
        throw new IOException("file is closed");
      }
      return r.length();
    }
  }
}
