package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.junit.jupiter.api.BeforeAll;
import ucar.nc2.Variable;

/**
 * The shared IOSP contract over every file of one HDF5 fixture family: every variable's values from the manifest,
 * whole and in sections, registration, the THREDDS file-cache cycle and 16 threads. H5Iosp extends netcdf-java's
 * HDF5 reader, so it is registered ahead of it first (as the drop-in jar's ServiceLoader entry cannot be).
 */
abstract class H5FamilyContract extends IospContract {
  @BeforeAll
  static void register() {
    assertTrue(H5Internals.available(), () -> "netcdf-java internals unreachable: " + H5Internals.failure());
    H5Iosp.register();
  }

  private final String family;
  private final List<String> cacheFiles;

  /** The contract over fixture family {@code family}; {@code cacheFiles} are copied for the file-cache cycle. */
  H5FamilyContract(String family, List<String> cacheFiles) {
    super(H5Iosp.class, "HDF5");
    this.family = family;
    this.cacheFiles = cacheFiles;
  }

  /** The manifest has one entry per variable: the fixtures are its files, with all their variables. */
  static List<Fixture> files(String family) {
    Map<String, List<Expected>> byFile = new LinkedHashMap<>();
    Map<String, Path> where = new LinkedHashMap<>();
    for (Fixtures.Dataset d : Fixtures.manifest(family).datasets(family)) {
      for (Fixtures.Variable fv : d.variables()) {
        String name = fv.name().startsWith("/") ? fv.name().substring(1) : fv.name();
        Expected e = Expected.numeric(fv, name);
        assertNotNull(e, fv + ": dtype " + fv.dtype() + " is not a plain number");
        byFile.computeIfAbsent(d.path(), k -> new ArrayList<>()).add(e);
        where.put(d.path(), d.file());
      }
    }
    List<Fixture> out = new ArrayList<>();
    byFile.forEach((path, vars) -> out.add(new Fixture(path, where.get(path), vars)));
    return out;
  }

  @Override
  protected List<Fixture> fixtures() {
    return files(family);
  }

  /** The manifests list the filtered variables; files hold others too (dimension scales, plain datasets). */
  @Override
  protected boolean listsEveryVariable(Fixture f) {
    return false;
  }

  @Override
  protected String fileTypeId(Fixture f) {
    return f.name().endsWith(".nc") ? "NetCDF-4" : "HDF5";
  }

  /** Packed or missing-valued NetCDF-4 variables read differently once enhanced: compare only plain ones. */
  @Override
  protected boolean enhancementKeepsValues(Variable v) {
    for (String a : List.of("scale_factor", "add_offset", "_FillValue", "missing_value", "valid_min", "valid_max",
        "valid_range")) {
      if (v.findAttribute(a) != null) {
        return false;
      }
    }
    return true;
  }

  /** Copies of the cache files. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    List<CacheCase> out = new ArrayList<>();
    for (Fixture f : files(family)) {
      if (cacheFiles.contains(f.name())) {
        Path copy = Files.copy(f.location(), dir.resolve("cached-" + f.location().getFileName()));
        out.add(new CacheCase(f.name(), "file:" + copy.toAbsolutePath(), f.variables(), before -> touch(copy, before)));
      }
    }
    return out;
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    return files(family);
  }
}
