package org.chunkcdm.ds;

import org.chunkcdm.blosc.LimitException;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.Datasets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFiles;

/** The header buffer is bounded by the file, {@link DsHeader#MAX_HEADER} and the heap. */
class HeaderBoundsTest {
  @TempDir
  Path tmp;

  @AfterEach
  void clear() {
    System.clearProperty("chunkcdm.maxAllocation");
  }

  /** The file: "ds-1.0\n{" then zeros, sparse, 250 MB long: refused at once, no OutOfMemoryError. */
  @Test
  void sparseHeaderWithoutNewlineIsRefusedQuickly() throws Exception {
    Path p = tmp.resolve("sparse.ds");
    Files.write(p, "ds-1.0\n{".getBytes(StandardCharsets.US_ASCII));
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
      raf.setLength(250_000_000L);
    }
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
      FormatException a = assertThrows(FormatException.class, () -> Datasets.open(p).close());
      assertTrue(a.getMessage().contains("sparse.ds") && a.getMessage().contains("NUL byte at offset 8"), a.getMessage());
      IOException b = assertThrows(IOException.class, () -> NetcdfFiles.open(p.toString()).close());
      assertTrue(FormatException.isFormatError(b), String.valueOf(b));
    });
  }

  /** A header of text without a newline grows only up to what the heap bound allows. */
  @Test
  void longHeaderIsBoundedByTheHeap() throws Exception {
    Path p = tmp.resolve("long.ds");
    byte[] body = new byte[4 << 20];
    java.util.Arrays.fill(body, (byte) ' ');
    byte[] head = "ds-1.0\n{\"x\": ".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(head, 0, body, 0, head.length);
    Files.write(p, body);
    System.setProperty("chunkcdm.maxAllocation", String.valueOf(1 << 20));
    LimitException e = assertThrows(LimitException.class, () -> Datasets.open(p).close());
    assertTrue(e.getMessage().contains("long.ds") && e.getMessage().contains("header"), e.getMessage());
    System.clearProperty("chunkcdm.maxAllocation");
    FormatException f = assertThrows(FormatException.class, () -> Datasets.open(p).close());
    assertTrue(f.getMessage().contains("no terminating newline"), f.getMessage());
  }

  @Test
  void headerLimitIsDocumented() {
    assertTrue(DsHeader.MAX_HEADER == 64 << 20);
  }
}
