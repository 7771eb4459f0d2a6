package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * A whole read of a masked variable (bitmask read once, values spread in place) gives the values of a plain
 * model: every length 1..70 and 1,000, masks of every kind (first/last missing, runs across bytes, all but one,
 * all missing), 1-, 2-, 4- and 8-byte types in both byte orders, and equals the element-by-element reads.
 */
class MaskedWholeReadTest {
  @TempDir
  Path tmp;

  @Test
  void wholeReadsEqualTheModel() throws Exception {
    Random r = new Random(11);
    String[] types = {"int8", "int16", "float32", "float64"};
    int file = 0;
    for (int n = 1; n <= 71; n++) {
      int len = n == 71 ? 1000 : n;
      for (int kind = 0; kind < 5; kind++) {
        boolean[] mask = new boolean[len];
        for (int i = 0; i < len; i++) {
          switch (kind) {
            case 0: mask[i] = r.nextInt(5) == 0; break;
            case 1: mask[i] = i == 0 || i == len - 1; break;
            case 2: mask[i] = (i / 9) % 2 == 1; break; // runs across byte boundaries
            case 3: mask[i] = i != len / 2; break; // all but one
            default: mask[i] = true; // all
          }
        }
        String type = types[(n + kind) % types.length];
        int item = type.equals("int8") ? 1 : type.equals("int16") ? 2 : type.equals("float32") ? 4 : 8;
        boolean big = (n + kind) % 2 == 0;
        ByteBuffer le = ByteBuffer.allocate(len * item).order(ByteOrder.LITTLE_ENDIAN);
        double[] want = new double[len];
        for (int i = 0; i < len; i++) {
          int v = 1 + i % 100;
          want[i] = mask[i] ? -99 : v;
          switch (item) {
            case 1: le.put((byte) v); break;
            case 2: le.putShort((short) v); break;
            case 4: le.putFloat(v); break;
            default: le.putDouble(v);
          }
        }
        DsWriter w = new DsWriter();
        w.numeric("v", type, new long[] {len}, new String[] {"n"}, big, le.array(), mask).put("_FillValue", -99);
        Path p = w.write(tmp.resolve("m" + file++ + ".ds"));
        try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
          Variable v = nc.findVariable("v");
          Array a = v.read();
          for (int i = 0; i < len; i++) {
            assertEquals(want[i], a.getDouble(i), p + " " + type + " n=" + len + " kind " + kind + " [" + i + "]");
          }
        }
        try (NetcdfFile nc = NetcdfFiles.open(p.toString())) { // element reads first: the rank-index path
          Variable v = nc.findVariable("v");
          for (int i = 0; i < len; i += Math.max(1, len / 50)) {
            assertEquals(want[i], v.read(new int[] {i}, new int[] {1}).getDouble(0), p + " element " + i);
          }
          Array a = v.read();
          for (int i = 0; i < len; i++) {
            assertEquals(want[i], a.getDouble(i), p + " after element reads [" + i + "]");
          }
        }
      }
    }
  }
}
