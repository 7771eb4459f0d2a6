package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.testkit.BloscChunks;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

/**
 * A whole read of a b2nd chunk whose block layout is not C order (blocks that do not span the trailing dimensions,
 * padding where chunkshape is not a multiple of blockshape): the decoded blocks arrive in pieces
 * ({@link ChunkData#readPieces}) and their rows are placed straight into the destination. Checked against the
 * chunk's C-order values for 1-, 2- and 3-d shapes, item sizes 2 and 8, Blosc blocks of one b2nd block, of two, of
 * one and a half (no piece boundary per block: one whole piece), and against byte-range reads of the same chunk.
 */
class B2ndPaddedPiecesTest {
  static byte[] meta(int[] chunks, int[] blocks) throws IOException {
    MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
    p.packArrayHeader(7);
    p.packInt(0);
    p.packInt(chunks.length);
    p.packArrayHeader(chunks.length);
    for (int c : chunks) {
      p.packLong(c); // the array shape: one chunk
    }
    p.packArrayHeader(chunks.length);
    for (int c : chunks) {
      p.packInt(c);
    }
    p.packArrayHeader(blocks.length);
    for (int b : blocks) {
      p.packInt(b);
    }
    p.packInt(0);
    p.packString("<u8");
    p.close();
    return p.toByteArray();
  }

  /** The chunk's stored (padded block) layout, padding bytes 0xEE, and its C-order values. */
  static byte[][] layout(int[] chunks, int[] blocks, int item) {
    int rank = chunks.length;
    int[] ext = new int[rank];
    int[] nb = new int[rank];
    long extItems = 1;
    long items = 1;
    long blockItems = 1;
    for (int d = 0; d < rank; d++) {
      nb[d] = (chunks[d] + blocks[d] - 1) / blocks[d];
      ext[d] = nb[d] * blocks[d];
      extItems *= ext[d];
      items *= chunks[d];
      blockItems *= blocks[d];
    }
    byte[] c = new byte[(int) items * item];
    for (int i = 0; i < c.length; i++) {
      c[i] = (byte) (i * 7 + i / item);
    }
    byte[] stored = new byte[(int) extItems * item];
    Arrays.fill(stored, (byte) 0xEE);
    long nblocks = extItems / blockItems;
    int[] bc = new int[rank];
    int[] w = new int[rank];
    for (long b = 0; b < nblocks; b++) {
      long rem = b;
      for (int d = rank - 1; d >= 0; d--) {
        bc[d] = (int) (rem % nb[d]);
        rem /= nb[d];
      }
      for (long e = 0; e < blockItems; e++) {
        long r = e;
        for (int d = rank - 1; d >= 0; d--) {
          w[d] = (int) (r % blocks[d]);
          r /= blocks[d];
        }
        long ci = 0;
        boolean inside = true;
        for (int d = 0; d < rank; d++) {
          int x = bc[d] * blocks[d] + w[d];
          inside &= x < chunks[d];
          ci = ci * chunks[d] + x;
        }
        if (inside) {
          System.arraycopy(c, (int) ci * item, stored, (int) ((b * blockItems + e) * item), item);
        }
      }
    }
    return new byte[][] {stored, c};
  }

  /** A format-version-2 BloscLZ chunk, no filter, one stream per block, every stream stored raw. */
  static byte[] bloscRaw(byte[] data, int ts, int bs) {
    int nb = (data.length + bs - 1) / bs;
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int[] starts = new int[nb];
    for (int b = 0; b < nb; b++) {
      starts[b] = 16 + 4 * nb + body.size();
      int n = Math.min(bs, data.length - b * bs);
      BloscChunks.le32(body, n);
      body.write(data, b * bs, n);
    }
    return BloscChunks.assemble(0x10, ts, data.length, bs, starts, body); // BloscLZ, no shuffle, streams not split
  }

  @Test
  void wholeReadsPlaceThePiecesRows() throws IOException {
    int[][][] shapes = {
      {{10}, {4}}, {{7, 10}, {3, 4}}, {{6, 9}, {6, 2}}, {{5, 6, 7}, {2, 3, 4}}, {{4, 5, 3}, {4, 1, 3}},
    };
    for (int[][] sh : shapes) {
      for (int item : new int[] {2, 8}) {
        B2nd meta = B2nd.parse(meta(sh[0], sh[1]), item);
        assertTrue(!meta.isPlainLayout());
        byte[][] l = layout(sh[0], sh[1], item);
        int blockBytes = (int) meta.blockItems() * item;
        for (int bs : new int[] {blockBytes, 2 * blockBytes, blockBytes * 3 / 2}) {
          String what = Arrays.toString(sh[0]) + " / " + Arrays.toString(sh[1]) + " item " + item + " blosc block " + bs;
          byte[] chunk = bloscRaw(l[0], item, Math.min(bs, l[0].length));
          ChunkData view = meta.view(BloscChunkData.of(chunk, 0, chunk.length), item);
          byte[] dst = new byte[l[1].length + 5];
          Arrays.fill(dst, (byte) 0x55);
          view.read(0, dst, 3, l[1].length);
          assertArrayEquals(l[1], Arrays.copyOfRange(dst, 3, 3 + l[1].length), what);
          assertTrue(dst[2] == 0x55 && dst[3 + l[1].length] == 0x55, what + ": wrote outside its range");
          // the same bytes by ranges (the block-by-block path) from a fresh view
          ChunkData again = meta.view(BloscChunkData.of(chunk, 0, chunk.length), item);
          byte[] parts = new byte[l[1].length];
          int half = l[1].length / 2 / item * item;
          again.read(0, parts, 0, half);
          again.read(half, parts, half, parts.length - half);
          assertArrayEquals(l[1], parts, what + " by ranges");
          // a chunk stored raw arrives as one piece
          byte[] raw = new byte[16 + l[0].length];
          raw[0] = 2;
          raw[1] = 1;
          raw[2] = 0x12; // memcpyed, streams not split
          raw[3] = (byte) item;
          java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN)
              .putInt(4, l[0].length).putInt(8, Math.min(bs, l[0].length)).putInt(12, raw.length);
          System.arraycopy(l[0], 0, raw, 16, l[0].length);
          byte[] fromRaw = new byte[l[1].length];
          meta.view(BloscChunkData.of(raw, 0, raw.length), item).read(0, fromRaw, 0, fromRaw.length);
          assertArrayEquals(l[1], fromRaw, what + " stored raw");
        }
      }
    }
  }
}
