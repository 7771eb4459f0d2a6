package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkData#decodedOnRead}: a whole-chunk read decodes straight into the reader's array (at its offset, nothing
 * else touched) every time; any other read decodes once into an array of the chunk's own, which serves every read after
 * it; reads outside the chunk and decoder failures are IOExceptions.
 */
class DecodedOnReadTest {
  private static final byte[] CONTENT = new byte[1000];

  static {
    for (int i = 0; i < CONTENT.length; i++) {
      CONTENT[i] = (byte) (i * 7 + 3);
    }
  }

  /** A decoder that writes the content and records where it was asked to. */
  private static final class Recorder implements ChunkData.DecodeInto {
    final List<String> calls = new ArrayList<>();

    @Override
    public void decodeInto(byte[] dst, int off) {
      calls.add(dst.length + "@" + off);
      System.arraycopy(CONTENT, 0, dst, off, CONTENT.length);
    }
  }

  @Test
  void wholeReadsDecodeIntoTheReadersArray() throws IOException {
    Recorder r = new Recorder();
    ChunkData d = ChunkData.decodedOnRead(CONTENT.length, r);
    assertEquals(CONTENT.length, d.size());
    byte[] dst = new byte[CONTENT.length + 20];
    Arrays.fill(dst, (byte) 0x5a);
    d.read(0, dst, 10, CONTENT.length);
    assertArrayEquals(CONTENT, Arrays.copyOfRange(dst, 10, 10 + CONTENT.length));
    for (int i = 0; i < 10; i++) {
      assertEquals(0x5a, dst[i]);
      assertEquals(0x5a, dst[dst.length - 1 - i]);
    }
    d.read(0, dst, 0, CONTENT.length);
    assertEquals(List.of(dst.length + "@10", dst.length + "@0"), r.calls, "each whole read decodes into its array");
  }

  @Test
  void otherReadsDecodeOnceAndKeepIt() throws IOException {
    Recorder r = new Recorder();
    ChunkData d = ChunkData.decodedOnRead(CONTENT.length, r);
    byte[] part = new byte[100];
    d.read(250, part, 0, 100);
    assertArrayEquals(Arrays.copyOfRange(CONTENT, 250, 350), part);
    byte[] all = d.readAll();
    assertArrayEquals(CONTENT, all);
    assertSame(all, d.readAll());
    byte[] whole = new byte[CONTENT.length];
    d.read(0, whole, 0, whole.length); // from the kept array now
    assertArrayEquals(CONTENT, whole);
    assertEquals(List.of(CONTENT.length + "@0"), r.calls, "one decode into the chunk's own array");
  }

  @Test
  void readsOutsideTheChunkAndDecoderFailuresAreIoExceptions() {
    ChunkData d = ChunkData.decodedOnRead(CONTENT.length, new Recorder());
    IOException e = assertThrows(IOException.class, () -> d.read(990, new byte[20], 0, 20));
    assertTrue(e.getMessage().contains("outside a chunk of 1000 bytes"), e.getMessage());
    ChunkData bad = ChunkData.decodedOnRead(16, (dst, off) -> {
      throw new IOException("zstd: no frame magic");
    });
    assertThrows(IOException.class, () -> bad.read(0, new byte[16], 0, 16));
    assertThrows(IOException.class, bad::readAll);
  }
}
