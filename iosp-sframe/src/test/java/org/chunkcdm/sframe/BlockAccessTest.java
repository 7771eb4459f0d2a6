package org.chunkcdm.sframe;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.chunkcdm.blosc.CodecProbes;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Reads touch only what they need: b2nd sections decode only the blocks they intersect; opening reads no chunk. */
class BlockAccessTest {
  static Stream<String> b2nd() {
    return Stream.of("b2nd/b2nd_2d_f4_sframe.b2frame", "b2nd/b2nd_3d_i2_cframe.b2nd", "b2nd/b2nd_3d_u1_sframe.b2frame",
        "b2nd/b2nd_2d_f8_cframe.b2nd", "b2nd/b2nd_1d_i8_sframe.b2frame", "b2nd/b2nd_2d_f4_metas_cframe.b2nd");
  }

  /**
   * A section of 2 items per dimension straddling the first block boundary of chunk 0 (and, in a second
   * case, a single item) decodes exactly the blocks it intersects (plus block 0 when DELTA needs it).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("b2nd")
  void smallSectionDecodesOnlyIntersectingBlocks(String path) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    boolean delta = d.json().path("cparams").path("filters").toString().contains("DELTA");
    long[] shape = exp.shape();
    int rank = shape.length;
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      v.setCaching(false);
      long[] first = new long[rank];
      long[] count = new long[rank];
      long[] stride = new long[rank];
      long blocks = 1;
      boolean touchesBlock0 = true;
      for (int k = 0; k < rank; k++) {
        long bs = exp.block()[k];
        first[k] = bs - 1;
        count[k] = Math.min(2, Math.min(shape[k], exp.chunk()[k]) - first[k]);
        stride[k] = 1;
        // blocks along this dimension: item bs-1 is in block 0, item bs (if read) in block 1
        blocks *= count[k] == 2 ? 2 : 1;
        touchesBlock0 &= first[k] < bs;
      }
      if (delta && !touchesBlock0) {
        blocks++;
      }
      CodecProbes.reset();
      Check.assertSection(exp, v, first, count, stride);
      assertEquals(blocks, CodecProbes.blocksDecoded(), path + ": blocks decoded for a 2^rank straddling section");
      assertEquals(0, CodecProbes.chunksDecoded(), path + ": no whole chunk decoded");

      long[] one = new long[rank];
      for (int k = 0; k < rank; k++) {
        one[k] = 1;
        first[k] = Math.min(shape[k], exp.chunk()[k]) - 1; // last item of chunk 0: in its last block
      }
      CodecProbes.reset();
      Check.assertSection(exp, v, first, one, one);
      assertEquals(delta ? 2 : 1, CodecProbes.blocksDecoded(), path + ": blocks decoded for one item");
    }
  }

  /** 2060 chunks: opening reads header, index and trailer only; a point read opens one chunk. */
  @Test
  void openingManyChunksTouchesNone() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("cframe/cf_many_chunks_i4.b2frame");
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    CodecProbes.reset();
    long touched = SectionReader.chunksTouched();
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      assertEquals(1, CodecProbes.chunksDecoded(), "opening decodes one Blosc chunk: the offsets index");
      assertEquals(2, CodecProbes.blocksDecoded(), "the offsets index of 2060 entries has 2 blocks");
      assertEquals(touched, SectionReader.chunksTouched(), "no chunk read at open");
      Variable v = Check.find(nc, d);
      v.setCaching(false);
      Check.assertSection(exp, v, new long[] {2059 * 32 + 5}, new long[] {3}, new long[] {1});
      assertEquals(touched + 1, SectionReader.chunksTouched(), "a point read touches one chunk");
    }
  }

  /**
   * A sparse frame of 2060 chunk files, made from the contiguous cf_many_chunks fixture (its chunks copied to
   * {@code %08X.chunk} files, header frame_type 1, an index of file numbers in reverse file order so that
   * logical order and file names differ): opens with no chunk file present, then reads right with them.
   */
  @Test
  void sparseFrameOfThousandsOfChunkFiles(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("cframe/cf_many_chunks_i4.b2frame");
    com.fasterxml.jackson.databind.JsonNode layout = d.json().path("layout");
    byte[] cf = Files.readAllBytes(d.file());
    int headerLen = layout.path("header_len").asInt();
    int trailerLen = layout.path("trailer_len").asInt();
    java.util.List<String> idx = new java.util.ArrayList<>();
    d.json().path("index_entries_hex").forEach(e -> idx.add(e.asText()));
    int n = idx.size();
    Path dir = Files.createDirectories(tmp.resolve("many.b2frame"));
    java.nio.ByteBuffer index = java.nio.ByteBuffer.allocate(32 + 8 * n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    index.put(new byte[] {5, 1, 0x07, 8}).putInt(8 * n).putInt(8 * n).putInt(32 + 8 * n).put(new byte[16]);
    for (int k = 0; k < n; k++) {
      int off = headerLen + (int) Long.parseLong(idx.get(k), 16);
      int cbytes = java.nio.ByteBuffer.wrap(cf, off + 12, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
      long fileNo = n - 1 - k;
      Files.write(dir.resolve(String.format("%08X.chunk", fileNo)), java.util.Arrays.copyOfRange(cf, off, off + cbytes));
      index.putLong(fileNo);
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    byte[] header = java.util.Arrays.copyOf(cf, headerLen);
    header[26] = 1; // sparse
    long frameLen = headerLen + index.capacity() + trailerLen;
    System.arraycopy(TestFiles.be(frameLen, 8), 0, header, 16, 8);
    out.write(header);
    out.write(index.array());
    out.write(cf, cf.length - trailerLen, trailerLen);
    Path indexFile = dir.resolve("chunks.b2frame");
    Files.write(indexFile, out.toByteArray());

    Path moved = Files.createDirectories(tmp.resolve("away"));
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (!p.equals(indexFile)) {
          Files.move(p, moved.resolve(p.getFileName()));
        }
      }
    }
    Check.Expect exp = Check.Expect.of(d.variables().get(0));
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) { // no chunk file at all
      assertEquals(exp.shape()[0], nc.findVariable("many").getShape(0));
    }
    try (Stream<Path> s = Files.list(moved)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.move(p, dir.resolve(p.getFileName()));
      }
    }
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.findVariable("many");
      Check.assertWhole(exp, v);
      Check.assertSections(exp, v);
      assertTrue(((Blosc2FrameIosp) nc.getIosp()).handles().openCount() <= 1, "chunk files are not kept open");
    }
  }

  /** Reading a whole sparse frame keeps no chunk file open (one file per chunk: thousands would exhaust handles). */
  @Test
  void chunkFilesAreNotKeptOpen() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("sframe/sf_blosclz_shuffle_i4.b2frame");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      Check.assertWhole(Check.Expect.of(d.variables().get(0)), v);
      assertTrue(((Blosc2FrameIosp) nc.getIosp()).handles().openCount() <= 1, "only chunks.b2frame may stay open");
    }
  }

  /** A sparse frame opens without any chunk file: opening works even with every chunk file removed. */
  @Test
  void sparseFrameOpensWithoutChunkFiles(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("sframe/sf_insert_i4.b2frame");
    Path dir = TestFiles.copy(d.file(), tmp.resolve("x.b2frame"));
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.getFileName().toString().endsWith(".chunk")) {
          Files.delete(p);
        }
      }
    }
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      assertEquals(1, nc.getVariables().size());
      assertEquals(81920 / 4, nc.findVariable("x").getShape(0));
    }
  }
}
