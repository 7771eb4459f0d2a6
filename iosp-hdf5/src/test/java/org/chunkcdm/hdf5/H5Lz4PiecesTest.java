package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.chunkcdm.blosc.BloscPiecesTest;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Chunks whose last filter to undo is the LZ4 filter hand their content over in pieces while they are decoded
 * ({@link ChunkData#readPieces}, the path of typed whole reads): on every such fixture variable the pieces equal the
 * chunk's whole decode and start at multiples of the unit asked for, whole reads through them equal the manifest's
 * values, and a damaged chunk read in pieces is an IOException naming file, variable and chunk.
 */
class H5Lz4PiecesTest {
  @BeforeAll
  static void register() {
    H5Iosp.register();
  }

  /** The fixture variables stored with the LZ4 filter (alone or with other filters undone before it). */
  static List<Fixtures.Variable> lz4Variables() throws IOException {
    return Fixtures.manifest("hdf5-filters").datasets().stream().flatMap(d -> d.variables().stream())
        .filter(v -> v.name().contains("lz4") && !v.name().startsWith("/bs_")).collect(Collectors.toList());
  }

  @Test
  void everyLz4ChunkInPiecesEqualsItsWholeDecode() throws Exception {
    int inPieces = 0;
    int variables = 0;
    for (Fixtures.Variable fv : lz4Variables()) {
      try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString())) {
        Variable v = nc.findVariable(fv.name().substring(1));
        assertNotNull(v, fv.name());
        ChunkedArray a = ((H5Iosp) nc.getIosp()).arrayOf(v);
        assertNotNull(a, fv.name() + " read by chunkcdm");
        int pieceReads = H5BloscPiecesTest.piecesEqualWholeDecode(a, fv.dataset().path() + fv.name())[0];
        inPieces += pieceReads;
        variables += pieceReads > 0 ? 1 : 0;
        v.setCaching(false);
        assertArrayEquals(fv.expected(), CdmArrays.littleEndian(v.read()), fv.dataset().path() + fv.name());
      }
    }
    assertTrue(variables >= 3, variables + " LZ4 variables read in pieces");
    assertTrue(inPieces > 10, inPieces + " piece reads");
  }

  /**
   * The 4-byte block size in the header of a chunk of {@code lz4_default_f32} (one LZ4 block per chunk) lowered to 16
   * bytes: the chunk's first block then decodes to more than its 16 bytes.
   */
  @Test
  void damagedChunkInPiecesNamesFileVariableAndChunk(@TempDir Path tmp) throws Exception {
    Fixtures.Variable fv = lz4Variables().stream().filter(x -> x.name().equals("/lz4_default_f32")).findFirst()
        .orElseThrow();
    Path bad = TestFiles.copy(fv.dataset().file(), tmp.resolve("damaged_lz4_pieces.h5"));
    long[] at;
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      H5ChunkedArray a = (H5ChunkedArray) ((H5Iosp) nc.getIosp()).arrayOf(nc.findVariable("lz4_default_f32"));
      at = a.stored(0);
    }
    assertNotNull(at, "chunk 0 is stored");
    TestFiles.patch(bad, at[0] + 8, new byte[] {0, 0, 0, 16});
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      Variable v = nc.findVariable("lz4_default_f32");
      v.setCaching(false);
      ChunkData d = ((H5Iosp) nc.getIosp()).arrayOf(v).chunk(0);
      assertTrue(d.readsInPieces());
      IOException e = assertThrows(IOException.class, () -> BloscPiecesTest.assemble(d, 4));
      NetcdfChecks.assertMentions(e, "damaged_lz4_pieces.h5", "lz4_default_f32", "chunk 0", "LZ4");
      IOException whole = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(whole, "damaged_lz4_pieces.h5", "lz4_default_f32", "chunk 0", "LZ4");
    }
  }
}
