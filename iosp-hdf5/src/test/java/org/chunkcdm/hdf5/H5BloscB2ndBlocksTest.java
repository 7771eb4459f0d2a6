package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;

/**
 * HDF5 Blosc2-filter (32026) chunks that are b2nd arrays with a block shape smaller than the chunk shape
 * (padded blocks, block shapes differing between chunks, big-endian items, row blocks, 1-D b2nd and plain
 * super-chunks, chunks never written): {@code src/test/resources/hdf5-extra/b2nd_blocks.h5} and its expected
 * values in {@code expected/*.bin}, both written by {@code generate_b2nd_blocks.py} there (python-blosc2 frames
 * put in with h5py's write_direct_chunk; the script checks the values against python-blosc2's own decode).
 */
class H5BloscB2ndBlocksTest {
  private static Path dir;
  private static Path file;

  /** name, CDM type, item size, shape, HDF5 chunk shape. */
  private record Var(String name, DataType type, int item, long[] shape, int[] chunks) {}

  private static final List<Var> VARS = List.of(
      new Var("f64_3d_blocks_lz4_shuffle", DataType.DOUBLE, 8, new long[] {13, 22, 30}, new int[] {6, 10, 12}),
      new Var("i16_2d_mixed_blocks_zstd_bitshuffle", DataType.SHORT, 2, new long[] {50, 70}, new int[] {16, 32}),
      new Var("f32be_3d_blocks_blosclz", DataType.FLOAT, 4, new long[] {5, 24, 40}, new int[] {3, 16, 16}),
      new Var("u8_2d_row_blocks_zlib", DataType.UBYTE, 1, new long[] {40, 64}, new int[] {16, 64}),
      new Var("i32_1d_b2nd_blocks", DataType.INT, 4, new long[] {3700}, new int[] {1000}),
      new Var("i32_1d_schunk_blocks", DataType.INT, 4, new long[] {3700}, new int[] {1000}));

  @BeforeAll
  static void setUp() throws Exception {
    H5Iosp.register();
    dir = Paths.get(H5BloscB2ndBlocksTest.class.getResource("/hdf5-extra/b2nd_blocks.h5").toURI()).getParent();
    file = dir.resolve("b2nd_blocks.h5");
  }

  private static byte[] expected(Var v) throws IOException {
    return Files.readAllBytes(dir.resolve("expected").resolve(v.name() + ".bin"));
  }

  private static void checkSection(Variable v, Var fv, byte[] want, long[] first, long[] count, long[] stride)
      throws Exception {
    List<Range> ranges = new ArrayList<>();
    for (int d = 0; d < first.length; d++) {
      ranges.add(new Range((int) first[d], (int) (first[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
    }
    Section s = new Section(ranges);
    assertArrayEquals(CdmArrays.gather(want, fv.shape(), fv.item(), first, count, stride),
        CdmArrays.littleEndian(v.read(s)), fv.name() + " section " + s);
  }

  /** Whole, strided, boxes across chunk and block edges, and one element in every chunk. */
  private static int checkVariable(NetcdfFile nc, Var fv) throws Exception {
    Variable v = nc.findVariable(fv.name());
    assertNotNull(v, fv.name());
    v.setCaching(false); // netcdf-java would read variables under 4000 bytes whole once and cut sections from that
    assertEquals(fv.type(), v.getDataType(), fv.name());
    assertArrayEquals(fv.shape(), Arrays.stream(v.getShape()).asLongStream().toArray(), fv.name());
    byte[] want = expected(fv);
    assertEquals(want.length, v.getSize() * fv.item());
    assertArrayEquals(want, CdmArrays.littleEndian(v.read()), fv.name() + " whole");
    int rank = fv.shape().length;
    long[] shape = fv.shape();
    int checks = 1;
    for (int variant = 0; variant < 4; variant++) {
      long[] first = new long[rank];
      long[] count = new long[rank];
      long[] stride = new long[rank];
      for (int d = 0; d < rank; d++) {
        long n = shape[d];
        switch (variant) {
          case 0: // strided over everything
            first[d] = Math.min(1, n - 1);
            stride[d] = d % 2 == 0 ? 3 : 2;
            count[d] = (n - 1 - first[d]) / stride[d] + 1;
            break;
          case 1: // strided, large steps (a few elements per chunk: block-level reads)
            first[d] = Math.min(2, n - 1);
            stride[d] = Math.max(1, n / 3);
            count[d] = (n - 1 - first[d]) / stride[d] + 1;
            break;
          case 2: // a small box across chunk and block edges, far corner
            first[d] = Math.max(0, n - 9);
            stride[d] = 1;
            count[d] = n - first[d];
            break;
          default: // a box in the middle
            first[d] = n / 3;
            stride[d] = 1;
            count[d] = Math.max(1, n / 4);
        }
      }
      checkSection(v, fv, want, first, count, stride);
      checks++;
    }
    // one element at the middle of every chunk (a point read decodes one block)
    long[] grid = new long[rank];
    int[] chunkShape = fv.chunks();
    long cells = 1;
    for (int d = 0; d < rank; d++) {
      grid[d] = (shape[d] + chunkShape[d] - 1) / chunkShape[d];
      cells *= grid[d];
    }
    for (long c = 0; c < cells; c++) {
      long rem = c;
      long[] first = new long[rank];
      long[] one = new long[rank];
      for (int d = rank - 1; d >= 0; d--) {
        long g = rem % grid[d];
        rem /= grid[d];
        first[d] = Math.min(shape[d] - 1, g * chunkShape[d] + chunkShape[d] / 2 + 1);
        one[d] = 1;
      }
      checkSection(v, fv, want, first, one, one);
      checks++;
    }
    return checks;
  }

  @Test
  void everyVariableThroughNetcdfFiles() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      H5Iosp iosp = (H5Iosp) nc.getIosp();
      int n = 0;
      for (Var fv : VARS) {
        assertNotNull(iosp.arrayOf(nc.findVariable(fv.name())), fv.name() + " is read by chunkcdm");
        n += checkVariable(nc, fv);
      }
      assertTrue(n > 6 * 5, "checks: " + n);
    }
  }

  @Test
  void everyVariableThroughNetcdfDatasets() throws Exception {
    try (NetcdfDataset ds = NetcdfDatasets.openDataset(file.toString(), false, null)) {
      for (Var fv : VARS) {
        checkVariable(ds, fv);
      }
    }
  }

  /** Chunks never written read as the dataset's fill value, next to chunks of several blocks. */
  @Test
  void chunksNeverWrittenReadAsFillValue() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      // f64: chunk (1, 1, 1) of [6, 10, 12] was never written (fill -7.5)
      Array a = nc.findVariable("f64_3d_blocks_lz4_shuffle").read("6:11,10:19,12:23");
      assertEquals(6 * 10 * 12, a.getSize());
      for (int i = 0; i < a.getSize(); i++) {
        assertEquals(-7.5, a.getDouble(i), 0.0, "element " + i);
      }
      // its neighbour along the last dimension holds data (and a point across the border)
      Array b = nc.findVariable("f64_3d_blocks_lz4_shuffle").read("6:11,10:19,11:12");
      int fills = 0;
      for (int i = 0; i < b.getSize(); i++) {
        fills += b.getDouble(i) == -7.5 ? 1 : 0;
      }
      assertEquals(60, fills); // column 12 is fill, column 11 is data
      // i32 1-D b2nd: the last chunk [3000, 3700) was never written (fill 77)
      Array c = nc.findVariable("i32_1d_b2nd_blocks").read("2998:3699:7");
      assertEquals(-5000 + 3 * 2998, c.getInt(0));
      for (int i = 1; i < c.getSize(); i++) {
        assertEquals(77, c.getInt(i), "element " + i);
      }
    }
  }

  @Test
  void concurrentReads() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      List<NetcdfChecks.Read> reads = new ArrayList<>();
      for (Var fv : VARS) {
        Variable v = nc.findVariable(fv.name());
        int[] origin = new int[v.getRank()];
        int[] shape = v.getShape();
        for (int d = 0; d < shape.length; d++) {
          origin[d] = shape[d] / 4;
          shape[d] = Math.max(1, shape[d] / 3);
        }
        Section s = new Section(origin, shape);
        byte[] want = expected(fv);
        long[] first = Arrays.stream(origin).asLongStream().toArray();
        long[] count = Arrays.stream(shape).asLongStream().toArray();
        long[] one = new long[first.length];
        Arrays.fill(one, 1);
        Array got = v.read(s);
        assertArrayEquals(CdmArrays.gather(want, fv.shape(), fv.item(), first, count, one), CdmArrays.littleEndian(got));
        reads.add(new NetcdfChecks.Read(v, s, got));
        reads.add(new NetcdfChecks.Read(v, new Section(origin, one(origin.length)), v.read(new Section(origin, one(origin.length)))));
      }
      NetcdfChecks.assertConcurrentReads(reads, 4, 30);
    }
  }

  private static int[] one(int rank) {
    int[] o = new int[rank];
    Arrays.fill(o, 1);
    return o;
  }

  /** A line of chunks.txt: {name, chunk, frame offset, frame size, Blosc2 chunk offset, nblocks}. */
  private static long[] chunkInfo(String name, int chunk) throws IOException {
    for (String line : Files.readAllLines(dir.resolve("chunks.txt"), StandardCharsets.UTF_8)) {
      String[] f = line.trim().split("\\s+");
      if (!line.startsWith("#") && f[0].equals(name) && Integer.parseInt(f[1]) == chunk) {
        return new long[] {chunk, Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5])};
      }
    }
    throw new AssertionError("no chunk " + chunk + " of " + name + " in chunks.txt");
  }

  /**
   * A damaged block of a many-block b2nd chunk: reads that need it are IOExceptions naming file, variable and
   * chunk; reads of the chunk's other blocks still return the right values (only the blocks a small read needs
   * are decoded), and so do the other chunks.
   */
  @Test
  void damagedBlockFailsOnlyTheReadsThatNeedIt(@TempDir Path tmp) throws Exception {
    Var fv = VARS.get(0);
    long[] info = chunkInfo(fv.name(), 0);
    Path bad = TestFiles.copy(file, tmp.resolve("damaged_block.h5"));
    byte[] bytes = Files.readAllBytes(bad);
    long chunkAt = info[3];
    int nblocks = (int) info[4];
    assertEquals(27, nblocks);
    // the Blosc2 chunk inside the frame: nbytes = extchunk [6, 12, 15] of float64
    assertEquals(6 * 12 * 15 * 8, ByteBuffer.wrap(bytes, (int) chunkAt + 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
    // bstarts follow the 32-byte extended header: point the last block's start far past the chunk
    TestFiles.patch(bad, chunkAt + 32 + 4L * (nblocks - 1), TestFiles.le(0x7ffffff0L, 4));
    byte[] want = expected(fv);
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      Variable v = nc.findVariable(fv.name());
      IOException whole = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(whole, "damaged_block.h5", fv.name(), "chunk 0");
      // the last block (2, 2, 2) of chunk 0 holds rows 4-5, columns 8-9, 10-11
      IOException point = assertThrows(IOException.class, () -> v.read("5,9,11"));
      NetcdfChecks.assertMentions(point, "damaged_block.h5", fv.name(), "chunk 0");
      long[] one = {1, 1, 1};
      // block 0 of the same chunk, and a box of blocks avoiding the last one
      checkSection(v, fv, want, new long[] {0, 0, 0}, one, one);
      checkSection(v, fv, want, new long[] {1, 2, 3}, new long[] {3, 5, 6}, one);
      // another chunk, whole
      checkSection(v, fv, want, new long[] {6, 0, 0}, new long[] {6, 10, 12}, one);
    }
  }

  /**
   * Single-byte changes all over one many-block frame (header, metalayers, block offsets, compressed blocks,
   * offsets index, trailer): every read either returns or fails with an IOException naming the variable and
   * chunk (a change inside compressed data may also decode to other values: Blosc2 has no checksum), never
   * another exception; the chunks next to it always read right.
   */
  @Test
  void changedBytesInAFrameAreIOExceptionsOrValues(@TempDir Path tmp) throws Exception {
    Var fv = VARS.get(0);
    long[] info = chunkInfo(fv.name(), 0);
    Path bad = TestFiles.copy(file, tmp.resolve("changed.h5"));
    byte[] orig = Files.readAllBytes(bad);
    byte[] want = expected(fv);
    long[] one = {1, 1, 1};
    int failed = 0;
    int frameLen = (int) info[2];
    for (int i = 0; i < frameLen; i += Math.max(1, frameLen / 150)) {
      int at = (int) info[1] + i;
      TestFiles.patch(bad, at, new byte[] {(byte) (orig[at] ^ 0x6d)});
      try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
        Variable v = nc.findVariable(fv.name());
        for (String s : new String[] {"0:5,0:9,0:11", "5,9,11", "0,0,0"}) {
          try {
            v.read(s);
          } catch (IOException e) {
            NetcdfChecks.assertMentions(e, fv.name(), "chunk 0");
            failed++;
          }
        }
        checkSection(v, fv, want, new long[] {0, 10, 0}, new long[] {6, 10, 12}, one); // chunk 1, intact
      } finally {
        TestFiles.patch(bad, at, new byte[] {orig[at]});
      }
    }
    assertTrue(failed > 50, failed + " failed reads");
  }

  /** Frames holding b2nd arrays of another shape than the HDF5 chunk (same byte count) are refused per chunk. */
  @Test
  void b2ndShapeOtherThanTheChunkIsRefused() throws Exception {
    try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
      Variable v = nc.findVariable("bad_b2nd_shape");
      IOException e = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(e, "b2nd_blocks.h5", "bad_b2nd_shape", "chunk 0", "b2nd array of shape [8, 4]",
          "HDF5 chunk shape is [4, 8]");
      // chunk 1 alone, through the IOSP (Variable.read of so small a variable reads it whole: netcdf-java's cache)
      IOException e2 = assertThrows(IOException.class,
          () -> nc.getIosp().readData(v, new ucar.ma2.Section("5:6,1:2")));
      NetcdfChecks.assertMentions(e2, "bad_b2nd_shape", "chunk 1 at [4, 0]", "b2nd array of shape [8, 4]");
    }
  }

  /** A Blosc2 chunk inside a frame whose size disagrees with the frame: IOException naming variable and chunk. */
  @Test
  void malformedFrameNamesVariableAndChunk(@TempDir Path tmp) throws Exception {
    Var fv = VARS.get(1);
    long[] info = chunkInfo(fv.name(), 1); // 4 x 8 blocks of a 16 x 32 chunk
    assertTrue(info[4] > 1);
    Path bad = TestFiles.copy(file, tmp.resolve("damaged_frame.h5"));
    TestFiles.patch(bad, info[3] + 4, TestFiles.le(16 * 32 * 2 + 2, 4)); // the inner chunk's nbytes
    Path bad2 = TestFiles.copy(file, tmp.resolve("damaged_frame2.h5"));
    TestFiles.patch(bad2, info[1] + 16, TestFiles.be(info[2] + 1, 8)); // frame_len
    byte[] want = expected(fv);
    for (Path p : List.of(bad, bad2)) {
      try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
        Variable v = nc.findVariable(fv.name());
        IOException e = assertThrows(IOException.class, v::read);
        NetcdfChecks.assertMentions(e, p.getFileName().toString(), fv.name(), "chunk 1", "Blosc2 frame");
        IOException e2 = assertThrows(IOException.class, () -> v.read("3,40"));
        NetcdfChecks.assertMentions(e2, fv.name(), "chunk 1");
        long[] one = {1, 1};
        checkSection(v, fv, want, new long[] {0, 0}, new long[] {16, 32}, one); // chunk 0
        checkSection(v, fv, want, new long[] {20, 0}, new long[] {30, 70}, one); // rows of chunks 3..
      }
    }
  }
}
