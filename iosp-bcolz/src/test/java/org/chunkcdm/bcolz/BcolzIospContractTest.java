package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.chunkcdm.testkit.TestFiles;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The shared IOSP contract over every dataset of testdata/bcolz and testdata/bloscpack,
 * opened through every path of docs/cdm-contract.md section 1 (directory, each meta file, {@code __attrs__},
 * {@code __rootdirs__}, NetcdfFiles and NetcdfDatasets, file: URLs), plus bcolz's own checks: the compression
 * attribute, and a changed {@code __attrs__} seen after the cache reopens a modified carray.
 */
class BcolzIospContractTest extends IospContract {
  BcolzIospContractTest() {
    super(BcolzIosp.class, "bcolz");
  }

  private Fixture fixture(String family, String path) {
    Fixtures.Dataset d = Fixtures.manifest(family).dataset(path);
    return fixture(d, expected(d, Check::expected));
  }

  @Override
  protected List<Fixture> fixtures() {
    List<Fixture> out = new ArrayList<>();
    for (String fam : new String[] {"bcolz", "bloscpack"}) {
      out.addAll(fixtures(Fixtures.manifest(fam).datasets(), d -> expected(d, Check::expected)));
    }
    return out;
  }

  @Override
  protected List<Open> opens(Fixture f) {
    switch (dataset(f).kind()) {
      case "bcolz-carray":
        return List.of(netcdfFiles("NetcdfFiles dir", null), netcdfFiles("NetcdfFiles meta/sizes", "meta/sizes"),
            netcdfFiles("NetcdfFiles meta/storage", "meta/storage"), netcdfFiles("NetcdfFiles __attrs__", "__attrs__"),
            DATASETS_FILE_URL, netcdfDatasets("NetcdfDatasets meta/sizes", "meta/sizes"));
      case "bcolz-ctable":
        return List.of(netcdfFiles("NetcdfFiles dir", null), netcdfFiles("NetcdfFiles __rootdirs__", "__rootdirs__"),
            DATASETS_FILE_URL, netcdfDatasets("NetcdfDatasets __rootdirs__", "__rootdirs__"));
      case "bloscpack-bytes":
      case "bloscpack-ndarray":
        return List.of(netcdfFiles("NetcdfFiles file", null), netcdfDatasets("NetcdfDatasets file", null), DATASETS_FILE_URL);
      default:
        throw new AssertionError("unknown kind " + dataset(f).kind());
    }
  }

  @Override
  protected void checkVariable(Fixture f, Open how, Expected e, Variable v, Variable raw) {
    if (dataset(f).kind().startsWith("bcolz")) {
      assertNotNull(v.findAttribute("compression"), e + ": compression attribute");
    }
  }

  /** A Bloscpack file, and a carray by its directory, its {@code __attrs__} and its {@code meta/storage}. */
  @Override
  protected List<Fixture> registrationCases() {
    Fixture blp = fixture("bloscpack", "bytes/clevel0_lz4_ts8.blp");
    Fixture car = fixture("bcolz", MalformedTest.CARRAY);
    return List.of(blp, car, new Fixture(car.name() + "/__attrs__", car.location().resolve("__attrs__"), car.variables()),
        new Fixture(car.name() + "/meta/storage", car.location().resolve("meta/storage"), car.variables()));
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((BcolzIosp) nc.getIosp()).handles().openCount();
  }

  /** A copy of the carray; the modification rewrites {@code __attrs__} (version 2) with a later time. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("bcolz").dataset(MalformedTest.CARRAY);
    Path copy = TestFiles.copy(d.file(), dir.resolve("cached"));
    Path attrs = copy.resolve("__attrs__");
    return List.of(new CacheCase("carray " + d.path(), "file:" + copy.toAbsolutePath(),
        List.of(Check.expected(d.variables().get(0)).named("cached")), before -> {
          Files.writeString(attrs, "{\"version\": 2}\n");
          return touch(attrs, before);
        }));
  }

  @Override
  protected void checkModified(CacheCase c, NetcdfFile fresh) {
    assertEquals(2, fresh.findVariable("cached").findAttribute("version").getNumericValue().intValue(),
        c + ": the reopened dataset has the new __attrs__");
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    return List.of(fixture("bcolz", MalformedTest.CARRAY), fixture("bcolz", "carray/random_uint8_incompressible"),
        fixture("bcolz", "ctable/ctable_mixed"), fixture("bcolz", "carray/multidim_float32_1000x3x4"),
        fixture("bloscpack", "ndarray/fortran_int64_50x7.blp"), fixture("bloscpack", "bytes/clevel0_lz4_ts8.blp"));
  }

  @Override
  protected int threadedReads() {
    return 400;
  }

  @Override
  protected int readsPerThread() {
    return 200;
  }
}
