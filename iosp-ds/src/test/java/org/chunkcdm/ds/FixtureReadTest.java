package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/**
 * Every dataset of ../shared/fixtures/ds through every open path of the contract, every variable compared with
 * the manifest: type, shape, dimensions, attributes, all values (masked cells = _FillValue), strided sections.
 */
class FixtureReadTest {
  enum How {
    FILES_OPEN,
    DATASETS_OPEN_FILE,
    DATASETS_OPEN_DATASET_RAW, // openDataset with enhancement off: the raw values
    FILE_URL
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : Fixtures.manifest("ds").datasets()) {
      for (How h : How.values()) {
        out.add(Arguments.of(d, h));
      }
    }
    return out.stream();
  }

  static NetcdfFile open(Fixtures.Dataset d, How h) throws IOException {
    String p = d.file().toAbsolutePath().toString();
    switch (h) {
      case FILES_OPEN:
        return NetcdfFiles.open(p);
      case DATASETS_OPEN_FILE:
        return NetcdfDatasets.openFile(ucar.nc2.dataset.DatasetUrl.findDatasetUrl(p), -1, null, null);
      case DATASETS_OPEN_DATASET_RAW:
        return NetcdfDatasets.openDataset(ucar.nc2.dataset.DatasetUrl.findDatasetUrl(p), NetcdfDataset.getEnhanceNone(),
            -1, null, null);
      default:
        return NetcdfFiles.open("file:" + p);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void everyVariable(Fixtures.Dataset d, How h) throws Exception {
    try (NetcdfFile nc = open(d, h)) {
      assertEquals("ds", nc.getFileTypeId(), d + " opened by the ds IOSP");
      assertEquals(d.variables().size(), nc.getVariables().size(), d + " variable count");
      Expect.assertAttributes(d + " global", d.json().path("attrs"), nc.getRootGroup().attributes(), null);
      for (Fixtures.Variable fv : d.variables()) {
        Expect e = new Expect(fv);
        Variable v = Expect.find(nc, fv);
        e.assertMetadata(v);
        e.assertValues(v.read(), null, null, null, fv + " whole");
        assertSections(e, v);
      }
    }
  }

  /** Strided boxes, a box at the end, single points: compared with slices of the expected data. */
  static void assertSections(Expect e, Variable v) throws IOException, InvalidRangeException {
    long[] shape = e.shape;
    int rank = shape.length;
    for (long s : shape) {
      if (s == 0) {
        return;
      }
    }
    v.setCaching(false);
    v.invalidateCache();
    List<long[][]> cases = new ArrayList<>();
    for (int stride = 1; stride <= 3; stride++) {
      long[][] k = new long[3][rank];
      for (int d = 0; d < rank; d++) {
        k[0][d] = Math.min(1, shape[d] - 1);
        k[2][d] = stride;
        k[1][d] = (shape[d] - 1 - k[0][d]) / stride + 1;
      }
      cases.add(k);
    }
    long[][] tail = new long[3][rank];
    long[][] mid = new long[3][rank];
    for (int d = 0; d < rank; d++) {
      tail[0][d] = shape[d] / 2;
      tail[1][d] = shape[d] - shape[d] / 2;
      tail[2][d] = 1;
      mid[0][d] = shape[d] / 2;
      mid[1][d] = 1;
      mid[2][d] = 1;
    }
    cases.add(tail);
    cases.add(mid);
    for (long[][] k : cases) {
      List<Range> ranges = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        ranges.add(new Range((int) k[0][d], (int) (k[0][d] + (k[1][d] - 1) * k[2][d]), (int) k[2][d]));
      }
      Section s = new Section(ranges);
      e.assertValues(v.read(s), k[0], k[1], k[2], e + " section " + s);
    }
  }

  /** The enhanced dataset (NetcdfDatasets.openDataset defaults) reports exactly the masked cells as missing. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void enhancedDatasetReportsMaskedCellsMissing(Fixtures.Dataset d) throws Exception {
    try (NetcdfDataset nc = NetcdfDatasets.openDataset(d.file().toString())) {
      for (Fixtures.Variable fv : d.variables()) {
        Expect e = new Expect(fv);
        if (e.isString()) {
          continue;
        }
        VariableDS v = (VariableDS) Expect.find(nc, fv);
        Array a = v.read();
        IndexIterator it = a.getIndexIterator();
        for (int i = 0; i < e.n; i++) {
          double x = it.getDoubleNext();
          boolean masked = e.mask != null && e.mask[i];
          if (masked) {
            assertTrue(v.hasMissing() && v.isMissing(x), fv + " element " + i + " is masked: must be missing, got " + x);
          } else if (e.mask != null && !Double.isNaN(x) && x != fill(v)) {
            // (an unmasked cell may hold the file's _FillValue: masked.ds m_uint8 holds a real 255)
            assertTrue(!v.isMissing(x), fv + " element " + i + " is not masked but reads as missing: " + x);
          }
        }
      }
    }
  }

  /** The numeric _FillValue (unsigned types read as unsigned). */
  static double fill(Variable v) {
    ucar.nc2.Attribute a = v.findAttribute("_FillValue");
    return a.getDataType().isUnsigned() ? Expect.unsigned(a.getNumericValue(), a.getDataType())
        : a.getNumericValue().doubleValue();
  }

  static Stream<Fixtures.Dataset> datasets() {
    return Fixtures.manifest("ds").datasets().stream();
  }

  @Test
  void everyFixtureIsListed() {
    assertEquals(16, Fixtures.manifest("ds").datasets().size());
  }
}
