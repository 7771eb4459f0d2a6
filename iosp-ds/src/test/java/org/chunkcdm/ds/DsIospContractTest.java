package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.DatasetUrl;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;
import ucar.nc2.iosp.IOServiceProvider;

/**
 * The shared IOSP contract over every dataset of testdata/ds through every open path of the
 * contract (masked cells = _FillValue), plus the ds reader's own checks: type, shape, dimensions and attributes
 * of every variable and the global attributes ({@link Expect}), masked cells missing in the enhanced dataset,
 * registration through ServiceLoader.
 */
class DsIospContractTest extends IospContract {
  DsIospContractTest() {
    super(DsIosp.class, "ds");
  }

  static Fixture fixture(Fixtures.Dataset d) {
    return new Fixture(d.path(), d.file(), expected(d, fv -> new Expect(fv).contract()));
  }

  static Fixture fixture(String path) {
    return fixture(Fixtures.manifest("ds").dataset(path));
  }

  @Override
  protected List<Fixture> fixtures() {
    return datasets().map(DsIospContractTest::fixture).toList();
  }

  static Stream<Fixtures.Dataset> datasets() {
    return Fixtures.manifest("ds").datasets().stream();
  }

  @Override
  protected List<Open> opens(Fixture f) {
    return List.of(new Open("NetcdfFiles.open", p -> NetcdfFiles.open(p.toAbsolutePath().toString())),
        new Open("NetcdfDatasets.openFile",
            p -> NetcdfDatasets.openFile(DatasetUrl.findDatasetUrl(p.toAbsolutePath().toString()), -1, null, null)),
        // openDataset with enhancement off: the raw values
        new Open("NetcdfDatasets.openDataset raw", p -> NetcdfDatasets.openDataset(
            DatasetUrl.findDatasetUrl(p.toAbsolutePath().toString()), NetcdfDataset.getEnhanceNone(), -1, null, null)),
        new Open("NetcdfFiles.open file: URL", p -> NetcdfFiles.open("file:" + p.toAbsolutePath())));
  }

  /** The manifest's global attributes. */
  @Override
  protected void checkDataset(Fixture f, Open how, NetcdfFile nc) {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset(f.name());
    Expect.assertAttributes(d + " global", d.json().path("attrs"), nc.getRootGroup().attributes(), null);
  }

  /** Type, shape, dimension names and attributes (the contract's sections 2, 3, 5). */
  @Override
  protected void checkVariable(Fixture f, Open how, Expected e, Variable v, Variable raw) {
    new Expect(Fixtures.manifest("ds").dataset(f.name()).variable(nameOf(e))).assertMetadata(v);
  }

  /** The manifest name of an expectation ("path:name"). */
  private static String nameOf(Expected e) {
    return e.what().substring(e.what().indexOf(':') + 1);
  }

  /** Registered first, the IOSP must not claim what is not a ds file. */
  @Override
  protected List<Path> foreignFiles() {
    return List.of(Fixtures.manifest("ds").dir().resolve("nc/basic.nc"));
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((DsIosp) nc.getIosp()).handles().openCount();
  }

  /** A .ds file has no chunk cache in front of it: reads after reacquire() reopen it. */
  @Override
  protected boolean readsAfterReacquireOpenFiles() {
    return true;
  }

  /** large.ds (4 MB): its body is read through the file handle, not from the kept first 16 kB. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    Fixture f = fixture("large.ds");
    Path p = Files.copy(f.location(), dir.resolve("cached.ds"));
    return List.of(new CacheCase("large.ds", p.toString(), f.variables(), before -> {
      assertEquals(Files.getLastModifiedTime(p).toMillis(), before, "getLastModified is the file's time");
      return touch(p, before);
    }));
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    return Stream.of("many_vars.ds", "masked.ds", "strings.ds", "large.ds", "bool_packing.ds", "endian.ds")
        .map(DsIospContractTest::fixture).toList();
  }

  @Override
  protected int maxRandomSpan() {
    return 50;
  }

  @Test
  void serviceLoaderRegistration() throws IOException {
    boolean found = false;
    for (IOServiceProvider p : ServiceLoader.load(IOServiceProvider.class)) {
      found |= p instanceof DsIosp;
    }
    assertTrue(found, "META-INF/services lists DsIosp");
    assertFalse(NetcdfFile.iospRegistered(DsIosp.class), "not registered explicitly: found through ServiceLoader");
    Fixture f = fixture("all_types_1d.ds");
    try (NetcdfFile nc = NetcdfFiles.open(f.location().toString())) {
      assertTrue(nc.getIosp() instanceof DsIosp);
      for (Expected e : f.variables()) {
        assertWhole(e, find(nc, e));
      }
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

  @Test
  void everyFixtureIsListed() {
    assertEquals(16, Fixtures.manifest("ds").datasets().size());
  }
}
