package org.chunkcdm.blosc;

/** The codec of a Blosc chunk's streams, from the flags' codec format (bits 5-7). */
public enum BloscCompressor {
  /** BloscLZ (format 0) */
  BLOSCLZ,
  /** LZ4 and LZ4HC (format 1; the same block format) */
  LZ4,
  /** Snappy (format 2, Blosc1 only) */
  SNAPPY,
  /** zlib (format 3) */
  ZLIB,
  /** Zstandard (format 4) */
  ZSTD;

  static BloscCompressor ofFormat(int format) {
    switch (format) {
      case 0:
        return BLOSCLZ;
      case 1:
        return LZ4;
      case 2:
        return SNAPPY;
      case 3:
        return ZLIB;
      case 4:
        return ZSTD;
      default:
        return null;
    }
  }

  /** Lower-case name as Blosc writes it. */
  public String cname() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
