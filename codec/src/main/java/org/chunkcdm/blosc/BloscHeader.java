package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * The validated header of one Blosc1 (16-byte) or Blosc2 (32-byte extended) chunk. {@link #parse} checks
 * every field against the buffer before anything is decoded: sizes, block counts, the block offset table
 * and the dictionary all lie inside the chunk; a malformed chunk is an IOException saying what is wrong.
 */
public final class BloscHeader {
  /** Filter ids of the Blosc2 pipeline. */
  public static final int NOFILTER = 0;
  public static final int SHUFFLE = 1;
  public static final int BITSHUFFLE = 2;
  public static final int DELTA = 3;
  public static final int TRUNC_PREC = 4;

  /** Special chunk kinds (blosc2_flags bits 4-6). */
  public static final int SPECIAL_NONE = 0;
  public static final int SPECIAL_ZEROS = 1;
  public static final int SPECIAL_NAN = 2;
  public static final int SPECIAL_VALUE = 3;
  public static final int SPECIAL_UNINIT = 4;

  static final int FLAG_SHUFFLE = 0x01;
  static final int FLAG_MEMCPYED = 0x02;
  static final int FLAG_BITSHUFFLE = 0x04;
  static final int FLAG_DELTA = 0x08;
  static final int FLAG_DONT_SPLIT = 0x10;

  private final int version;
  private final int versionLz;
  private final int flags;
  private final int typesize;
  private final int nbytes;
  private final int blocksize;
  private final int cbytes;
  private final int headerLength;
  private final int nblocks;
  private final int[] filters = new int[6];
  private final int[] filtersMeta = new int[6];
  private final int codecId;
  private final int blosc2Flags;
  private final int special;
  private final BloscCompressor compressor;
  private final int dictSize; // 0 when none
  private final int dataStart; // first byte after bstarts (and dictionary)

  private BloscHeader(byte[] b, int off, int len) throws IOException {
    if (len < 16) {
      throw new CodecException("Blosc chunk of " + len + " bytes is shorter than the 16-byte header");
    }
    version = b[off] & 0xff;
    versionLz = b[off + 1] & 0xff;
    flags = b[off + 2] & 0xff;
    typesize = b[off + 3] & 0xff;
    nbytes = le32(b, off + 4);
    int bs = le32(b, off + 8);
    cbytes = le32(b, off + 12);
    headerLength = checkFixedFields(len);
    int[] pipeline = readPipeline(b, off);
    codecId = pipeline[0];
    blosc2Flags = pipeline[1];
    special = pipeline[2];
    compressor = checkCodecAndSpecial(b, off);
    int[] layout = special != SPECIAL_NONE || nbytes == 0 ? new int[] {Math.max(0, Math.min(bs, nbytes)), 0, 0,
        headerLength} : blockLayout(b, off, bs);
    blocksize = layout[0];
    nblocks = layout[1];
    dictSize = layout[2];
    dataStart = layout[3];
  }

  /** The format version, the header length (16 or 32) and the sizes of the 16 bytes every chunk starts with. */
  private int checkFixedFields(int len) throws CodecException {
    if (version < 1 || version > 5) {
      throw new CodecException("Blosc chunk: unsupported format version " + version + " (1-5 are known)");
    }
    boolean extended = (flags & 0x05) == 0x05;
    if (extended && version <= 2) {
      // Blosc1 formats never set both shuffle bits; c-blosc 1.x would read them as byte shuffle, c-blosc2 as the
      // 32-byte extended header: ambiguous, so refused
      throw new CodecException(String.format("Blosc chunk: flags 0x%02x set both shuffle bits in format version %d",
          flags, version));
    }
    int hl = extended ? 32 : 16;
    if (cbytes < hl) {
      throw new CodecException("Blosc chunk: cbytes " + cbytes + " is smaller than the " + hl + "-byte header");
    }
    if (cbytes > len) {
      throw new CodecException("Blosc chunk: header says " + cbytes + " bytes but only " + len + " are available (truncated?)");
    }
    if (nbytes < 0) {
      throw new CodecException("Blosc chunk: negative uncompressed size " + nbytes);
    }
    if (typesize == 0) {
      throw new CodecException("Blosc chunk: typesize 0");
    }
    return hl;
  }

  /**
   * The filter pipeline into {@link #filters}/{@link #filtersMeta}: from the extended header, else from the Blosc1
   * flags. Returns {codec id, blosc2 flags, special kind}.
   */
  private int[] readPipeline(byte[] b, int off) {
    if (headerLength == 32) {
      for (int i = 0; i < 6; i++) {
        filters[i] = b[off + 16 + i] & 0xff;
        filtersMeta[i] = b[off + 24 + i];
      }
      int b2 = b[off + 31] & 0xff;
      return new int[] {b[off + 22] & 0xff, b2, (b2 >> 4) & 0x07};
    }
    if ((flags & FLAG_SHUFFLE) != 0) {
      filters[5] = SHUFFLE;
    } else if ((flags & FLAG_BITSHUFFLE) != 0) {
      filters[5] = BITSHUFFLE;
    }
    if ((flags & FLAG_DELTA) != 0 && version >= 3) {
      filters[4] = DELTA;
    }
    return new int[] {-1, 0, SPECIAL_NONE};
  }

  /** The codec of the flags, checked together with the special kind and the unsupported Blosc2 features. */
  private BloscCompressor checkCodecAndSpecial(byte[] b, int off) throws CodecException {
    int format = flags >> 5;
    if (format == 6) {
      throw new CodecException("Blosc chunk: user-defined codec " + codecId + " is not supported");
    }
    BloscCompressor c = BloscCompressor.ofFormat(format);
    if (c == null && (flags & FLAG_MEMCPYED) == 0 && special == SPECIAL_NONE && nbytes > 0) {
      throw new CodecException("Blosc chunk: unknown codec format " + format);
    }
    if ((blosc2Flags & 0x02) != 0 && special == SPECIAL_NONE) {
      throw new CodecException("Blosc chunk: big-endian chunks (blosc2_flags bit 1) are not supported");
    }
    if (headerLength == 32 && (b[off + 30] & 0x01) != 0) {
      throw new CodecException("Blosc chunk: variable-length blocks (blosc2_flags2 bit 0) are not supported");
    }
    if (special > SPECIAL_UNINIT) {
      throw new CodecException("Blosc chunk: unknown special value kind " + special);
    }
    if (special == SPECIAL_VALUE) {
      int vs = cbytes - headerLength;
      if (vs <= 0 || (nbytes % vs) != 0) {
        throw new CodecException("Blosc chunk: repeated-value chunk with a " + vs + "-byte value cannot fill " + nbytes + " bytes");
      }
    }
    if (special == SPECIAL_NAN && typesize != 4 && typesize != 8) {
      throw new CodecException("Blosc chunk: NaN chunk with typesize " + typesize + " (4 or 8 expected)");
    }
    return c;
  }

  /**
   * The blocks of a chunk with data: {blocksize, nblocks, dictionary size, first data byte}, every size checked against
   * the chunk, strictly as c-blosc (1.x and 2.x) reads chunks.
   */
  private int[] blockLayout(byte[] b, int off, int bs) throws CodecException {
    // 0 < blocksize <= nbytes (writers cap the block size at the data size); for Blosc1 formats (version <= 2) the
    // flags bit 3 is undefined
    if (bs <= 0 || bs > nbytes) {
      throw new CodecException("Blosc chunk: blocksize " + bs + " is not between 1 and nbytes " + nbytes);
    }
    if (version <= 2 && (flags & FLAG_DELTA) != 0) {
      throw new CodecException(String.format("Blosc chunk: flags 0x%02x set bit 3, undefined in format version %d",
          flags, version));
    }
    if ((flags & FLAG_MEMCPYED) != 0) {
      if ((long) headerLength + nbytes != cbytes) { // exactly the header and the data, as c-blosc checks
        throw new CodecException("Blosc chunk: memcpyed chunk of " + cbytes + " bytes does not hold exactly its "
            + headerLength + "-byte header and " + nbytes + " bytes of data");
      }
      return new int[] {Math.min(bs, nbytes), 0, 0, headerLength};
    }
    if (versionLz != 1) {
      // every codec's stream format in Blosc chunks is version 1; c-blosc refuses any other
      throw new CodecException("Blosc chunk: codec format version " + versionLz + " (only 1 is defined)");
    }
    long nb = ((long) nbytes + bs - 1) / bs;
    long tableEnd = headerLength + 4 * nb;
    if (tableEnd > cbytes) {
      throw new CodecException("Blosc chunk: " + nb + " blocks need a " + (4 * nb) + "-byte offset table, more than the chunk's "
          + cbytes + " bytes");
    }
    int start = (int) tableEnd;
    int ds = 0;
    if ((blosc2Flags & 0x01) != 0) {
      if (start + 4 > cbytes) {
        throw new CodecException("Blosc chunk: dictionary size lies past the end of the chunk");
      }
      ds = le32(b, off + start);
      if (ds <= 0 || (long) start + 4 + ds > cbytes) {
        throw new CodecException("Blosc chunk: dictionary of " + ds + " bytes does not fit in the chunk");
      }
      start += 4 + ds;
    }
    for (int i = 0; i < 6; i++) {
      if (filters[i] > TRUNC_PREC) {
        throw new CodecException("Blosc chunk: filter " + filters[i] + " in slot " + i
            + " is not supported (user or plugin filter)");
      }
    }
    return new int[] {bs, (int) nb, ds, start};
  }

  /** Parses and validates the chunk at {@code buf[off..off+len)}; the chunk may be followed by other bytes. */
  public static BloscHeader parse(byte[] buf, int off, int len) throws IOException {
    if (buf == null || off < 0 || len < 0 || off > buf.length - len) {
      throw new CodecException("Blosc chunk: bad buffer slice (offset " + off + ", length " + len + ")");
    }
    return new BloscHeader(buf, off, len);
  }

  static int le32(byte[] b, int p) {
    return (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | (b[p + 3] & 0xff) << 24;
  }

  public int version() {
    return version;
  }

  public int versionLz() {
    return versionLz;
  }

  public int flags() {
    return flags;
  }

  public int typesize() {
    return typesize;
  }

  /** Uncompressed size in bytes. */
  public int nbytes() {
    return nbytes;
  }

  /** Effective block size (the header's, capped at nbytes). */
  public int blocksize() {
    return blocksize;
  }

  /** Total chunk size including the header. */
  public int cbytes() {
    return cbytes;
  }

  public int headerLength() {
    return headerLength;
  }

  /** Number of blocks (0 for special, memcpyed and empty chunks). */
  public int nblocks() {
    return nblocks;
  }

  public boolean isMemcpyed() {
    return (flags & FLAG_MEMCPYED) != 0;
  }

  /** True for the 32-byte Blosc2 extended header. */
  public boolean isExtended() {
    return headerLength == 32;
  }

  /** True when blocks are never split into per-byte streams (flags bit 4). */
  public boolean isDontSplit() {
    return (flags & FLAG_DONT_SPLIT) != 0;
  }

  /** The codec of the streams (null only for chunks without streams). */
  public BloscCompressor compressor() {
    return compressor;
  }

  /** The 6 filter slots (derived from the flags for 16-byte headers). */
  public int[] filters() {
    return filters.clone();
  }

  public int[] filtersMeta() {
    return filtersMeta.clone();
  }

  /** 0 none, 1 zeros, 2 NaN, 3 repeated value, 4 uninitialized. */
  public int special() {
    return special;
  }

  public boolean hasDictionary() {
    return dictSize > 0;
  }

  /** The c-blosc2 codec id at byte 22 (extended header), else -1. */
  public int codecId() {
    return codecId;
  }

  int dictSize() {
    return dictSize;
  }

  int dataStart() {
    return dataStart;
  }

  /** True when the filters include DELTA (blocks then depend on block 0). */
  public boolean hasDelta() {
    for (int f : filters) {
      if (f == DELTA) {
        return true;
      }
    }
    return false;
  }

  /** Name of a Blosc2 filter id (e.g. {@code shuffle}). */
  public static String filterName(int f) {
    switch (f) {
      case NOFILTER:
        return "none";
      case SHUFFLE:
        return "shuffle";
      case BITSHUFFLE:
        return "bitshuffle";
      case DELTA:
        return "delta";
      case TRUNC_PREC:
        return "trunc_prec";
      default:
        return "filter" + f;
    }
  }

  static String specialName(int s) {
    switch (s) {
      case SPECIAL_ZEROS:
        return "zeros";
      case SPECIAL_NAN:
        return "nan";
      case SPECIAL_VALUE:
        return "repeated value";
      case SPECIAL_UNINIT:
        return "uninitialized";
      default:
        return "none";
    }
  }

  /** The filter pipeline in application order, e.g. {@code delta, shuffle} (empty when none). */
  public String filterDescription() {
    return filterDescription(filters, filtersMeta);
  }

  /** Six filter ids with their meta bytes as {@link #filterDescription()} writes them. */
  static String filterDescription(int[] filters, int[] filtersMeta) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      if (filters[i] != NOFILTER) {
        if (sb.length() > 0) {
          sb.append(", ");
        }
        sb.append(filterName(filters[i]));
        if (filtersMeta[i] != 0) {
          sb.append('(').append(filtersMeta[i]).append(')');
        }
      }
    }
    return sb.toString();
  }

  /** Multi-line description for {@code chunkcdm blosc info}. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("format: ").append(isExtended() ? "Blosc2 (32-byte extended header)" : "Blosc1 (16-byte header)").append('\n');
    sb.append("version: ").append(version).append('\n');
    sb.append("versionlz: ").append(versionLz).append('\n');
    sb.append(String.format("flags: 0x%02x%n", flags));
    sb.append("codec: ").append(isMemcpyed() ? "none (memcpyed)" : compressor == null ? "none" : compressor.cname()).append('\n');
    sb.append("typesize: ").append(typesize).append('\n');
    sb.append("nbytes: ").append(nbytes).append('\n');
    sb.append("cbytes: ").append(cbytes).append('\n');
    sb.append("blocksize: ").append(blocksize).append('\n');
    sb.append("nblocks: ").append(nblocks).append('\n');
    String f = filterDescription();
    sb.append("filters: ").append(f.isEmpty() ? "none" : f).append('\n');
    sb.append("split: ").append(isDontSplit() ? "no" : "yes").append('\n');
    sb.append("special: ").append(specialName(special)).append('\n');
    if (isExtended()) {
      sb.append("codec id: ").append(codecId).append('\n');
      sb.append("dictionary: ").append(hasDictionary() ? dictSize + " bytes" : "none").append('\n');
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "Blosc v" + version + " " + (compressor == null ? "-" : compressor.cname()) + " typesize " + typesize + " nbytes "
        + nbytes + " cbytes " + cbytes + " blocksize " + blocksize;
  }
}
