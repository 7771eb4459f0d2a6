package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.blosc.CodecProbes;
import org.chunkcdm.nativeblosc.JnaBlosc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * A carray whose chunks hold many Blosc blocks, written exactly as bcolz lays it out with chunks compressed
 * by the reference c-blosc 1.x: a point read decodes one block, not the chunk.
 */
class PointReadTest {
  static final int ROWS = 200_000;
  static final int CHUNKLEN = 65_536; // 512 KiB chunks
  static final int BLOCK = 16_384; // 2048 float64 per block

  @TempDir
  Path tmp;

  static JnaBlosc nativeBlosc() {
    JnaBlosc n = new JnaBlosc();
    if ("1".equals(System.getenv("CHUNKCDM_REQUIRE_NATIVE"))) {
      assertTrue(n.isAvailable(), n.version());
    } else {
      assumeTrue(n.isAvailable(), "writing the test carray needs c-blosc: " + n.version());
    }
    return n;
  }

  static double value(int i) {
    return Math.sin(i * 0.001) * 1000 + i;
  }

  /** Writes a bcolz carray directory of float64 values with c-blosc-made chunk files. */
  static Path writeCarray(Path dir, JnaBlosc nat) throws Exception {
    Files.createDirectories(dir.resolve("meta"));
    Files.createDirectories(dir.resolve("data"));
    Files.writeString(dir.resolve("meta/sizes"), "{\"shape\": [" + ROWS + "], \"nbytes\": " + ROWS * 8L + ", \"cbytes\": 0}\n");
    Files.writeString(dir.resolve("meta/storage"), "{\"dtype\": \"float64\", \"cparams\": {\"clevel\": 5, \"shuffle\": 1, "
        + "\"cname\": \"lz4\", \"quantize\": 0}, \"chunklen\": " + CHUNKLEN + ", \"expectedlen\": " + ROWS + ", \"dflt\": 0.0}\n");
    Files.writeString(dir.resolve("__attrs__"), "{}\n");
    byte[] head = {0x62, 0x6c, 0x70, 0x6b, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    int files = (ROWS + CHUNKLEN - 1) / CHUNKLEN;
    for (int c = 0; c < files; c++) {
      int rows = Math.min(CHUNKLEN, ROWS - c * CHUNKLEN);
      ByteBuffer b = ByteBuffer.allocate(rows * 8).order(ByteOrder.LITTLE_ENDIAN);
      for (int r = 0; r < rows; r++) {
        b.putDouble(value(c * CHUNKLEN + r));
      }
      byte[] chunk = nat.compress(b.array(), 5, 1, 8, "lz4", BLOCK);
      byte[] file = new byte[16 + chunk.length];
      System.arraycopy(head, 0, file, 0, 16);
      System.arraycopy(chunk, 0, file, 16, chunk.length);
      Files.write(dir.resolve("data/__" + c + ".blp"), file);
    }
    return dir;
  }

  @Test
  void aPointReadDecodesOneBlock() throws Exception {
    JnaBlosc nat = nativeBlosc();
    Path dir = writeCarray(tmp.resolve("big.bcolz"), nat);
    byte[] c1 = Files.readAllBytes(dir.resolve("data/__1.blp"));
    BloscHeader h = BloscHeader.parse(c1, 16, c1.length - 16);
    assertTrue(h.nblocks() >= 4, "chunks hold several blocks: " + h.nblocks());
    int perBlock = h.blocksize() / 8; // c-blosc 1.x may enlarge the requested blocksize
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = nc.findVariable("big");
      v.setCaching(false);
      int i = CHUNKLEN + perBlock + 5; // chunk 1, block 1
      long b0 = CodecProbes.blocksDecoded();
      Array a = v.read(new Section(new int[] {i}, new int[] {1}));
      assertEquals(value(i), a.getDouble(0));
      assertEquals(1, CodecProbes.blocksDecoded() - b0, "a point read decodes one block");
      // three values across the boundary of blocks 1|2 of chunk 2: two blocks
      int j = 2 * CHUNKLEN + 2 * perBlock - 1;
      b0 = CodecProbes.blocksDecoded();
      a = v.read(new Section(new int[] {j}, new int[] {3}));
      assertArrayEquals(new double[] {value(j), value(j + 1), value(j + 2)}, (double[]) a.copyTo1DJavaArray());
      assertEquals(2, CodecProbes.blocksDecoded() - b0);
      // the whole variable
      Array all = v.read();
      for (int k = 0; k < ROWS; k += 997) {
        assertEquals(value(k), all.getDouble(k), "row " + k);
      }
      assertEquals(value(ROWS - 1), all.getDouble(ROWS - 1));
    }
    assertTrue(Files.readString(dir.resolve("meta/sizes"), StandardCharsets.US_ASCII).contains("200000"));
  }
}
