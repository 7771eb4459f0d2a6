package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The streaming header parse: format keys the reader does not know (inside a variable and at the top level,
 * with nested values) are skipped, never attributes or variables; member order does not matter ("." need not
 * be last); user attributes next to them are kept.
 */
class HeaderParseTest {
  @TempDir
  Path tmp;

  @Test
  void unknownDotKeysAndMemberOrder() throws IOException {
    Path p = MalformedTest.edited(tmp, "small.ds", "order.ds",
        "{\"x\": {\".size\": [1000], \".offset\": 0, \".len\": 8000, \".type\": \"int64\", \".missing\": false, "
            + "\".endian\": \"l\"}, \".\": {}}",
        "{\".\": {\"title\": \"t\", \"n\": [1, 2]}, \".meta\": [1, {\"z\": null, \"w\": [NaN]}], "
            + "\"x\": {\"note\": \"kept\", \".future\": {\"a\": [1, {\"b\": -Infinity}], \"c\": \"x\"}, \".len\": 8000, "
            + "\".endian\": \"l\", \".missing\": false, \".offset\": 0, \".type\": \"int64\", \".size\": [1000], "
            + "\"scale\": 18446744073709551615}}");
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      assertEquals(1, nc.getVariables().size(), "only x is a variable");
      Variable x = nc.findVariable("x");
      assertNotNull(x);
      assertEquals("kept", x.findAttribute("note").getStringValue());
      Attribute scale = x.findAttribute("scale");
      assertEquals(ucar.ma2.DataType.ULONG, scale.getDataType(), "2^64-1 stays integral");
      assertEquals(-1L, scale.getNumericValue().longValue());
      for (Attribute a : x.attributes()) {
        assertEquals(false, a.getShortName().contains("future") || a.getShortName().startsWith("a"),
            "unknown format key became attribute " + a);
      }
      assertEquals(2, com.google.common.collect.Iterables.size(x.attributes()), "note and scale only: " + x.attributes());
      assertEquals("t", nc.getRootGroup().findAttributeString("title", null));
      assertArrayEquals(new int[] {1, 2}, (int[]) nc.getRootGroup().findAttribute("n").getValues().copyTo1DJavaArray());
      assertNull(nc.getRootGroup().findAttribute("z"), "a top-level format key is not a global attribute");
      long[] got = (long[]) x.read().copyTo1DJavaArray();
      long[] want = new long[1000];
      ByteBuffer.wrap(Fixtures.manifest("ds").dataset("small.ds").variable("x").expected())
          .order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(want);
      assertArrayEquals(want, got);
    }
  }
}
