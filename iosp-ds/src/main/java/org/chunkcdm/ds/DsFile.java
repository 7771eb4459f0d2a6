package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;

/**
 * Positional reads of one {@code .ds} file. The bytes the header read already fetched (the first read of at
 * most {@link DsHeader#FIRST_READ} bytes, which for a small file is the whole file) are kept and serve reads
 * inside them without another system call: for the many-small-files case the format exists for, opening
 * and reading every variable then costs the one read that finding the header's end needs.
 */
final class DsFile {
  private final FileHandles files;
  private final Path path;
  private final byte[] prefix; // the file's first prefix.length bytes

  DsFile(FileHandles files, Path path, byte[] prefix) {
    this.files = files;
    this.path = path;
    this.prefix = prefix;
  }

  void readFully(long pos, byte[] dst, int off, int len) throws IOException {
    if (pos >= 0 && pos + len <= prefix.length) {
      System.arraycopy(prefix, (int) pos, dst, off, len);
    } else {
      files.readFully(path, pos, dst, off, len);
    }
  }
}
