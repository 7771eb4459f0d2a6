package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * What a bcolz / Bloscpack manifest variable must look like through netcdf-java (numpy dtype → CDM type, U =
 * UCS-4 LE strings, S = chars with a trailing dimension, bool = one byte), as the shared {@link IospContract}'s
 * {@link Expected}; the comparisons themselves are the contract's.
 */
final class Check {
  private Check() {}

  /** What a variable must hold: numpy dtype, logical shape, raw expected values (C order, little-endian). */
  record Expect(String what, DType dtype, long[] shape, byte[] raw) {
    static Expect of(Fixtures.Variable fv) {
      return new Expect(fv.toString(), Check.dtype(fv), fv.shape(), fv.expected());
    }

    /** The contract's expectation of this variable under the CDM name {@code cdmName}. */
    Expected contract(String cdmName) {
      if (dtype.kind() == DType.Kind.UNICODE) {
        int item = dtype.itemSize();
        String[] s = new String[raw.length / Math.max(1, item)];
        for (int i = 0; i < s.length; i++) {
          s[i] = Expected.ucs4(raw, i * item, item / 4);
        }
        return Expected.strings(what, cdmName, shape, s);
      }
      Expected e = Expected.values(what, cdmName, CdmTypes.of(dtype), shape, dtype.itemSize(), raw);
      return dtype.extraDim() > 0 ? e.extraDim(dtype.extraDim()) : e;
    }

    /** Checks type, shape and all values of {@code v}. */
    void assertWhole(Variable v) throws IOException {
      IospContract.assertWhole(contract(v.getShortName()), v);
    }

    /** Reads and checks a strided section of the logical dimensions (the extra type dimension is read whole). */
    void assertSection(Variable v, long[] first, long[] count, long[] stride) throws IOException {
      IospContract.assertSection(contract(v.getShortName()), v, first, count, stride);
    }

    /** The contract's sections (chunk boundaries, strides, the last chunk, a point) against the manifest. */
    void assertSections(Variable v) throws IOException {
      IospContract.assertSections(contract(v.getShortName()), v);
    }

    @Override
    public String toString() {
      return what;
    }
  }

  /** The contract's expectation of a manifest variable, under its CDM name. */
  static Expected expected(Fixtures.Variable fv) {
    return Expect.of(fv).contract(varName(fv));
  }

  /** The CDM name of a manifest variable: the column name in a ctable, else the dataset's file name. */
  static String varName(Fixtures.Variable fv) {
    Fixtures.Dataset d = fv.dataset();
    if (d.kind().equals("bcolz-ctable")) {
      return fv.name();
    }
    return CdmNames.fromFileName(d.file().getFileName().toString());
  }

  static Variable find(NetcdfFile nc, Fixtures.Variable fv) {
    Variable v = nc.findVariable(varName(fv));
    assertNotNull(v, fv + " not found as " + varName(fv) + " in " + nc.getVariables());
    return v;
  }

  static DType dtype(Fixtures.Variable fv) {
    try {
      return DType.parseNumpy(fv.dtype());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Checks type, shape and all values of the variable. */
  static void assertWhole(Fixtures.Variable fv, Variable v) throws IOException {
    IospContract.assertWhole(expected(fv), v);
  }
}
