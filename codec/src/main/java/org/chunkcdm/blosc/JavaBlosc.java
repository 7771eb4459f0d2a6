package org.chunkcdm.blosc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.blosc.zstd.ZstdDictionary;

/** The pure-Java Blosc1/Blosc2 chunk decoder. Every offset is checked against the validated header. */
final class JavaBlosc {
  /** Per-thread scratch buffers for stream output and filter stages. */
  private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[3][]);

  /** Chunks of at least this many bytes decode their blocks in parallel. */
  static final int PARALLEL_BYTES = 256 << 10;

  private JavaBlosc() {}

  static byte[] scratch(int slot, int size) {
    byte[][] s = SCRATCH.get();
    if (s[slot] == null || s[slot].length < size) {
      s[slot] = new byte[Math.max(size, 1 << 16)];
    }
    return s[slot];
  }

  /** Decodes the whole chunk at {@code src[off..]} into {@code dst[dp..dp+nbytes)}. */
  static void decodeAll(BloscHeader h, byte[] src, int off, byte[] dst, int dp, BlockExecutor ex) throws IOException {
    int n = h.nbytes();
    checkDst(dst, dp, n);
    if (fillSpecialOrCopy(h, src, off, dst, dp, 0, n)) {
      BloscStats.CHUNKS.increment();
      BloscStats.BYTES.add(n);
      return;
    }
    ChunkDictionary dict = dictionary(h, src, off);
    int nb = h.nblocks();
    int first = 0;
    if (h.hasDelta() && nb > 1) { // every other block refers to the decoded block 0
      decodeBlock(h, src, off, 0, dst, dp, dst, dp, dict);
      first = 1;
    }
    SplitBlock one = SplitBlock.wholeChunk(h, src, off, ex);
    if (one != null) { // one large block: its streams decode in parallel
      one.decodeParallel(dict, null, 0, dst, dp, ex);
    } else if (nb - first >= 2 && n >= PARALLEL_BYTES && ex.threads() > 1) {
      // the blocks of a large chunk are independent: decode them on the decode threads
      int jobs = Math.min(nb - first, 4 * ex.threads());
      List<BlockExecutor.Task> work = new ArrayList<>(jobs);
      for (int j = 0; j < jobs; j++) {
        int lo = first + (int) ((long) (nb - first) * j / jobs);
        int hi = first + (int) ((long) (nb - first) * (j + 1) / jobs);
        work.add(() -> {
          for (int b = lo; b < hi; b++) {
            decodeBlock(h, src, off, b, dst, dp + b * h.blocksize(), dst, dp, dict);
          }
        });
      }
      ex.runAll(work);
    } else if (bitBatch(h) > 1) {
      decodeBitBlocks(h, src, off, first, nb, dst, dp, dict);
    } else {
      for (int b = first; b < nb; b++) {
        decodeBlock(h, src, off, b, dst, dp + b * h.blocksize(), dst, dp, dict);
      }
    }
    BloscStats.CHUNKS.increment(); // the blocks counted their bytes
  }

  /** Chunk offset of block {@code b}'s data, checked to lie inside the chunk's data area. */
  static int blockStart(BloscHeader h, byte[] src, int off, int b) throws CodecException {
    int bstart = BloscHeader.le32(src, off + h.headerLength() + 4 * b);
    int cbytes = h.cbytes();
    if (bstart < h.dataStart() || bstart > cbytes - 4) {
      throw new CodecException("Blosc chunk: block " + b + " offset " + bstart + " outside the chunk's data area ("
          + h.dataStart() + ".." + cbytes + ")");
    }
    return bstart;
  }

  /**
   * Checks the header of stream {@code s} of block {@code b} at {@code src[p]} (its 4-byte stored size, and what a
   * zero, negative or positive size needs) and returns where the stream's data starts.
   */
  static int streamStart(BloscHeader h, byte[] src, int p, int end, int b, int s) throws CodecException {
    if (p > end - 4) {
      throw new CodecException("Blosc chunk: block " + b + " stream " + s + " header lies past the end of the chunk");
    }
    int csize = BloscHeader.le32(src, p);
    p += 4;
    if (csize == 0) {
      if (h.version() < 3) { // a run of zeros is a Blosc2 (format version >= 3) stream; c-blosc 1.x refuses it
        throw new CodecException("Blosc chunk: block " + b + " stream " + s + " is empty (format version "
            + h.version() + ")");
      }
    } else if (csize < 0) {
      if (h.version() < 3 || p >= end) {
        throw new CodecException("Blosc chunk: block " + b + " stream " + s + " has a negative size " + csize);
      }
      int token = src[p];
      if ((token & 0x01) == 0) {
        throw new CodecException("Blosc chunk: block " + b + " stream " + s + " has an unknown run token " + token);
      }
    } else if (csize > end - p) {
      throw new CodecException("Blosc chunk: block " + b + " stream " + s + " of " + csize
          + " bytes passes the end of the chunk");
    }
    return p;
  }

  /** Bytes a stream of stored size {@code csize} takes after its size: a run of one byte takes its token byte. */
  static int storedLength(int csize) {
    return csize > 0 ? csize : csize < 0 ? 1 : 0;
  }

  /**
   * Stream {@code s} of block {@code b}, not stored raw, whose stored size {@code csize} {@link #streamStart} checked
   * and whose data starts at {@code src[pos]}, into {@code out[op..op+len)}: a run of zeros or of one byte (the
   * token's, csize negated) as at least its first {@code need} bytes, a compressed stream decoded (an LZ4 stream
   * may stop after its first {@code need} bytes, see {@link Codecs}).
   */
  static void unpackStream(BloscHeader h, byte[] src, int pos, int csize, byte[] out, int op, int len, int need, int b,
      int s, ChunkDictionary dict) throws CodecException {
    if (csize <= 0) {
      Arrays.fill(out, op, op + Math.min(need, len), csize == 0 ? 0 : (byte) -csize);
      return;
    }
    try {
      Codecs.decode(h.compressor(), src, pos, csize, out, op, len, need, dict);
    } catch (IOException e) {
      throw new CodecException("Blosc chunk: block " + b + " stream " + s + ": " + e.getMessage(), e);
    }
  }

  /** Streams a whole block is split into: its typesize when the chunk splits, else 1 (a short last block never splits). */
  static int streams(BloscHeader h) {
    int ts = h.typesize();
    int bs = h.blocksize();
    return !h.isDontSplit() && (h.version() >= 3 || (ts <= 16 && bs / ts >= 128)) ? ts : 1;
  }

  /** Bytes of small bit-shuffled blocks whose bit unshuffle runs in one pass ({@link #bitBatch}). */
  static final int BIT_BATCH_BYTES = 128 << 10;

  /**
   * How many blocks of this chunk {@link #decodeBitBlocks} bit-unshuffles in one pass: 0 unless the chunk's only
   * step on a whole block is a bit unshuffle of one stream (no DELTA, no byte shuffle, not split), on the word kernel
   * ({@link Filters#bitBlocks}), with blocks of at most half {@link #BIT_BATCH_BYTES}. Small blocks (lz4 at clevel 1
   * writes 16 KiB) leave that kernel's loops 32 lanes long, too short for C2's vector loops.
   */
  static int bitBatch(BloscHeader h) {
    int bs = h.blocksize();
    int ts = h.typesize();
    if (h.hasDelta() || bs > BIT_BATCH_BYTES / 2 || !Filters.bitBlocks(ts, bs)) {
      return 0;
    }
    if (streams(h) > 1) {
      return 0;
    }
    int f = BlockFilters.onlyStep(h, bs);
    return f >= 0 && h.filters()[f] == BloscHeader.BITSHUFFLE ? BIT_BATCH_BYTES / bs : 0;
  }

  /**
   * Decodes blocks {@code lo .. hi-1} of a chunk with {@link #bitBatch}{@code (h) > 1} into
   * {@code dst[dp + b * blocksize..]}: runs of whole blocks have their single streams decoded into the thread's
   * scratch one after another ({@link #decodeStream}) and are bit-unshuffled together; the short last block goes
   * through {@link #decodeBlock}.
   */
  static void decodeBitBlocks(BloscHeader h, byte[] src, int off, int lo, int hi, byte[] dst, int dp,
      ChunkDictionary dict) throws IOException {
    int bs = h.blocksize();
    int batch = bitBatch(h);
    int b = lo;
    int whole = Math.min(hi, h.nbytes() / bs); // blocks before a short last one
    while (whole - b >= 2) {
      int k = Math.min(batch, whole - b);
      byte[] buf = scratch(0, k * bs);
      for (int j = 0; j < k; j++) {
        decodeStream(h, src, off, b + j, buf, j * bs, dict);
      }
      Filters.bitunshuffleBlocks(h.typesize(), buf, 0, k, bs, dst, dp + b * bs);
      b += k;
    }
    for (; b < hi; b++) {
      decodeBlock(h, src, off, b, dst, dp + b * bs, dst, dp, dict);
    }
  }

  /**
   * The one stream of whole block {@code b} (not split) into {@code out[op..op+blocksize)}, checked as
   * {@link #decodeBlock} checks it; no filter is undone. Written apart from decodeBlock's stream loop on purpose: a
   * streams-only mode inside decodeBlock made other chunks 2-10% slower ({@code Blosc2CodecBench}).
   */
  private static void decodeStream(BloscHeader h, byte[] src, int off, int b, byte[] out, int op,
      ChunkDictionary dict) throws IOException {
    final int bs = h.blocksize();
    int pos = streamStart(h, src, off + blockStart(h, src, off, b), off + h.cbytes(), b, 0);
    int csize = BloscHeader.le32(src, pos - 4);
    if (csize == bs) {
      RawCopy.copy(src, pos, out, op, bs);
    } else {
      unpackStream(h, src, pos, csize, out, op, bs, bs, b, 0, dict);
    }
    BloscStats.BLOCKS.increment();
    BloscStats.BYTES.add(bs);
  }

  /** Decoded bytes per piece handed over by {@link #decodePieces} (several blocks when blocks are small). */
  static final int PIECE_BYTES = 256 << 10;

  /** Per-thread buffers for {@link #decodePieces}, taken out while in use (a nested decode gets its own). */
  private static final ThreadLocal<byte[][]> PIECE = ThreadLocal.withInitial(() -> new byte[1][]);

  static byte[] takePiece(int size) {
    byte[][] s = PIECE.get();
    byte[] b = s[0];
    if (b == null || b.length < size) {
      return new byte[Math.max(size, PIECE_BYTES)];
    }
    s[0] = null;
    return b;
  }

  static void givePiece(byte[] b) {
    byte[][] s = PIECE.get();
    if (b.length <= 4 * PIECE_BYTES && (s[0] == null || s[0].length < b.length)) {
      s[0] = b;
    }
  }

  /**
   * Hands the whole decoded chunk to {@code sink} in pieces, in the manner of {@link #decodeAll} but without a
   * chunk-sized destination: a chunk stored raw ("memcpyed") as its stored bytes, in place (no copy at all);
   * other chunks block by block (grouped up to {@link #PIECE_BYTES}), each decoded into a per-thread buffer that
   * stays in the CPU cache while the sink copies it. Blocks of large chunks decode in parallel as in
   * {@link #decodeAll} (the sink gets disjoint pieces from several threads then). Every piece starts at a
   * multiple of {@code unit}; false (nothing handed over) when the block size does not allow that.
   */
  static boolean decodePieces(BloscHeader h, byte[] src, int off, ChunkDictionary dict, int unit,
      PieceSink sink, BlockExecutor ex) throws IOException {
    final int n = h.nbytes();
    if (n == 0) {
      BloscStats.CHUNKS.increment();
      return true;
    }
    boolean raw = h.special() == BloscHeader.SPECIAL_NONE && h.isMemcpyed();
    if (!raw && (unit <= 0 || h.nblocks() > 0 && h.blocksize() % unit != 0)) {
      return false; // pieces of whole blocks would split units
    }
    if (raw) { // the parse checked cbytes = header + n
      sink.accept(src, off + h.headerLength(), 0, n);
      BloscStats.CHUNKS.increment();
      BloscStats.BYTES.add(n);
      return true;
    }
    if (h.special() != BloscHeader.SPECIAL_NONE || h.nblocks() == 0) {
      specialPieces(h, src, off, unit, sink);
      return true;
    }
    new BlockPieces(h, src, off, dict, sink).run(ex);
    BloscStats.CHUNKS.increment(); // the blocks counted their bytes
    return true;
  }

  /** A chunk of one repeated value (or stored without blocks), handed over in pieces of whole units. */
  private static void specialPieces(BloscHeader h, byte[] src, int off, int unit, PieceSink sink) throws IOException {
    int n = h.nbytes();
    int step = Math.max(unit, PIECE_BYTES / unit * unit);
    byte[] buf = takePiece(Math.min(n, step));
    try {
      for (int at = 0; at < n; at += step) {
        int len = Math.min(step, n - at);
        if (!fillSpecialOrCopy(h, src, off, buf, 0, at, len)) {
          throw new CodecException("Blosc chunk: " + n + " bytes but no blocks");
        }
        sink.accept(buf, 0, at, len);
      }
    } finally {
      givePiece(buf);
    }
    BloscStats.CHUNKS.increment();
    BloscStats.BYTES.add(n);
  }

  /**
   * The blocks of a chunk handed over as pieces of up to {@link #PIECE_BYTES}: each piece decoded into a per-thread
   * buffer; for a typed read, blocks whose last filter step can store into the destination array do so (no buffer, no
   * copy), the others (no filter, DELTA, an item size without a typed kernel) come as bytes.
   */
  private static final class BlockPieces {
    final BloscHeader h;
    final byte[] src;
    final int off;
    final ChunkDictionary dict;
    final PieceSink sink;
    final int n;
    final int bs;
    final int nb;
    final int per; // blocks per piece
    final int from; // first block handed over by pieces (block 0 first when DELTA needs it apart)
    final byte[] delta; // the decoded block 0 of a DELTA chunk, else null
    final TypedDestination td;

    BlockPieces(BloscHeader h, byte[] src, int off, ChunkDictionary dict, PieceSink sink) throws IOException {
      this.h = h;
      this.src = src;
      this.off = off;
      this.dict = dict;
      this.sink = sink;
      n = h.nbytes();
      bs = h.blocksize();
      nb = h.nblocks();
      per = Math.max(1, PIECE_BYTES / bs);
      MemoryLimit.check((long) Math.min(bs, n) * per, "Blosc chunk block"); // a header may claim 2 GiB
      byte[] ref = null;
      if (h.hasDelta() && nb > 1) { // every other block refers to the decoded block 0: kept apart while they decode
        ref = new byte[Math.min(bs, n)];
        decodeBlock(h, src, off, 0, ref, 0, ref, 0, dict);
        sink.accept(ref, 0, 0, ref.length);
      }
      delta = ref;
      from = ref != null ? 1 : 0;
      TypedDestination t = sink.typed();
      td = t != null && !h.hasDelta() && bs % h.typesize() == 0 && TypedUnshuffle.serves(h.typesize(), t) ? t : null;
    }

    void run(BlockExecutor ex) throws IOException {
      final int pieces = (nb - from + per - 1) / per;
      SplitBlock one = td != null ? SplitBlock.wholeChunk(h, src, off, ex) : null;
      if (one != null) { // one large block: its streams decode in parallel
        if (one.decodeParallel(dict, td, td.index(0), null, 0, ex)) {
          return;
        }
      }
      if (pieces >= 2 && n >= PARALLEL_BYTES && ex.threads() > 1) {
        int jobs = Math.min(pieces, 4 * ex.threads());
        List<BlockExecutor.Task> work = new ArrayList<>(jobs);
        for (int j = 0; j < jobs; j++) {
          int lo = (int) ((long) pieces * j / jobs);
          int hi = (int) ((long) pieces * (j + 1) / jobs);
          work.add(() -> pieces(lo, hi));
        }
        ex.runAll(work);
      } else {
        pieces(0, pieces);
      }
    }

    void pieces(int lo, int hi) throws IOException {
      for (int q = lo; q < hi; q++) {
        int b0 = from + q * per;
        int b1 = Math.min(nb, b0 + per);
        int start = b0 * bs;
        byte[] buf = takePiece((int) Math.min((long) n, (long) b1 * bs) - start);
        try {
          int pending = -1; // first block of a run decoded into buf and not handed over yet
          for (int b = b0; b < b1; b++) {
            if (td != null && decodeBlock(h, src, off, b, buf, (b - b0) * bs, delta, 0, dict, td, td.index((long) b * bs))) {
              if (pending >= 0) {
                hand(buf, b0, pending, b);
                pending = -1;
              }
            } else if (td == null) {
              decodeBlock(h, src, off, b, buf, (b - b0) * bs, delta, 0, dict);
              pending = pending < 0 ? b : pending;
            } else {
              pending = pending < 0 ? b : pending; // decodeBlock wrote the bytes
            }
          }
          if (pending >= 0) {
            hand(buf, b0, pending, b1);
          }
        } finally {
          givePiece(buf);
        }
      }
    }

    /** Hands blocks {@code [b, e)} of the piece starting at block {@code b0} over as bytes. */
    private void hand(byte[] buf, int b0, int b, int e) throws IOException {
      int at = b * bs;
      int len = (int) Math.min((long) n, (long) e * bs) - at;
      sink.accept(buf, (b - b0) * bs, at, len);
    }
  }

  /**
   * Decodes bytes {@code [start, start+count)} of the chunk into {@code dst[dp..]}, decoding only the
   * blocks covering them (plus block 0 when DELTA needs it).
   */
  static void decodeRange(BloscHeader h, byte[] src, int off, int start, int count, byte[] dst, int dp,
      ChunkDictionary dict)
      throws IOException {
    int n = h.nbytes();
    if (start < 0 || count < 0 || start > n - count) {
      throw new CodecException("Blosc chunk: range of " + count + " bytes at " + start + " outside its " + n + " bytes");
    }
    checkDst(dst, dp, count);
    if (count == 0 || fillSpecialOrCopy(h, src, off, dst, dp, start, count)) {
      return;
    }
    int bs = h.blocksize();
    MemoryLimit.check(Math.min(bs, n), "Blosc chunk block"); // ref/tmp below; a header may claim 2 GiB
    int bLo = start / bs;
    int bHi = (start + count - 1) / bs;
    byte[] ref = null;
    if (h.hasDelta() && (bLo > 0 || bHi > 0)) {
      ref = new byte[Math.min(bs, n)];
      decodeBlock(h, src, off, 0, ref, 0, ref, 0, dict);
    }
    for (int b = bLo; b <= bHi; b++) {
      int bStart = b * bs;
      int bLen = Math.min(bs, n - bStart);
      int from = Math.max(start, bStart);
      int to = Math.min(start + count, bStart + bLen);
      if (b == 0 && ref != null) {
        System.arraycopy(ref, from - bStart, dst, dp + from - start, to - from);
        continue;
      }
      if (from == bStart && to == bStart + bLen) {
        decodeBlock(h, src, off, b, dst, dp + from - start, ref, 0, dict);
      } else {
        SplitBlock split = ref == null ? SplitBlock.of(h, src, off, b) : null;
        if (split != null) { // a few items: the first bytes of each stream, those items unshuffled
          split.readRange(from - bStart, to - bStart, dst, dp + from - start, dict);
          continue;
        }
        byte[] tmp = new byte[bLen];
        decodeBlock(h, src, off, b, tmp, 0, ref, 0, dict);
        System.arraycopy(tmp, from - bStart, dst, dp + from - start, to - from);
      }
    }
  }

  private static void checkDst(byte[] dst, int dp, int n) throws IOException {
    if (dst == null || dp < 0 || n < 0 || dp > dst.length - n) {
      throw new IOException("Blosc: destination too small for " + n + " bytes");
    }
  }

  /** Special, memcpyed and empty chunks: writes bytes [start, start+count) and returns true. */
  private static boolean fillSpecialOrCopy(BloscHeader h, byte[] src, int off, byte[] dst, int dp, int start, int count) {
    switch (h.special()) {
      case BloscHeader.SPECIAL_ZEROS:
      case BloscHeader.SPECIAL_UNINIT:
        Arrays.fill(dst, dp, dp + count, (byte) 0);
        return true;
      case BloscHeader.SPECIAL_NAN: {
        byte[] nan = h.typesize() == 4 ? new byte[] {0, 0, (byte) 0xc0, 0x7f}
            : new byte[] {0, 0, 0, 0, 0, 0, (byte) 0xf8, 0x7f};
        repeat(nan, 0, nan.length, dst, dp, start, count);
        return true;
      }
      case BloscHeader.SPECIAL_VALUE:
        repeat(src, off + h.headerLength(), h.cbytes() - h.headerLength(), dst, dp, start, count);
        return true;
      default:
        break;
    }
    if (h.nbytes() == 0) {
      return true;
    }
    if (h.isMemcpyed()) {
      RawCopy.copy(src, off + h.headerLength() + start, dst, dp, count);
      return true;
    }
    return false;
  }

  private static void repeat(byte[] v, int vp, int vlen, byte[] dst, int dp, int start, int count) {
    int n = vlen <= 0 ? count : Math.min(count, vlen);
    for (int i = 0; i < n; i++) {
      dst[dp + i] = v[vp + (start + i) % vlen];
    }
    // one period written (in phase with start): copy it forward, doubling (a byte loop over MiBs was a fuzz timeout)
    for (int filled = n; filled < count; ) {
      int c = Math.min(filled, count - filled);
      System.arraycopy(dst, dp, dst, dp + filled, c);
      filled += c;
    }
  }

  /**
   * The chunk's dictionary, made ready once per chunk (the blocks share it), or null when the chunk has none or
   * its codec uses none (c-blosc2 uses dictionaries with LZ4/LZ4HC and Zstd only).
   */
  static ChunkDictionary dictionary(BloscHeader h, byte[] src, int off) throws IOException {
    if (!h.hasDictionary()) {
      return null;
    }
    int p = off + h.headerLength() + 4 * h.nblocks() + 4;
    switch (h.compressor()) {
      case LZ4:
        return new ChunkDictionary(Arrays.copyOfRange(src, p, p + h.dictSize()), null);
      case ZSTD:
        try {
          return new ChunkDictionary(null, new ZstdDictionary(src, p, h.dictSize()));
        } catch (IOException e) {
          throw new CodecException("Blosc chunk: " + e.getMessage(), e);
        }
      default:
        return null;
    }
  }

  /**
   * Decodes block {@code b} into {@code dst[dp..]}. With DELTA, {@code ref[rp..]} holds the decoded block 0
   * (for block 0 itself it may be the destination; it is not read then).
   */
  static void decodeBlock(BloscHeader h, byte[] src, int off, int b, byte[] dst, int dp, byte[] ref, int rp,
      ChunkDictionary dict)
      throws IOException {
    decodeBlock(h, src, off, b, dst, dp, ref, rp, dict, null, 0);
  }

  /**
   * As {@link #decodeBlock(BloscHeader, byte[], int, int, byte[], int, byte[], int, ChunkDictionary)}; with
   * {@code td} (no DELTA, item size {@code td.itemSize} = typesize) the block's last filter step, when it is a byte
   * or bit unshuffle of whole items with a typed kernel ({@link TypedUnshuffle}), stores the items into
   * {@code td}'s array from element {@code ti} instead of into {@code dst}: returns true then, false when the
   * block was decoded into {@code dst} as bytes.
   */
  static boolean decodeBlock(BloscHeader h, byte[] src, int off, int b, byte[] dst, int dp, byte[] ref, int rp,
      ChunkDictionary dict, TypedDestination td, int ti)
      throws IOException {
    final int bs = h.blocksize();
    final int bsize = Math.min(bs, h.nbytes() - b * bs);
    final int ts = h.typesize();
    final int version = h.version();
    int bstart = blockStart(h, src, off, b);
    int nstreams = bsize < bs ? 1 : streams(h);
    if (bsize % nstreams != 0) {
      throw new CodecException("Blosc chunk: block " + b + " of " + bsize + " bytes cannot be split into " + nstreams + " streams");
    }
    // the transforming filters, in the order they are undone (slot 5 down to 0), and the first of them
    int[] filters = h.filters();
    int[] meta = h.filtersMeta();
    int ops = 0;
    int first = -1;
    int firstMeta = 0;
    for (int i = 5; i >= 0; i--) {
      if (BlockFilters.transforms(filters[i], meta[i], ts, bsize, version) && ops++ == 0) {
        first = filters[i];
        firstMeta = meta[i];
      }
    }
    // when the first filter undone is a byte shuffle over the split streams, streams stored raw are read
    // straight from the chunk as its planes, and a single raw stream is read in place by the first filter
    final boolean planes = nstreams > 1 && first == BloscHeader.SHUFFLE
        && (firstMeta != 0 && version >= 3 ? firstMeta & 0xff : ts) == nstreams;
    final boolean inPlaceRaw = nstreams == 1 && ops > 0 && first != BloscHeader.DELTA;
    byte[][] pa = planes ? new byte[nstreams][] : null;
    int[] po = planes ? new int[nstreams] : null;
    byte[] target = ops == 0 ? dst : scratch(0, bsize);
    int tp = ops == 0 ? dp : 0;
    int raw = readStreams(h, src, off, off + bstart, b, nstreams, bsize / nstreams, target, tp, pa, po, inPlaceRaw, dict);
    BloscStats.BLOCKS.increment();
    BloscStats.BYTES.add(bsize);
    if (ops == 0) {
      return false;
    }
    // the single stream read in place, or the decoded streams in target (from 0: ops > 0)
    byte[] cur = raw >= 0 ? src : target;
    int cp = raw >= 0 ? raw : 0;
    return BlockFilters.undo(h, b, bsize, cur, cp, pa, po, bsize / nstreams, dst, dp, ref, rp, td, ti);
  }

  /**
   * Decodes the {@code nstreams} streams of block {@code b}, from {@code src[pos..]} on, into {@code target[tp..]}, {@code neblock} bytes each.
   * With {@code pa}, stream s's bytes are at {@code pa[s][po[s]..]} afterwards (in the chunk itself when stored
   * raw); with {@code inPlaceRaw}, a single stream stored raw is left in the chunk: returns its position in
   * {@code src} then, -1 otherwise.
   */
  private static int readStreams(BloscHeader h, byte[] src, int off, int pos, int b, int nstreams, int neblock, byte[] target,
      int tp, byte[][] pa, int[] po, boolean inPlaceRaw, ChunkDictionary dict) throws IOException {
    final int end = off + h.cbytes();
    int raw = -1;
    for (int s = 0; s < nstreams; s++) {
      pos = streamStart(h, src, pos, end, b, s);
      int csize = BloscHeader.le32(src, pos - 4);
      int out = tp + s * neblock;
      if (pa != null) {
        pa[s] = target;
        po[s] = out;
      }
      if (csize == neblock) {
        if (pa != null) {
          pa[s] = src;
          po[s] = pos;
        } else if (inPlaceRaw) {
          raw = pos;
        } else {
          RawCopy.copy(src, pos, target, out, neblock);
        }
      } else {
        unpackStream(h, src, pos, csize, target, out, neblock, neblock, b, s, dict);
      }
      pos += storedLength(csize);
    }
    return raw;
  }
}
