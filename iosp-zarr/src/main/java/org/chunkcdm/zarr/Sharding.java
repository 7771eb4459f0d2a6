package org.chunkcdm.zarr;

import java.util.List;

/**
 * Zarr v3 {@code sharding_indexed}: each stored object of the outer grid is a shard holding inner chunks and an
 * index of (offset, nbytes) per inner chunk. The array's chunk grid is the inner one (in the array's axis order), so
 * a section reads only the shard indexes and inner chunks it touches.
 */
final class Sharding {
  /** Inner chunks per shard along each array axis. */
  final int[] perShard;
  /** Inner chunks per shard in the shard's stored axis order (index layout). */
  final int[] perShardStored;
  /** Stored axis k of a shard is array axis {@code perm[k]} (the transposes before the sharding codec). */
  final int[] perm;
  /** Inner chunks per shard (index entries). */
  final int count;
  /** Decoding of the stored index (checksum) and its stored length in bytes. */
  final Pipeline index;
  final int indexBytes;
  final boolean indexBigEndian;
  final boolean indexAtStart;
  /** Decoding of one inner chunk, ending in C order over the inner chunk shape in the array's axis order. */
  final Pipeline inner;

  Sharding(int[] perShard, int[] perm, Pipeline index, int indexBytes, boolean indexBigEndian, boolean indexAtStart,
      Pipeline inner) {
    this.perShard = perShard.clone();
    this.perm = perm.clone();
    this.perShardStored = Transpose.apply(perShard, perm);
    long n = 1;
    for (int p : perShard) {
      n *= p;
    }
    this.count = (int) n;
    this.index = index;
    this.indexBytes = indexBytes;
    this.indexBigEndian = indexBigEndian;
    this.indexAtStart = indexAtStart;
    this.inner = inner;
  }

  /** Index entry of the inner chunk at array-order local coordinates {@code local} within its shard. */
  int entry(long[] local) {
    long j = 0;
    for (int k = 0; k < perm.length; k++) {
      j = j * perShardStored[k] + local[perm[k]];
    }
    return (int) j;
  }

  String describe() {
    List<Step> s = inner.steps;
    return "sharding_indexed " + count + " inner chunks a shard (index at " + (indexAtStart ? "start" : "end")
        + (index.steps.isEmpty() ? "" : ", " + index.description) + "), inner: " + (s.isEmpty() ? "none" : inner.description);
  }
}
