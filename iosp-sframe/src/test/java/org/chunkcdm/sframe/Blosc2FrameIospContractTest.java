package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.chunkcdm.testkit.Expected;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.IospContract;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * The shared IOSP contract over every frame dataset of testdata/blosc2 (kinds sframe, cframe,
 * b2nd-sframe, b2nd-cframe), opened through every path of docs/cdm-contract.md section 1, plus the frame
 * reader's own checks: the compression attribute names the manifest's codec and clevel, {@code _ChunkSizes}
 * has one entry per CDM dimension, the short extension {@code .b2f}.
 */
class Blosc2FrameIospContractTest extends IospContract {
  Blosc2FrameIospContractTest() {
    super(Blosc2FrameIosp.class, "blosc2");
  }

  /** A frame's one variable. */
  private static List<Expected> expected(Fixtures.Dataset d) {
    return List.of(Check.expected(d.variables().get(0)));
  }

  private Fixture fixture(String path) {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    return fixture(d, expected(d));
  }

  @Override
  protected List<Fixture> fixtures() {
    return fixtures(Check.datasets(), Blosc2FrameIospContractTest::expected);
  }

  @Override
  protected List<Open> opens(Fixture f) {
    Open files = netcdfFiles("NetcdfFiles", null);
    return Check.sparse(dataset(f))
        ? List.of(files, netcdfFiles("NetcdfFiles index file", Blosc2FrameIosp.INDEX_FILE), DATASETS_FILE_URL,
            netcdfDatasets("NetcdfDatasets index file", Blosc2FrameIosp.INDEX_FILE))
        : List.of(files, netcdfDatasets("NetcdfDatasets", null), DATASETS_FILE_URL);
  }

  @Override
  protected void checkVariable(Fixture f, Open how, Expected exp, Variable v, Variable raw) {
    Fixtures.Dataset d = dataset(f);
    Attribute comp = v.findAttribute("compression");
    assertNotNull(comp, d + ": compression attribute");
    String codec = d.json().path("cparams").path("codec").asText().toLowerCase(Locale.ROOT);
    assertTrue(comp.getStringValue().startsWith("blosc2 " + codec + " clevel "
        + d.json().path("cparams").path("clevel").asInt()), d + ": " + comp);
    Attribute cs = v.findAttribute("_ChunkSizes");
    long[] chunk = exp.chunk();
    if (d.json().path("frame").path("chunksize").asLong() > 0) {
      assertNotNull(cs, d + ": _ChunkSizes");
      // one entry per CDM dimension: item types read as bytes or chars add a last dimension, never split
      assertEquals(raw.getRank(), cs.getLength(), d + ": _ChunkSizes rank");
      for (int i = 0; i < chunk.length; i++) {
        assertEquals(Math.min(chunk[i], Math.max(1, exp.shape()[i])), cs.getNumericValue(i).longValue(),
            d + ": _ChunkSizes[" + i + "]");
      }
      if (raw.getRank() > chunk.length) {
        assertEquals(raw.getShape(chunk.length), cs.getNumericValue(chunk.length).intValue(),
            d + ": _ChunkSizes of the item bytes");
      }
    }
  }

  @Override
  protected List<Fixture> registrationCases() {
    return List.of(fixture("sframe/sf_insert_i4.b2frame"), fixture("cframe/cf_insert_i4.b2frame"),
        fixture("b2nd/b2nd_3d_i2_cframe.b2nd"), fixture("b2nd/b2nd_2d_f4_sframe.b2frame"));
  }

  @Override
  protected int openHandles(NetcdfFile nc) {
    return ((Blosc2FrameIosp) nc.getIosp()).handles().openCount();
  }

  /** A sparse frame (the modification touches one chunk file) and a contiguous b2nd file. */
  @Override
  protected List<CacheCase> cacheCases(Path dir) throws IOException {
    List<CacheCase> out = new ArrayList<>();
    for (String path : List.of("sframe/sf_reorder_i4.b2frame", "b2nd/b2nd_2d_f8_cframe.b2nd")) {
      Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
      boolean sparse = Check.sparse(d);
      Path copy = TestFiles.copy(d.file(), dir.resolve(sparse ? "cached.b2frame" : "cached.b2nd"));
      Path touched = sparse ? copy.resolve("00000002.chunk") : copy;
      out.add(new CacheCase(path, "file:" + copy.toAbsolutePath(),
          List.of(Check.expected(d.variables().get(0)).named("cached")), before -> touch(touched, before)));
    }
    return out;
  }

  @Override
  protected List<Fixture> threadedFixtures() {
    List<Fixture> out = new ArrayList<>();
    for (String path : List.of("sframe/sf_lz4_blocks_out_of_order_i4.b2frame", "sframe/sf_special_chunks_i2.b2frame",
        "cframe/cf_many_chunks_i4.b2frame", "b2nd/b2nd_3d_u1_sframe.b2frame", "b2nd/b2nd_2d_f4_sframe.b2frame",
        "b2nd/b2nd_1d_i8_sframe.b2frame", "b2nd/b2nd_3d_f8_overwrite_cframe.b2nd")) {
      out.add(fixture(path));
    }
    return out;
  }

  /** The short extension {@code .b2f} names the variable the same way; NetcdfDatasets opens it too. */
  @Test
  void b2fExtension() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("cframe/cf_insert_i4.b2frame");
    Path f = TestFiles.copy(d.file(), tmp.resolve("short.b2f"));
    Expected exp = Check.expected(d.variables().get(0)).named("short");
    for (NetcdfFile nc : List.of(NetcdfFiles.open(f.toString()), NetcdfDatasets.openDataset(f.toString()))) {
      try (nc) {
        Variable v = find(nc, exp);
        assertWhole(exp, unwrap(v));
      }
    }
  }
}
