package org.chunkcdm.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.blosc.BloscHeader;

/**
 * The codec streams inside a chunk-set file written by {@code bench/blosc2/b2bench.py write} (records of
 * [int32 LE length][Blosc chunk]), for the benches that time a codec alone on them: every compressed stream of
 * every block (streams stored raw, runs and chunks stored whole are left out).
 */
public final class ChunkStreams {
  /** The chunks, as read. */
  public final List<byte[]> chunks = new ArrayList<>();

  /** One entry per compressed stream: chunk index, position in the chunk, compressed size, decoded size. */
  public final List<int[]> streams = new ArrayList<>();

  /** Decoded bytes of all chunks, stored streams and chunks included. */
  public long total;

  /** Decoded bytes of the compressed streams only. */
  public long compressedTotal;

  private ChunkStreams() {}

  public static ChunkStreams load(Path file) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    ChunkStreams st = new ChunkStreams();
    while (b.hasRemaining()) {
      byte[] c = new byte[b.getInt()];
      b.get(c);
      st.chunks.add(c);
      BloscHeader h = BloscHeader.parse(c, 0, c.length);
      if (h.isMemcpyed()) {
        st.total += h.nbytes();
        continue;
      }
      ByteBuffer cb = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
      for (int blk = 0; blk < h.nblocks(); blk++) {
        int bsize = Math.min(h.blocksize(), h.nbytes() - blk * h.blocksize());
        int ns = !h.isDontSplit() && bsize == h.blocksize() ? h.typesize() : 1;
        int pos = cb.getInt(h.headerLength() + 4 * blk);
        for (int s = 0; s < ns; s++) {
          int csize = cb.getInt(pos);
          pos += 4;
          if (csize > 0 && csize != bsize / ns) {
            st.streams.add(new int[] {st.chunks.size() - 1, pos, csize, bsize / ns});
            st.compressedTotal += bsize / ns;
          }
          st.total += bsize / ns;
          pos += Math.max(csize, 0);
        }
      }
    }
    return st;
  }

  /** A copy of compressed stream {@code i}'s bytes. */
  public byte[] copy(int i) {
    int[] s = streams.get(i);
    return Arrays.copyOfRange(chunks.get(s[0]), s[1], s[1] + s[2]);
  }
}
