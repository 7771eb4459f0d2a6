package org.chunkcdm.sframe;

import org.chunkcdm.chunk.Lazy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.FetchBuffers;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;

/**
 * A Blosc2 frame: the msgpack header (with metalayers), the offsets index (a Blosc2 chunk of int64 entries,
 * one per logical chunk) and the msgpack trailer (with vlmetalayers), of a contiguous frame ({@code .b2frame},
 * {@code .b2f}, {@code .b2nd}) or of a sparse frame's {@code chunks.b2frame}. Layout facts: see
 * testdata/blosc2/README.md. Opening reads only the header, the index and the trailer; chunks are
 * located from the index when a read needs them ({@link #chunk(long)}).
 *
 * <p>A contiguous frame can also be parsed from a byte array ({@link #of(byte[], String)}: a frame held in
 * memory, e.g. one chunk of the HDF5 Blosc2 filter, see {@link ContiguousFrame}); the same code then reads it,
 * and its chunks are decoded from that array without copies.
 *
 * <p>Every size from the file is checked against the file size before it is used: a lying header, index or
 * trailer is an IOException naming the file and what is wrong, never a read elsewhere or a huge allocation.
 */
final class Frame {
  static final byte[] MAGIC = {(byte) 0x9e, (byte) 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0};
  /** Fixed part of the header up to the metalayer section. */
  static final int FIXED_HEADER = 87;
  /** Largest offsets index accepted (decompressed bytes): 32 M chunks. */
  static final int MAX_INDEX_BYTES = 256 << 20;
  /** Largest header / trailer read in one piece. */
  static final int MAX_META_BYTES = 256 << 20;
  /**
   * Largest item size accepted. The frame header keeps the writer's typesize as an int32 even above 255
   * (e.g. b2nd {@code |S300} or {@code <U70}); c-blosc2 then compresses the chunks as 1-byte items.
   */
  static final int MAX_TYPESIZE = 1 << 24;

  /** Chunks asked for by {@link #chunk(long)}, process-wide (tests prove what opening and reads touch). */
  static final java.util.concurrent.atomic.LongAdder FETCHED = new java.util.concurrent.atomic.LongAdder();

  static final long SPECIAL_ZEROS = 1;
  static final long SPECIAL_NAN = 2;
  static final long SPECIAL_UNINIT = 4;

  /** The frame file, or null for a frame in memory. */
  final Path file;
  /** The frame's file handles, or null for a frame in memory. */
  final FileHandles files;
  /** The frame in memory, or null for a frame file. */
  private final byte[] mem;
  /** Where the frame starts in {@link #file} (0 for a frame file, the member's data offset in a zip, ...). */
  private final long base;
  /** The frame's bytes when it lies inside something else (e.g. a decompressed byte stream), or null. */
  private final ContiguousFrame.Bytes ext;
  /** What error messages call the frame: the file, or the description given with the array. */
  final String name;
  final boolean sparse;
  final int headerLen;
  final long frameLen;
  final int generalFlags;
  final int codecFlags;
  final int otherFlags;
  final long nbytes;
  final long cbytes;
  final int typesize;
  final int blocksize;
  final int chunksize;
  final int[] filters;
  final int[] filtersMeta;
  final int otherFlags2;
  final Map<String, byte[]> metalayers;
  final Map<String, byte[]> vlmetalayers; // decompressed content
  final long trailerLen;
  final long[] index;
  /** Uncompressed bytes of each logical chunk. */
  private final Lazy<long[]> chunkBytesLazy = new Lazy<>(this::chunkSizes);

  private Frame(Path file, FileHandles files, byte[] mem, String name) throws IOException {
    this(file, files, 0, -1, mem, null, name);
  }

  /**
   * @param base where the frame starts in {@code file}
   * @param length the frame's length from {@code base} on, -1 = up to the end of the file
   */
  private Frame(Path file, FileHandles files, long base, long length, byte[] mem, ContiguousFrame.Bytes ext, String name)
      throws IOException {
    this.file = file;
    this.files = files;
    this.mem = mem;
    this.base = base;
    this.ext = ext;
    this.name = name;
    boolean whole = mem == null && ext == null && base == 0 && length < 0;
    long size = size(length);
    long[] lengths = lengths(size, whole);
    headerLen = (int) lengths[0];
    frameLen = lengths[1];
    FrameHeader h;
    try {
      h = FrameHeader.parse(read(0, headerLen));
    } catch (IOException | RuntimeException e) {
      throw wrap("frame header", e);
    }
    generalFlags = h.generalFlags;
    codecFlags = h.codecFlags;
    otherFlags = h.otherFlags;
    sparse = h.sparse;
    nbytes = h.nbytes;
    cbytes = h.cbytes;
    typesize = h.typesize;
    blocksize = h.blocksize;
    chunksize = h.chunksize;
    otherFlags2 = h.otherFlags2;
    filters = h.filters;
    filtersMeta = h.filtersMeta;
    metalayers = Collections.unmodifiableMap(h.metalayers);
    checkHeader(whole);
    trailerLen = trailerLength();
    long trailerPos = frameLen - trailerLen;
    vlmetalayers = Collections.unmodifiableMap(vlmetalayers(trailerPos));
    // offsets index: right after the chunks section (contiguous) or the header (sparse)
    long indexPos = sparse ? headerLen : headerLen + cbytes;
    if (!sparse && (cbytes > frameLen || indexPos > trailerPos)) {
      throw error("the header's cbytes " + cbytes + " puts the offsets index at " + indexPos
          + ", past the trailer at " + trailerPos);
    }
    index = readIndex(indexPos, trailerPos);
    if (chunksize > 0) {
      chunkBytesLazy.get(); // fixed chunk sizes: known (and checked) at open
    }
  }

  /** The frame's size in bytes: of the array, the byte source, or {@code length} bytes of the file from its base. */
  private long size(long length) throws IOException {
    if (mem != null) {
      return mem.length;
    }
    if (ext != null) {
      return ext.size();
    }
    long fileSize = files.size(file);
    if (base < 0 || base > fileSize || length > fileSize - base) {
      throw error("a frame of " + length + " bytes at offset " + base + " lies outside the file's " + fileSize
          + " bytes");
    }
    return length < 0 ? fileSize - base : length;
  }

  /** header_len and frame_len from the magic's msgpack fields, checked against the frame's {@code size}. */
  private long[] lengths(long size, boolean whole) throws IOException {
    String holder = whole ? "the file has " : "the frame has ";
    if (size < FIXED_HEADER) {
      throw error(holder + size + " bytes, less than a Blosc2 frame header (truncated?)");
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
      throw error("header_len " + hl + " does not fit in the " + (whole ? "file's " : "frame's ") + size + " bytes");
    }
    if (fl != size) {
      throw error("frame_len in the header is " + Long.toUnsignedString(fl) + " but " + holder + size
          + " bytes (truncated or not a frame)");
    }
    return new long[] {hl, fl};
  }

  /** The header's values that this reader cannot take. */
  private void checkHeader(boolean whole) throws IOException {
    if (sparse && !whole) {
      throw error("a sparse frame (frame type 1) keeps its chunks in files beside it; only a contiguous frame can be read from memory");
    }
    if (nbytes < 0 || cbytes < 0) {
      throw error("negative nbytes " + nbytes + " or cbytes " + cbytes + " in the header");
    }
    if (typesize <= 0 || typesize > MAX_TYPESIZE) {
      throw error("typesize " + typesize + " in the header is not between 1 and " + MAX_TYPESIZE);
    }
    if (chunksize < 0) {
      throw error("negative chunksize " + chunksize + " in the header");
    }
    if ((generalFlags & 0x80) != 0) {
      throw error("variable-length-block chunks (general_flags bit 7) are not supported");
    }
  }

  /** trailer_len: the uint32 after 0xCE at frame_len - 23. */
  private long trailerLength() throws IOException {
    if (frameLen - headerLen < 23) {
      throw error("no room for a trailer after the " + headerLen + "-byte header");
    }
    byte[] tl = read(frameLen - 23, 5);
    if ((tl[0] & 0xff) != 0xce) {
      throw error("trailer length field (0xCE + uint32 at frame_len - 23) not found");
    }
    long len = be(tl, 1, 4);
    if (len < 23 || len > frameLen - headerLen || len > MAX_META_BYTES) {
      throw error("trailer_len " + len + " lies past the file (" + frameLen + " bytes, header " + headerLen + ")");
    }
    return len;
  }

  /** The trailer's vlmetalayers, decompressed. */
  private Map<String, byte[]> vlmetalayers(long trailerPos) throws IOException {
    Map<String, byte[]> vl;
    try {
      vl = FrameHeader.trailer(read(trailerPos, trailerLen));
    } catch (IOException | RuntimeException e) {
      throw wrap("frame trailer at offset " + trailerPos, e);
    }
    for (Map.Entry<String, byte[]> e : vl.entrySet()) {
      byte[] c = e.getValue();
      try {
        if (BloscHeader.parse(c, 0, c.length).nbytes() > MAX_META_BYTES) {
          throw new FormatException("decompresses to more than " + MAX_META_BYTES + " bytes");
        }
        e.setValue(Blosc.decompress(c, 0, c.length));
      } catch (IOException ex) {
        throw error("vlmetalayer '" + e.getKey() + "': " + ex.getMessage());
      }
    }
    return vl;
  }

  static Frame open(FileHandles files, Path file) throws IOException {
    return new Frame(file, files, null, file.toString());
  }

  /**
   * The contiguous frame of {@code length} bytes at {@code offset} of {@code file} (e.g. a stored zip member; -1:
   * up to the end of the file).
   */
  static Frame open(FileHandles files, Path file, long offset, long length, String name) throws IOException {
    if (offset < 0 || length < -1) {
      throw new FormatException(name + ": a frame of " + length + " bytes at offset " + offset + " is impossible");
    }
    return new Frame(file, files, offset, length, null, null, name);
  }

  /** The contiguous frame whose bytes {@code bytes} gives. */
  static Frame open(ContiguousFrame.Bytes bytes, String name) throws IOException {
    return new Frame(null, null, 0, -1, null, bytes, name);
  }

  /**
   * A contiguous frame held in {@code frame} (not copied: do not modify it while the frame is in use);
   * {@code name} starts every error message (e.g. the file, variable and chunk that stored the frame).
   */
  static Frame of(byte[] frame, String name) throws IOException {
    return new Frame(null, null, frame, name);
  }

  /** {@code len} bytes at {@code pos} of the frame (file or array); sizes are checked by the callers. */
  private byte[] read(long pos, long len) throws IOException {
    if (ext != null) {
      if (pos < 0 || len < 0 || len > Integer.MAX_VALUE || pos > ext.size() - len) {
        throw new FormatException(name + ": " + len + " bytes at offset " + pos + " lie outside the frame's "
            + ext.size() + " bytes");
      }
      byte[] b = new byte[(int) len];
      ext.read(pos, b, 0, b.length);
      return b;
    }
    if (mem == null) {
      return files.read(file, base + pos, len);
    }
    if (pos < 0 || len < 0 || pos > mem.length - len) {
      throw new FormatException(name + ": " + len + " bytes at offset " + pos + " lie outside the frame's " + mem.length
          + " bytes");
    }
    return java.util.Arrays.copyOfRange(mem, (int) pos, (int) (pos + len));
  }

  /** {@code len} bytes at {@code pos} of a frame that is not in memory, into {@code dst}. */
  private void readFully(long pos, byte[] dst, int len) throws IOException {
    if (ext != null) {
      ext.read(pos, dst, 0, len);
    } else {
      files.readFully(file, base + pos, dst, 0, len);
    }
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
    if (chunksize > 0) {
      long want = (nbytes + chunksize - 1) / chunksize;
      if (h.nbytes() / 8 != want) {
        throw error("offsets index has " + h.nbytes() / 8 + " entries, but nbytes " + nbytes + " / chunksize " + chunksize
            + " makes " + want + " chunks");
      }
    }
    byte[] d;
    try {
      d = Blosc.decompress(c, 0, c.length);
    } catch (IOException e) {
      throw error("offsets index at " + pos + ": " + e.getMessage());
    }
    long[] idx = new long[d.length / 8];
    for (int i = 0; i < idx.length; i++) {
      long v = 0;
      for (int b = 7; b >= 0; b--) {
        v = v << 8 | (d[8 * i + b] & 0xff);
      }
      idx[i] = v;
    }
    return idx;
  }

  /**
   * Uncompressed size of every chunk. With a fixed chunksize this costs nothing; with variable chunk sizes
   * the chunk headers are read on the first call (a read), never when the frame is opened.
   */
  long[] chunkBytes() throws IOException {
    return chunkBytesLazy.get();
  }

  private long[] chunkSizes() throws IOException {
    long[] s = new long[index.length];
    if (chunksize > 0) {
      for (int k = 0; k < s.length; k++) {
        s[k] = Math.min(chunksize, nbytes - (long) k * chunksize);
      }
      return s;
    }
    long total = 0;
    for (int k = 0; k < s.length; k++) {
      if (index[k] < 0) {
        throw chunkError(k, "special index entry in a frame with variable chunk sizes: its size is unknown");
      }
      byte[] h = readChunkBytes(k, 16);
      s[k] = le32(h, 4);
      if (s[k] < 0) {
        throw chunkError(k, "negative nbytes " + s[k] + " in the chunk header");
      }
      total += s[k];
    }
    if (total != nbytes) {
      throw error("the chunks hold " + total + " bytes but the header says nbytes " + nbytes);
    }
    return s;
  }

  int nchunks() {
    return index.length;
  }

  /** Kind of a special index entry (1 zeros, 2 NaN, 4 uninitialized), 0 for a stored chunk. */
  static long special(long entry) {
    return entry < 0 ? (entry >>> 56) & 0x07 : 0;
  }

  /** Where chunk k lives, for messages. */
  String where(long k) {
    long e = index[(int) k];
    if (e < 0) {
      return String.format("special index entry 0x%016X", e);
    }
    return sparse ? chunkFileName(e) : "offset " + (headerLen + e);
  }

  static String chunkFileName(long number) {
    return String.format("%08X.chunk", number);
  }

  /**
   * The decoded content of logical chunk k: null for zeros / uninitialized index entries (read as zeros), a
   * NaN pattern for NaN entries, else the stored Blosc chunk (decoded lazily, block by block).
   */
  ChunkData chunk(long k) throws IOException {
    FETCHED.increment();
    long e = index[(int) k];
    long size = chunkBytes()[(int) k];
    if (e < 0) {
      long kind = special(e);
      if (kind == SPECIAL_ZEROS || kind == SPECIAL_UNINIT) {
        return null;
      }
      if (kind == SPECIAL_NAN) {
        if (typesize != 4 && typesize != 8) {
          throw chunkError(k, "NaN index entry with typesize " + typesize + " (4 or 8 expected)");
        }
        return PatternChunk.nan(size, typesize);
      }
      throw chunkError(k, String.format("unknown special index entry 0x%016X", e));
    }
    BloscChunkData data;
    try {
      if (mem != null) {
        long pos = headerLen + e;
        int cb = (int) contiguousChunkBytes(pos, e);
        data = BloscChunkData.of(mem, (int) pos, cb);
      } else if (!sparse && ext == null && files.isRemote() && storedRange((int) k) != null) {
        // one ranged GET of the stored bytes up to the next chunk (not the 16-byte header first, then the rest);
        // a frame inside a larger object (a zip member) starts at base
        long[] range = storedRange((int) k);
        byte[] b = new byte[(int) (range[1] - range[0])];
        files.readExact(file, base + range[0], b, 0, b.length);
        long cb = le32(b, 12) & 0xffffffffL;
        if (cb < 16 || cb > b.length) {
          throw new FormatException("chunk of " + cb + " bytes at offset " + range[0] + " runs past the next chunk at "
              + range[1]);
        }
        data = BloscChunkData.of(b, 0, (int) cb);
      } else if (!sparse) {
        // the stored bytes go into a pooled buffer, given back when the reader releases the chunk; read again
        // from the file if it is used after that
        long pos = headerLen + e;
        int cb = (int) contiguousChunkBytes(pos, e);
        byte[] b = FetchBuffers.take(cb);
        try {
          readFully(pos, b, cb);
        } catch (IOException | RuntimeException ex) {
          FetchBuffers.give(b);
          throw ex;
        }
        data = BloscChunkData.pooled(b, 0, cb, null, () -> readChunkBytes(k, -1)); // owns b from here
      } else {
        byte[] c = readChunkBytes(k, -1);
        data = BloscChunkData.of(c, 0, c.length);
      }
    } catch (IOException ex) {
      throw chunkError(k, ex);
    }
    if (data.size() != size) {
      throw chunkError(k, "the chunk holds " + data.size() + " bytes but the frame needs " + size);
    }
    return ChunkData.withContext(data, failure -> chunkError(k, failure));
  }

  private volatile long[] storedEnds;

  /**
   * Where contiguous chunk k's stored bytes end at the latest: the start of the next chunk in the file, or the end
   * of the chunks section. c-blosc2 writes chunks one after the other, so this is usually exactly its end.
   */
  private long storedEnd(int k) {
    long[] e = storedEnds;
    if (e == null) {
      long[] sorted = java.util.Arrays.stream(index).filter(x -> x >= 0).sorted().toArray();
      e = new long[index.length];
      for (int i = 0; i < index.length; i++) {
        if (index[i] < 0) {
          e[i] = -1;
          continue;
        }
        int at = java.util.Arrays.binarySearch(sorted, index[i]);
        while (at + 1 < sorted.length && sorted[at + 1] == index[i]) {
          at++;
        }
        e[i] = headerLen + (at + 1 < sorted.length ? sorted[at + 1] : cbytes);
      }
      storedEnds = e;
    }
    return e[k];
  }

  /**
   * The stored range [pos, end) of contiguous chunk k when it can be read in one piece: its start to the next
   * chunk's, at most the chunk's size plus Blosc2's header and overhead; null otherwise (special entries, slack).
   */
  private long[] storedRange(int k) throws IOException {
    long e = index[k];
    if (e < 0 || sparse || mem != null || ext != null || e > cbytes - 16 || chunksize <= 0) {
      return null;
    }
    long pos = headerLen + e;
    long end = storedEnd(k);
    long max = chunkBytes()[k] + 64; // a Blosc2 chunk stores at most its data plus 32 bytes of header and overhead
    return end - pos >= 16 && end - pos <= max ? new long[] {pos, end} : null;
  }

  /** Remote: where the chunks a read needs are stored, so they come with few coalesced requests. */
  org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
    if (files == null || ext != null || !files.isRemote()) {
      return org.chunkcdm.io.FileHandles.Prefetch.NONE;
    }
    java.util.List<org.chunkcdm.io.FileHandles.Range> r = new java.util.ArrayList<>();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (long c : chunks) {
      int k = (int) c;
      if (k < 0 || k >= index.length || index[k] < 0) {
        continue;
      }
      if (sparse) {
        if (index[k] <= 0xFFFFFFFFL && seen.add(index[k])) {
          r.add(new org.chunkcdm.io.FileHandles.Range(files.resolve(chunkFileName(index[k])), 0, -1));
        }
      } else {
        long[] range = storedRange(k);
        if (range != null) {
          r.add(new org.chunkcdm.io.FileHandles.Range(file, base + range[0], range[1] - range[0]));
        }
      }
    }
    return files.prefetch(r);
  }

  /** The stored bytes of chunk k ({@code limit} &gt; 0: only its first bytes). */
  private byte[] readChunkBytes(long k, int limit) throws IOException {
    long e = index[(int) k];
    try {
      if (sparse) {
        if (e > 0xFFFFFFFFL) {
          throw new FormatException("index entry " + e + " is not a chunk file number (8 hex digits)");
        }
        // one file per chunk: read and closed at once, so thousands of chunk files never hold thousands of handles
        Path p = files.resolve(chunkFileName(e));
        byte[] b = files.readOnce(p, limit > 0 ? limit : Long.MAX_VALUE, Bounds.MAX_ARRAY);
        if (b.length < 16) {
          throw new FormatException(p.getFileName() + " has " + b.length + " bytes, less than a chunk header");
        }
        return b;
      }
      long pos = headerLen + e;
      if (limit > 0) {
        contiguousChunkBytes(pos, e);
        return read(pos, 16);
      }
      return read(pos, contiguousChunkBytes(pos, e));
    } catch (IOException ex) {
      throw chunkError(k, ex);
    }
  }

  /** The stored size (cbytes of its header) of the contiguous frame's chunk at {@code pos} (index entry {@code e}), checked. */
  private long contiguousChunkBytes(long pos, long e) throws IOException {
    long sectionEnd = headerLen + cbytes;
    if (e > cbytes - 16) {
      throw new FormatException("offset " + e + " lies outside the chunks section of " + cbytes + " bytes");
    }
    byte[] h;
    if (mem == null) { // pos + 16 lies inside the chunks section (checked above); a shorter file is an EOFException
      h = new byte[16];
      readFully(pos, h, 16);
    } else {
      h = read(pos, 16);
    }
    long cb = le32(h, 12) & 0xffffffffL;
    if (cb < 16 || cb > sectionEnd - pos) {
      throw new FormatException("chunk of " + cb + " bytes at offset " + pos + " runs past the chunks section (ends at "
          + sectionEnd + ")");
    }
    return cb;
  }

  IOException chunkError(long k, String msg) {
    return new FormatException(chunkWhere(k) + ": " + msg);
  }

  /** {@code e} naming the file and chunk, of the same kind (bad bytes or an I/O failure). */
  IOException chunkError(long k, IOException e) {
    return FormatException.in(chunkWhere(k), e);
  }

  private String chunkWhere(long k) {
    String w;
    try {
      w = where(k);
    } catch (RuntimeException e) {
      w = "?";
    }
    return name + ": chunk " + k + " (" + w + ")";
  }

  IOException error(String msg) {
    return new FormatException(name + ": " + msg);
  }

  private IOException wrap(String what, Exception e) {
    return new IOException(name + ": " + what + ": " + e.getMessage(), e);
  }

  static long be(byte[] b, int off, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[off + i] & 0xff);
    }
    return v;
  }

  static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  private static final String[] CODECS = {"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"};

  /** e.g. "blosc2 zstd clevel 5; filters: delta, shuffle; typesize 8; blocksize 8192; dictionary". */
  String compression() {
    int codec = codecFlags & 0x0f;
    StringBuilder sb = new StringBuilder("blosc2 ");
    sb.append(codec < CODECS.length ? CODECS[codec] : "codec " + codec).append(" clevel ").append(codecFlags >> 4);
    StringBuilder fs = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      if (filters[i] != BloscHeader.NOFILTER) {
        fs.append(fs.length() > 0 ? ", " : "").append(BloscHeader.filterName(filters[i]));
        if (filtersMeta[i] != 0) {
          fs.append('(').append(filtersMeta[i]).append(')');
        }
      }
    }
    sb.append("; filters: ").append(fs.length() > 0 ? fs : "none");
    sb.append("; typesize ").append(typesize);
    sb.append("; blocksize ").append(blocksize == 0 ? "automatic" : String.valueOf(blocksize));
    if ((otherFlags2 & 0x01) != 0) {
      sb.append("; zstd dictionary");
    }
    return sb.toString();
  }
}
