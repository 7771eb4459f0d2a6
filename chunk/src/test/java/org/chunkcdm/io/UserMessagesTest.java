package org.chunkcdm.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.blosc.LimitException;
import org.junit.jupiter.api.Test;

/** The one-line wording of failures: each kind, and the library wordings it replaces. */
class UserMessagesTest {
  static final String FORMATS = "bcolz carrays and ctables, Bloscpack (.blp), Blosc2 frames and b2nd arrays, "
      + "python-blosc2 stores (.b2d, .b2z, .b2e), .ds, Zarr v2 and v3 stores, HDF5 and "
      + "NetCDF-4 (also with Blosc, LZF, LZ4, Bitshuffle, Zstd and other HDF5 filters), netCDF-3 and ncstream (.ncs)";

  @Test
  void fileSystemFailuresNameTheFile() {
    assertEquals("d/x.ds: no such file or directory", UserMessages.describe(new NoSuchFileException("d/x.ds")));
    assertEquals("d/x.ds: permission denied (make it readable, or run as a user who may read it)",
        UserMessages.describe(new AccessDeniedException("d/x.ds")));
    assertEquals("d/x.ds: permission denied (make it readable, or run as a user who may read it)",
        UserMessages.describe(new FileNotFoundException("d/x.ds (Permission denied)")));
    assertEquals("d: a directory that is not a dataset (a dataset directory is a bcolz carray or ctable, a sparse Blosc2 "
        + "frame, a python-blosc2 .b2d store or a Zarr store); name a dataset file or dataset directory", UserMessages.describe(new FileNotFoundException("d (Is a directory)")));
  }

  @Test
  void netcdfJavaWordingsAreRewritten() {
    // NetcdfFiles.open wraps its own exceptions with their toString as the message
    IOException notCdm = new IOException("Cant read /tmp/notes.md: not a valid CDM file.");
    assertEquals("/tmp/notes.md: not a dataset chunkcdm opens; it opens " + FORMATS,
        UserMessages.describe(new IOException(notCdm)));
    assertEquals("/tmp/e.ds: the file is empty (0 bytes), not a dataset",
        UserMessages.describe(new IOException(new EOFException("Reading /tmp/e.ds at 0 file length = 0"))));
    assertEquals("/tmp/t.ds: only 3 bytes long, too short for a dataset (truncated, or not a dataset chunkcdm opens: "
        + FORMATS + ")", UserMessages.describe(new EOFException("Reading /tmp/t.ds at 3 file length = 3")));
  }

  @Test
  void kindsKeepTheirPrefixAndNoClassNameShows() {
    assertEquals("format error: f.blp: chunk 1 of b: bad (the file is damaged or incomplete: copy or write it again)",
        UserMessages.describe(new IOException("org.chunkcdm.io.FormatException: f.blp: chunk 1 of b: bad",
            new FormatException("f.blp: chunk 1 of b: bad"))));
    assertEquals("format error: c: bad stream (the file is damaged or incomplete: copy or write it again)",
        UserMessages.describe(new UncheckedIOException(new CodecException("c: bad stream"))));
    assertEquals("too large: c: 5 bytes do not fit", UserMessages.describe(new LimitException("c: 5 bytes do not fit")));
    assertEquals("a disk error", UserMessages.describe(new IOException("java.io.IOException: a disk error")));
    assertEquals("internal error: no details; please report it with the command and the file",
        UserMessages.describe(new NullPointerException()));
  }

  @Test
  void aMissingVariableListsTheOthers() {
    assertEquals("f: no variable 'x'; its variables: a, b", UserMessages.noVariable("f", "x", List.of("a", "b")));
    assertEquals("f: no variable 'x'; it has no variables", UserMessages.noVariable("f", "x", List.of()));
  }
}
