package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Section reads into a byte buffer, heap or direct: the same bytes as a read into an array (whole chunks, parts of
 * chunks, strides, a chunk that is not stored as the fill value), written from the buffer's position on, which
 * stays where it is, and nothing outside the selection touched.
 */
class BufferReadTest {
  static final DType I32 = DType.of(DType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN);

  static MemoryArray array() {
    long[] shape = {30, 20};
    byte[] logical = new byte[30 * 20 * 4];
    ByteBuffer bb = ByteBuffer.wrap(logical).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 30 * 20; i++) {
      bb.putInt(4 * i, 1000 + 7 * i);
    }
    byte[] fill = {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}; // -2
    return new MemoryArray(I32, ChunkGrid.regular(shape, new int[] {8, 8}), logical, Set.of(4L), fill);
  }

  @Test
  void buffersGetTheBytesAnArrayGets() throws Exception {
    MemoryArray a = array();
    long[][][] boxes = {
      {{0, 0}, {30, 20}, null}, // everything
      {{8, 8}, {8, 8}, null}, // one whole chunk
      {{16, 8}, {8, 8}, null}, // the chunk that is not stored
      {{3, 5}, {11, 9}, null}, // parts of several chunks
      {{1, 2}, {10, 6}, {3, 3}}, // strided
    };
    for (long[][] box : boxes) {
      byte[] expected = SectionReader.readBytes(a, box[0], box[1], box[2]);
      for (boolean direct : new boolean[] {false, true}) {
        int at = 5;
        int room = at + expected.length + 9;
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(room) : ByteBuffer.allocate(room);
        for (int i = 0; i < room; i++) {
          buf.put(i, (byte) 0x77);
        }
        buf.position(at);
        SectionReader.readBytes(a, box[0], box[1], box[2], buf);
        String what = Arrays.deepToString(box) + (direct ? " direct" : " heap");
        assertEquals(at, buf.position(), what + ": position");
        byte[] got = new byte[room];
        buf.get(0, got);
        assertArrayEquals(expected, Arrays.copyOfRange(got, at, at + expected.length), what);
        for (int i = 0; i < room; i++) {
          if (i < at || i >= at + expected.length) {
            assertEquals((byte) 0x77, got[i], what + ": byte " + i + " outside the selection");
          }
        }
      }
    }
  }

  @Test
  void aBufferTooSmallIsRefusedBeforeAnythingIsRead() throws Exception {
    MemoryArray a = array();
    ByteBuffer buf = ByteBuffer.allocateDirect(8 * 8 * 4).position(1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SectionReader.readBytes(a, new long[] {0, 0}, new long[] {8, 8}, null, buf));
    assertEquals("a buffer with 255 bytes left cannot take 256 bytes", e.getMessage());
    assertEquals(0, a.opened.get(), "no chunk opened");
  }
}
