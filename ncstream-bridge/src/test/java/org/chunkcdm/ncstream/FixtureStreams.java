package org.chunkcdm.ncstream;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.chunkcdm.testkit.Fixtures;

/** Every dataset of the fixture families bcolz, bloscpack, blosc2 and ds, plus the NetCDF-4 inputs of ds/nc. */
final class FixtureStreams {
  private FixtureStreams() {}

  static final Set<String> DATASET_KINDS = Set.of("bcolz-carray", "bcolz-ctable", "bloscpack-bytes", "bloscpack-ndarray",
      "sframe", "cframe", "b2nd-sframe", "b2nd-cframe", "ds");

  static List<Path> datasets() {
    List<Path> out = new ArrayList<>();
    for (String fam : new String[] {"bcolz", "bloscpack", "blosc2", "ds"}) {
      for (Fixtures.Dataset d : Fixtures.manifest(fam).datasets()) {
        if (DATASET_KINDS.contains(d.kind())) {
          out.add(d.file());
        }
      }
    }
    out.add(Fixtures.family("ds").resolve("nc/basic.nc"));
    out.add(Fixtures.family("ds").resolve("nc/types.nc"));
    return out;
  }

  /** A short readable name of a fixture path. */
  static String name(Path p) {
    Path fam = Fixtures.testdata();
    return fam.relativize(p).toString();
  }
}
