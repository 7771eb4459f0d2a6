package org.chunkcdm.fiji.netcdf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Files no chunkcdm opener claims (NetCDF, HDF5, ...) through netcdf-java, when it is present. Only this class
 * touches {@code ucar.*}; {@link ImageDataset} loads it only after checking that netcdf-java is on the class
 * path. Uses only API present in both netcdf-java 5.5.3 and 5.6.0 ({@code NetcdfFiles.open},
 * {@code Variable.read(int[], int[])}, {@code attributes()}, {@code getSPobject()}).
 *
 * <p>A variable whose IOSP object is already a chunkcdm {@link ChunkedArray} is used as is (its real chunk
 * grid); any other numeric variable is tiled by its {@code _ChunkSizes} attribute or, without one, by whole
 * planes (up to 2048 x 2048, larger planes in 1024 x 1024 tiles), each tile one {@code Variable.read}.
 */
public final class NetcdfSources {
  private NetcdfSources() {}

  public static ImageDataset open(Path path) throws IOException {
    Thread t = Thread.currentThread();
    ClassLoader old = t.getContextClassLoader();
    NetcdfFile nc;
    try {
      // IOSPs are found through the context loader: make it the plugin's (ImageJ loads plugins separately)
      t.setContextClassLoader(NetcdfSources.class.getClassLoader());
      nc = NetcdfFiles.open(path.toAbsolutePath().toString());
    } finally {
      t.setContextClassLoader(old);
    }
    Map<String, Object> global = attributes(nc.getRootGroup().attributes());
    ImageDataset ds = new ImageDataset(path, "netcdf-java " + nc.getFileTypeId(), global, nc::close);
    long modified = nc.getLastModified();
    for (Variable v : nc.getVariables()) {
      List<String> dims = new ArrayList<>();
      for (Dimension d : v.getDimensions()) {
        dims.add(d.getShortName() == null ? v.getShortName() + "_dim" + dims.size() : d.getShortName());
      }
      Map<String, Object> attrs = attributes(v.attributes());
      Object sp = v.getSPobject();
      ChunkedArray a = null;
      if (sp instanceof ChunkedArray && ((ChunkedArray) sp).grid().rank() == dims.size()) {
        a = (ChunkedArray) sp;
      } else {
        DType dt = dtype(v.getDataType());
        if (dt != null && !v.isVariableLength()) {
          a = new TiledVariable(nc, v, dt, chunkShape(v, attrs), path + "#" + v.getFullName() + "@" + modified);
        }
      }
      ds.add(new ImageVariable(ds, v.getFullName(), dims, a, attrs));
    }
    return ds;
  }

  static DType dtype(DataType t) {
    ByteOrder le = ByteOrder.LITTLE_ENDIAN;
    boolean u = t.isUnsigned();
    switch (t) {
      case BYTE:
      case UBYTE:
        return DType.of(u ? DType.Kind.UINT : DType.Kind.INT, 1, le);
      case SHORT:
      case USHORT:
        return DType.of(u ? DType.Kind.UINT : DType.Kind.INT, 2, le);
      case INT:
      case UINT:
        return DType.of(u ? DType.Kind.UINT : DType.Kind.INT, 4, le);
      case LONG:
      case ULONG:
        return DType.of(u ? DType.Kind.UINT : DType.Kind.INT, 8, le);
      case FLOAT:
        return DType.of(DType.Kind.FLOAT, 4, le);
      case DOUBLE:
        return DType.of(DType.Kind.FLOAT, 8, le);
      default:
        return null;
    }
  }

  static int[] chunkShape(Variable v, Map<String, Object> attrs) {
    int[] shape = v.getShape();
    int n = shape.length;
    Object cs = attrs.get("_ChunkSizes");
    int[] c = null;
    if (cs instanceof int[] && ((int[]) cs).length == n) {
      c = ((int[]) cs).clone();
    } else if (cs instanceof Integer && n == 1) {
      c = new int[] {(Integer) cs};
    }
    if (c == null) {
      c = new int[n];
      Arrays.fill(c, 1);
      if (n >= 1) {
        c[n - 1] = shape[n - 1] <= 2048 ? shape[n - 1] : 1024;
      }
      if (n >= 2) {
        c[n - 2] = shape[n - 2] <= 2048 ? shape[n - 2] : 1024;
      }
    }
    for (int d = 0; d < n; d++) {
      c[d] = Math.max(1, Math.min(c[d], Math.max(1, shape[d])));
    }
    return c;
  }

  /** Attributes as the opener SPI describes them (String, boxed numbers, primitive arrays). */
  static Map<String, Object> attributes(Iterable<Attribute> atts) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Attribute a : atts) {
      Object v;
      if (a.isString()) {
        v = a.getLength() == 1 ? a.getStringValue() : a.getValues() == null ? "" : stringArray(a);
      } else {
        Array arr = a.getValues();
        if (arr == null) {
          continue;
        }
        Object j = arr.get1DJavaArray(arr.getDataType());
        if (java.lang.reflect.Array.getLength(j) == 1) {
          v = java.lang.reflect.Array.get(j, 0);
        } else {
          v = j;
        }
      }
      out.put(a.getShortName(), v);
    }
    return out;
  }

  private static String[] stringArray(Attribute a) {
    String[] s = new String[a.getLength()];
    for (int i = 0; i < s.length; i++) {
      s[i] = a.getStringValue(i);
    }
    return s;
  }

  /** A netcdf-java variable cut into tiles of {@code chunk} shape, one {@code Variable.read} per tile. */
  static final class TiledVariable extends BasicChunkedArray {
    private final NetcdfFile nc;
    private final Variable v;
    private final ChunkGrid.Regular grid;

    TiledVariable(NetcdfFile nc, Variable v, DType dt, int[] chunk, String key) {
      super(dt, ChunkGrid.regular(shape(v), chunk), null, key);
      this.nc = nc;
      this.v = v;
      this.grid = (ChunkGrid.Regular) super.grid();
    }

    private static long[] shape(Variable v) {
      long[] shape = new long[v.getRank()];
      for (int d = 0; d < shape.length; d++) {
        shape[d] = v.getShape(d);
      }
      return shape;
    }

    @Override
    public ChunkData chunk(long index) throws IOException {
      int n = grid.rank();
      long[] gs = grid.gridShape();
      int[] c = grid.chunkShape();
      long[] shape = grid.shape();
      int[] origin = new int[n];
      int[] size = new int[n];
      long rest = index;
      for (int d = n - 1; d >= 0; d--) {
        long k = rest % gs[d];
        rest /= gs[d];
        origin[d] = (int) (k * c[d]);
        size[d] = (int) Math.min(c[d], shape[d] - origin[d]);
      }
      Array arr;
      try {
        synchronized (nc) { // netcdf-java files are not thread-safe
          arr = v.read(origin, size);
        }
      } catch (InvalidRangeException e) {
        throw new IOException(nc.getLocation() + ": " + v.getFullName() + " tile " + index + ": " + e.getMessage(), e);
      }
      int item = dtype().itemSize();
      long full = grid.chunkElements();
      ByteBuffer out = ByteBuffer.allocate((int) (full * item)).order(ByteOrder.LITTLE_ENDIAN);
      // C-order walk of the (possibly clipped) tile, written at its place in the full chunk shape
      long cnt = arr.getSize();
      int[] idx = new int[n];
      ucar.ma2.IndexIterator it = arr.getIndexIterator();
      for (long e = 0; e < cnt; e++) {
        long pos = 0;
        for (int d = 0; d < n; d++) {
          pos = pos * c[d] + idx[d];
        }
        int at = (int) (pos * item);
        switch (dtype().kind() == DType.Kind.FLOAT ? (item == 4 ? 'f' : 'd') : (char) ('0' + item)) {
          case 'f':
            out.putFloat(at, it.getFloatNext());
            break;
          case 'd':
            out.putDouble(at, it.getDoubleNext());
            break;
          case '1':
            out.put(at, it.getByteNext());
            break;
          case '2':
            out.putShort(at, it.getShortNext());
            break;
          case '4':
            out.putInt(at, it.getIntNext());
            break;
          default:
            out.putLong(at, it.getLongNext());
        }
        for (int d = n - 1; d >= 0; d--) {
          if (++idx[d] < size[d]) {
            break;
          }
          idx[d] = 0;
        }
      }
      return ChunkData.of(out.array());
    }
  }
}
