package org.chunkcdm.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Formatter;
import java.util.List;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.util.CancelTask;
import ucar.nc2.util.Indent;
import ucar.nc2.write.Ncdump;

/**
 * The CDL of a dataset exactly as netcdf-java's {@link Ncdump} prints it, but written variable by variable: a
 * variable whose values cannot be read is left out of the data section and reported to the caller, where Ncdump
 * would print the error inside the CDL and drop every later variable.
 */
final class CdlDump {
  private CdlDump() {}

  /** The variables whose values could not be read and the first failure. */
  static final class Failures {
    final List<String> names = new ArrayList<>();
    Throwable first;

    boolean any() {
      return first != null;
    }
  }

  /**
   * Ncdump's private {@code printArray(Formatter, Array, String, Indent, CancelTask)}: the data section's own
   * formatting at the data section's indentation; null when this netcdf-java has no such method (then the public
   * {@link Ncdump#printArray(Array, String, CancelTask)} is indented instead).
   */
  private static final Method PRINT_ARRAY = printArrayMethod();

  private static Method printArrayMethod() {
    try {
      Method m = Ncdump.class.getDeclaredMethod("printArray", Formatter.class, Array.class, String.class, Indent.class,
          CancelTask.class);
      m.setAccessible(true);
      return m;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Prints the header of {@code nc} as {@code location} and, unless {@code headerOnly}, a data section with the
   * values of {@code vars}; returns the variables that could not be read.
   */
  static Failures print(NetcdfFile nc, String location, List<Variable> vars, boolean headerOnly, PrintWriter out) {
    String header = Ncdump.builder(nc).setLocationName(location).setWantValues(Ncdump.WantValues.none).build().print();
    Failures failures = new Failures();
    if (headerOnly) {
      out.print(header);
      return failures;
    }
    int end = header.lastIndexOf('}');
    out.print(header.substring(0, end));
    out.printf("%n  data:%n");
    for (Variable v : vars) {
      String text;
      try {
        text = values(v.read(), v.getFullName());
      } catch (IOException | RuntimeException e) {
        if (!failures.any()) {
          failures.first = e;
        }
        failures.names.add(v.getFullName());
        continue;
      }
      out.print(text);
      out.flush();
    }
    out.print(header.substring(end));
    return failures;
  }

  /**
   * One variable's values as Ncdump prints them in the data section. An empty number array whose first
   * dimension is not the empty one (shape 3 x 0), which Ncdump fails to print, is printed as Ncdump prints one
   * whose first dimension is (an empty pair of braces on two lines).
   */
  static String values(Array a0, String name) throws IOException {
    Array a = a0;
    if (a.getSize() == 0 && a.getRank() > 1 && a.getShape()[0] > 0 && (a.getDataType().isNumeric()
        || a.getDataType() == ucar.ma2.DataType.BOOLEAN)) {
      a = Array.factory(a.getDataType(), new int[] {0, 1});
    }
    if (PRINT_ARRAY != null) {
      Formatter f = new Formatter();
      Indent indent = new Indent(2);
      indent.setIndentLevel(2);
      try {
        PRINT_ARRAY.invoke(null, f, a, name, indent, null);
      } catch (InvocationTargetException e) {
        Throwable c = e.getCause();
        if (c instanceof RuntimeException) {
          throw (RuntimeException) c;
        }
        if (c instanceof Error) {
          throw (Error) c;
        }
        throw new IOException(name + ": " + c.getMessage(), c);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
      return f.toString();
    }
    StringBuilder sb = new StringBuilder();
    for (String line : Ncdump.printArray(a, name, null).split("\n", -1)) {
      if (!line.isEmpty()) {
        sb.append("    ").append(line);
      }
      sb.append('\n');
    }
    return sb.substring(0, sb.length() - 1);
  }
}
