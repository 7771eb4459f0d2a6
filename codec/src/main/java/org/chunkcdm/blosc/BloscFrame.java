package org.chunkcdm.blosc;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Blosc2 frame as c-blosc2 and python-blosc2 write it: a contiguous frame ({@code .b2frame}, {@code .b2f},
 * {@code .b2nd}) or the {@code chunks.b2frame} of a sparse frame directory (its chunks in {@code NNNNNNNN.chunk} files
 * beside it). Reading it parses the msgpack header (sizes, filters, metalayers), the trailer (vlmetalayers, decoded)
 * and the offsets index, checking every size against the frame's length; the chunks are read when asked for. Thread-
 * safe: positional reads only.
 *
 * <pre>{@code
 * try (BloscFrame f = BloscFrame.open(Path.of("temperature.b2nd"))) {
 *   byte[] b2nd = f.metalayers().get("b2nd");       // msgpack: shape, chunks, blocks, dtype
 *   for (int i = 0; i < f.chunkCount(); i++) {
 *     byte[] decoded = f.decodeChunk(i);             // special chunks (zeros, NaN) included
 *   }
 * }
 * }</pre>
 */
public final class BloscFrame implements Closeable {
  /** Positional reads of the frame's bytes (a file, an array, an object in a store). */
  public interface Source extends Closeable {
    long size() throws IOException;

    /** Exactly {@code len} bytes at {@code pos}. */
    void read(long pos, byte[] dst, int off, int len) throws IOException;

    /** The stored bytes of sparse chunk file number {@code n} ({@code %08X.chunk} beside the frame). */
    default byte[] sparseChunk(long n) throws IOException {
      throw new CodecException("a sparse frame's chunks are files beside it: read it from its directory");
    }

    @Override
    default void close() throws IOException {}

    /** The bytes of {@code b} (not copied); a read outside them is a CodecException. */
    static Source of(byte[] b) {
      return new Source() {
        @Override
        public long size() {
          return b.length;
        }

        @Override
        public void read(long pos, byte[] dst, int off, int len) throws IOException {
          if (pos < 0 || len < 0 || pos > b.length - len) {
            throw new CodecException(len + " bytes at offset " + pos + " lie outside the frame's " + b.length + " bytes");
          }
          System.arraycopy(b, (int) pos, dst, off, len);
        }
      };
    }
  }

  static final byte[] MAGIC = {(byte) 0x9e, (byte) 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0};
  private static final int FIXED_HEADER = 87;
  private static final int MAX_META_BYTES = 256 << 20;
  private static final int MAX_INDEX_BYTES = 256 << 20;
  /**
   * Largest item size accepted. The frame header keeps the writer's typesize as an int32 even above 255
   * (e.g. b2nd {@code |S300} or {@code <U70}); c-blosc2 then compresses the chunks as 1-byte items.
   */
  private static final int MAX_TYPESIZE = 1 << 24;
  /** Kinds of special index entries. */
  public static final int SPECIAL_ZEROS = 1;
  public static final int SPECIAL_NAN = 2;
  public static final int SPECIAL_UNINIT = 4;

  private final Source src;
  private final String name;
  private final boolean sparse;
  private final int headerLen;
  private final long frameLen;
  private final long nbytes;
  private final long cbytes;
  private final int typesize;
  private final int blocksize;
  private final int chunksize;
  private final int codecFlags;
  private final int[] filters = new int[6];
  private final int[] filtersMeta = new int[6];
  private final int otherFlags2;
  private final Map<String, byte[]> metalayers;
  private final Map<String, byte[]> vlmetalayers;
  private final long[] index;

  private BloscFrame(Source src, String name) throws IOException {
    this.src = src;
    this.name = name;
    frameLen = src.size();
    headerLen = readHeaderLength();
    MsgPack h = new MsgPack(read(0, headerLen), name + ": frame header");
    if (h.arrayHeader() != 14) {
      throw error("the header is not a msgpack array of 14 fields");
    }
    h.skip(); // magic, checked above
    h.skip(); // header_len
    h.skip(); // frame_len
    byte[] flags = h.strBytes();
    if (flags.length != 4) {
      throw error("the flags field is not 4 bytes");
    }
    int frameType = flags[1] & 0xff;
    if (frameType != 0 && frameType != 1) {
      throw error("frame type " + frameType + " is neither contiguous (0) nor sparse (1)");
    }
    if ((flags[0] & 0x80) != 0) {
      throw error("variable-length-block chunks (general_flags bit 7) are not supported");
    }
    codecFlags = flags[2] & 0xff;
    sparse = frameType == 1;
    nbytes = h.integer();
    cbytes = h.integer();
    long ts = h.integer();
    blocksize = (int) h.integer();
    long cs = h.integer();
    h.skip(); // compression threads
    h.skip(); // decompression threads
    h.bool(); // has vlmetalayers (the trailer tells)
    byte[] f = h.fixext(16);
    for (int i = 0; i < 6; i++) {
      filters[i] = f[i] & 0xff;
      filtersMeta[i] = f[8 + i];
    }
    otherFlags2 = f[14] & 0xff;
    metalayers = Collections.unmodifiableMap(metalayers(h, "metalayer"));
    if (nbytes < 0 || cbytes < 0) {
      throw error("negative nbytes " + nbytes + " or cbytes " + cbytes + " in the header");
    }
    if (ts <= 0 || ts > MAX_TYPESIZE) {
      throw error("typesize " + ts + " in the header is not between 1 and " + MAX_TYPESIZE);
    }
    if (cs < 0 || cs > Integer.MAX_VALUE) {
      throw error("chunksize " + cs + " in the header is not between 0 and 2^31-1");
    }
    typesize = (int) ts;
    chunksize = (int) cs;
    long trailerPos = frameLen - readTrailerLength();
    vlmetalayers = Collections.unmodifiableMap(vlmetalayers(trailerPos));
    long indexPos = sparse ? headerLen : headerLen + cbytes;
    if (!sparse && (cbytes > frameLen || indexPos > trailerPos)) {
      throw error("the header's cbytes " + cbytes + " puts the offsets index at " + indexPos + ", past the trailer at "
          + trailerPos);
    }
    index = readIndex(indexPos, trailerPos);
  }

  /** A frame held in memory (not copied). */
  public static BloscFrame read(byte[] frame) throws IOException {
    return read(Source.of(frame), "Blosc2 frame in memory");
  }

  /** A frame read through {@code src}; {@code name} starts every error message. */
  public static BloscFrame read(Source src, String name) throws IOException {
    return new BloscFrame(src, name);
  }

  /**
   * A frame file (kept open until {@link #close()}), or a sparse frame's {@code chunks.b2frame} (its chunk files are
   * read from the same directory).
   */
  public static BloscFrame open(Path file) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
    Path dir = file.toAbsolutePath().getParent();
    Source s = new Source() {
      @Override
      public long size() throws IOException {
        return ch.size();
      }

      @Override
      public void read(long pos, byte[] dst, int off, int len) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(dst, off, len);
        while (bb.hasRemaining()) {
          if (ch.read(bb, pos + bb.position() - off) < 0) {
            throw new java.io.EOFException(file + ": " + len + " bytes at " + pos + " lie past the end");
          }
        }
      }

      @Override
      public byte[] sparseChunk(long n) throws IOException {
        Path p = dir.resolve(String.format("%08X.chunk", n));
        long size = Files.size(p);
        MemoryLimit.check(size, p.toString());
        return Files.readAllBytes(p);
      }

      @Override
      public void close() throws IOException {
        ch.close();
      }
    };
    try {
      return new BloscFrame(s, file.toString());
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    src.close();
  }

  public boolean isSparse() {
    return sparse;
  }

  /** Decoded bytes of all chunks. */
  public long nbytes() {
    return nbytes;
  }

  /** Stored bytes of all chunks. */
  public long cbytes() {
    return cbytes;
  }

  public int typesize() {
    return typesize;
  }

  public int blocksize() {
    return blocksize;
  }

  /** Decoded bytes per chunk (the last may be shorter), 0 when chunks differ in size. */
  public int chunksize() {
    return chunksize;
  }

  /** The frame's filter pipeline (six {@link BloscHeader} filter ids). */
  public int[] filters() {
    return filters.clone();
  }

  /** header_len: bytes of the msgpack header (the chunks of a contiguous frame follow it). */
  public int headerLength() {
    return headerLen;
  }

  /** frame_len: bytes of the whole frame. */
  public long frameLength() {
    return frameLen;
  }

  /**
   * The offsets index as stored: per chunk its offset from the end of the header (contiguous), its chunk file number
   * (sparse), or a negative special entry ({@link #special(int)}).
   */
  public long[] indexEntries() {
    return index.clone();
  }

  private static final String[] CODECS = {"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"};

  /** The header's compression settings, e.g. "blosc2 zstd clevel 5; filters: delta, shuffle; typesize 8; blocksize 8192". */
  public String compression() {
    int codec = codecFlags & 0x0f;
    StringBuilder sb = new StringBuilder("blosc2 ");
    sb.append(codec < CODECS.length ? CODECS[codec] : "codec " + codec).append(" clevel ").append(codecFlags >> 4);
    String fs = BloscHeader.filterDescription(filters, filtersMeta);
    sb.append("; filters: ").append(fs.isEmpty() ? "none" : fs);
    sb.append("; typesize ").append(typesize);
    sb.append("; blocksize ").append(blocksize == 0 ? "automatic" : String.valueOf(blocksize));
    if ((otherFlags2 & 0x01) != 0) {
      sb.append("; zstd dictionary");
    }
    return sb.toString();
  }

  /** Number of chunks. */
  public int chunkCount() {
    return index.length;
  }

  /** The metalayers of the header by name (e.g. {@code b2nd}), as stored (msgpack). */
  public Map<String, byte[]> metalayers() {
    return metalayers;
  }

  /** The variable-length metalayers of the trailer by name, decompressed (msgpack). */
  public Map<String, byte[]> vlmetalayers() {
    return vlmetalayers;
  }

  /** Kind of chunk {@code i}'s index entry: {@link #SPECIAL_ZEROS}, {@link #SPECIAL_NAN}, {@link #SPECIAL_UNINIT}, else 0. */
  public int special(int i) {
    long e = index[i];
    return e < 0 ? (int) ((e >>> 56) & 0x07) : 0;
  }

  /** The stored Blosc2 chunk {@code i} (its header and blocks), or null for a special index entry. */
  public byte[] storedChunk(int i) throws IOException {
    long e = index[i];
    if (e < 0) {
      return null;
    }
    if (sparse) {
      if (e > 0xFFFFFFFFL) {
        throw chunkError(i, "index entry " + e + " is not a chunk file number (8 hex digits)");
      }
      return src.sparseChunk(e);
    }
    if (e > cbytes - 16) {
      throw chunkError(i, "offset " + e + " lies outside the chunks section of " + cbytes + " bytes");
    }
    long pos = headerLen + e;
    long cb = le32(read(pos, 16), 12) & 0xffffffffL;
    if (cb < 16 || cb > headerLen + cbytes - pos) {
      throw chunkError(i, "chunk of " + cb + " bytes at offset " + pos + " runs past the chunks section");
    }
    return read(pos, cb);
  }

  /** Chunk {@code i} decoded (pure Java, this thread); special chunks as zeros or NaNs of the frame's typesize. */
  public byte[] decodeChunk(int i) throws IOException {
    byte[] c = storedChunk(i);
    if (c != null) {
      try {
        return BloscChunk.parse(c).decode();
      } catch (IOException e) {
        throw new CodecException(name + ": chunk " + i + ": " + e.getMessage(), e);
      }
    }
    long size = chunksize > 0 ? Math.min(chunksize, nbytes - (long) i * chunksize) : -1;
    if (size < 0) {
      throw chunkError(i, "special index entry in a frame with variable chunk sizes: its size is unknown");
    }
    MemoryLimit.check(size, name + ": chunk " + i);
    byte[] out = new byte[(int) size];
    int kind = special(i);
    if (kind == SPECIAL_NAN) {
      if (typesize == 4) {
        ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(nans(out.length / 4));
      } else if (typesize == 8) {
        java.nio.DoubleBuffer d = ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();
        while (d.hasRemaining()) {
          d.put(Double.NaN);
        }
      } else {
        throw chunkError(i, "NaN index entry with typesize " + typesize + " (4 or 8 expected)");
      }
    } else if (kind != SPECIAL_ZEROS && kind != SPECIAL_UNINIT) {
      throw chunkError(i, String.format("unknown special index entry 0x%016X", index[i]));
    }
    return out;
  }

  private static float[] nans(int n) {
    float[] f = new float[n];
    java.util.Arrays.fill(f, Float.NaN);
    return f;
  }

  // ------------------------------------------------------------------ parsing

  /** header_len from the msgpack fields after the magic, checked with frame_len against the frame's size. */
  private int readHeaderLength() throws IOException {
    long size = frameLen;
    if (size < FIXED_HEADER) {
      throw error(size + " bytes, less than a Blosc2 frame header (truncated?)");
    }
    byte[] fixed = read(0, 24);
    for (int i = 0; i < MAGIC.length; i++) {
      if (fixed[i] != MAGIC[i]) {
        throw error("no Blosc2 frame magic (0x9E 0xA8 'b2frame\\0') at the start");
      }
    }
    if ((fixed[10] & 0xff) != 0xd2 || (fixed[15] & 0xff) != 0xcf) {
      throw error("header_len / frame_len fields are not msgpack int32 / uint64");
    }
    long hl = be(fixed, 11, 4);
    long fl = be(fixed, 16, 8);
    if (hl < FIXED_HEADER || hl > size || hl > MAX_META_BYTES) {
      throw error("header_len " + hl + " does not fit in the frame's " + size + " bytes");
    }
    if (fl != size) {
      throw error("frame_len in the header is " + Long.toUnsignedString(fl) + " but the frame has " + size
          + " bytes (truncated or not a frame)");
    }
    return (int) hl;
  }

  /** trailer_len: the uint32 after 0xCE at frame_len - 23. */
  private long readTrailerLength() throws IOException {
    if (frameLen - headerLen < 23) {
      throw error("no room for a trailer after the " + headerLen + "-byte header");
    }
    byte[] tl = read(frameLen - 23, 5);
    if ((tl[0] & 0xff) != 0xce) {
      throw error("trailer length field (0xCE + uint32 at frame_len - 23) not found");
    }
    long len = be(tl, 1, 4);
    if (len < 23 || len > frameLen - headerLen || len > MAX_META_BYTES) {
      throw error("trailer_len " + len + " lies past the frame (" + frameLen + " bytes, header " + headerLen + ")");
    }
    return len;
  }

  private Map<String, byte[]> vlmetalayers(long trailerPos) throws IOException {
    MsgPack t = new MsgPack(read(trailerPos, frameLen - trailerPos), name + ": frame trailer at offset " + trailerPos);
    if (t.arrayHeader() != 4) {
      throw error("the trailer is not a msgpack array of 4 fields");
    }
    t.skip(); // trailer version
    Map<String, byte[]> vl = metalayers(t, "vlmetalayer");
    for (Map.Entry<String, byte[]> e : vl.entrySet()) {
      byte[] c = e.getValue();
      try {
        if (BloscHeader.parse(c, 0, c.length).nbytes() > MAX_META_BYTES) {
          throw new CodecException("decompresses to more than " + MAX_META_BYTES + " bytes");
        }
        e.setValue(BloscChunk.parse(c).decode());
      } catch (IOException ex) {
        throw error("vlmetalayer '" + e.getKey() + "': " + ex.getMessage());
      }
    }
    return vl;
  }

  /** A (vl)metalayer section: [size, {name: offset}, [bin values in the same order]]. */
  private Map<String, byte[]> metalayers(MsgPack u, String what) throws IOException {
    if (u.arrayHeader() != 3) {
      throw error(what + " section is not a msgpack array of 3");
    }
    u.skip(); // section size
    int n = u.mapHeader();
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = u.string();
      u.skip(); // offset of the value; the values follow in the same order
    }
    if (u.arrayHeader() != n) {
      throw error(what + " section lists " + n + " names but not as many values");
    }
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      out.put(names[i], u.bin());
    }
    return out;
  }

  private long[] readIndex(long pos, long end) throws IOException {
    long len = end - pos;
    if (len == 0) {
      if (nbytes != 0) {
        throw error("no offsets index, but the header says " + nbytes + " bytes of data");
      }
      return new long[0];
    }
    byte[] c = read(pos, len);
    BloscHeader h;
    try {
      h = BloscHeader.parse(c, 0, c.length);
    } catch (IOException e) {
      throw error("offsets index at " + pos + ": " + e.getMessage());
    }
    if (h.nbytes() % 8 != 0 || h.nbytes() > MAX_INDEX_BYTES) {
      throw error("offsets index at " + pos + " holds " + h.nbytes() + " bytes, not a sane number of int64 entries");
    }
    if (chunksize > 0 && h.nbytes() / 8 != (nbytes + chunksize - 1) / chunksize) {
      throw error("offsets index has " + h.nbytes() / 8 + " entries, but nbytes " + nbytes + " / chunksize " + chunksize
          + " makes " + (nbytes + chunksize - 1) / chunksize + " chunks");
    }
    byte[] d;
    try {
      d = BloscChunk.parse(c).decode();
    } catch (IOException e) {
      throw error("offsets index at " + pos + ": " + e.getMessage());
    }
    long[] idx = new long[d.length / 8];
    ByteBuffer.wrap(d).order(java.nio.ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(idx);
    return idx;
  }

  private byte[] read(long pos, long len) throws IOException {
    MemoryLimit.check(len, name);
    byte[] b = new byte[(int) len];
    src.read(pos, b, 0, b.length);
    return b;
  }

  private CodecException error(String msg) {
    return new CodecException(name + ": " + msg);
  }

  private CodecException chunkError(int i, String msg) {
    return new CodecException(name + ": chunk " + i + ": " + msg);
  }

  private static long be(byte[] b, int off, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[off + i] & 0xff);
    }
    return v;
  }

  private static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }
}
