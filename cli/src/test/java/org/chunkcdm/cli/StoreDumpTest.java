package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code chunkcdm dump} on every python-blosc2 store and table fixture: the header shows each key's groups and the
 * container attribute, and {@code -v group/var} prints every value of each numeric variable equal to the
 * manifest's expected values.
 */
class StoreDumpTest {
  static List<Fixtures.Dataset> stores() {
    return Fixtures.manifest("blosc2-stores").datasets("blosc2-store", "blosc2-ctable");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void dumpShowsGroupsAndValues(Fixtures.Dataset d) {
    CliRuns.Result h = CliRuns.run("dump", "-H", d.file().toString());
    assertEquals(0, h.rc(), h.err());
    assertTrue(h.out().contains(":blosc2_container = \""), h.out());
    int compared = 0;
    for (Fixtures.Variable v : d.variables()) {
      String name = v.name();
      for (String g : name.contains("/") ? name.substring(0, name.lastIndexOf('/')).split("/") : new String[0]) {
        assertTrue(h.out().contains("group: " + g + " {"), d + ": group " + g + " in\n" + h.out());
      }
      String dt = v.dtype();
      if (!dt.matches("[<|][iuf][1248]") || v.shape().length == 0 || name.contains(".") || name.contains(" ")) {
        continue;
      }
      CliRuns.Result r = CliRuns.run("dump", "-v", name, d.file().toString());
      assertEquals(0, r.rc(), d + " " + name + ": " + r.err());
      String data = r.out().substring(r.out().indexOf("data:"));
      String values = data.substring(data.indexOf('=') + 1);
      String[] tokens = values.replaceAll("[{};\\s]", "").split(",");
      byte[] raw = v.expected();
      int size = dt.charAt(2) - '0';
      if (raw.length == 0) {
        continue;
      }
      assertEquals(raw.length / size, tokens.length, d + " " + name + ": values printed");
      ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < tokens.length; i++) {
        int p = i * size;
        String where = d + " " + name + "[" + i + "]";
        if (dt.charAt(1) == 'f') {
          double want = size == 4 ? bb.getFloat(p) : bb.getDouble(p);
          String t = tokens[i];
          if (Double.isNaN(want) || Double.isInfinite(want)) {
            assertTrue(t.startsWith(Double.isNaN(want) ? "NaN" : want > 0 ? "Infinity" : "-Infinity"), where + ": " + t);
          } else {
            double got = Double.parseDouble(t.replaceAll("[fd]$", ""));
            assertEquals(want, got, size == 4 ? Math.abs(want) * 1e-6 : 0, where);
          }
          continue;
        }
        String t = tokens[i].replaceAll("[A-Za-z]+$", ""); // ncdump suffixes: 1b, 2s, 3UL ...
        assertEquals(Fixtures.integerText(bb, p, dt.substring(1)), t, where);
      }
      compared++;
    }
    assertTrue(compared > 0, d + ": no variable compared");
  }
}
