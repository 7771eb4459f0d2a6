package org.chunkcdm.blosc2stores;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.Datasets;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Damaged containers give one FormatException naming the container and the key (or zip member) at fault, through
 * the opener and through netcdf-java: a cut zip, a compressed {@code embed.b2e}, a member or column file that is
 * missing, a key map entry or a zip directory entry pointing outside, a truncated leaf, a corrupt chunk.
 */
class MalformedTest {
  @TempDir
  Path tmp;

  private static Path fixture(String p) {
    return StoreFixtures.dataset(p).file();
  }

  /** Opening fails with a FormatException whose message holds every one of {@code words}, by both paths. */
  private static void assertRefused(Path p, String... words) {
    FormatException e = assertThrows(FormatException.class, () -> new Blosc2StoreOpener().open(p, null).close(),
        p.toString());
    for (String w : words) {
      assertTrue(e.getMessage().contains(w), "'" + w + "' not in: " + e.getMessage());
    }
    IOException c = assertThrows(IOException.class, () -> NetcdfFiles.open(p.toString()).close(), p.toString());
    assertTrue(FormatException.isFormatError(c) || c.getMessage().contains(words[0]), c.toString());
  }

  @Test
  void cutZip() throws IOException {
    Path z = TestFiles.copy(fixture("dictstore/v_dict_zip.b2z"), tmp.resolve("cut.b2z"));
    TestFiles.truncate(z, Files.size(z) - 30);
    assertRefused(z, z.toString(), "zip");
    Path other = TestFiles.copy(z, tmp.resolve("cut.zip")); // without the store suffix: not claimed at all
    assertFalse(new Blosc2StoreOpener().canOpen(other));
  }

  @Test
  void compressedEmbedMember() throws IOException {
    Path z = TestFiles.copy(fixture("treestore/v_tree_zip.b2z"), tmp.resolve("deflated.b2z"));
    byte[] b = Files.readAllBytes(z);
    // the central directory entry of embed.b2e: compression method (offset 10) 0 -> 8
    int cd = lastIndexOf(b, new byte[] {'P', 'K', 1, 2}, "embed.b2e");
    b[cd + 10] = 8;
    Files.write(z, b);
    assertRefused(z, z.toString(), "embed.b2e", "compressed");
  }

  @Test
  void zipMemberOutsideTheArchive() throws IOException {
    Path z = TestFiles.copy(fixture("dictstore/v_dict_zip.b2z"), tmp.resolve("outside.b2z"));
    byte[] b = Files.readAllBytes(z);
    int cd = lastIndexOf(b, new byte[] {'P', 'K', 1, 2}, "a/int8.b2nd");
    TestFiles.patch(z, cd + 42, TestFiles.le(0x7fff0000L, 4)); // local header offset far past the end
    FormatException e = assertThrows(FormatException.class, () -> new Blosc2StoreOpener().open(z, null).close());
    assertTrue(e.getMessage().contains(z.toString()) && e.getMessage().contains("a/int8.b2nd"), e.getMessage());
  }

  @Test
  void missingColumnMember() throws IOException {
    // the zip member of column i32 renamed in both headers: the table's key /_cols/i32 is gone
    Path z = TestFiles.copy(fixture("ctable/v_table_zip.b2z"), tmp.resolve("nocol.b2z"));
    byte[] b = Files.readAllBytes(z);
    byte[] name = "_cols/i32.b2nd".getBytes(StandardCharsets.US_ASCII);
    byte[] other = "_cols/i3X.b2nd".getBytes(StandardCharsets.US_ASCII);
    int at = 0;
    while (true) {
      int k = indexFrom(b, name, at);
      if (k < 0) {
        break;
      }
      System.arraycopy(other, 0, b, k, other.length);
      at = k + 1;
    }
    Files.write(z, b);
    assertRefused(z, z.toString(), "/_cols/i32", "missing");
  }

  @Test
  void missingColumnFile() throws IOException {
    Path d = TestFiles.copy(fixture("ctable/v_table_dir.b2d"), tmp.resolve("nocol.b2d"));
    Files.delete(d.resolve("_cols/y.b2nd"));
    assertRefused(d, d.toString(), "/_cols/y", "missing");
  }

  @Test
  void missingValidRows() throws IOException {
    Path d = TestFiles.copy(fixture("treestore/v_tree_dir.b2d"), tmp.resolve("novalid.b2d"));
    Files.delete(d.resolve("tables/events/_valid_rows.b2nd"));
    assertRefused(d, d.toString(), "/tables/events/_valid_rows", "missing");
  }

  @Test
  void keyMapPointsOutsideTheStream() throws IOException {
    Path d = TestFiles.copy(fixture("dictstore/v_dict_mixed.b2d"), tmp.resolve("outside.b2d"));
    Path e = d.resolve("embed.b2e");
    byte[] b = Files.readAllBytes(e);
    // "/small/scalar": {"offset": 574 (cd 02 3e) ...}: the key map's literal bytes, offset -> 65535
    byte[] entry = {(byte) 0xa6, 'o', 'f', 'f', 's', 'e', 't', (byte) 0xcd, 0x02, 0x3e};
    int k = indexFrom(b, entry, 0);
    assertTrue(k > 0, "the key map entry is stored as literal bytes");
    b[k + 8] = (byte) 0xff;
    b[k + 9] = (byte) 0xff;
    Files.write(e, b);
    assertRefused(d, d.toString(), "/small/scalar", "outside");
  }

  @Test
  void truncatedLeaf() throws IOException {
    Path d = TestFiles.copy(fixture("dictstore/v_dict_mixed.b2d"), tmp.resolve("cut.b2d"));
    Path leaf = d.resolve("grid/counts.b2nd");
    TestFiles.truncate(leaf, Files.size(leaf) - 100);
    assertRefused(d, d.toString(), "/grid/counts", "counts.b2nd");
  }

  @Test
  void corruptChunkNamesKeyAndChunk() throws IOException {
    Path z = TestFiles.copy(fixture("dictstore/v_dict_zip.b2z"), tmp.resolve("chunk.b2z"));
    // a/int8.b2nd: data at 28284 (manifest member_data_offset); its first chunk starts after the header
    long member = 28284;
    byte[] b = Files.readAllBytes(z);
    int hl = ((b[(int) member + 11] & 0xff) << 24) | ((b[(int) member + 12] & 0xff) << 16)
        | ((b[(int) member + 13] & 0xff) << 8) | (b[(int) member + 14] & 0xff);
    long chunk0 = member + hl;
    TestFiles.patch(z, chunk0 + 12, TestFiles.le(0x7fffffffL, 4)); // cbytes of chunk 0: far too large
    try (ChunkedDataset ds = Datasets.open(z)) {
      ChunkedVariable v = ds.variable("a/int8");
      long[] shape = v.array().grid().shape();
      IOException e = assertThrows(IOException.class,
          () -> SectionReader.readBytes(v.array(), new long[2], shape, new long[] {1, 1}));
      assertTrue(e.getMessage().contains(z.toString()) && e.getMessage().contains("/a/int8")
          && e.getMessage().contains("chunk 0"), e.getMessage());
    }
    try (NetcdfFile nc = NetcdfFiles.open(z.toString())) {
      Variable v = nc.findVariable("a/int8");
      IOException e = assertThrows(IOException.class, v::read);
      assertTrue(e.getMessage().contains("/a/int8"), e.getMessage());
    }
  }

  @Test
  void schemaColumnNotAnArray() throws IOException {
    // a column file replaced by a plain SChunk (no b2nd metalayer)
    Path d = TestFiles.copy(fixture("ctable/v_table_dir.b2d"), tmp.resolve("plain.b2d"));
    Files.copy(d.resolve("_meta.b2f"), d.resolve("_cols/x.b2nd"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertRefused(d, d.toString(), "/_cols/x", "b2nd");
  }

  private static int indexFrom(byte[] hay, byte[] needle, int from) {
    outer:
    for (int i = from; i <= hay.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** The last central directory header (signature {@code sig}) whose file name is {@code name}. */
  private static int lastIndexOf(byte[] b, byte[] sig, String name) {
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    for (int i = b.length - 46; i >= 0; i--) {
      if (b[i] == sig[0] && b[i + 1] == sig[1] && b[i + 2] == sig[2] && b[i + 3] == sig[3]) {
        int len = (b[i + 28] & 0xff) | (b[i + 29] & 0xff) << 8;
        if (len == n.length && indexFrom(java.util.Arrays.copyOfRange(b, i + 46, i + 46 + len), n, 0) == 0) {
          return i;
        }
      }
    }
    throw new AssertionError("no central directory entry for " + name);
  }
}
