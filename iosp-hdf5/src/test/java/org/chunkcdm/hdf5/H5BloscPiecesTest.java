package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.blosc.BloscPiecesTest;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The HDF5 Blosc chunks hand their content over in pieces ({@link ChunkData#readPieces}, the path of typed whole
 * reads): the chunk wrapper forwards {@code readsInPieces}/{@code readPieces} of the Blosc chunk inside, the pieces
 * of every fixture chunk equal its whole decode, whole reads through them equal the manifest's values, and a
 * damaged chunk read in pieces is an IOException naming file, variable and chunk. The pure-Java codec is forced
 * ({@code chunkcdm.blosc=java}): with a native c-blosc and no Vector API the automatic choice decodes whole chunks
 * natively, which does not read in pieces.
 */
class H5BloscPiecesTest {
  private String was;

  @BeforeAll
  static void register() {
    H5Iosp.register();
  }

  @BeforeEach
  void pureJava() {
    was = System.getProperty("chunkcdm.blosc");
    System.setProperty("chunkcdm.blosc", "java");
  }

  @AfterEach
  void restore() {
    if (was == null) {
      System.clearProperty("chunkcdm.blosc");
    } else {
      System.setProperty("chunkcdm.blosc", was);
    }
  }

  @Test
  void everyFixtureChunkInPiecesEqualsItsWholeDecode() throws Exception {
    int inPieces = 0;
    int chunks = 0;
    for (Fixtures.Variable fv : H5BloscFixturesTest.variables()) {
      try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString())) {
        Variable v = nc.findVariable(H5BloscFixturesTest.cdmName(fv));
        assertNotNull(v, fv.name());
        ChunkedArray a = ((H5Iosp) nc.getIosp()).arrayOf(v);
        if (a == null) {
          continue; // read by netcdf-java (no Blosc filter)
        }
        int[] counts = piecesEqualWholeDecode(a, fv.dataset().path() + "#" + fv.name());
        inPieces += counts[0];
        chunks += counts[1];
      }
    }
    assertTrue(chunks > 100, chunks + " chunks");
    // every Blosc1 chunk and every plain Blosc2 frame chunk reads in pieces (a few fixtures stack other filters
    // after Blosc, or hold b2nd chunks with padding, which do not)
    assertTrue(inPieces > chunks * 3 / 2, inPieces + " piece reads of " + 3 * chunks);
  }

  /**
   * For every stored chunk of {@code a}: its pieces at units 1, its item size and 24 equal its whole decode. Returns
   * the number of those reads that went in pieces ({@link ChunkData#readsInPieces}) and the number of stored chunks.
   */
  static int[] piecesEqualWholeDecode(ChunkedArray a, String what) throws IOException {
    int inPieces = 0;
    int chunks = 0;
    int item = a.dtype().itemSize();
    for (long k = 0; k < a.grid().chunkCount(); k++) {
      ChunkData whole = a.chunk(k);
      if (whole == null) {
        continue; // never written: fill values
      }
      byte[] want = new byte[(int) whole.size()];
      whole.read(0, want, 0, want.length);
      whole.release();
      for (int unit : new int[] {1, item, 24}) {
        ChunkData d = a.chunk(k);
        inPieces += d.readsInPieces() ? 1 : 0;
        assertArrayEquals(want, BloscPiecesTest.assemble(d, unit), what + " chunk " + k + " unit " + unit);
        d.release();
      }
      chunks++;
    }
    return new int[] {inPieces, chunks};
  }

  @Test
  void wholeTypedReadsThroughPiecesEqualTheManifest() throws Exception {
    int n = 0;
    for (Fixtures.Variable fv : H5BloscFixturesTest.variables()) {
      try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString())) {
        Variable v = nc.findVariable(H5BloscFixturesTest.cdmName(fv));
        v.setCaching(false);
        assertArrayEquals(fv.expected(), CdmArrays.littleEndian(v.read()), fv.dataset().path() + "#" + fv.name());
        n++;
      }
    }
    assertTrue(n >= 36, n + " variables");
  }

  /**
   * A Blosc1 chunk of PyTables' lz4 + shuffle float32 variable (typesize 4, 4000 bytes) whose streams are overwritten:
   * its pieces, and a whole typed read, are IOExceptions naming the file, the variable and the chunk.
   */
  @Test
  void damagedChunkInPiecesNamesFileVariableAndChunk(@TempDir Path tmp) throws Exception {
    Fixtures.Variable fv = H5BloscFixturesTest.variables().stream().filter(x -> x.name().equals("/f32_1d_lz4_shuffle"))
        .findFirst().orElseThrow();
    Path bad = TestFiles.copy(fv.dataset().file(), tmp.resolve("damaged_pieces.h5"));
    byte[] bytes = Files.readAllBytes(bad);
    // Blosc1 header: version 2, codec version 1, flags 0x21 (lz4, byte shuffle), typesize 4, nbytes 4000
    int at = TestFiles.indexOf(bytes, new byte[] {2, 1, 0x21, 4, (byte) 0xa0, 0x0f, 0, 0});
    assertTrue(at > 0, "no Blosc chunk found");
    int cbytes = (bytes[at + 12] & 0xff) | (bytes[at + 13] & 0xff) << 8 | (bytes[at + 14] & 0xff) << 16;
    byte[] junk = new byte[cbytes - 20];
    Arrays.fill(junk, (byte) 0xff); // the first stream size (after header and one bstart) and all streams
    TestFiles.patch(bad, at + 20, junk);
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      Variable v = nc.findVariable("f32_1d_lz4_shuffle");
      v.setCaching(false);
      ChunkedArray a = ((H5Iosp) nc.getIosp()).arrayOf(v);
      int failed = 0;
      for (long k = 0; k < a.grid().chunkCount(); k++) {
        ChunkData d = a.chunk(k);
        assertTrue(d.readsInPieces(), "chunk " + k);
        try {
          BloscPiecesTest.assemble(d, 4);
        } catch (IOException e) {
          NetcdfChecks.assertMentions(e, "damaged_pieces.h5", "f32_1d_lz4_shuffle", "chunk " + k);
          failed++;
        }
      }
      assertTrue(failed == 1, failed + " chunks failed");
      IOException e = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(e, "damaged_pieces.h5", "f32_1d_lz4_shuffle", "chunk ");
    }
  }
}
