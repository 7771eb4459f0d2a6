package org.chunkcdm.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZipIndexTest {
  @TempDir
  Path tmp;

  private static byte[] data(int n, long seed) {
    byte[] b = new byte[n];
    Random r = new Random(seed);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i % 7 == 0 ? r.nextInt() : i / 100);
    }
    return b;
  }

  /** A zip as java.util.zip writes it: a stored member, a deflated one, a directory, a UTF-8 name. */
  private Path zip(byte[] stored, byte[] deflated) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(bos)) {
      z.putNextEntry(new ZipEntry("dir/"));
      z.closeEntry();
      ZipEntry s = new ZipEntry("dir/stored.bin");
      s.setMethod(ZipEntry.STORED);
      s.setSize(stored.length);
      s.setCompressedSize(stored.length);
      CRC32 crc = new CRC32();
      crc.update(stored);
      s.setCrc(crc.getValue());
      z.putNextEntry(s);
      z.write(stored);
      z.closeEntry();
      z.putNextEntry(new ZipEntry("déflated.bin"));
      z.write(deflated);
      z.closeEntry();
    }
    Path p = tmp.resolve("a.zip");
    Files.write(p, bos.toByteArray());
    return p;
  }

  @Test
  void readsStoredMembersByRangeAndDeflatedOnesWhole() throws IOException {
    byte[] stored = data(100_000, 1);
    byte[] deflated = data(70_000, 2);
    Path p = zip(stored, deflated);
    try (FileHandles f = new FileHandles(p)) {
      ZipIndex z = ZipIndex.read(f, p, 100);
      assertEquals(List.of("dir/stored.bin", "déflated.bin"), z.names());
      ZipIndex.Entry s = z.entry("dir/stored.bin");
      assertEquals(ZipIndex.STORED, s.method());
      assertEquals(stored.length, s.size());
      byte[] part = new byte[1000];
      z.readRange(s, 54_321, part, 0, part.length);
      assertArrayEquals(Arrays.copyOfRange(stored, 54_321, 55_321), part);
      assertArrayEquals(stored, z.readAll(s, 1 << 20));
      ZipIndex.Entry d = z.entry("déflated.bin");
      assertEquals(ZipIndex.DEFLATED, d.method());
      assertArrayEquals(deflated, z.readAll(d, 1 << 20));
      assertNull(z.entry("dir/"));
      assertNull(z.entry("missing"));
      IOException e = assertThrows(IOException.class, () -> z.readRange(d, 0, part, 0, 10));
      assertTrue(e.getMessage().contains("déflated.bin") && e.getMessage().contains("compressed"), e.getMessage());
      e = assertThrows(IOException.class, () -> z.readRange(s, stored.length - 5, part, 0, 10));
      assertTrue(e.getMessage().contains("past its end"), e.getMessage());
      e = assertThrows(IOException.class, () -> z.readAll(s, 10));
      assertTrue(e.getMessage().contains("more than the 10"), e.getMessage());
    }
  }

  @Test
  void damagedArchivesAreFormatErrorsNamingTheArchive() throws IOException {
    Path good = zip(data(5000, 3), data(5000, 4));
    byte[] b = Files.readAllBytes(good);
    Path bad = tmp.resolve("bad.zip");
    // not a zip
    Files.write(bad, data(5000, 5));
    assertFormatError(bad, 100, "no end of central directory");
    // the directory offset moved past the end
    byte[] c = b.clone();
    int eocd = b.length - 22;
    c[eocd + 16] = (byte) 0xFF;
    c[eocd + 17] = (byte) 0xFF;
    c[eocd + 18] = (byte) 0xFF;
    c[eocd + 19] = (byte) 0x7F;
    Files.write(bad, c);
    assertFormatError(bad, 100, "outside the archive");
    // too many members for the caller
    assertFormatError(good, 1, "more than the 1 allowed");
    // a damaged deflate stream
    c = b.clone();
    int at = indexOf(c, "déflated.bin".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + 13 + 40;
    for (int i = 0; i < 30; i++) {
      c[at + i] = (byte) 0xFF;
    }
    Files.write(bad, c);
    try (FileHandles f = new FileHandles(bad)) {
      ZipIndex z = ZipIndex.read(f, bad, 100);
      FormatException e = assertThrows(FormatException.class, () -> z.readAll(z.entry("déflated.bin"), 1 << 20));
      assertTrue(e.getMessage().contains("bad.zip") && e.getMessage().contains("déflated.bin"), e.getMessage());
    }
  }

  private static int indexOf(byte[] a, byte[] s) {
    outer:
    for (int i = 0; i <= a.length - s.length; i++) {
      for (int j = 0; j < s.length; j++) {
        if (a[i + j] != s[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static void assertFormatError(Path p, int max, String says) throws IOException {
    try (FileHandles f = new FileHandles(p)) {
      FormatException e = assertThrows(FormatException.class, () -> ZipIndex.read(f, p, max));
      assertTrue(e.getMessage().contains(p.getFileName().toString()) && e.getMessage().contains(says), e.getMessage());
    }
  }
}
