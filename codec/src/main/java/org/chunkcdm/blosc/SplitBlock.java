package org.chunkcdm.blosc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole block stored as one stream per item byte (c-blosc's "split" block) with a byte shuffle over those streams as
 * its only filter: what numcodecs, zarr-python and c-blosc write by default for typesize 2-16. Its streams are
 * independent, and the item at index {@code i} is byte {@code i} of every stream, which allows two reads that the
 * block-by-block path cannot make:
 * <ul>
 *   <li>{@link #decodeParallel}: a chunk of one large block (numcodecs' 1 MiB chunks are one block) with its streams
 *       and its unshuffle spread over the decode threads;
 *   <li>{@link #readRange}: a few items of a block (a point of a time series) from the first bytes of each stream only
 *       (LZ4 streams stop decoding there) and without unshuffling the rest of the block.
 * </ul>
 */
final class SplitBlock {
  /** Items per unshuffle task: a multiple of the vector kernels' 64-item rounds. */
  private static final int UNSHUFFLE_ITEMS = 16 << 10;

  private final BloscHeader h;
  private final byte[] src;
  private final int b;
  private final int ts;
  private final int items; // bytes per stream = items in the block
  private final int[] pos; // each stream's data in src
  private final int[] csize; // each stream's stored size (0: zeros, negative: a run of one byte)

  private SplitBlock(BloscHeader h, byte[] src, int off, int b) throws CodecException {
    this.h = h;
    this.src = src;
    this.b = b;
    ts = h.typesize();
    items = h.blocksize() / ts;
    pos = new int[ts];
    csize = new int[ts];
    int p = off + JavaBlosc.blockStart(h, src, off, b);
    final int end = off + h.cbytes();
    for (int s = 0; s < ts; s++) {
      p = JavaBlosc.streamStart(h, src, p, end, b, s);
      csize[s] = BloscHeader.le32(src, p - 4);
      pos[s] = p;
      p += JavaBlosc.storedLength(csize[s]);
    }
  }

  /**
   * Block {@code b} of the chunk as a split block, or null when it is not one: a short last block, a chunk that does
   * not split, or filters other than one byte shuffle of whole items.
   */
  static SplitBlock of(BloscHeader h, byte[] src, int off, int b) throws CodecException {
    int ts = h.typesize();
    int bs = h.blocksize();
    if (ts < 2 || h.nblocks() == 0 || bs <= 0 || bs % ts != 0 || (long) (b + 1) * bs > h.nbytes()
        || JavaBlosc.streams(h) != ts) {
      return null;
    }
    int f = BlockFilters.onlyStep(h, bs);
    int meta = f < 0 ? 0 : h.filtersMeta()[f];
    boolean shuffle = f >= 0 && h.filters()[f] == BloscHeader.SHUFFLE
        && (meta != 0 && h.version() >= 3 ? meta & 0xff : ts) == ts;
    return shuffle ? new SplitBlock(h, src, off, b) : null;
  }

  /**
   * The chunk as one split block worth spreading over {@code ex}'s threads ({@link #decodeParallel}): a chunk of
   * one block of at least {@link JavaBlosc#PARALLEL_BYTES}, with threads to spare; else null.
   */
  static SplitBlock wholeChunk(BloscHeader h, byte[] src, int off, BlockExecutor ex) throws CodecException {
    return h.nblocks() == 1 && h.nbytes() >= JavaBlosc.PARALLEL_BYTES && ex.threads() > 1 ? of(h, src, off, 0) : null;
  }

  /**
   * Decodes stream {@code s} into {@code out[op..op+items)}, at least its first {@code need} bytes, and points
   * {@code pa[s], po[s]} at it (at the stored bytes themselves for a stream stored raw).
   */
  private void stream(int s, byte[] out, int op, int need, ChunkDictionary dict, byte[][] pa, int[] po)
      throws CodecException {
    int c = csize[s];
    int n = Math.min(need, items);
    if (c == items) {
      pa[s] = src;
      po[s] = pos[s];
      return;
    }
    JavaBlosc.unpackStream(h, src, pos[s], c, out, op, items, n, b, s, dict);
    pa[s] = out;
    po[s] = op;
  }

  /**
   * The whole block with its streams decoded on {@code ex}'s threads, then unshuffled on them: into {@code td}'s
   * array from element {@code ti} when {@code td} is given and its item size has a typed kernel (returns true), else
   * as bytes into {@code dst[dp..]} (returns true; false, nothing written, when {@code dst} is null then).
   */
  boolean decodeParallel(ChunkDictionary dict, TypedDestination td, int ti, byte[] dst, int dp, BlockExecutor ex)
      throws IOException {
    boolean typed = TypedUnshuffle.serves(ts, td);
    if (!typed && dst == null) {
      return false;
    }
    byte[] buf = JavaBlosc.takePiece(items * ts);
    try {
      byte[][] pa = new byte[ts][];
      int[] po = new int[ts];
      List<BlockExecutor.Task> work = new ArrayList<>(ts);
      for (int s = 0; s < ts; s++) {
        final int k = s;
        work.add(() -> stream(k, buf, k * items, items, dict, pa, po));
      }
      ex.runAll(work);
      List<BlockExecutor.Task> unshuffle = new ArrayList<>();
      for (int lo = 0; lo < items; lo += UNSHUFFLE_ITEMS) {
        final int from = lo;
        final int n = Math.min(UNSHUFFLE_ITEMS, items - lo);
        unshuffle.add(() -> {
          int[] q = new int[ts];
          for (int s = 0; s < ts; s++) {
            q[s] = po[s] + from;
          }
          if (!typed || !TypedUnshuffle.planes(ts, pa, q, n, td, ti + from)) {
            Filters.unshufflePlanes(ts, pa, q, dst, dp + from * ts, n);
          }
        });
      }
      ex.runAll(unshuffle);
    } finally {
      JavaBlosc.givePiece(buf);
    }
    BloscStats.BLOCKS.increment();
    BloscStats.BYTES.add((long) items * ts);
    return true;
  }

  /**
   * Block bytes {@code [from, to)} into {@code dst[dp..]}: the items they cover from the first bytes of every
   * stream, unshuffled alone.
   */
  void readRange(int from, int to, byte[] dst, int dp, ChunkDictionary dict) throws IOException {
    int i0 = from / ts;
    int i1 = (to + ts - 1) / ts;
    byte[] buf = JavaBlosc.scratch(0, items * ts);
    byte[][] pa = new byte[ts][];
    int[] po = new int[ts];
    for (int s = 0; s < ts; s++) {
      stream(s, buf, s * items, i1, dict, pa, po);
      po[s] += i0;
    }
    byte[] out = (i1 - i0) * ts == to - from ? dst : new byte[(i1 - i0) * ts];
    Filters.unshufflePlanes(ts, pa, po, out, out == dst ? dp : 0, i1 - i0);
    if (out != dst) {
      System.arraycopy(out, from - i0 * ts, dst, dp, to - from);
    }
    BloscStats.BLOCKS.increment();
    BloscStats.BYTES.add((long) (i1 - i0) * ts);
  }
}
