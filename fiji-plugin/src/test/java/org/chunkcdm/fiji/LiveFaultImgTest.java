package org.chunkcdm.fiji;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.stream.Stream;
import net.imglib2.RandomAccess;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.IntegerType;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults under the Fiji plugin's lazy image: a chunk file of an open image replaced by another valid
 * chunk, then deleted. Cells read after the change are each the old or the new data (never a mix), a reopened
 * image shows exactly the new data, and a cell whose chunk file is gone fails with an IOException (unchecked, as
 * ImgLib2 requires) naming the file, while the other cells still load.
 */
class LiveFaultImgTest {
  @TempDir
  Path tmp;

  static final int CHUNK = 4000; // elements per chunk of the fixture (memcpy chunks of 16,000 bytes)

  static long[] pixels(LazyCellImg<?, ?> img) {
    long n = img.dimension(0);
    long[] out = new long[(int) n];
    RandomAccess<?> ra = img.randomAccess();
    for (int i = 0; i < n; i++) {
      ra.setPosition(i, 0);
      out[i] = ((IntegerType<?>) ra.get()).getIntegerLong();
    }
    return out;
  }

  @Test
  void aReplacedChunkIsOldOrNewPerCellAReopenShowsTheNewDataADeletedOneFailsNamingTheFile() throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("sframe/sf_blosclz_clevel0_u4.b2frame");
    ByteBuffer b = ByteBuffer.wrap(d.variables().get(0).expected()).order(ByteOrder.LITTLE_ENDIAN);
    long[] orig = new long[b.remaining() / 4];
    for (int i = 0; i < orig.length; i++) {
      orig[i] = b.getInt() & 0xffffffffL;
    }
    Path copy = tmp.resolve("img.b2frame");
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(d.file())) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = copy.resolve(p.getFileName().toString());
        Files.copy(p, t);
        t.toFile().setWritable(true);
        Files.setLastModifiedTime(t, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
      }
    }
    Path chunk0 = copy.resolve("00000000.chunk");
    byte[] bytes1 = Files.readAllBytes(copy.resolve("00000001.chunk"));
    long[] changed = orig.clone();
    System.arraycopy(orig, CHUNK, changed, 0, CHUNK);
    assertFalse(Arrays.equals(orig, changed));

    try (ImageDataset ds = ImageDataset.open(copy)) {
      LazyCellImg<?, ?> img = ChunkImgs.open(ds.variables().get(0));
      assertArrayEquals(orig, pixels(img));

      Path t = Files.createTempFile(tmp, "chunk", ".tmp");
      Files.write(t, bytes1);
      Files.move(t, chunk0, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      long[] during = pixels(img);
      for (int c = 0; c * CHUNK < orig.length; c++) {
        int from = c * CHUNK;
        int to = Math.min(orig.length, from + CHUNK);
        assertTrue(Arrays.equals(during, from, to, orig, from, to) || Arrays.equals(during, from, to, changed, from, to),
            "cell " + c + " is the old or the new data, not a mix");
      }
    }
    try (ImageDataset ds = ImageDataset.open(copy)) {
      assertArrayEquals(changed, pixels(ChunkImgs.open(ds.variables().get(0))), "reopened: exactly the new data");
    }

    Files.delete(chunk0);
    try (ImageDataset ds = ImageDataset.open(copy)) {
      LazyCellImg<?, ?> img = ChunkImgs.open(ds.variables().get(0));
      RandomAccess<?> ra = img.randomAccess();
      ra.setPosition(CHUNK + 7, 0); // a cell whose chunk is intact
      assertEquals(orig[CHUNK + 7], ((IntegerType<?>) ra.get()).getIntegerLong());
      RandomAccess<?> gone = img.randomAccess();
      UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
        gone.setPosition(3, 0);
        ((IntegerType<?>) gone.get()).getIntegerLong();
      });
      assertTrue(e.getCause() instanceof IOException);
      assertTrue(e.getMessage().contains("00000000.chunk"), "names the missing file: " + e.getMessage());
    }
  }
}
