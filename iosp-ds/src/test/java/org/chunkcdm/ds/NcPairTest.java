package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The NetCDF pairs (nc/*.nc beside nc/*.ds, the .ds made by {@code ds select}): every .ds variable equals
 * what netcdf-java itself reads from the .nc. Cells holding the .nc variable's _FillValue are the .ds's masked
 * cells, which read as the .ds variable's _FillValue.
 */
class NcPairTest {
  static Stream<Fixtures.Dataset> pairs() {
    return Fixtures.manifest("ds").datasets().stream().filter(d -> d.json().hasNonNull("source_nc"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pairs")
  void dsEqualsNetcdf(Fixtures.Dataset d) throws Exception {
    Path nc = d.file().resolveSibling(d.file().getFileName().toString().replace(".ds", ".nc"));
    try (NetcdfFile ds = NetcdfFiles.open(d.file().toString()); NetcdfFile ref = NetcdfFiles.open(nc.toString())) {
      assertEquals("ds", ds.getFileTypeId());
      assertTrue(ds.getVariables().size() > 0);
      for (Variable v : ds.getVariables()) {
        Variable r = ref.findVariable(v.getShortName());
        assertNotNull(r, v.getShortName() + " in " + nc);
        String what = d + ":" + v.getShortName();
        assertArrayEquals(r.getShape(), v.getShape(), what + " shape");
        for (int i = 0; i < v.getRank(); i++) {
          assertEquals(r.getDimension(i).getShortName(), v.getDimension(i).getShortName(), what + " dim " + i);
        }
        Array a = v.read();
        Array b = r.read();
        if (r.getDataType() == DataType.CHAR) {
          // a netCDF char array became a str variable of 1-byte strings
          assertEquals(DataType.STRING, v.getDataType(), what);
          IndexIterator x = a.getIndexIterator();
          IndexIterator y = b.getIndexIterator();
          while (y.hasNext()) {
            char c = y.getCharNext();
            assertEquals(c == 0 ? "" : String.valueOf(c), x.getObjectNext(), what);
          }
          continue;
        }
        assertEquals(r.getDataType(), v.getDataType(), what + " type");
        if (v.getDataType() == DataType.STRING) {
          for (int i = 0; i < a.getSize(); i++) {
            assertEquals(b.getObject(i), a.getObject(i), what + " element " + i);
          }
          continue;
        }
        Attribute rf = r.findAttribute("_FillValue");
        Attribute df = v.findAttribute("_FillValue");
        if (rf != null) {
          assertNotNull(df, what + ": the .nc has _FillValue, so the .ds variable has one");
          assertEquals(rf.getNumericValue().doubleValue(), df.getNumericValue().doubleValue(), what + " _FillValue");
        }
        IndexIterator x = a.getIndexIterator();
        IndexIterator y = b.getIndexIterator();
        int masked = 0;
        for (int i = 0; y.hasNext(); i++) {
          if (v.getDataType().isFloatingPoint()) {
            double p = x.getDoubleNext();
            double q = y.getDoubleNext();
            masked += rf != null && q == rf.getNumericValue().doubleValue() ? 1 : 0;
            assertEquals(Double.doubleToLongBits(q), Double.doubleToLongBits(p), what + " element " + i);
          } else {
            long p = x.getLongNext();
            long q = y.getLongNext();
            assertEquals(q, p, what + " element " + i);
          }
        }
        Fixtures.Variable fv = d.variable(v.getShortName());
        if (fv.json().hasNonNull("mask")) {
          long want = 0;
          for (boolean m : new Expect(fv).mask) {
            want += m ? 1 : 0;
          }
          assertEquals(want, masked, what + ": the .nc's _FillValue cells are exactly the .ds's masked cells");
        }
      }
      for (Attribute g : ref.getRootGroup().attributes()) {
        if (g.getShortName().startsWith("_")) {
          continue; // netCDF-4 bookkeeping (_NCProperties), not data
        }
        Attribute h = ds.findGlobalAttribute(g.getShortName());
        assertNotNull(h, d + " global attribute " + g.getShortName());
        assertEquals(g.getLength(), h.getLength(), d + " global " + g.getShortName());
        for (int i = 0; i < g.getLength(); i++) {
          if (g.isString()) {
            assertEquals(g.getStringValue(i), h.getStringValue(i));
          } else {
            assertEquals(g.getNumericValue(i).doubleValue(), h.getNumericValue(i).doubleValue(), d + " global " + g);
          }
        }
      }
    }
  }
}
