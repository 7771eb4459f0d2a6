package org.chunkcdm.hdf5;

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

  /**
   * What this module needs of one variable: the fill value as the bytes of the fill-value message (file datatype
   * and byte order; null when the file has none), where the datatype message's body starts in the file (-1 when
   * unknown), the datatype's size in bytes.
   */
  record VarInfo(Filter[] pipeline, DataBTree btree, int[] storageSize, int endian, int hdfType, boolean vstring,
      boolean useFillValue, boolean chunked, byte[] fillBytes, long datatypeMessage, int typeSize) {}

  private static final Field V_MFP;
  private static final Field V_BTREE;
  private static final Field V_STORAGE;
  private static final Field V_TYPEINFO;
  private static final Field V_USEFILL;
  private static final Field V_CHUNKED;
  private static final Field V_FILL;
  private static final Field V_MDT;
  private static final Field V_FACADE;
  private static final Field F_DOBJ;
  private static final Field D_MESSAGES;
  private static final Field HM_START;
  private static final Field HM_HLEN;
  private static final Field HM_DATA;
  private static final Field T_SIZE;
  private static final Method SET_WARNINGS;
  private static final Field WARNINGS;
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
    Field fill = null;
    Field mdt = null;
    Field facade = null;
    Field dobj = null;
    Field messages = null;
    Field hmStart = null;
    Field hmHlen = null;
    Field hmData = null;
    Field tsize = null;
    Method setWarnings = null;
    Field warnings = null;
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
      fill = open(vinfo.getDeclaredField("fillValue"));
      mdt = open(vinfo.getDeclaredField("mdt"));
      facade = open(vinfo.getDeclaredField("facade"));
      Class<?> fac = Class.forName("ucar.nc2.internal.iosp.hdf5.H5objects$DataObjectFacade", false, cl);
      Class<?> dob = Class.forName("ucar.nc2.internal.iosp.hdf5.H5objects$DataObject", false, cl);
      Class<?> hm = Class.forName("ucar.nc2.internal.iosp.hdf5.H5objects$HeaderMessage", false, cl);
      dobj = open(fac.getDeclaredField("dobj"));
      messages = open(dob.getDeclaredField("messages"));
      hmStart = open(hm.getDeclaredField("start"));
      hmHlen = open(hm.getDeclaredField("header_length"));
      hmData = open(hm.getDeclaredField("messData"));
      tsize = open(ti.getDeclaredField("byteSize"));
      Class<?> header = Class.forName("ucar.nc2.internal.iosp.hdf5.H5headerNew", false, cl);
      setWarnings = header.getMethod("setWarnings", boolean.class);
      warnings = open(header.getDeclaredField("warnings"));
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
    V_MDT = mdt;
    V_FACADE = facade;
    F_DOBJ = dobj;
    D_MESSAGES = messages;
    HM_START = hmStart;
    HM_HLEN = hmHlen;
    HM_DATA = hmData;
    T_SIZE = tsize;
    SET_WARNINGS = setWarnings;
    WARNINGS = warnings;
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
      if (ti == null) {
        return null;
      }
      byte[] fill = (byte[]) V_FILL.get(spObject);
      return new VarInfo(pipeline, (DataBTree) V_BTREE.get(spObject), (int[]) V_STORAGE.get(spObject),
          T_ENDIAN.getInt(ti), T_HDFTYPE.getInt(ti), T_VSTRING.getBoolean(ti), V_USEFILL.getBoolean(spObject),
          V_CHUNKED.getBoolean(spObject), fill == null ? null : fill.clone(), datatypeMessage(spObject),
          T_SIZE.getInt(ti));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Where the body of the variable's datatype message starts in the file, or -1 when it cannot be told. */
  private static long datatypeMessage(Object spObject) throws ReflectiveOperationException {
    Object mdt = V_MDT.get(spObject);
    Object facade = V_FACADE.get(spObject);
    if (mdt == null || facade == null) {
      return -1;
    }
    Object dobj = F_DOBJ.get(facade);
    java.util.List<?> msgs = dobj == null ? null : (java.util.List<?>) D_MESSAGES.get(dobj);
    if (msgs == null) {
      return -1;
    }
    for (Object m : msgs) {
      if (HM_DATA.get(m) == mdt) {
        return HM_START.getLong(m) + HM_HLEN.getShort(m);
      }
    }
    return -1;
  }

  /**
   * Lets netcdf-java's header reader make variables of integer types whose precision is not a whole number of
   * bytes or whose offset is not 0 (the N-bit filter's datatypes): with its "warnings" switch on (its default) it
   * leaves such a variable without a type and then fails the whole open. Returns the previous setting.
   */
  static boolean setHeaderWarnings(boolean on) {
    try {
      boolean was = WARNINGS.getBoolean(null);
      SET_WARNINGS.invoke(null, on);
      return was;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return on;
    }
  }
}
