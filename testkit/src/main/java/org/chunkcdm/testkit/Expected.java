package org.chunkcdm.testkit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;
import ucar.ma2.DataType;

/**
 * What one variable must hold through netcdf-java, as the {@link IospContract} checks it: CDM name, CDM type,
 * logical shape, and either the raw expected values (C order, little-endian, {@code itemSize} bytes per logical
 * element, covering a trailing type dimension when there is one) or one string per logical element. Built by
 * each format's tests from its MANIFEST.json entry, independently of the production conversion code.
 */
public final class Expected {
  private final String what;
  private final String cdmName;
  private final DataType type;
  private final long[] shape;
  private final int extraDim;
  private final int itemSize;
  private final byte[] raw;
  private final String[] strings;
  private final byte[] defined;
  private final long[] chunk;
  private final long[] block;

  private Expected(String what, String cdmName, DataType type, long[] shape, int extraDim, int itemSize, byte[] raw,
      String[] strings, byte[] defined, long[] chunk, long[] block) {
    this.what = what;
    this.cdmName = cdmName;
    this.type = type;
    this.shape = shape.clone();
    this.extraDim = extraDim;
    this.itemSize = itemSize;
    this.raw = raw;
    this.strings = strings;
    this.defined = defined;
    this.chunk = chunk;
    this.block = block;
    long n = count(shape);
    if (raw != null && raw.length != n * itemSize) {
      throw new IllegalArgumentException(what + ": " + raw.length + " expected bytes for " + n + " elements of "
          + itemSize + " bytes");
    }
    if (strings != null && strings.length != n) {
      throw new IllegalArgumentException(what + ": " + strings.length + " expected strings for " + n + " elements");
    }
  }

  /** Numbers (or bytes/chars) given as raw little-endian C-order values, {@code itemSize} bytes per element. */
  public static Expected values(String what, String cdmName, DataType type, long[] shape, int itemSize, byte[] raw) {
    return new Expected(what, cdmName, type, shape, 0, itemSize, raw, null, null, null, null);
  }

  /** Strings ({@code DataType.STRING}), one per logical element in C order. */
  public static Expected strings(String what, String cdmName, long[] shape, String[] values) {
    return new Expected(what, cdmName, DataType.STRING, shape, 0, 0, null, values.clone(), null, null, null);
  }

  /**
   * A plain numeric manifest variable ({@code <f4}, {@code |u1}, {@code int16}, {@code float64}, {@code bool} ...)
   * read as the CDM type of the same width and signedness; null for anything else (strings, records, bytes).
   */
  public static Expected numeric(Fixtures.Variable fv, String cdmName) {
    String dt = fv.dtype().toLowerCase(Locale.ROOT);
    if (!dt.isEmpty() && "<>|=".indexOf(dt.charAt(0)) >= 0) {
      dt = dt.substring(1);
    }
    char kind;
    int size;
    if (dt.equals("bool") || dt.equals("b1")) {
      kind = 'u';
      size = 1;
    } else if (dt.matches("[iuf][1248]")) {
      kind = dt.charAt(0);
      size = dt.charAt(1) - '0';
    } else if (dt.matches("(u?int|float)(8|16|32|64)")) {
      kind = dt.startsWith("float") ? 'f' : dt.startsWith("u") ? 'u' : 'i';
      size = Integer.parseInt(dt.replaceAll("[a-z]", "")) / 8;
    } else {
      return null;
    }
    DataType t;
    if (kind == 'f') {
      if (size != 4 && size != 8) {
        return null;
      }
      t = size == 4 ? DataType.FLOAT : DataType.DOUBLE;
    } else {
      boolean u = kind == 'u';
      t = size == 1 ? (u ? DataType.UBYTE : DataType.BYTE) : size == 2 ? (u ? DataType.USHORT : DataType.SHORT)
          : size == 4 ? (u ? DataType.UINT : DataType.INT) : (u ? DataType.ULONG : DataType.LONG);
    }
    return values(fv.toString(), cdmName, t, fv.shape(), size, fv.expected());
  }

  /** The same expectation under another CDM name (e.g. a copy of the dataset named after its new file). */
  public Expected named(String newName) {
    return new Expected(what, newName, type, shape, extraDim, itemSize, raw, strings, defined, chunk, block);
  }

  /** A trailing CDM dimension of {@code n} (bytes, chars, complex parts) that sections always read whole. */
  public Expected extraDim(int n) {
    return new Expected(what, cdmName, type, shape, n, itemSize, raw, strings, defined, chunk, block);
  }

  /** Per raw byte: 0 = undefined (not compared), else defined. */
  public Expected defined(byte[] mask) {
    if (mask.length != raw.length) {
      throw new IllegalArgumentException(what + ": mask of " + mask.length + " bytes for " + raw.length);
    }
    return new Expected(what, cdmName, type, shape, extraDim, itemSize, raw, strings, mask.clone(), chunk, block);
  }

  /** Chunk and block shape (elements per logical dimension) the sections should cross; block may be null. */
  public Expected chunks(long[] chunkShape, long[] blockShape) {
    return new Expected(what, cdmName, type, shape, extraDim, itemSize, raw, strings, defined,
        chunkShape == null ? null : chunkShape.clone(), blockShape == null ? null : blockShape.clone());
  }

  public String what() {
    return what;
  }

  public String cdmName() {
    return cdmName;
  }

  public DataType type() {
    return type;
  }

  /** The logical shape (without the trailing type dimension). */
  public long[] shape() {
    return shape.clone();
  }

  public int extraDim() {
    return extraDim;
  }

  public int itemSize() {
    return itemSize;
  }

  /** Raw little-endian C-order values, or null for strings. */
  public byte[] raw() {
    return raw;
  }

  /** One string per element, or null for raw values. */
  public String[] strings() {
    return strings;
  }

  public byte[] definedMask() {
    return defined;
  }

  public long[] chunk() {
    return chunk == null ? null : chunk.clone();
  }

  public long[] block() {
    return block == null ? null : block.clone();
  }

  /** The CDM shape: the logical shape plus the trailing type dimension when there is one. */
  public int[] cdmShape() {
    int[] out = new int[shape.length + (extraDim > 0 ? 1 : 0)];
    for (int d = 0; d < shape.length; d++) {
      out[d] = (int) shape[d];
    }
    if (extraDim > 0) {
      out[shape.length] = extraDim;
    }
    return out;
  }

  /** Number of logical elements. */
  public long size() {
    return count(shape);
  }

  static long count(long[] shape) {
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    return n;
  }

  /** numpy's {@code U<n>} item at {@code off}: UCS-4 LE code points, trailing NULs dropped. */
  public static String ucs4(byte[] b, int off, int units) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int end = units;
    while (end > 0 && bb.getInt(off + 4 * (end - 1)) == 0) {
      end--;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < end; i++) {
      sb.appendCodePoint(bb.getInt(off + 4 * i));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return what;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Expected && ((Expected) o).what.equals(what) && ((Expected) o).cdmName.equals(cdmName)
        && Arrays.equals(((Expected) o).shape, shape);
  }

  @Override
  public int hashCode() {
    return what.hashCode();
  }
}
