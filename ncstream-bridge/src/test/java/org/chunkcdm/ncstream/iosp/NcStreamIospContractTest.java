package org.chunkcdm.ncstream.iosp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.stream.NcStreamWriter;

/**
 * The shared IOSP contract over {@code .ncs} files that netcdf-java's own NcStreamWriter wrote from the fixture
 * datasets whose variables are all plain numbers (bcolz, Bloscpack, Blosc2 b2nd, unmasked .ds): the values read
 * back through the ncstream IOSP equal the MANIFEST's expected values, whole and in sections, registered as
 * threddsConfig.xml does, through THREDDS' file cache and from 16 threads. The IOSP under test is
 * {@link CountingNcStreamIosp} (NcStreamFileIosp plus a handle count), registered for the class's tests.
 */
class NcStreamIospContractTest extends IospContract {
  @TempDir
  static Path streams;

  private static List<Fixture> written;
  private static boolean registeredBefore;

  NcStreamIospContractTest() {
    super(CountingNcStreamIosp.class, "ncstream");
  }

  @BeforeAll
  static void register() throws IOException {
    registeredBefore = NetcdfFile.iospRegistered(CountingNcStreamIosp.class);
    NetcdfChecks.registerLikeThreddsConfig(CountingNcStreamIosp.class);
  }

  @AfterAll
  static void deregister() {
    if (!registeredBefore) {
      NetcdfFile.iospDeRegister(CountingNcStreamIosp.class);
    }
  }

  /** The CDM name a format gives a manifest variable, or null when this test does not know the kind. */
  static String cdmName(Fixtures.Dataset d, Fixtures.Variable fv) {
    switch (d.kind()) {
      case "bcolz-ctable":
        return fv.name();
      case "ds":
        return NetcdfFiles.makeValidCdmObjectName(fv.name());
      case "bcolz-carray":
      case "bloscpack-bytes":
      case "bloscpack-ndarray":
      case "sframe":
      case "cframe":
      case "b2nd-sframe":
      case "b2nd-cframe":
        return CdmNames.fromFileName(d.file().getFileName().toString());
      default:
        return null;
    }
  }

  /** The expectations of every variable, or null when one is not a plain unmasked number with expected values. */
  static List<Expected> plain(Fixtures.Dataset d) {
    if (d.json().path("undefined_byte_ranges").size() > 0 || d.variables().isEmpty()) {
      return null;
    }
    List<Expected> out = new ArrayList<>();
    for (Fixtures.Variable fv : d.variables()) {
      String name = cdmName(d, fv);
      if (name == null || !fv.hasExpected() || fv.json().hasNonNull("mask")) {
        return null;
      }
      Expected e = Expected.numeric(fv, name);
      if (e == null) {
        return null;
      }
      out.add(e);
    }
    return out;
  }

  static synchronized List<Fixture> streamed() throws IOException {
    if (written == null) {
      List<Fixture> out = new ArrayList<>();
      for (String family : List.of("bcolz", "bloscpack", "blosc2", "ds")) {
        for (Fixtures.Dataset d : Fixtures.manifest(family).datasets()) {
          List<Expected> vars = plain(d);
          if (vars == null) {
            continue;
          }
          Path ncs = streams.resolve(family + "-" + d.path().replaceAll("[^A-Za-z0-9_.-]", "_") + ".ncs");
          try (NetcdfFile src = NetcdfFiles.open(d.file().toString()); OutputStream os = Files.newOutputStream(ncs)) {
            new NcStreamWriter(src, null).streamAll(os);
          } catch (ucar.ma2.InvalidRangeException e) {
            throw new IOException(d + ": " + e, e);
          }
          out.add(new Fixture(family + "/" + d.path() + ".ncs", ncs, vars));
        }
      }
      written = out;
    }
    return written;
  }

  @Override
  protected List<Fixture> fixtures() {
    try {
      return streamed();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  protected List<Open> opens(Fixture f) {
    return List.of(new Open("NetcdfFiles.open with the IOSP named", p -> {
      try {
        return NetcdfFiles.open(p.toString(), CountingNcStreamIosp.class.getName(), -1, null, null);
      } catch (ReflectiveOperationException e) {
        throw new IOException(e);
      }
    }), new Open("NetcdfFiles.open registered", p -> NetcdfFiles.open(p.toString())),
        new Open("NetcdfDatasets.openDataset file: URL", p -> NetcdfDatasets.openDataset("file:" + p.toAbsolutePath())));
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((CountingNcStreamIosp) nc.getIosp()).openCount();
  }

  /** Copies of the first two streams. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    List<CacheCase> out = new ArrayList<>();
    List<Fixture> all = streamed();
    for (Fixture f : all.subList(0, Math.min(2, all.size()))) {
      Path copy = Files.copy(f.location(), dir.resolve("cached-" + f.location().getFileName()));
      out.add(new CacheCase(f.name(), "file:" + copy.toAbsolutePath(), f.variables(), before -> touch(copy, before)));
    }
    return out;
  }

  /** Every fifth stream that has elements. */
  @Override
  protected List<Fixture> threadedFixtures() {
    List<Fixture> out = new ArrayList<>();
    List<Fixture> all = fixtures().stream().filter(f -> f.variables().stream().anyMatch(e -> e.size() > 0)).toList();
    for (int i = 0; i < all.size(); i += 5) {
      out.add(all.get(i));
    }
    return out;
  }
}
