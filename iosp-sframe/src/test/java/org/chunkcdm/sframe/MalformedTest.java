package org.chunkcdm.sframe;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Damaged frames give IOExceptions naming the file and the chunk or field; never a read outside the dataset. */
class MalformedTest {
  static final String SFRAME = "sframe/sf_reorder_i4.b2frame"; // index [3, 1, 0, 2], memcpyed index chunk
  static final String CFRAME = "cframe/cf_reorder_u8.b2frame";

  @TempDir
  Path tmp;

  static Fixtures.Dataset dataset(String path) {
    return Fixtures.manifest("blosc2").dataset(path);
  }

  Path copy(String path) throws IOException {
    Fixtures.Dataset d = dataset(path);
    return TestFiles.copy(d.file(), tmp.resolve(d.file().getFileName().toString()));
  }

  static JsonNode layout(String path) {
    return dataset(path).json().path("layout");
  }

  static IOException openFails(Path p) {
    return assertThrows(IOException.class, () -> NetcdfFiles.open(p.toString()).close());
  }

  /** Opens fine; reading everything fails. */
  static IOException readFails(Path p) throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.getVariables().get(0);
      return assertThrows(IOException.class, v::read);
    }
  }

  static void assertMentions(Throwable e, String... parts) {
    org.chunkcdm.testkit.NetcdfChecks.assertMentions(e, parts);
  }

  /** Byte position of index entry k (the small indexes here are memcpyed chunks: 32-byte header, raw int64s). */
  static long entryPos(Path indexFile, JsonNode layout, int k) throws IOException {
    long pos = layout.path("index_pos").asLong();
    byte[] b = Files.readAllBytes(indexFile);
    assertTrue((b[(int) pos + 2] & 0x02) != 0, "test precondition: the index chunk is memcpyed");
    return pos + 32 + 8L * k;
  }

  @Test
  void missingChunkFile() throws IOException {
    Path d = copy(SFRAME);
    Files.delete(d.resolve("00000001.chunk")); // logical chunk 1
    assertMentions(readFails(d), "chunk 1", "00000001.chunk", "missing");
  }

  @Test
  void truncatedChunkFile() throws IOException {
    Path d = copy(SFRAME);
    Path c = d.resolve("00000003.chunk"); // logical chunk 0
    TestFiles.truncate(c, Files.size(c) - 10);
    assertMentions(readFails(d), "chunk 0", "00000003.chunk", "truncated");
  }

  @Test
  void sparseIndexEntryOutOfRange() throws IOException {
    Path d = copy(SFRAME);
    Path idx = d.resolve("chunks.b2frame");
    TestFiles.patch(idx, entryPos(idx, layout(SFRAME), 2), TestFiles.le(0x1_0000_0000L, 8));
    assertMentions(readFails(d), "chunk 2", "not a chunk file number");
    TestFiles.patch(idx, entryPos(idx, layout(SFRAME), 2), TestFiles.le(0x7ABCDEF0L, 8));
    assertMentions(readFails(d), "chunk 2", "7ABCDEF0.chunk", "missing");
    TestFiles.patch(idx, entryPos(idx, layout(SFRAME), 2), TestFiles.le(0x8300000000000000L, 8));
    assertMentions(readFails(d), "chunk 2", "unknown special index entry");
  }

  /** A chunk file that is a link to a file outside the directory is refused. */
  @Test
  void chunkFileLinkingOutsideIsRefused() throws IOException {
    Path d = copy(SFRAME);
    Path outside = tmp.resolve("secret.chunk");
    Files.copy(d.resolve("00000000.chunk"), outside);
    Files.delete(d.resolve("00000000.chunk"));
    Files.createSymbolicLink(d.resolve("00000000.chunk"), outside);
    assertMentions(readFails(d), "chunk 2", "outside the dataset directory");
  }

  @Test
  void contiguousIndexOffsetOutOfRange() throws IOException {
    Path f = copy(CFRAME);
    TestFiles.patch(f, entryPos(f, layout(CFRAME), 1), TestFiles.le(8900, 8));
    assertMentions(readFails(f), f.toString(), "chunk 1", "outside the chunks section");
    TestFiles.patch(f, entryPos(f, layout(CFRAME), 1), TestFiles.le(-5L & 0x7fffffffffffffffL, 8));
    assertMentions(readFails(f), "chunk 1", "outside the chunks section");
  }

  @Test
  void contiguousChunkHeaderLyingAboutItsLength() throws IOException {
    Path f = copy(CFRAME);
    long chunk2 = layout(CFRAME).path("header_len").asLong(); // logical chunk 2 sits at offset 0
    TestFiles.patch(f, chunk2 + 12, TestFiles.le(1 << 20, 4));
    assertMentions(readFails(f), "chunk 2", "runs past the chunks section");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 10, 50, 97, 200, 5000, 9000, 9096})
  void truncatedContiguousFrame(int len) throws IOException {
    Path f = copy(CFRAME);
    TestFiles.truncate(f, len);
    if (len < 10) {
      // too short for the magic: not recognised as a frame at all
      assertThrows(IOException.class, () -> NetcdfFiles.open(f.toString()).close());
      return;
    }
    IOException e = assertThrows(IOException.class, () -> NetcdfFiles.open(f.toString()).close());
    if (len >= Frame.FIXED_HEADER) {
      assertMentions(e, f.toString(), "truncated");
    }
  }

  @Test
  void truncatedIndexFileOfSparseFrame() throws IOException {
    Path d = copy(SFRAME);
    Path idx = d.resolve("chunks.b2frame");
    TestFiles.truncate(idx, Files.size(idx) - 20);
    assertMentions(openFails(d), "chunks.b2frame", "truncated");
  }

  @Test
  void lyingHeaderLengths() throws IOException {
    Path f = copy(CFRAME);
    TestFiles.patch(f, 11, TestFiles.be(1 << 20, 4)); // header_len past the file
    assertMentions(openFails(f), f.toString(), "header_len");
    f = TestFiles.copy(dataset(CFRAME).file(), tmp.resolve("b.b2frame"));
    TestFiles.patch(f, 11, TestFiles.be(90, 4)); // header_len cutting the metalayer section
    assertMentions(openFails(f), f.toString(), "frame header");
    f = TestFiles.copy(dataset(CFRAME).file(), tmp.resolve("c.b2frame"));
    TestFiles.patch(f, 16, TestFiles.be(1L << 40, 8)); // frame_len
    assertMentions(openFails(f), f.toString(), "frame_len");
    f = TestFiles.copy(dataset(CFRAME).file(), tmp.resolve("d.b2frame"));
    TestFiles.patch(f, 39, TestFiles.be(1L << 40, 8)); // cbytes: the index would lie past the file
    assertMentions(openFails(f), f.toString(), "cbytes");
    f = TestFiles.copy(dataset(CFRAME).file(), tmp.resolve("e.b2frame"));
    TestFiles.patch(f, 30, TestFiles.be(64000 * 2, 8)); // nbytes: more chunks than the index holds
    assertMentions(openFails(f), f.toString(), "offsets index has 4 entries");
  }

  @Test
  void trailerLengthPastTheFile() throws IOException {
    Path f = copy(CFRAME);
    long len = Files.size(f);
    TestFiles.patch(f, len - 22, TestFiles.be(0x7fff0000L, 4));
    assertMentions(openFails(f), f.toString(), "trailer_len", "past the frame");
    Path d = copy(SFRAME);
    Path idx = d.resolve("chunks.b2frame");
    TestFiles.patch(idx, Files.size(idx) - 22, TestFiles.be(Files.size(idx) + 1, 4));
    assertMentions(openFails(d), "chunks.b2frame", "trailer_len");
  }

  @Test
  void corruptIndexChunk() throws IOException {
    Path f = copy(CFRAME);
    long pos = layout(CFRAME).path("index_pos").asLong();
    TestFiles.patch(f, pos + 12, TestFiles.le(1 << 20, 4)); // index cbytes past the trailer
    assertMentions(openFails(f), f.toString(), "offsets index");
  }

  @Test
  void lyingB2ndMetalayer() throws IOException {
    String path = "b2nd/b2nd_2d_f8_cframe.b2nd";
    Path f = copy(path);
    byte[] b = Files.readAllBytes(f);
    // the dtype string "<f8" -> "<f4": item size no longer matches the frame's typesize
    int at = indexOf(b, new byte[] {'<', 'f', '8'});
    TestFiles.patch(f, at + 2, new byte[] {'4'});
    assertMentions(openFails(f), f.toString(), "typesize");
    f = TestFiles.copy(dataset(path).file(), tmp.resolve("g.b2nd"));
    // shape[0] 120 -> 220: more chunks than the index has
    at = indexOf(b, TestFiles.be(120, 8));
    TestFiles.patch(f, at, TestFiles.be(220, 8));
    assertMentions(openFails(f), f.toString(), "needs 15 chunks but the offsets index has 9");
  }

  /** A b2nd shape whose element count overflows a long is an IOException, not an arithmetic error. */
  @Test
  void absurdB2ndShape() throws IOException {
    String path = "b2nd/b2nd_2d_f8_cframe.b2nd";
    Path f = copy(path);
    byte[] b = Files.readAllBytes(f);
    int at = indexOf(b, TestFiles.be(120, 8));
    TestFiles.patch(f, at, TestFiles.be(Long.MAX_VALUE / 2, 8));
    TestFiles.patch(f, at + 9, TestFiles.be(Long.MAX_VALUE / 2, 8));
    assertMentions(openFails(f), f.toString(), "overflow");
  }

  static int indexOf(byte[] hay, byte[] needle) {
    int at = TestFiles.indexOf(hay, needle);
    if (at < 0) {
      throw new AssertionError("pattern not found");
    }
    return at;
  }

  /** A corrupt chunk body names the chunk. */
  @Test
  void corruptChunkBody() throws IOException {
    Path d = copy("sframe/sf_lz4_noshuffle_u1.b2frame");
    Path c = d.resolve("00000001.chunk");
    long size = Files.size(c);
    byte[] b = Files.readAllBytes(c);
    for (int i = 40; i < size; i++) {
      b[i] = (byte) 0xff;
    }
    Files.write(c, b);
    assertMentions(readFails(d), "chunk 1", "00000001.chunk");
  }
}
