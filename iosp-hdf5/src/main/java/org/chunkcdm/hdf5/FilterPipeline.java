package org.chunkcdm.hdf5;

import java.io.IOException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.chunkcdm.blosc.BloscCompressor;
import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.blosc.PieceSink;
import org.chunkcdm.blosc.Streams;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.Bounds;

/**
 * A dataset's HDF5 filter pipeline, undone chunk by chunk: filters are applied in pipeline order when writing, so
 * they are undone from the last to the first, skipping those the chunk's filter mask marks as not applied (bit i
 * set = filter i skipped, as HDF5 records for an optional filter that could not shrink the chunk). Every filter's
 * output size is checked: the last one to undo must give exactly the chunk's size, the others their own declared
 * sizes, and nothing may decode to more than the chunk could need.
 *
 * <p>Filters: deflate (1), shuffle (2), Fletcher32 (3), N-bit (5), scale-offset (6), BZip2 (307), LZF (32000),
 * Blosc (32001), LZ4 (32004), Bitshuffle (32008), Zstandard (32015), Blosc2 (32026). Any other filter (SZIP, ZFP,
 * SZ, ...) makes the chunks that need it fail with a message naming the filter; chunks whose mask skips it read.
 */
final class FilterPipeline {
  static final int DEFLATE = 1;
  static final int SHUFFLE = 2;
  static final int FLETCHER32 = 3;
  static final int SZIP = 4;
  static final int NBIT = 5;
  static final int SCALEOFFSET = 6;
  static final int BZIP2 = 307;
  static final int LZF = 32000;
  static final int BLOSC = 32001;
  static final int LZ4 = 32004;
  static final int BITSHUFFLE = 32008;
  static final int ZSTD = 32015;
  static final int BLOSC2 = 32026;

  /** Whether chunkcdm decodes filter {@code id}. */
  static boolean known(int id) {
    switch (id) {
      case DEFLATE:
      case SHUFFLE:
      case FLETCHER32:
      case NBIT:
      case SCALEOFFSET:
      case BZIP2:
      case LZF:
      case BLOSC:
      case LZ4:
      case BITSHUFFLE:
      case ZSTD:
      case BLOSC2:
        return true;
      default:
        return false;
    }
  }

  /** The registered name of a filter id (HDF Group's filter registry), or null when this reader does not know it. */
  static String registeredName(int id) {
    switch (id) {
      case DEFLATE:
        return "deflate";
      case SHUFFLE:
        return "shuffle";
      case FLETCHER32:
        return "fletcher32";
      case SZIP:
        return "szip";
      case NBIT:
        return "nbit";
      case SCALEOFFSET:
        return "scaleoffset";
      case BZIP2:
        return "bzip2";
      case LZF:
        return "lzf";
      case BLOSC:
        return "blosc";
      case 32002:
        return "MAFISC";
      case 32003:
        return "Snappy";
      case LZ4:
        return "lz4";
      case 32005:
        return "APAX";
      case 32006:
        return "CBF";
      case 32007:
        return "JPEG-XR";
      case BITSHUFFLE:
        return "bitshuffle";
      case 32009:
        return "SPDP";
      case 32010:
        return "LPC-Rice";
      case 32011:
        return "CCSDS-123";
      case 32012:
        return "JPEG-LS";
      case 32013:
        return "zfp";
      case 32014:
        return "fpzip";
      case ZSTD:
        return "zstd";
      case 32016:
        return "B3D";
      case 32017:
        return "SZ";
      case 32018:
        return "FCIDECOMP";
      case 32019:
        return "JPEG";
      case 32020:
        return "VBZ";
      case 32021:
        return "FAPEC";
      case 32022:
        return "BitGroom";
      case 32023:
        return "Granular BitRound";
      case 32024:
        return "SZ3";
      case 32025:
        return "Delta-Rice";
      case BLOSC2:
        return "blosc2";
      default:
        return null;
    }
  }

  /** "32013 (zfp, stored as 'H5Z-ZFP-1.0.1')": the id, its registered name and the name the file stores. */
  static String describe(H5Internals.Filter f) {
    String reg = registeredName(f.id());
    String stored = f.name() == null || f.name().isEmpty() ? null : f.name();
    StringBuilder s = new StringBuilder().append(f.id());
    if (reg != null && stored != null && !stored.equalsIgnoreCase(reg)) {
      s.append(" (").append(reg).append(", stored as '").append(stored).append("')");
    } else if (reg != null || stored != null) {
      s.append(" (").append(reg != null ? reg : "'" + stored + "'").append(")");
    }
    return s.toString();
  }

  /** A slice of a byte array. */
  record Buf(byte[] a, int off, int len) {
    static Buf of(byte[] a) {
      return new Buf(a, 0, a.length);
    }
  }

  /** One filter, ready to undo. */
  private abstract static class Stage {
    /**
     * Undoes the filter on {@code in}: into exactly {@code expect} bytes when {@code expect >= 0}, else into the size
     * the data declare (at most {@code max}). The result may share {@code in}'s array.
     */
    abstract Buf undo(Buf in, long expect, long max) throws IOException;

    /** Undoes the filter into exactly {@code dst[off..off+n)}. */
    void undoInto(Buf in, byte[] dst, int off, int n) throws IOException {
      Buf b = undo(in, n, n);
      if (b.len() != n) {
        throw new CodecException("decodes to " + b.len() + " bytes, expected " + n);
      }
      System.arraycopy(b.a(), b.off(), dst, off, n);
    }
  }

  /** The decoded size a filter's parameters or its data's header declare. */
  private interface SizeOf {
    long size(Buf in) throws IOException;
  }

  /** Decodes into exactly {@code dst[off..off+n)}. */
  private interface DecodeInto {
    void decode(Buf in, byte[] dst, int off, int n) throws IOException;
  }

  /** A filter whose output size is known from its parameters or the data's header before decoding. */
  private static final class Sized extends Stage {
    private final SizeOf sizeOf;
    private final DecodeInto decoder;

    Sized(SizeOf sizeOf, DecodeInto decoder) {
      this.sizeOf = sizeOf;
      this.decoder = decoder;
    }

    @Override
    Buf undo(Buf in, long expect, long max) throws IOException {
      long n = sizeOf.size(in);
      check(n, expect, max);
      byte[] out = new byte[(int) n];
      decoder.decode(in, out, 0, out.length);
      return Buf.of(out);
    }

    @Override
    void undoInto(Buf in, byte[] dst, int off, int n) throws IOException {
      check(sizeOf.size(in), n, n);
      decoder.decode(in, dst, off, n);
    }
  }

  static void check(long n, long expect, long max) throws IOException {
    if (expect >= 0 && n != expect) {
      throw new CodecException("decodes to " + n + " bytes, expected " + expect);
    }
    if (n < 0 || n > max) {
      throw new CodecException("declares " + n + " decoded bytes, more than the " + max + " this chunk could need");
    }
    Bounds.checkAllocation(n, "decoded chunk");
  }

  private final H5Internals.Filter[] filters;
  private final Stage[] stages;
  private final IOException[] problems;
  private final long chunkBytes;
  private final int[] chunkShape;
  /** The most any filter may decode to: twice the chunk plus 1 MiB covers every filter's worst-case expansion. */
  private final long maxBytes;

  FilterPipeline(H5Internals.Filter[] filters, int elemSize, int[] chunkShape, long chunkBytes) {
    this.filters = filters.clone();
    this.chunkShape = chunkShape.clone();
    this.chunkBytes = chunkBytes;
    this.maxBytes = Math.min(Integer.MAX_VALUE - 16L, 2 * chunkBytes + (1 << 20));
    stages = new Stage[filters.length];
    problems = new IOException[filters.length];
    for (int i = 0; i < filters.length; i++) {
      try {
        stages[i] = stage(filters[i], elemSize);
        if (stages[i] == null) {
          problems[i] = new IOException("filter " + describe(filters[i]) + " at pipeline position " + i
              + " is not supported by chunkcdm's HDF5 reader");
        }
      } catch (IOException e) {
        problems[i] = new IOException("filter " + describe(filters[i]) + " at pipeline position " + i + ": "
            + e.getMessage(), e);
      }
    }
  }

  int size() {
    return filters.length;
  }

  H5Internals.Filter filter(int i) {
    return filters[i];
  }

  private static boolean applied(int mask, int i) {
    return i >= 32 || (mask & (1 << i)) == 0;
  }

  /** Why a chunk with this filter mask cannot be decoded (a filter it applies that this reader lacks), or null. */
  IOException problem(int mask) {
    for (int i = filters.length - 1; i >= 0; i--) {
      if (applied(mask, i) && problems[i] != null) {
        return problems[i];
      }
    }
    return null;
  }

  /** The pipeline position of the last filter to undo for this mask (the first applied), or -1 when none is. */
  int lastToUndo(int mask) {
    for (int i = 0; i < filters.length; i++) {
      if (applied(mask, i)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the last filter to undo for this mask is Blosc or Blosc2 (whose chunks decode block by block). */
  boolean bloscLast(int mask) {
    int i = lastToUndo(mask);
    return i >= 0 && (filters[i].id() == BLOSC || filters[i].id() == BLOSC2);
  }

  private IOException named(int i, IOException e) {
    String prefix = "filter " + describe(filters[i]) + ": ";
    String m = String.valueOf(e.getMessage());
    return m.startsWith(prefix) ? e : new CodecException(prefix + m, e);
  }

  /** Undoes every applied filter after the last one to undo; returns that filter's input. */
  private Buf undoAllBut(Buf in, int mask, int last) throws IOException {
    Buf b = in;
    for (int i = filters.length - 1; i > last; i--) {
      if (applied(mask, i)) {
        try {
          b = stages[i].undo(b, -1, maxBytes);
        } catch (IOException | RuntimeException e) {
          throw named(i, e instanceof IOException ? (IOException) e : new CodecException(String.valueOf(e), e));
        }
      }
    }
    return b;
  }

  /** Undoes the whole pipeline for this mask into exactly {@code dst[off..off + chunkBytes)}. */
  void decodeInto(byte[] stored, int len, int mask, byte[] dst, int off) throws IOException {
    IOException p = problem(mask);
    if (p != null) {
      throw p;
    }
    int last = lastToUndo(mask);
    if (last < 0) {
      if (len != chunkBytes) {
        throw new CodecException("unfiltered chunk holds " + len + " bytes, the chunk shape "
            + Arrays.toString(chunkShape) + " needs " + chunkBytes);
      }
      System.arraycopy(stored, 0, dst, off, len);
      return;
    }
    Buf b = undoAllBut(new Buf(stored, 0, len), mask, last);
    try {
      stages[last].undoInto(b, dst, off, (int) chunkBytes);
    } catch (IOException | RuntimeException e) {
      throw inChunk(last, e instanceof IOException ? (IOException) e : new CodecException(String.valueOf(e), e));
    }
  }

  /** A failure of filter {@code i} while undoing it into the chunk: named, with the size the chunk shape needs. */
  private CodecException inChunk(int i, IOException e) {
    return new CodecException(named(i, e).getMessage() + " (the chunk shape " + Arrays.toString(chunkShape)
        + " needs " + chunkBytes + " bytes)", e);
  }

  /** Whether the last filter to undo for this mask is the LZ4 filter (whose output can be handed on in pieces). */
  boolean lz4Last(int mask) {
    int i = lastToUndo(mask);
    return i >= 0 && filters[i].id() == LZ4 && problem(mask) == null;
  }

  /** Output handed on by {@link #decodeInPieces} at a time: small enough to be copied on from the CPU cache. */
  static final int PIECE_BYTES = 256 << 10;

  /**
   * For a mask whose last filter to undo is the LZ4 filter ({@link #lz4Last}): undoes the pipeline into {@code
   * scratch} (at least the chunk's size) and hands the chunk on to {@code sink} in pieces of about {@link
   * #PIECE_BYTES} as they are decoded, each starting at a multiple of {@code unit} bytes, every byte once.
   */
  void decodeInPieces(byte[] stored, int len, int mask, byte[] scratch, int unit, PieceSink sink) throws IOException {
    IOException p = problem(mask);
    if (p != null) {
      throw p;
    }
    int last = lastToUndo(mask);
    Buf b = undoAllBut(new Buf(stored, 0, len), mask, last);
    int n = (int) chunkBytes;
    int[] given = {0};
    try {
      check(Lz4Filter.decodedSize(b.a(), b.off(), b.len()), n, n);
      Lz4Filter.decode(b.a(), b.off(), b.len(), scratch, 0, n, PIECE_BYTES, (from, to) -> {
        int end = to == n ? n : to - to % unit;
        if (end > given[0]) {
          sink.accept(scratch, given[0], given[0], end - given[0]);
          given[0] = end;
        }
      });
    } catch (CodecException e) {
      throw inChunk(last, e);
    }
  }

  /**
   * For a mask whose last filter to undo is Blosc or Blosc2 ({@link #bloscLast}): undoes the filters after it and
   * returns its chunk undecoded, so that small reads decode only the blocks they need.
   */
  ChunkData bloscChunk(byte[] stored, int len, int mask) throws IOException {
    IOException p = problem(mask);
    if (p != null) {
      throw p;
    }
    int last = lastToUndo(mask);
    Buf b = undoAllBut(new Buf(stored, 0, len), mask, last);
    try {
      ChunkData d = ((BloscStage) stages[last]).chunk(b);
      if (d.size() != chunkBytes) {
        throw new CodecException("holds " + d.size() + " bytes, the chunk shape " + Arrays.toString(chunkShape)
            + " needs " + chunkBytes);
      }
      return d;
    } catch (IOException | RuntimeException e) {
      throw named(last, e instanceof IOException ? (IOException) e : new CodecException(String.valueOf(e), e));
    }
  }

  // ------------------------------------------------------------------ the filters

  private Stage stage(H5Internals.Filter f, int elemSize) throws IOException {
    int[] cd = f.cdValues();
    switch (f.id()) {
      case DEFLATE:
        return new Deflate();
      case SHUFFLE:
        return new Shuffle(cd.length > 0 ? cd[0] : elemSize);
      case FLETCHER32:
        return new Stage() {
          @Override
          Buf undo(Buf in, long expect, long max) throws IOException {
            Fletcher32.check(in.a(), in.off(), in.len());
            if (expect >= 0 && in.len() - 4 != expect) {
              throw new CodecException("leaves " + (in.len() - 4) + " bytes, expected " + expect);
            }
            return new Buf(in.a(), in.off(), in.len() - 4);
          }
        };
      case NBIT:
        Nbit.check(cd);
        return new Sized(in -> Nbit.decodedSize(cd), (in, dst, off, n) -> Nbit.decode(cd, in.a(), in.off(), in.len(), dst, off));
      case SCALEOFFSET:
        ScaleOffset.check(cd);
        return new Sized(in -> ScaleOffset.decodedSize(cd),
            (in, dst, off, n) -> ScaleOffset.decode(cd, in.a(), in.off(), in.len(), dst, off));
      case BZIP2:
        return new Stage() {
          @Override
          Buf undo(Buf in, long expect, long max) throws IOException {
            return Buf.of(Bzip2.decode(in.a(), in.off(), in.len(), expect, max));
          }
        };
      case LZF:
        return new Lzf32000(cd.length > 2 ? cd[2] & 0xffffffffL : chunkBytes);
      case LZ4:
        return new Sized(in -> Lz4Filter.decodedSize(in.a(), in.off(), in.len()),
            (in, dst, off, n) -> Lz4Filter.decode(in.a(), in.off(), in.len(), dst, off, n));
      case BITSHUFFLE:
        return bitshuffle(cd);
      case ZSTD:
        return new Sized(FilterPipeline::zstdSize,
            (in, dst, off, n) -> Streams.decode(BloscCompressor.ZSTD, in.a(), in.off(), in.len(), dst, off, n));
      case BLOSC:
      case BLOSC2:
        return new BloscStage(f.id() == BLOSC2);
      default:
        return null;
    }
  }

  private static Stage bitshuffle(int[] cd) throws IOException {
    if (cd.length < 3) {
      throw new CodecException("bitshuffle: " + cd.length + " parameters, the element size (3rd) is missing");
    }
    int elem = cd[2];
    int block = cd.length > 3 ? cd[3] : 0;
    int comp = cd.length > 4 ? cd[4] : Bitshuffle.NONE;
    if (elem <= 0 || block < 0 || block % 8 != 0) {
      throw new CodecException("bitshuffle: element size " + elem + ", block " + block);
    }
    if (comp != Bitshuffle.NONE && comp != Bitshuffle.LZ4 && comp != Bitshuffle.ZSTD) {
      throw new CodecException("bitshuffle: compression " + comp + " (0 none, 2 LZ4, 3 zstd)");
    }
    return new Sized(in -> comp == Bitshuffle.NONE ? in.len() : Bitshuffle.decodedSize(in.a(), in.off(), in.len()),
        (in, dst, off, n) -> Bitshuffle.decode(in.a(), in.off(), in.len(), dst, off, n, elem, block, comp));
  }

  private static long zstdSize(Buf in) throws IOException {
    long n = Streams.zstdContentSize(in.a(), in.off(), in.len());
    if (n < 0) {
      throw new CodecException("the zstd frame does not declare its decoded size");
    }
    return n;
  }

  private static final class Shuffle extends Stage {
    private final int elem;

    Shuffle(int elem) throws IOException {
      if (elem < 1) {
        throw new CodecException("shuffle: element size " + elem);
      }
      this.elem = elem;
    }

    @Override
    Buf undo(Buf in, long expect, long max) throws IOException {
      check(in.len(), expect, Math.max(max, in.len()));
      if (elem == 1 || in.len() < 2L * elem) {
        return in;
      }
      byte[] out = new byte[in.len()];
      Streams.unshuffle(elem, in.a(), in.off(), out, 0, in.len());
      return Buf.of(out);
    }

    @Override
    void undoInto(Buf in, byte[] dst, int off, int n) throws IOException {
      check(in.len(), n, n);
      if (elem == 1 || in.len() < 2L * elem) {
        System.arraycopy(in.a(), in.off(), dst, off, n);
      } else {
        Streams.unshuffle(elem, in.a(), in.off(), dst, off, n);
      }
    }
  }

  private static final class Deflate extends Stage {
    @Override
    Buf undo(Buf in, long expect, long max) throws IOException {
      Inflater inf = new Inflater();
      try {
        inf.setInput(in.a(), in.off(), in.len());
        long limit = expect >= 0 ? expect : max;
        byte[] out = new byte[(int) Math.min(limit, expect >= 0 ? expect : Math.max(64L, in.len() * 4L))];
        int n = 0;
        while (!inf.finished()) {
          if (n == out.length) {
            if (n >= limit) {
              throw new CodecException("deflate: the stream decodes to more than " + limit + " bytes");
            }
            out = Arrays.copyOf(out, (int) Math.min(limit, Math.max(64L, 2L * out.length)));
          }
          int r = inf.inflate(out, n, out.length - n);
          if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
            throw new CodecException("deflate: the stream ends early after " + n + " bytes");
          }
          n += r;
        }
        if (expect >= 0 && n != expect) {
          throw new CodecException("deflate: the stream decodes to " + n + " bytes, expected " + expect);
        }
        return new Buf(out, 0, n);
      } catch (DataFormatException e) {
        throw new CodecException("deflate: " + e.getMessage(), e);
      } finally {
        inf.end();
      }
    }
  }

  private static final class Lzf32000 extends Stage {
    private final long guess;

    Lzf32000(long guess) {
      this.guess = guess;
    }

    @Override
    Buf undo(Buf in, long expect, long max) throws IOException {
      if (expect >= 0) {
        check(expect, expect, max);
        byte[] out = new byte[(int) expect];
        undoInto(in, out, 0, out.length);
        return Buf.of(out);
      }
      return Buf.of(Lzf.decode(in.a(), in.off(), in.len(), guess > 0 ? guess : in.len() * 2L, max));
    }

    @Override
    void undoInto(Buf in, byte[] dst, int off, int n) throws IOException {
      int got = Lzf.decode(in.a(), in.off(), in.len(), dst, off, n);
      if (got != n) {
        throw new CodecException("LZF: the stream decodes to " + got + " bytes, expected " + n);
      }
    }
  }

  /** Blosc (32001): one Blosc1 frame; Blosc2 (32026): one Blosc2 contiguous frame holding one chunk. */
  private final class BloscStage extends Stage {
    private final boolean v2;

    BloscStage(boolean v2) {
      this.v2 = v2;
    }

    ChunkData chunk(Buf in) throws IOException {
      // the Blosc chunk keeps reading from this array: the whole input array (the caller's own), else a copy
      byte[] a = in.off() == 0 && in.len() == in.a().length ? in.a() : Arrays.copyOfRange(in.a(), in.off(), in.off() + in.len());
      if (v2) {
        return Blosc2Cframe.chunk(a, chunkShape, chunkBytes);
      }
      BloscChunkData d = BloscChunkData.of(a, 0, a.length);
      if (d.header().cbytes() > a.length) {
        throw new CodecException("Blosc frame says " + d.header().cbytes() + " compressed bytes, the chunk has " + a.length);
      }
      return d;
    }

    @Override
    Buf undo(Buf in, long expect, long max) throws IOException {
      ChunkData d = chunk(in);
      check(d.size(), expect, max);
      return Buf.of(d.readAll());
    }

    @Override
    void undoInto(Buf in, byte[] dst, int off, int n) throws IOException {
      ChunkData d = chunk(in);
      check(d.size(), n, n);
      d.read(0, dst, off, n);
    }
  }
}
