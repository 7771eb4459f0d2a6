package org.chunkcdm.ncstream.iosp;

import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Runs in a child JVM whose class path is netcdf-java and its dependencies only (no chunkcdm class): opens each
 * {@code .ncs} file given with stock {@code NetcdfFiles.open} and prints, per variable, its group path and name as
 * they are (slash-separated, URL-encoded), type, element count and the CRC-32 of its values as little-endian bytes, or why it could not be
 * read. Uses nothing but netcdf-java and the JDK.
 */
public final class StockNcsProbe {
  private StockNcsProbe() {}

  public static void main(String[] args) {
    try {
      Class.forName("org.chunkcdm.ncstream.NcStreamOut");
      System.out.println("CHUNKCDM present");
    } catch (ClassNotFoundException e) {
      System.out.println("CHUNKCDM absent");
    }
    for (String path : args) {
      try (NetcdfFile nc = NetcdfFiles.open(path)) {
        System.out.println("FILE\t" + path + "\t" + nc.getIosp().getClass().getName());
        for (Variable v : nc.getVariables()) {
          String name = URLEncoder.encode(path(v), StandardCharsets.UTF_8);
          try {
            Array a = v.read();
            System.out.println("VAR\t" + path + "\t" + name + "\t" + a.getDataType() + "\t" + a.getSize() + "\t"
                + Long.toHexString(crc(a)));
          } catch (Exception | AssertionError e) {
            System.out.println("FAIL\t" + path + "\t" + name + "\t" + String.valueOf(e).replace('\n', ' '));
          }
        }
      } catch (Exception e) {
        System.out.println("FAILFILE\t" + path + "\t" + String.valueOf(e).replace('\n', ' '));
      }
    }
  }

  /** The short names of the variable's groups below the root and its own, joined by slashes, unescaped. */
  static String path(Variable v) {
    StringBuilder sb = new StringBuilder(v.getShortName());
    for (ucar.nc2.Group g = v.getParentGroup(); g != null && !g.isRoot(); g = g.getParentGroup()) {
      sb.insert(0, g.getShortName() + "/");
    }
    return sb.toString();
  }

  /** CRC-32 of the values as little-endian bytes, element by element (booleans as one byte 0/1). */
  static long crc(Array a) {
    DataType t = a.getDataType();
    ByteBuffer bb = ByteBuffer.allocate((int) a.getSize() * t.getSize()).order(ByteOrder.LITTLE_ENDIAN);
    // if-else, not a switch on the enum: a switch compiles to an extra class the child's class path lacks
    for (IndexIterator it = a.getIndexIterator(); it.hasNext(); ) {
      if (t == DataType.BOOLEAN) {
        bb.put((byte) (it.getBooleanNext() ? 1 : 0));
      } else if (t.getSize() == 1) {
        bb.put(it.getByteNext());
      } else if (t == DataType.FLOAT) {
        bb.putInt(Float.floatToRawIntBits(it.getFloatNext()));
      } else if (t == DataType.DOUBLE) {
        bb.putLong(Double.doubleToRawLongBits(it.getDoubleNext()));
      } else if (t.getSize() == 2) {
        bb.putShort(it.getShortNext());
      } else if (t.getSize() == 4) {
        bb.putInt(it.getIntNext());
      } else if (t.getSize() == 8) {
        bb.putLong(it.getLongNext());
      } else {
        throw new IllegalArgumentException("not a number type: " + t);
      }
    }
    CRC32 c = new CRC32();
    c.update(bb.array());
    return c.getValue();
  }
}
