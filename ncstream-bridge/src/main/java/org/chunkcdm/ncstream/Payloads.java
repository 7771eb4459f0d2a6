package org.chunkcdm.ncstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.cdm.Sections;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.Variable;
import ucar.nc2.dataset.VariableDS;

/**
 * The payload bytes of ncstream data messages: where a variable's values come from (the raw chunks of a
 * {@link ChunkedArray} or netcdf-java's {@link Array}), their byte order and element sizes, and DEFLATE.
 */
final class Payloads {
  private static final VarHandle LE16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private Payloads() {}

  /** Payload bytes of one slab: the first {@code length} bytes of {@code bytes}, in the order {@code bigEndian} says. */
  static final class Payload {
    final byte[] bytes;
    final int length;
    final boolean bigEndian;

    Payload(byte[] bytes, int length, boolean bigEndian) {
      this.bytes = bytes;
      this.length = length;
      this.bigEndian = bigEndian;
    }
  }

  /** The chunked array behind {@code v} when its raw chunk bytes are exactly the CDM values, else null. */
  static ChunkedArray rawSource(Variable v) {
    Variable base = unenhanced(v);
    if (base == null || base.hasCachedData() || !(base.getSPobject() instanceof ChunkedArray)) {
      return null;
    }
    ChunkedArray a = (ChunkedArray) base.getSPobject();
    DType dt = a.dtype();
    if (!rawKind(dt) || CdmTypes.of(dt) != v.getDataType()) {
      return null;
    }
    int[] cdm;
    try {
      cdm = SectionReader.cdmShape(a.grid().shape(), dt.extraDim());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return Arrays.equals(cdm, v.getShape()) ? a : null;
  }

  /** The variable behind the {@code VariableDS} layers of {@code v} when none changes a value, else null. */
  private static Variable unenhanced(Variable v) {
    Variable base = v;
    while (base instanceof VariableDS) {
      VariableDS ds = (VariableDS) base;
      if (ds.getOriginalVariable() == null || ds.hasCachedData()) {
        return null;
      }
      // enhancements that change no value of this variable (no scale/offset, no missing or valid-range
      // attributes, no type change: checked below) leave the raw chunks right
      if (!ds.getEnhanceMode().isEmpty() && (ds.hasScaleOffset() || ds.hasMissing() || ds.hasValidData()
          || ds.hasFillValue() || ds.hasMissingValue())) {
        return null;
      }
      Variable org = ds.getOriginalVariable();
      if (org.getDataType() != ds.getDataType() || !Arrays.equals(org.getShape(), ds.getShape())) {
        return null;
      }
      base = org;
    }
    return base;
  }

  /** Whether chunk bytes of {@code dt} are the CDM values as they are (no half floats, no strings). */
  private static boolean rawKind(DType dt) {
    switch (dt.kind()) {
      case INT:
      case UINT:
      case COMPLEX:
      case BOOL:
      case BYTES:
      case OPAQUE:
        return true;
      case FLOAT:
        return dt.itemSize() != 2;
      default:
        return false;
    }
  }

  static long elementBytes(Variable v) {
    DataType dt = v.getDataType();
    if (dt == DataType.STRUCTURE) {
      return Math.max(1, v.getElementSize());
    }
    return Math.max(1, dt.getSize());
  }

  static boolean isFixedSize(Variable v) {
    DataType dt = v.getDataType();
    return !v.isVariableLength() && dt != DataType.STRING && dt != DataType.OPAQUE && dt != DataType.STRUCTURE
        && dt != DataType.SEQUENCE;
  }

  /** {@code _ChunkSizes} of a variable when it has one entry per dimension, else null. */
  static int[] chunkSizesAttribute(Variable v) {
    Attribute a = v.findAttribute("_ChunkSizes");
    if (a == null || a.isString() || a.getLength() != v.getRank()) {
      return null;
    }
    int[] cs = new int[a.getLength()];
    for (int i = 0; i < cs.length; i++) {
      Number n = a.getNumericValue(i);
      if (n == null || n.longValue() <= 0) {
        return null;
      }
      cs[i] = (int) Math.min(Integer.MAX_VALUE, n.longValue());
    }
    return cs;
  }

  /**
   * Reads {@code s} of a chunked variable (whole items) as raw chunk bytes: into {@code buf} when it is large
   * enough, into a new array otherwise (null = always a new array of exactly the section). Booleans become 0/1;
   * {@code forceBig} swaps little-endian values to big-endian.
   */
  static Payload readRaw(Section s, ChunkedArray raw, boolean forceBig, byte[] buf) throws IOException {
    DType dt = raw.dtype();
    Sections.Box box = Sections.box(s, raw.grid().rank());
    byte[] b;
    int n;
    if (buf == null) {
      b = SectionReader.readBytes(raw, box.first, box.count, box.stride);
      n = b.length;
    } else {
      long len = box.size() * dt.itemSize();
      b = buf.length < len ? new byte[(int) len] : buf;
      n = (int) len;
      SectionReader.readBytes(raw, box.first, box.count, box.stride, b, 0);
    }
    if (dt.kind() == DType.Kind.BOOL) {
      for (int i = 0; i < n; i++) {
        b[i] = b[i] != 0 ? (byte) 1 : 0;
      }
    }
    boolean big = storedBigEndian(dt);
    if (forceBig && !big) {
      swap(b, n, swapUnit(dt));
      big = true;
    }
    return new Payload(b, n, big);
  }

  /** The bytes swapped as one value: a complex number's parts, a string's single bytes, else the item. */
  private static int swapUnit(DType dt) {
    return dt.kind() == DType.Kind.COMPLEX ? dt.itemSize() / 2 : dt.extraDim() > 0 ? 1 : dt.itemSize();
  }

  /** Whether stored values of {@code dt} are big-endian as they are (single bytes count as such). */
  static boolean storedBigEndian(DType dt) {
    return dt.order() == ByteOrder.BIG_ENDIAN || swapUnit(dt) == 1;
  }

  /**
   * Whether {@link #readRaw(Section, ChunkedArray, boolean, byte[])} hands over the stored bytes unchanged (no 0/1
   * booleans, no byte swap), so that they may be read straight into a buffer instead.
   */
  static boolean storedAsIs(DType dt, boolean forceBig) {
    return dt.kind() != DType.Kind.BOOL && (!forceBig || storedBigEndian(dt));
  }

  /** The stored bytes of {@code s} (whole items). */
  static long rawBytes(Section s, ChunkedArray raw) {
    return Sections.box(s, raw.grid().rank()).size() * raw.dtype().itemSize();
  }

  /**
   * Reads the stored bytes of {@code s} (whole items; only where {@link #storedAsIs}) into {@code dst} from its
   * position on (which stays where it is): a direct buffer gets the chunks that native c-blosc decodes in place.
   */
  static void readRaw(Section s, ChunkedArray raw, ByteBuffer dst) throws IOException {
    Sections.Box box = Sections.box(s, raw.grid().rank());
    SectionReader.readBytes(raw, box.first, box.count, box.stride, dst);
  }

  /** Values of a fixed-size-element array in C order, big-endian; char as one byte each. */
  static byte[] primitiveBytes(DataType dt, Array a) throws IOException {
    int n = (int) a.getSize();
    switch (dt.getPrimitiveClassType().getSimpleName()) {
      case "byte": {
        byte[] b = (byte[]) a.get1DJavaArray(DataType.BYTE);
        return b.length == n ? b : Arrays.copyOf(b, n);
      }
      case "char": {
        byte[] b = new byte[n];
        IndexIterator it = a.getIndexIterator();
        for (int i = 0; i < n; i++) {
          b[i] = (byte) it.getCharNext();
        }
        return b;
      }
      case "short":
        return bigEndian(n, 2, bb -> bb.asShortBuffer().put((short[]) a.get1DJavaArray(DataType.SHORT), 0, n));
      case "int":
        return bigEndian(n, 4, bb -> bb.asIntBuffer().put((int[]) a.get1DJavaArray(DataType.INT), 0, n));
      case "long":
        return bigEndian(n, 8, bb -> bb.asLongBuffer().put((long[]) a.get1DJavaArray(DataType.LONG), 0, n));
      case "float":
        return bigEndian(n, 4, bb -> bb.asFloatBuffer().put((float[]) a.get1DJavaArray(DataType.FLOAT), 0, n));
      case "double":
        return bigEndian(n, 8, bb -> bb.asDoubleBuffer().put((double[]) a.get1DJavaArray(DataType.DOUBLE), 0, n));
      default:
        throw new IOException("no fixed-size encoding for data type " + dt);
    }
  }

  private static byte[] bigEndian(int n, int size, java.util.function.Consumer<ByteBuffer> fill) {
    ByteBuffer bb = ByteBuffer.allocate(size * n);
    fill.accept(bb);
    return bb.array();
  }

  /** Reverses the byte order of the {@code unit}-byte values in the first {@code len} bytes of {@code b}. */
  static void swap(byte[] b, int len, int unit) {
    int n = len / unit;
    switch (unit) {
      case 2:
        for (int i = 0; i < n; i++) {
          BE16.set(b, 2 * i, (short) LE16.get(b, 2 * i));
        }
        break;
      case 4:
        for (int i = 0; i < n; i++) {
          BE32.set(b, 4 * i, (int) LE32.get(b, 4 * i));
        }
        break;
      case 8:
        for (int i = 0; i < n; i++) {
          BE64.set(b, 8 * i, (long) LE64.get(b, 8 * i));
        }
        break;
      default:
        break;
    }
  }

  /** DEFLATE (zlib) of the first {@code len} bytes of {@code b} into {@code z} with {@code d} (reset first). */
  static void deflateInto(Deflater d, byte[] b, int len, ByteArrayOutputStream z) {
    d.reset();
    d.setInput(b, 0, len);
    d.finish();
    byte[] buf = new byte[64 << 10];
    while (!d.finished()) {
      int m = d.deflate(buf);
      z.write(buf, 0, m);
    }
  }
}
