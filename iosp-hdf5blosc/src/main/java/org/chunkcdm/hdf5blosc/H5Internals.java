package org.chunkcdm.hdf5blosc;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import ucar.nc2.internal.iosp.hdf5.H5iospNew;
import ucar.nc2.iosp.hdf5.DataBTree;

/**
 * Read access to the package-private per-variable facts netcdf-java 5.5.3's HDF5 header reader already parsed
 * ({@code H5headerNew.Vinfo}: filter pipeline, chunk B-tree, chunk shape, type byte order, fill value), so this
 * module parses no HDF5 metadata itself. Resolved once; if a netcdf-java version lacks a member,
 * {@link #available()} is false and every variable stays with netcdf-java's own reader.
 */
final class H5Internals {
  private H5Internals() {}

  /** One filter of a variable's pipeline, in pipeline (write) order. */
  record Filter(int id, int flags, int[] cdValues, String name) {}

  /** What this module needs of one variable. */
  record VarInfo(Filter[] pipeline, DataBTree btree, int[] storageSize, int endian, int hdfType, boolean vstring,
      boolean useFillValue, boolean chunked, Object fillValue) {}

  private static final Field V_MFP;
  private static final Field V_BTREE;
  private static final Field V_STORAGE;
  private static final Field V_TYPEINFO;
  private static final Field V_USEFILL;
  private static final Field V_CHUNKED;
  private static final Method V_FILL;
  private static final Field MFP_FILTERS;
  private static final Field F_ID;
  private static final Field F_FLAGS;
  private static final Field F_DATA;
  private static final Field F_NAME;
  private static final Field T_ENDIAN;
  private static final Field T_HDFTYPE;
  private static final Field T_VSTRING;
  private static final Class<?> VINFO;
  private static final Throwable FAILURE;

  static {
    Field mfp = null, btree = null, storage = null, typeInfo = null, useFill = null, chunked = null, filters = null,
        id = null, flags = null, data = null, name = null, endian = null, hdfType = null, vstring = null;
    Method fill = null;
    Class<?> vinfo = null;
    Throwable failure = null;
    try {
      ClassLoader cl = H5iospNew.class.getClassLoader();
      vinfo = Class.forName("ucar.nc2.internal.iosp.hdf5.H5headerNew$Vinfo", false, cl);
      Class<?> ti = Class.forName("ucar.nc2.internal.iosp.hdf5.H5headerNew$TypeInfo", false, cl);
      Class<?> mf = Class.forName("ucar.nc2.internal.iosp.hdf5.H5objects$MessageFilter", false, cl);
      Class<?> fc = Class.forName("ucar.nc2.internal.iosp.hdf5.H5objects$Filter", false, cl);
      mfp = open(vinfo.getDeclaredField("mfp"));
      btree = open(vinfo.getDeclaredField("btree"));
      storage = open(vinfo.getDeclaredField("storageSize"));
      typeInfo = open(vinfo.getDeclaredField("typeInfo"));
      useFill = open(vinfo.getDeclaredField("useFillValue"));
      chunked = open(vinfo.getDeclaredField("isChunked"));
      fill = vinfo.getDeclaredMethod("getFillValue");
      fill.setAccessible(true);
      filters = open(mf.getDeclaredField("filters"));
      id = open(fc.getDeclaredField("id"));
      flags = open(fc.getDeclaredField("flags"));
      data = open(fc.getDeclaredField("data"));
      name = open(fc.getDeclaredField("name"));
      endian = open(ti.getDeclaredField("endian"));
      hdfType = open(ti.getDeclaredField("hdfType"));
      vstring = open(ti.getDeclaredField("isVString"));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      failure = e;
    }
    V_MFP = mfp;
    V_BTREE = btree;
    V_STORAGE = storage;
    V_TYPEINFO = typeInfo;
    V_USEFILL = useFill;
    V_CHUNKED = chunked;
    V_FILL = fill;
    MFP_FILTERS = filters;
    F_ID = id;
    F_FLAGS = flags;
    F_DATA = data;
    F_NAME = name;
    T_ENDIAN = endian;
    T_HDFTYPE = hdfType;
    T_VSTRING = vstring;
    VINFO = vinfo;
    FAILURE = failure;
  }

  private static Field open(Field f) {
    f.setAccessible(true);
    return f;
  }

  static boolean available() {
    return FAILURE == null;
  }

  /** Why {@link #available()} is false (null when it is true). */
  static Throwable failure() {
    return FAILURE;
  }

  /** The facts of a variable's SPobject, or null when it is not an HDF5 Vinfo (or the facts are unreachable). */
  static VarInfo of(Object spObject) {
    if (!available() || spObject == null || !VINFO.isInstance(spObject)) {
      return null;
    }
    try {
      Object mfp = V_MFP.get(spObject);
      Filter[] pipeline = new Filter[0];
      if (mfp != null) {
        Object[] fs = (Object[]) MFP_FILTERS.get(mfp);
        pipeline = new Filter[fs == null ? 0 : fs.length];
        for (int i = 0; i < pipeline.length; i++) {
          Object f = fs[i];
          int[] cd = (int[]) F_DATA.get(f);
          pipeline[i] = new Filter(((Number) F_ID.get(f)).intValue() & 0xffff, ((Number) F_FLAGS.get(f)).intValue(),
              cd == null ? new int[0] : cd.clone(), (String) F_NAME.get(f));
        }
      }
      Object ti = V_TYPEINFO.get(spObject);
      return new VarInfo(pipeline, (DataBTree) V_BTREE.get(spObject), (int[]) V_STORAGE.get(spObject),
          T_ENDIAN.getInt(ti), T_HDFTYPE.getInt(ti), T_VSTRING.getBoolean(ti), V_USEFILL.getBoolean(spObject),
          V_CHUNKED.getBoolean(spObject), V_FILL.invoke(spObject));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
