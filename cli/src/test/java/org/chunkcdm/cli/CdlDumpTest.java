package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.write.Ncdump;

/**
 * {@code chunkcdm dump} prints, variable by variable, exactly the CDL netcdf-java's Ncdump prints in one piece:
 * for every fixture dataset the whole dump, the header alone and a selection of two variables (last, first)
 * are compared character for character (where Ncdump fails, on the empty 3 x 0 array of {@code ds/empty.ds}, up to
 * that variable; chunkcdm's dump goes on and ends the CDL).
 */
class CdlDumpTest {
  @BeforeAll
  static void hdf5Blosc() {
    org.chunkcdm.hdf5blosc.H5BloscIosp.register();
  }

  static Stream<Path> datasets() throws Exception {
    List<Path> out = new ArrayList<>();
    for (String family : List.of("bcolz", "bloscpack", "blosc2", "ds", "hdf5-blosc")) {
      for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
        if (!d.kind().startsWith("chunk-")) {
          out.add(d.file());
        }
      }
    }
    try (Stream<Path> s = Files.list(Fixtures.root().resolve("samples"))) {
      s.sorted().forEach(out::add);
    }
    return out.stream().distinct();
  }

  static String ours(NetcdfFile nc, String name, List<Variable> vars, boolean header) {
    StringWriter w = new StringWriter();
    PrintWriter pw = new PrintWriter(w);
    CdlDump.Failures f = CdlDump.print(nc, name, vars, header, pw);
    pw.flush();
    assertFalse(f.any(), name + ": " + f.names);
    return w.toString();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void sameCdlAsNcdump(Path p) throws Exception {
    String name = p.getFileName().toString();
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      String all = Ncdump.builder(nc).setLocationName(name).setShowAllValues().build().print();
      String whole = ours(nc, name, nc.getVariables(), false);
      if (!all.endsWith("\nnull\n")) {
        assertEquals(all, whole, name + " whole");
      } else {
        // Ncdump failed inside a variable (it cannot print an empty array of shape n x 0): its output up to
        // there, without the error it appended, is where ours goes on; ours is complete
        String upTo = all.substring(0, all.lastIndexOf('\n', all.length() - 2));
        assertTrue(whole.startsWith(upTo) && whole.endsWith("}\n") && whole.length() > upTo.length(), name + ": " + whole);
      }
      String header = Ncdump.builder(nc).setLocationName(name).setWantValues(Ncdump.WantValues.none).build().print();
      assertEquals(header, ours(nc, name, nc.getVariables(), true), name + " header");
      List<Variable> vs = nc.getVariables();
      if (vs.size() >= 2) {
        Variable last = vs.get(vs.size() - 1);
        Variable first = vs.get(0);
        String some = Ncdump.builder(nc).setLocationName(name).setVarNames(last.getFullNameEscaped() + ";"
            + first.getFullNameEscaped()).build().print();
        assertEquals(some, ours(nc, name, List.of(last, first), false), name + " two variables");
      }
    }
  }
}
