package org.chunkcdm.sframe;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/**
 * Every frame dataset of ../shared/fixtures/blosc2 (kinds sframe, cframe, b2nd-sframe, b2nd-cframe), opened
 * through every path of docs/cdm-contract.md section 1, compared with the manifest's expected bytes: whole
 * variables and strided sub-sections across block and chunk boundaries.
 */
class FixtureReadTest {
  static final String[] KINDS = {"sframe", "cframe", "b2nd-sframe", "b2nd-cframe"};

  /** How a dataset is opened. */
  enum How {
    FILES_DIR,
    FILES_INDEX_FILE,
    FILES_FILE,
    DATASETS_FILE_URL,
    DATASETS_INDEX_FILE,
    DATASETS_FILE
  }

  static List<Fixtures.Dataset> datasets() {
    return Fixtures.manifest("blosc2").datasets(KINDS);
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : datasets()) {
      for (How h : hows(d)) {
        out.add(Arguments.of(d, h));
      }
    }
    return out.stream();
  }

  static boolean sparse(Fixtures.Dataset d) {
    return d.kind().equals("sframe") || d.kind().equals("b2nd-sframe");
  }

  static List<How> hows(Fixtures.Dataset d) {
    return sparse(d) ? List.of(How.FILES_DIR, How.FILES_INDEX_FILE, How.DATASETS_FILE_URL, How.DATASETS_INDEX_FILE)
        : List.of(How.FILES_FILE, How.DATASETS_FILE, How.DATASETS_FILE_URL);
  }

  static NetcdfFile open(Path p, How h) throws IOException {
    String abs = p.toAbsolutePath().toString();
    switch (h) {
      case FILES_DIR:
      case FILES_FILE:
        return NetcdfFiles.open(abs);
      case FILES_INDEX_FILE:
        return NetcdfFiles.open(p.resolve(Blosc2FrameIosp.INDEX_FILE).toString());
      case DATASETS_FILE_URL:
        return NetcdfDatasets.openDataset("file:" + abs);
      case DATASETS_INDEX_FILE:
        return NetcdfDatasets.openDataset(p.resolve(Blosc2FrameIosp.INDEX_FILE).toString());
      case DATASETS_FILE:
        return NetcdfDatasets.openDataset(abs);
      default:
        throw new AssertionError(h);
    }
  }

  /** The short extension {@code .b2f} names the variable the same way; NetcdfDatasets opens it too. */
  @org.junit.jupiter.api.Test
  void b2fExtension(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("cframe/cf_insert_i4.b2frame");
    Path f = TestFiles.copy(d.file(), tmp.resolve("short.b2f"));
    for (How h : List.of(How.FILES_FILE, How.DATASETS_FILE)) {
      try (NetcdfFile nc = open(f, h)) {
        Variable v = nc.findVariable("short");
        assertNotNull(v, nc.getVariables().toString());
        if (v instanceof VariableDS && ((VariableDS) v).getOriginalVariable() != null) {
          v = ((VariableDS) v).getOriginalVariable();
        }
        Check.assertWhole(Check.Expect.of(d.variables().get(0)), v);
      }
    }
  }

  @ParameterizedTest(name = "{0} via {1}")
  @MethodSource("cases")
  void readsTheVariable(Fixtures.Dataset d, How how) throws IOException {
    try (NetcdfFile nc = open(d.file(), how)) {
      assertEquals("blosc2", nc.getFileTypeId(), d + " opened by " + nc.getIosp());
      assertEquals(1, nc.getVariables().size(), "variables of " + d + ": " + nc.getVariables());
      Fixtures.Variable fv = d.variables().get(0);
      Check.Expect exp = Check.Expect.of(fv);
      Variable v = Check.find(nc, d);
      Variable raw = v;
      if (v instanceof VariableDS && ((VariableDS) v).getOriginalVariable() != null) {
        raw = ((VariableDS) v).getOriginalVariable(); // the IOSP's own view under NetcdfDataset's enhancement
      }
      Check.assertWhole(exp, raw);
      Check.assertSections(exp, raw);
      Attribute comp = v.findAttribute("compression");
      assertNotNull(comp, d + ": compression attribute");
      String codec = d.json().path("cparams").path("codec").asText().toLowerCase(java.util.Locale.ROOT);
      assertTrue(comp.getStringValue().startsWith("blosc2 " + codec + " clevel "
          + d.json().path("cparams").path("clevel").asInt()), d + ": " + comp);
      Attribute cs = v.findAttribute("_ChunkSizes");
      long[] chunk = exp.chunk();
      if (d.json().path("frame").path("chunksize").asLong() > 0) {
        assertNotNull(cs, d + ": _ChunkSizes");
        // one entry per CDM dimension: item types read as bytes or chars add a last dimension, never split
        assertEquals(raw.getRank(), cs.getLength(), d + ": _ChunkSizes rank");
        for (int i = 0; i < chunk.length; i++) {
          assertEquals(Math.min(chunk[i], Math.max(1, exp.shape()[i])), cs.getNumericValue(i).longValue(), d + ": _ChunkSizes[" + i + "]");
        }
        if (raw.getRank() > chunk.length) {
          assertEquals(raw.getShape(chunk.length), cs.getNumericValue(chunk.length).intValue(), d + ": _ChunkSizes of the item bytes");
        }
      }
    }
  }
}
