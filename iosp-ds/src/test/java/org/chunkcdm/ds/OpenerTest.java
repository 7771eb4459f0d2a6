package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.open.OpenerChecks;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.DataType;
import ucar.nc2.iosp.netcdf3.N3iosp;

/**
 * The .ds opener over every .ds fixture: the same variables, dimension names and attributes as the IOSP's
 * view, numeric and bool values by typed read equal to the CDM read and the manifest; string variables are
 * listed without a chunked array.
 */
class OpenerTest {
  /** The .ds fixtures, as the IOSP's contract test reads them. */
  static List<Fixtures.Dataset> datasets() {
    return DsIospContractTest.datasets().toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("org.chunkcdm.ds.DsIospContractTest#datasets")
  void opensLikeTheIosp(Fixtures.Dataset d) throws Exception {
    OpenerChecks.check(d, "ds");
  }

  @Test
  void stringVariablesHaveNoArray() throws Exception {
    int strings = 0;
    for (Fixtures.Dataset d : datasets()) {
      try (ChunkedDataset ds = Datasets.open(d.file())) {
        for (Fixtures.Variable fv : d.variables()) {
          ChunkedVariable v = ds.variable(org.chunkcdm.open.Names.valid(fv.name()));
          assertNotNull(v, d + ":" + fv.name());
          boolean isString = fv.dtype().equals("str") || fv.dtype().equals("unicode");
          if (isString) {
            assertNull(v.array(), d + ":" + fv.name());
            strings++;
          } else {
            assertNotNull(v.array(), d + ":" + fv.name());
          }
        }
      }
    }
    assertTrue(strings >= 4, "string variables in the fixtures: " + strings);
  }

  @Test
  void privateCacheAndOneThread() throws Exception {
    for (Fixtures.Dataset d : datasets()) {
      OpenerChecks.checkPrivateSettings(d.file(), 64 << 10);
    }
  }

  @Test
  void defaultFillValuesAreNetcdf3s() {
    DType[] types = {
      DType.of(DType.Kind.INT, 1, ByteOrder.BIG_ENDIAN), DType.of(DType.Kind.UINT, 1, ByteOrder.BIG_ENDIAN),
      DType.of(DType.Kind.INT, 2, ByteOrder.BIG_ENDIAN), DType.of(DType.Kind.UINT, 2, ByteOrder.BIG_ENDIAN),
      DType.of(DType.Kind.INT, 4, ByteOrder.BIG_ENDIAN), DType.of(DType.Kind.UINT, 4, ByteOrder.BIG_ENDIAN),
      DType.of(DType.Kind.INT, 8, ByteOrder.BIG_ENDIAN), DType.of(DType.Kind.UINT, 8, ByteOrder.BIG_ENDIAN),
      DType.of(DType.Kind.FLOAT, 4, ByteOrder.BIG_ENDIAN), DType.of(DType.Kind.FLOAT, 8, ByteOrder.BIG_ENDIAN),
    };
    for (DType dt : types) {
      DataType cdm = org.chunkcdm.cdm.CdmTypes.of(dt);
      Number want = N3iosp.getFillValueDefault(cdm);
      Number got = FillValues.defaultFill(dt);
      // the same value in the variable's type (unsigned ones as their bit pattern)
      assertEquals(FillValues.boxed(dt, want), FillValues.boxed(dt, got), dt.toString());
    }
  }

  @Test
  void foreignFilesAreNotClaimed(@TempDir Path tmp) throws IOException {
    Path f = tmp.resolve("x.txt");
    Files.writeString(f, "{\"a\": 1}\n");
    assertFalse(new DsOpener().canOpen(f));
    assertFalse(new DsOpener().canOpen(tmp));
    assertNull(Datasets.find(f));
    Path bad = tmp.resolve("bad.ds");
    Files.writeString(bad, "ds-1.0\n{\"x\": \n");
    assertTrue(new DsOpener().canOpen(bad));
    IOException e = assertThrows(IOException.class, () -> Datasets.open(bad));
    assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
    assertEquals("ds", new DsOpener().format());
  }

  /** Every fixture opens and reads without netcdf-java on the class path; no class on that path refers to it. */
  @Test
  void opensWithoutNetcdfJava() throws Exception {
    List<Path> paths = datasets().stream().map(Fixtures.Dataset::file).toList();
    assertTrue(OpenerChecks.checkWithoutNetcdfJava(paths, "ds") >= 10);
  }
}
