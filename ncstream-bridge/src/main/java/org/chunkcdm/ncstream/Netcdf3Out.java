package org.chunkcdm.ncstream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.chunkcdm.chunk.Slabs;
import ucar.ma2.Array;
import ucar.ma2.ArrayChar;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.iosp.netcdf3.N3iosp;
import ucar.nc2.write.NetcdfFileFormat;
import ucar.nc2.write.NetcdfFormatWriter;

/**
 * Writes a {@link NetcdfFile} (or some of its variables) as a NetCDF-3 file, classic or 64-bit offset, through
 * netcdf-java's pure-Java {@link NetcdfFormatWriter}, reading each variable in bounded slabs.
 *
 * <p>Mapping of what NetCDF-3 cannot hold as such:
 *
 * <ul>
 *   <li>unsigned byte/short/int variables: the signed type of the same size plus {@code _Unsigned = "true"}
 *       (netcdf-java's NetcdfDatasets reads them back unsigned; NetcdfFiles gives the signed type and the attribute);
 *   <li>String variables: char variables with an extra last dimension {@code <name>_strlen} as long as the longest
 *       value's UTF-8 bytes (values are the UTF-8 bytes, NUL padded);
 *   <li>text attributes of several strings: one text, the strings joined by newlines;
 *   <li>attributes of unsigned or 64-bit integer types: the smallest signed type holding every value exactly
 *       (short, int, double), or else their decimal text;
 *   <li>{@code _ChunkSizes} is left out (NetCDF-3 is not chunked);
 *   <li>a dimension of length 0 is the file's unlimited dimension when it is the first dimension of every
 *       variable using it (NetCDF-3 allows one unlimited dimension, outermost).
 * </ul>
 *
 * Refused with one IOException listing every offending variable: 64-bit integer, structure, opaque, enum and
 * variable-length variables, variables in groups, names NetCDF-3 does not allow, and zero-length dimensions that
 * cannot be the unlimited one; classic files over 2 GiB (use 64-bit offset).
 */
public final class Netcdf3Out {
  private static final long SLAB_BYTES = 4L << 20;

  private Netcdf3Out() {}

  /** The variables of {@code nc} a whole-file conversion writes. */
  public static List<Variable> variables(NetcdfFile nc) {
    return NcStreamOut.dataVariables(nc);
  }

  /**
   * Writes the file. {@code vars} null = all. {@code progress} gets the bytes of each slab read. The output is
   * written at {@code out} (callers write to a temporary file and rename it).
   */
  public static void write(NetcdfFile nc, List<Variable> vars, Path out, boolean offset64, NcStreamOut.Progress progress)
      throws IOException {
    List<Variable> list = vars != null ? vars : variables(nc);
    List<String> problems = new ArrayList<>();
    for (Variable v : list) {
      String p = problem(v);
      if (p != null) {
        problems.add(v.getFullName() + " (" + p + ")");
      }
    }
    Set<Dimension> dims = new java.util.LinkedHashSet<>();
    for (Variable v : list) {
      dims.addAll(v.getDimensions());
    }
    Dimension unlimited = unlimited(list, dims, problems);
    if (!problems.isEmpty()) {
      throw new IOException("NetCDF-3 cannot hold " + String.join(", ", new java.util.LinkedHashSet<>(problems))
          + "; leave them out with -v or write ncstream (.ncs)");
    }
    Map<Variable, Integer> strlen = new LinkedHashMap<>();
    for (Variable v : list) {
      if (v.getDataType() == DataType.STRING) {
        strlen.put(v, maxUtf8(v));
      }
    }
    checkSizes(list, strlen, offset64);
    NetcdfFormatWriter.Builder b = NetcdfFormatWriter.builder().setNewFile(true).setFill(false)
        .setFormat(offset64 ? NetcdfFileFormat.NETCDF3_64BIT_OFFSET : NetcdfFileFormat.NETCDF3)
        .setLocation(out.toString());
    define(b, nc, list, dims, unlimited, strlen);
    try (NetcdfFormatWriter w = b.build()) {
      for (Variable v : list) {
        writeVariable(w, v, strlen.get(v), progress);
      }
    }
  }

  /**
   * The dimension that becomes the file's unlimited one: the first of length 0 (or unlimited) that is the
   * outermost dimension of every variable using it. Other zero-length dimensions go to {@code problems}.
   */
  private static Dimension unlimited(List<Variable> list, Set<Dimension> dims, List<String> problems) {
    Dimension unlimited = null;
    for (Dimension d : dims) {
      if (d.getLength() == 0 || d.isUnlimited()) {
        boolean outer = true;
        for (Variable v : list) {
          int i = v.getDimensions().indexOf(d);
          if (i > 0) {
            outer = false;
          }
        }
        if (outer && unlimited == null) {
          unlimited = d;
        } else if (d.getLength() == 0) {
          for (Variable v : list) {
            if (v.getDimensions().contains(d)) {
              problems.add(v.getFullName() + " (dimension " + d.getShortName() + " of length 0 that cannot be NetCDF-3's "
                  + "one outermost unlimited dimension)");
            }
          }
        }
      }
    }
    return unlimited;
  }

  /** Classic files stay under 2 GiB; in 64-bit offset files only the last variable may pass 4 GiB. */
  private static void checkSizes(List<Variable> list, Map<Variable, Integer> strlen, boolean offset64)
      throws IOException {
    long total = 0;
    for (Variable v : list) {
      total += size(v, strlen.get(v));
    }
    if (!offset64 && total > Integer.MAX_VALUE - (1 << 20)) {
      throw new IOException("the data (" + total + " bytes) is too large for a classic NetCDF-3 file (2 GiB); use the "
          + "64-bit offset format (nc3-64)");
    }
    if (offset64) {
      for (int i = 0; i < list.size() - 1; i++) {
        if (size(list.get(i), strlen.get(list.get(i))) > 0xFFFFFFFCL) {
          throw new IOException(list.get(i).getFullName() + " is over 4 GiB: NetCDF-3 64-bit offset allows that only "
              + "for the last variable");
        }
      }
    }
  }

  /** Global attributes, dimensions and variables of the file (strings as char with a {@code _strlen} dimension). */
  private static void define(NetcdfFormatWriter.Builder b, NetcdfFile nc, List<Variable> list, Set<Dimension> dims,
      Dimension unlimited, Map<Variable, Integer> strlen) {
    for (Attribute a : nc.getRootGroup().attributes()) {
      b.addAttribute(attribute(a));
    }
    Map<Dimension, Dimension> outDims = new LinkedHashMap<>();
    for (Dimension d : dims) {
      outDims.put(d, d == unlimited ? b.addUnlimitedDimension(d.getShortName()) : b.addDimension(d.getShortName(), d.getLength()));
    }
    Set<String> names = new HashSet<>();
    for (Variable v : list) {
      names.add(v.getShortName());
    }
    for (Dimension d : dims) {
      names.add(d.getShortName());
    }
    for (Variable v : list) {
      List<Dimension> vd = new ArrayList<>();
      for (Dimension d : v.getDimensions()) {
        vd.add(outDims.get(d));
      }
      DataType t = v.getDataType();
      if (t == DataType.STRING) {
        String dn = v.getShortName() + "_strlen";
        while (names.contains(dn)) {
          dn = dn + "_";
        }
        names.add(dn);
        vd.add(b.addDimension(dn, Math.max(1, strlen.get(v))));
        t = DataType.CHAR;
      }
      Variable.Builder<?> vb = b.addVariable(v.getShortName(), t.withSignedness(DataType.Signedness.SIGNED), vd);
      for (Attribute a : v.attributes()) {
        // _ChunkSizes describes the source's storage; a NetCDF-3 file is not chunked
        if (!a.getShortName().equals("_Unsigned") && !a.getShortName().equals("_ChunkSizes")) {
          vb.addAttribute(attribute(a));
        }
      }
      if (t.isUnsigned()) {
        vb.addAttribute(new Attribute("_Unsigned", "true"));
      }
    }
  }

  /** A variable's values in bounded slabs; {@code sl} the string length of a string variable, else null. */
  private static void writeVariable(NetcdfFormatWriter w, Variable v, Integer sl, NcStreamOut.Progress progress)
      throws IOException {
    long elem = sl != null ? Math.max(1, sl) : Math.max(1, v.getDataType().getSize());
    if (v.getSize() == 0) {
      return;
    }
    Slabs slabs = new Slabs(v.getShape(), elem, SLAB_BYTES);
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      Array a = read(v, slab);
      long done = a.getSize() * elem;
      int[] origin = slab[0];
      if (sl != null) {
        a = chars(a, Math.max(1, sl));
        origin = java.util.Arrays.copyOf(origin, origin.length + 1);
      }
      try {
        w.write(v.getShortName(), origin, a);
      } catch (InvalidRangeException e) {
        throw new IOException(v.getFullName() + ": " + e.getMessage(), e);
      }
      if (progress != null) {
        progress.advance(done);
      }
    }
  }

  /** One slab ({origin, count}) of {@code v}. */
  private static Array read(Variable v, int[][] slab) throws IOException {
    try {
      return v.read(new Section(slab[0], slab[1]));
    } catch (InvalidRangeException e) {
      throw new IOException(v.getFullName() + ": " + e.getMessage(), e);
    }
  }

  /** Why NetCDF-3 cannot hold {@code v}, or null. */
  static String problem(Variable v) {
    if (!v.getParentGroup().isRoot()) {
      return "in group " + v.getParentGroup().getFullName() + "; NetCDF-3 has no groups";
    }
    if (!N3iosp.isValidNetcdf3ObjectName(v.getShortName())) {
      return "name not allowed in NetCDF-3";
    }
    for (Dimension d : v.getDimensions()) {
      if (d.getShortName() == null || !d.isShared()) {
        return "anonymous dimension";
      }
      if (!N3iosp.isValidNetcdf3ObjectName(d.getShortName())) {
        return "dimension name " + d.getShortName() + " not allowed in NetCDF-3";
      }
    }
    if (v.isVariableLength()) {
      return "variable-length";
    }
    switch (v.getDataType()) {
      case BYTE:
      case CHAR:
      case SHORT:
      case INT:
      case FLOAT:
      case DOUBLE:
      case UBYTE:
      case USHORT:
      case UINT:
      case STRING:
        return null;
      case LONG:
        return "64-bit integers";
      case ULONG:
        return "unsigned 64-bit integers";
      default:
        return v.getDataType().toString().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static long size(Variable v, Integer strlen) {
    return v.getSize() * (strlen != null ? Math.max(1, strlen) : Math.max(1, v.getDataType().getSize()));
  }

  /** The longest UTF-8 length of a string variable's values, read in bounded slabs. */
  private static int maxUtf8(Variable v) throws IOException {
    int max = 0;
    if (v.getSize() == 0) {
      return 0;
    }
    Slabs slabs = new Slabs(v.getShape(), 64, SLAB_BYTES);
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      Array a = read(v, slab);
      IndexIterator it = a.getIndexIterator();
      while (it.hasNext()) {
        Object o = it.getObjectNext();
        max = Math.max(max, o == null ? 0 : ((String) o).getBytes(StandardCharsets.UTF_8).length);
      }
    }
    return max;
  }

  /** Strings to a char array of one more dimension holding their UTF-8 bytes, NUL padded. */
  private static Array chars(Array strings, int len) {
    int[] shape = java.util.Arrays.copyOf(strings.getShape(), strings.getRank() + 1);
    shape[shape.length - 1] = len;
    int n = (int) strings.getSize();
    char[] c = new char[n * len];
    IndexIterator it = strings.getIndexIterator();
    for (int i = 0; i < n; i++) {
      Object o = it.getObjectNext();
      byte[] u = o == null ? new byte[0] : ((String) o).getBytes(StandardCharsets.UTF_8);
      for (int j = 0; j < u.length; j++) {
        c[i * len + j] = (char) (u[j] & 0xff);
      }
    }
    return Array.factory(DataType.CHAR, shape, c);
  }

  /** An attribute NetCDF-3 holds: unsigned and 64-bit integers narrowed to an exact signed type, else text. */
  static Attribute attribute(Attribute a) {
    DataType t = a.getDataType();
    if (a.isString() && a.getLength() > 1) { // NetCDF-3 text attributes hold one string
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < a.getLength(); i++) {
        parts.add(a.getStringValue(i));
      }
      return new Attribute(a.getShortName(), String.join("\n", parts));
    }
    if (a.isString() || a.getLength() == 0 || t == DataType.BYTE || t == DataType.SHORT || t == DataType.INT
        || t == DataType.FLOAT || t == DataType.DOUBLE || t == DataType.CHAR) {
      if (a.getLength() == 0 && !a.isString()) {
        return new Attribute(a.getShortName(), "");
      }
      return a;
    }
    if (!t.isIntegral()) {
      return new Attribute(a.getShortName(), a.getStringValue() == null ? String.valueOf(a.getValues()) : a.getStringValue());
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean exact = true;
    for (int i = 0; i < a.getLength(); i++) {
      Number n = a.getNumericValue(i);
      long x = t.isUnsigned() ? DataType.widenNumberIfNegative(n).longValue() : n.longValue();
      if (t == DataType.ULONG && n.longValue() < 0) {
        exact = false;
      }
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    DataType to = !exact ? null : min >= Short.MIN_VALUE && max <= Short.MAX_VALUE ? DataType.SHORT
        : min >= Integer.MIN_VALUE && max <= Integer.MAX_VALUE ? DataType.INT
        : min >= -(1L << 53) && max <= (1L << 53) ? DataType.DOUBLE : null;
    if (to == null) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < a.getLength(); i++) {
        Number n = a.getNumericValue(i);
        sb.append(i > 0 ? " " : "").append(t.isUnsigned() ? Long.toUnsignedString(n.longValue()) : n.toString());
      }
      return new Attribute(a.getShortName(), sb.toString());
    }
    Array out = Array.factory(to, new int[] {a.getLength()});
    for (int i = 0; i < a.getLength(); i++) {
      Number n = a.getNumericValue(i);
      long x = t.isUnsigned() ? DataType.widenNumberIfNegative(n).longValue() : n.longValue();
      out.setDouble(i, x);
    }
    return Attribute.builder(a.getShortName()).setValues(out).build();
  }
}
