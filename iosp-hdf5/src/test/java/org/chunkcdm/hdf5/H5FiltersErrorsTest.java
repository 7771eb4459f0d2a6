package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * Damaged chunks of every filter, and filters chunkcdm does not decode. A damaged chunk is an IOException naming the
 * file, the variable, the chunk and what is wrong, while the variable's other chunks still read right: each filter's
 * chunk cut short (its size in the chunk index lowered, as a truncated write would leave it), and where the format
 * can tell, a damage inside it (LZF: a reference before the output start; LZ4 and Bitshuffle: the header's size;
 * Zstd: the frame magic; BZip2: a data byte, caught by its CRC; scale-offset: minbits wider than the type; Fletcher32:
 * the checksum). {@code unknown_filters.h5} (ZFP, written by {@code generate_unknown_filters.py}) opens with every
 * variable netcdf-java makes (it leaves out SZIP variables itself), and a read needing ZFP names the variable, the
 * filter id and its name.
 */
class H5FiltersErrorsTest {
  @TempDir
  Path tmp;

  @BeforeAll
  static void register() {
    H5Iosp.register();
  }

  /** One damage: the fixture file, the variable, how chunk 0 is damaged, words the message must hold. */
  record Case(String file, String variable, String damage, String... words) {
    @Override
    public String toString() {
      return file + ":" + variable + " " + damage;
    }
  }

  static final String TRUNCATE = "cut short";

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    String[][] truncated = {
      {"lzf.h5", "lzf_i32_1d"}, {"lz4.h5", "lz4_blk1024_i16_2d"}, {"lz4.h5", "lz4_default_f32"},
      {"bitshuffle.h5", "bs_lz4_f32_3d"}, {"bitshuffle.h5", "bs_zstd_f64_2d"}, {"bitshuffle.h5", "bs_none_u16_2d"},
      {"zstd.h5", "zstd_c3_f32"}, {"bzip2.h5", "bz2_b9_f64"}, {"nbit.h5", "nbit_i16_p12"},
      {"scaleoffset.h5", "so_i32_auto"}, {"scaleoffset.h5", "so_f64_d4_fill"},
      {"netcdf4_zstd_bzip2.nc", "t2m_zlib"}, {"pipelines_nd.h5", "shuffle_deflate_fletcher32_lz4"},
    };
    for (String[] t : truncated) {
      out.add(new Case(t[0], t[1], TRUNCATE));
    }
    out.add(new Case("lzf.h5", "lzf_i32_1d", "lzf-reference", "LZF", "before the output start"));
    out.add(new Case("lz4.h5", "lz4_blk1024_i16_2d", "size-header", "LZ4", "6401"));
    out.add(new Case("bitshuffle.h5", "bs_lz4_f32_3d", "size-header", "bitshuffle", "48001"));
    out.add(new Case("bitshuffle.h5", "bs_zstd_f64_2d", "size-header", "bitshuffle"));
    out.add(new Case("zstd.h5", "zstd_c3_f32", "zstd-magic", "zstd", "magic"));
    out.add(new Case("bzip2.h5", "bz2_b9_f64", "bzip2-data", "bzip2"));
    out.add(new Case("scaleoffset.h5", "so_i32_auto", "scaleoffset-minbits", "scale-offset", "minbits"));
    out.add(new Case("lzf.h5", "lzf_u16_random_fletcher32", "fletcher-checksum", "Fletcher32"));
    return out;
  }

  @TestFactory
  Stream<DynamicTest> damagedChunksAreNamedIoExceptions() {
    return cases().stream().map(c -> dynamicTest(c.toString(), () -> damaged(c)));
  }

  private void damaged(Case c) throws Exception {
    Fixtures.Variable fv = Fixtures.manifest("hdf5-filters").datasets().stream()
        .filter(d -> d.path().equals(c.file())).flatMap(d -> d.variables().stream())
        .filter(v -> v.name().equals("/" + c.variable())).findFirst().orElseThrow();
    Fixtures.Dataset ds = fv.dataset();
    Path copy = tmp.resolve("damaged-" + c.damage().replace(" ", "-") + "-" + c.variable() + "-" + c.file());
    TestFiles.copy(ds.file(), copy);
    long[] at;
    int rank;
    long[] chunkShape;
    try (NetcdfFile nc = NetcdfFiles.open(copy.toString())) {
      Variable v = nc.findVariable(c.variable());
      H5ChunkedArray a = (H5ChunkedArray) ((H5Iosp) nc.getIosp()).arrayOf(v);
      assertNotNull(a, c + " read by chunkcdm");
      at = a.stored(0);
      rank = v.getRank();
      chunkShape = Arrays.stream(((org.chunkcdm.chunk.ChunkGrid.Regular) a.grid()).chunkShape()).asLongStream().toArray();
    }
    assertNotNull(at, c + ": chunk 0 is stored");
    damage(copy, c.damage(), at, rank);
    try (NetcdfFile nc = NetcdfFiles.open(copy.toString())) {
      Variable v = nc.findVariable(c.variable());
      v.setCaching(false);
      int[] origin = new int[rank];
      int[] shape = new int[rank];
      Arrays.fill(shape, 1);
      IOException e = assertThrows(IOException.class, () -> v.read(origin, shape), c + " reads");
      String m = e.getMessage();
      for (String w : new String[] {copy.getFileName().toString(), c.variable(), "chunk 0 "}) {
        assertTrue(m.contains(w), c + ": '" + w + "' missing from: " + m);
      }
      for (String w : c.words()) {
        assertTrue(m.toLowerCase(Locale.ROOT).contains(w.toLowerCase(Locale.ROOT)), c + ": '" + w + "' missing from: " + m);
      }
      assertTrue(!m.contains("Exception:") && !m.contains("java."), c + ": a Java class name in: " + m);
      // the last chunk (not damaged) still reads right
      int[] last = new int[rank];
      long[] full = fv.shape();
      for (int d = 0; d < rank; d++) {
        last[d] = (int) ((full[d] - 1) / chunkShape[d] * chunkShape[d]);
      }
      if (Arrays.stream(last).anyMatch(x -> x > 0)) {
        Array got = v.read(last, shape);
        long lin = 0;
        for (int d = 0; d < rank; d++) {
          lin = lin * full[d] + last[d];
        }
        int item = fv.expected().length / (int) Arrays.stream(full).reduce(1, (x, y) -> x * y);
        assertArrayEquals(Arrays.copyOfRange(fv.expected(), (int) lin * item, (int) (lin + 1) * item),
            CdmArrays.littleEndian(got), c + ": the last chunk");
      }
    }
  }

  /** Applies a damage to chunk 0 of a copy ({@code at} = file offset, stored size, filter mask). */
  private static void damage(Path file, String how, long[] at, int rank) throws IOException {
    long pos = at[0];
    int size = (int) at[1];
    switch (how) {
      case TRUNCATE: { // the stored size in the chunk's B-tree key (size, filter mask, offsets: all 0 for chunk 0),
        // found by the key and the chunk address after it
        byte[] all = Files.readAllBytes(file);
        ByteBuffer key = ByteBuffer.allocate(16 + 8 * (rank + 1)).order(ByteOrder.LITTLE_ENDIAN);
        key.putInt(size).putInt((int) at[2]).position(8 + 8 * (rank + 1));
        key.putLong(pos);
        int k = TestFiles.indexOf(all, key.array());
        assertTrue(k >= 0, file + ": the chunk's B-tree key");
        assertEquals(-1, TestFiles.indexOf(Arrays.copyOfRange(all, k + 1, all.length), key.array()), "one key only");
        TestFiles.patch(file, k, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(size - 7).array());
        break;
      }
      case "lzf-reference": // a match one byte back at the output start
        TestFiles.patch(file, pos, new byte[] {0x20, 0x00});
        break;
      case "size-header": { // the 8-byte big-endian decoded size + 1
        long total = ByteBuffer.wrap(Files.readAllBytes(file), (int) pos, 8).getLong();
        TestFiles.patch(file, pos, ByteBuffer.allocate(8).putLong(total + 1).array());
        break;
      }
      case "zstd-magic":
        TestFiles.patch(file, pos, new byte[] {0x29});
        break;
      case "bzip2-data":
        TestFiles.flip(file, pos + size / 2);
        break;
      case "scaleoffset-minbits":
        TestFiles.patch(file, pos, new byte[] {40, 0, 0, 0});
        break;
      case "fletcher-checksum":
        TestFiles.flip(file, pos + size - 2);
        break;
      default:
        throw new AssertionError(how);
    }
  }

  private static Path unknownFilters() throws Exception {
    return Paths.get(H5FiltersErrorsTest.class.getResource("/hdf5-extra/unknown_filters.h5").toURI());
  }

  @Test
  void unknownFiltersLeaveTheVariableAndNameTheFilter() throws Exception {
    Path f = unknownFilters();
    for (boolean dataset : new boolean[] {false, true}) {
      try (NetcdfFile nc = dataset ? NetcdfDatasets.openDataset("file:" + f) : NetcdfFiles.open(f.toString())) {
        // netcdf-java's header reader leaves out a variable with the SZIP filter (szip_i4) before any IOSP sees it
        assertEquals(4, nc.getVariables().size(), nc.getVariables().toString());
        for (String[] u : new String[][] {{"zfp_f4", "32013", "zfp"}}) {
          Variable v = nc.findVariable(u[0]);
          assertNotNull(v, u[0]);
          IOException e = assertThrows(IOException.class, v::read, u[0]);
          for (String w : new String[] {f.getFileName().toString(), u[0], u[1], u[2], "not supported"}) {
            assertTrue(e.getMessage().contains(w), "'" + w + "' missing from: " + e.getMessage());
          }
        }
        // ZFP in the pipeline, skipped for every chunk by its filter mask: read
        Array skipped = nc.findVariable("zfp_skipped_i4").read();
        Array lzf = nc.findVariable("lzf_ok").read();
        Array plain = nc.findVariable("plain").read();
        for (int i = 0; i < 200; i++) {
          if (i < 100) {
            assertEquals(7 - i, skipped.getInt(i));
          }
          assertEquals(i * 3 - 100, lzf.getInt(i));
          if (i < 10) {
            assertEquals(i, plain.getDouble(i), 0.0);
          }
        }
      }
    }
  }
}
