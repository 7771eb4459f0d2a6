package org.chunkcdm.blosc;

import org.chunkcdm.blosc.zstd.ZstdDictionary;

/**
 * The dictionary a Blosc2 chunk stores after its block offsets (blosc2_flags bit 0), made ready once per chunk
 * for the chunk's codec: LZ4/LZ4HC streams use all its bytes as their prefix dictionary, Zstd streams its parsed
 * form. Immutable; the blocks of a chunk share it, also across threads.
 */
final class ChunkDictionary {
  /** LZ4: the bytes that precede every stream's output (null for zstd). */
  final byte[] prefix;
  /** Zstd: the parsed dictionary (null for LZ4). */
  final ZstdDictionary zstd;

  ChunkDictionary(byte[] prefix, ZstdDictionary zstd) {
    this.prefix = prefix;
    this.zstd = zstd;
  }
}
