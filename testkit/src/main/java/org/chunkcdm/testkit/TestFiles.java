package org.chunkcdm.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** Copies fixtures into temporary directories so tests can damage or extend them. */
public final class TestFiles {
  private TestFiles() {}

  /** Copies a file or a directory tree to {@code dst} (which must not exist). */
  public static Path copy(Path src, Path dst) throws IOException {
    try (Stream<Path> s = Files.walk(src)) {
      s.forEach(p -> {
        Path t = dst.resolve(src.relativize(p).toString());
        try {
          if (Files.isDirectory(p)) {
            Files.createDirectories(t);
          } else {
            Files.createDirectories(t.getParent());
            Files.copy(p, t);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return dst;
  }

  public static void write(Path p, String text) throws IOException {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  /** Flips all bits of the byte at {@code pos}. */
  public static void flip(Path p, long pos) throws IOException {
    byte[] b = Files.readAllBytes(p);
    b[(int) pos] ^= (byte) 0xff;
    Files.write(p, b);
  }

  public static void truncate(Path p, long len) throws IOException {
    byte[] b = Files.readAllBytes(p);
    Files.write(p, java.util.Arrays.copyOf(b, (int) len));
  }

  /** Overwrites bytes at {@code pos}. */
  public static void patch(Path p, long pos, byte[] bytes) throws IOException {
    byte[] b = Files.readAllBytes(p);
    System.arraycopy(bytes, 0, b, (int) pos, bytes.length);
    Files.write(p, b);
  }

  /** Where {@code needle} first occurs in {@code hay}, or -1. */
  public static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** {@code n} bytes of {@code v}, big-endian. */
  public static byte[] be(long v, int n) {
    byte[] b = new byte[n];
    for (int i = n - 1; i >= 0; i--, v >>>= 8) {
      b[i] = (byte) v;
    }
    return b;
  }

  /** {@code n} bytes of {@code v}, little-endian. */
  public static byte[] le(long v, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++, v >>>= 8) {
      b[i] = (byte) v;
    }
    return b;
  }

  /** Unzips {@code zip} into {@code dir}; an entry naming a place outside {@code dir} is an IOException. */
  public static void unzip(Path zip, Path dir) throws IOException {
    try (ZipInputStream z = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        Path to = dir.resolve(e.getName()).normalize();
        if (!to.startsWith(dir)) {
          throw new IOException(zip + ": entry outside the directory: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(z, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /** Deletes a file or a directory tree (links themselves, never what they point to); nothing if absent. */
  public static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path q : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(q);
      }
    }
  }
}
