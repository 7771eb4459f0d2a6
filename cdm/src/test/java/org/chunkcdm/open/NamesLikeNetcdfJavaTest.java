package org.chunkcdm.open;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import ucar.nc2.NetcdfFiles;

/** The opener API's names ({@link Names#valid}) are the names netcdf-java makes of the same strings. */
class NamesLikeNetcdfJavaTest {
  @Test
  void namesAreMadeValidLikeNetcdfJava() {
    String[] samples = {"a", " a b ", "a/b", "x\ty", "\u0001lead", "tail\u0002", "a  b/c", "", " ", "é ü", "a.b",
      "\u001fx\u0020y", "1 2 3", "//", "name\n", "t\u007f"};
    for (String s : samples) {
      String want = NetcdfFiles.makeValidCdmObjectName(s);
      assertEquals(want == null || want.isEmpty() ? "_" : want, Names.valid(s), "'" + s + "'");
    }
  }
}
