package org.chunkcdm.sframe;

import org.chunkcdm.chunk.Lazy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.chunkcdm.blosc.BloscFrame;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.blosc.CodecException;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.FetchBuffers;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FormatException;

/**
 * A Blosc2 frame: the msgpack header (with metalayers), the offsets index (a Blosc2 chunk of int64 entries,
 * one per logical chunk) and the msgpack trailer (with vlmetalayers), of a contiguous frame ({@code .b2frame},
 * {@code .b2f}, {@code .b2nd}) or of a sparse frame's {@code chunks.b2frame}. Layout facts: see
 * testdata/blosc2/README.md. Opening reads only the header, the index and the trailer (parsed by the codec's
 * {@link BloscFrame}); chunks are located from the index when a read needs them ({@link #chunk(long)}), through this
 * reader's file handles (ranged, prefetched reads of remote files), from a frame at an offset of a larger file (a
 * stored zip member) or from a frame in memory.
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
  private final BloscFrame.Source ext;
  /** The frame's bytes: of the array, of {@link #ext}, or of the file from {@link #base} on. */
  private final BloscFrame.Source bytes;
  /** What error messages call the frame: the file, or the description given with the array. */
  final String name;
  final boolean sparse;
  final int headerLen;
  final long frameLen;
  final long nbytes;
  final long cbytes;
  final int typesize;
  final int chunksize;
  final Map<String, byte[]> metalayers;
  final Map<String, byte[]> vlmetalayers; // decompressed content
  private final String compression;
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
  private Frame(Path file, FileHandles files, long base, long length, byte[] mem, BloscFrame.Source ext, String name)
      throws IOException {
    this.file = file;
    this.files = files;
    this.mem = mem;
    this.base = base;
    this.ext = ext;
    this.name = name;
    boolean whole = mem == null && ext == null && base == 0 && length < 0;
    bytes = mem != null ? BloscFrame.Source.of(mem) : ext != null ? ext : fileBytes(length);
    BloscFrame f;
    try {
      f = BloscFrame.read(bytes, name);
    } catch (CodecException e) { // the codec's parsing names the frame; a bad frame is a FormatException here
      throw new FormatException(e.getMessage(), e);
    }
    headerLen = f.headerLength();
    frameLen = f.frameLength();
    sparse = f.isSparse();
    nbytes = f.nbytes();
    cbytes = f.cbytes();
    typesize = f.typesize();
    chunksize = f.chunksize();
    metalayers = f.metalayers();
    vlmetalayers = f.vlmetalayers();
    compression = f.compression();
    index = f.indexEntries();
    if (sparse && !whole) {
      throw error("a sparse frame (frame type 1) keeps its chunks in files beside it; only a contiguous frame can be read from memory");
    }
    if (chunksize > 0) {
      chunkBytesLazy.get(); // fixed chunk sizes: known (and checked) at open
    }
  }

  /** {@code length} bytes of the file from its base (-1: up to its end), checked against the file's size. */
  private BloscFrame.Source fileBytes(long length) throws IOException {
    long fileSize = files.size(file);
    if (base < 0 || base > fileSize || length > fileSize - base) {
      throw error("a frame of " + length + " bytes at offset " + base + " lies outside the file's " + fileSize
          + " bytes");
    }
    long size = length < 0 ? fileSize - base : length;
    return new BloscFrame.Source() {
      @Override
      public long size() {
        return size;
      }

      @Override
      public void read(long pos, byte[] dst, int off, int len) throws IOException {
        files.readFully(file, base + pos, dst, off, len);
      }
    };
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
  static Frame open(BloscFrame.Source bytes, String name) throws IOException {
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
    if (files != null) {
      return files.read(file, base + pos, len);
    }
    long size = bytes.size();
    if (pos < 0 || len < 0 || len > Integer.MAX_VALUE || pos > size - len) {
      throw new FormatException(name + ": " + len + " bytes at offset " + pos + " lie outside the frame's " + size
          + " bytes");
    }
    byte[] b = new byte[(int) len];
    bytes.read(pos, b, 0, b.length);
    return b;
  }

  /** {@code len} bytes at {@code pos} of the frame into {@code dst}. */
  private void readFully(long pos, byte[] dst, int len) throws IOException {
    bytes.read(pos, dst, 0, len);
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

  static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  /** e.g. "blosc2 zstd clevel 5; filters: delta, shuffle; typesize 8; blocksize 8192; zstd dictionary". */
  String compression() {
    return compression;
  }
}
