package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * What a blosc2 manifest variable must look like through netcdf-java, as the shared {@link IospContract}'s
 * {@link Expected}: raw bytes (C order, little-endian) with the manifest's {@code undefined_byte_ranges} masked
 * out, the type of a plain frame by the contract's typesize rule, chunk and block shapes for the sections. The
 * comparisons themselves are the contract's.
 */
final class Check {
  private Check() {}

  /** What the variable must hold, plus a mask of defined bytes (1) and the chunk / block shape (items). */
  record Expect(String what, DType dtype, long[] shape, byte[] raw, byte[] defined, long[] chunk, long[] block) {
    static Expect of(Fixtures.Variable fv) {
      JsonNode v = fv.json();
      JsonNode d = fv.dataset().json();
      byte[] raw = fv.expected();
      byte[] defined = new byte[raw.length];
      Arrays.fill(defined, (byte) 1);
      for (JsonNode r : d.path("undefined_byte_ranges")) {
        Arrays.fill(defined, r.get(0).asInt(), r.get(1).asInt(), (byte) 0);
      }
      DType dt;
      long[] shape;
      long[] chunk;
      long[] block;
      try {
        if (fv.dtype().equals("bytes")) {
          int ts = v.path("typesize").asInt();
          dt = DType.forTypesize(ts);
          shape = new long[] {raw.length / ts};
          long cs = d.path("frame").path("chunksize").asLong() / ts;
          chunk = new long[] {cs > 0 ? cs : Math.max(1, shape[0] / 3)};
          block = chunk;
        } else {
          dt = DType.parseNumpy(fv.dtype());
          shape = fv.shape();
          chunk = longs(v.path("chunkshape"));
          block = longs(v.path("blockshape"));
        }
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      return new Expect(fv.toString(), dt, shape, raw, defined, chunk, block);
    }

    /** The contract's expectation of this variable under the CDM name {@code cdmName}. */
    Expected contract(String cdmName) {
      Expected e = Expected.values(what, cdmName, CdmTypes.of(dtype), shape, dtype.itemSize(), raw).defined(defined)
          .chunks(chunk, block);
      return dtype.extraDim() > 0 ? e.extraDim(dtype.extraDim()) : e;
    }

    @Override
    public String toString() {
      return what;
    }
  }

  /** The contract's expectation of a manifest variable, under its CDM name. */
  static Expected expected(Fixtures.Variable fv) {
    return Expect.of(fv).contract(varName(fv.dataset()));
  }

  static long[] longs(JsonNode a) {
    long[] out = new long[a.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.get(i).asLong();
    }
    return out;
  }

  static String varName(Fixtures.Dataset d) {
    return CdmNames.fromFileName(d.file().getFileName().toString());
  }

  static Variable find(NetcdfFile nc, Fixtures.Dataset d) {
    Variable v = nc.findVariable(varName(d));
    assertNotNull(v, d + " not found as " + varName(d) + " in " + nc.getVariables());
    return v;
  }

  /** The frame kinds of the blosc2 manifest this IOSP reads. */
  static final String[] KINDS = {"sframe", "cframe", "b2nd-sframe", "b2nd-cframe"};

  static List<Fixtures.Dataset> datasets() {
    return Fixtures.manifest("blosc2").datasets(KINDS);
  }

  /** A sparse frame: a directory with an index file and one file per chunk. */
  static boolean sparse(Fixtures.Dataset d) {
    return d.kind().equals("sframe") || d.kind().equals("b2nd-sframe");
  }

  /** Checks type, shape and all values of the variable. */
  static void assertWhole(Expect fv, Variable v) throws IOException {
    IospContract.assertWhole(fv.contract(v.getShortName()), v);
  }

  /** Reads and checks a strided section of the logical dimensions (the extra type dimension is read whole). */
  static void assertSection(Expect fv, Variable v, long[] first, long[] count, long[] stride) throws IOException {
    IospContract.assertSection(fv.contract(v.getShortName()), v, first, count, stride);
  }

  /** The contract's sections (block and chunk boundaries, strides, the last chunk, a point) against the manifest. */
  static void assertSections(Expect fv, Variable v) throws IOException {
    IospContract.assertSections(fv.contract(v.getShortName()), v);
  }
}
