package org.chunkcdm.ncstream.iosp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.NetcdfChecks;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.ma2.StructureData;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/** Compares two datasets: names, shapes, types, attributes, values whole and in strided sections. */
public final class CdmCompare {
  private CdmCompare() {}

  /** Every variable of {@code want} is in {@code got} with the same metadata and values. */
  public static void assertSameDataset(NetcdfFile want, NetcdfFile got, String what) throws IOException {
    assertEquals(names(want.getVariables()), names(got.getVariables()), what + ": variables");
    assertSameAttributes(want.getRootGroup().attributes(), got.getRootGroup().attributes(), what + ": global attributes");
    for (Variable w : want.getVariables()) {
      Variable g = got.findVariable(w.getFullNameEscaped());
      assertNotNull(g, what + ": " + w.getFullName());
      String vw = what + ": " + w.getFullName();
      assertEquals(w.getDataType(), g.getDataType(), vw + " type");
      assertEquals(Arrays.toString(w.getShape()), Arrays.toString(g.getShape()), vw + " shape");
      assertEquals(w.getDimensionsString(), g.getDimensionsString(), vw + " dimensions");
      assertSameAttributes(w.attributes(), g.attributes(), vw + " attributes");
      if (w.isMemberOfStructure()) {
        continue;
      }
      assertSameValues(w.read(), g.read(), vw + " whole");
      for (Section s : sections(w.getShape(), 4, new Random(w.getFullName().hashCode()))) {
        try {
          assertSameValues(w.read(s), g.read(s), vw + " " + s);
        } catch (InvalidRangeException e) {
          throw new AssertionError(vw + " " + s, e);
        }
      }
    }
  }

  static List<String> names(List<Variable> vs) {
    List<String> out = new ArrayList<>();
    for (Variable v : vs) {
      out.add(v.getFullName());
    }
    return out;
  }

  static void assertSameAttributes(Iterable<Attribute> want, Iterable<Attribute> got, String what) {
    List<String> w = new ArrayList<>();
    List<String> g = new ArrayList<>();
    for (Attribute a : want) {
      w.add(a.toString());
    }
    for (Attribute a : got) {
      g.add(a.toString());
    }
    assertEquals(w, g, what);
  }

  /** Values of two arrays, structures member by member. */
  public static void assertSameValues(Array want, Array got, String what) throws IOException {
    if (want instanceof ArrayStructure) {
      ArrayStructure a = (ArrayStructure) want;
      ArrayStructure b = (ArrayStructure) got;
      assertEquals(Arrays.toString(a.getShape()), Arrays.toString(b.getShape()), what + " shape");
      for (int i = 0; i < a.getSize(); i++) {
        StructureData x = a.getStructureData(i);
        StructureData y = b.getStructureData(i);
        for (StructureMembers.Member m : x.getMembers()) {
          StructureMembers.Member n = y.findMember(m.getName());
          assertNotNull(n, what + " member " + m.getName());
          assertSameValues(x.getArray(m), y.getArray(n), what + " row " + i + " ." + m.getName());
        }
      }
      return;
    }
    if (want.getDataType() == DataType.OPAQUE || want.getDataType() == DataType.OBJECT) {
      assertEquals(want.getSize(), got.getSize(), what + " size");
      for (int i = 0; i < want.getSize(); i++) {
        assertEquals(String.valueOf(want.getObject(i)), String.valueOf(got.getObject(i)), what + " element " + i);
      }
      return;
    }
    NetcdfChecks.assertSameArray(want, got, what);
  }

  /** Some strided sections of a shape (empty list for scalars). */
  public static List<Section> sections(int[] shape, int n, Random r) {
    List<Section> out = new ArrayList<>();
    if (shape.length == 0 || Arrays.stream(shape).anyMatch(d -> d <= 0)) {
      return out;
    }
    try {
      List<Range> ranges = new ArrayList<>();
      for (int len : shape) {
        ranges.add(new Range(len > 1 ? 1 : 0, len - 1, Math.max(1, len / 7)));
      }
      out.add(new Section(ranges));
    } catch (InvalidRangeException e) {
      throw new IllegalStateException(e);
    }
    out.addAll(CdmArrays.randomSections(shape, n, r));
    return out;
  }

}
