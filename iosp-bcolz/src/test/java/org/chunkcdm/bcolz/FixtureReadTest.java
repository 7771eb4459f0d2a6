package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/**
 * Every dataset of ../shared/fixtures/bcolz and ../shared/fixtures/bloscpack, opened through every path of
 * docs/cdm-contract.md section 1, compared with the manifests' expected values: whole variables and strided
 * sub-sections across chunk boundaries.
 */
class FixtureReadTest {
  /** How a dataset is opened. */
  enum How {
    FILES_DIR,
    FILES_META_SIZES,
    FILES_META_STORAGE,
    FILES_ATTRS,
    FILES_ROOTDIRS,
    FILES_FILE,
    DATASETS_FILE_URL,
    DATASETS_META_SIZES,
    DATASETS_ROOTDIRS,
    DATASETS_FILE
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String fam : new String[] {"bcolz", "bloscpack"}) {
      for (Fixtures.Dataset d : Fixtures.manifest(fam).datasets()) {
        for (How h : hows(d)) {
          out.add(Arguments.of(d, h));
        }
      }
    }
    return out.stream();
  }

  static List<How> hows(Fixtures.Dataset d) {
    switch (d.kind()) {
      case "bcolz-carray":
        return List.of(How.FILES_DIR, How.FILES_META_SIZES, How.FILES_META_STORAGE, How.FILES_ATTRS,
            How.DATASETS_FILE_URL, How.DATASETS_META_SIZES);
      case "bcolz-ctable":
        return List.of(How.FILES_DIR, How.FILES_ROOTDIRS, How.DATASETS_FILE_URL, How.DATASETS_ROOTDIRS);
      case "bloscpack-bytes":
      case "bloscpack-ndarray":
        return List.of(How.FILES_FILE, How.DATASETS_FILE, How.DATASETS_FILE_URL);
      default:
        throw new AssertionError("unknown kind " + d.kind());
    }
  }

  static NetcdfFile open(Path p, How h) throws IOException {
    String abs = p.toAbsolutePath().toString();
    switch (h) {
      case FILES_DIR:
      case FILES_FILE:
        return NetcdfFiles.open(abs);
      case FILES_META_SIZES:
        return NetcdfFiles.open(p.resolve("meta/sizes").toString());
      case FILES_META_STORAGE:
        return NetcdfFiles.open(p.resolve("meta/storage").toString());
      case FILES_ATTRS:
        return NetcdfFiles.open(p.resolve("__attrs__").toString());
      case FILES_ROOTDIRS:
        return NetcdfFiles.open(p.resolve("__rootdirs__").toString());
      case DATASETS_FILE_URL:
        return NetcdfDatasets.openDataset("file:" + abs);
      case DATASETS_META_SIZES:
        return NetcdfDatasets.openDataset(p.resolve("meta/sizes").toString());
      case DATASETS_ROOTDIRS:
        return NetcdfDatasets.openDataset(p.resolve("__rootdirs__").toString());
      case DATASETS_FILE:
        return NetcdfDatasets.openDataset(abs);
      default:
        throw new AssertionError(h);
    }
  }

  @ParameterizedTest(name = "{0} via {1}")
  @MethodSource("cases")
  void readsEveryVariable(Fixtures.Dataset d, How how) throws IOException {
    try (NetcdfFile nc = open(d.file(), how)) {
      assertEquals(d.variables().size(), nc.getVariables().size(), "variables of " + d + ": " + nc.getVariables());
      for (Fixtures.Variable fv : d.variables()) {
        Variable v = Check.find(nc, fv);
        Variable raw = v;
        if (v instanceof VariableDS && ((VariableDS) v).getOriginalVariable() != null) {
          raw = ((VariableDS) v).getOriginalVariable(); // the IOSP's own view under NetcdfDataset's enhancement
        }
        Check.assertWhole(fv, raw);
        Check.assertSections(fv, raw);
        if (raw != v) {
          Check.assertSameValues(fv.toString(), raw.read(), v.read());
        }
        if (d.kind().startsWith("bcolz")) {
          assertNotNull(v.findAttribute("compression"), fv + ": compression attribute");
        }
      }
    }
  }
}
