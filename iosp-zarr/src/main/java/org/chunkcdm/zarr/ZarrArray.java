package org.chunkcdm.zarr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.BloscChunkData;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.FetchBuffers;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;

/**
 * One Zarr array as a {@link org.chunkcdm.chunk.ChunkedArray}: its chunk grid (the inner chunks of a sharded array), and chunk i read by
 * its key: an absent key is a never-written chunk (fill value). A chunk that is one Blosc frame is read through the
 * shared Blosc chunk path (only the blocks a section needs are decoded); other chunks are decoded whole by their
 * {@link Pipeline}. A sharded array reads a shard's index (cached) and then only the inner chunks asked for, each by
 * one ranged read. Thread-safe.
 */
final class ZarrArray extends BasicChunkedArray {
  /** Shard index entries kept in memory per array (16 bytes each). */
  static final long INDEX_CACHE_ENTRIES = 1 << 20;
  private static final long[] NO_SHARD = new long[0];

  final Store store;
  /** Key prefix of the array: {@code ""} for a store whose root is the array, else {@code path/}. */
  final String prefix;
  /** The array's path for messages ({@code temp}, {@code model/run1/u}, or the store name for a root array). */
  final String name;
  private final ChunkGrid.Regular grid;
  final ChunkKeys keys;
  final Pipeline pipeline; // unsharded arrays
  final Sharding sharding; // sharded arrays, else null
  /** Why chunks cannot be decoded (an unknown codec), else null. */
  final String unreadable;
  private final long chunkBytes;
  private final long[] gridShape;
  private final Map<Long, long[]> shardIndexes;
  private long cachedEntries;

  ZarrArray(Store store, String prefix, String name, DType dtype, long[] shape, int[] chunkShape, byte[] fill,
      ChunkKeys keys, Pipeline pipeline, Sharding sharding, String unreadable) {
    super(dtype, ChunkGrid.regular(shape, chunkShape), fill, new Object());
    this.store = store;
    this.prefix = prefix;
    this.name = name;
    this.grid = (ChunkGrid.Regular) super.grid();
    this.keys = keys;
    this.pipeline = pipeline;
    this.sharding = sharding;
    this.unreadable = unreadable;
    this.chunkBytes = grid.chunkElements() * dtype.itemSize();
    this.gridShape = grid.gridShape();
    this.shardIndexes = sharding == null ? null : new LinkedHashMap<>(16, 0.75f, true);
  }

  @Override
  public ChunkGrid.Regular grid() {
    return grid;
  }

  /** A readable description of the compression (codecs, levels, filters, sharding). */
  String compression() {
    if (sharding != null) {
      return sharding.describe();
    }
    return pipeline == null ? "unknown" : pipeline.description;
  }

  private long[] coords(long index) throws IOException {
    if (index < 0 || index >= grid.chunkCount()) {
      throw new IOException(store.root() + ": array '" + name + "': chunk " + index + " does not exist ("
          + grid.chunkCount() + " chunks)");
    }
    long[] c = new long[gridShape.length];
    long rest = index;
    for (int d = gridShape.length - 1; d >= 0; d--) {
      c[d] = rest % gridShape[d];
      rest /= gridShape[d];
    }
    return c;
  }

  @Override
  public ChunkData chunk(long index) throws IOException {
    if (unreadable != null) {
      throw new FormatException(store.root() + ": array '" + name + "' cannot be read: " + unreadable);
    }
    long[] c = coords(index);
    if (chunkBytes > Bounds.MAX_ARRAY) {
      throw new FormatException(store.root() + ": array '" + name + "': a chunk of " + chunkBytes
          + " bytes is larger than one Java array");
    }
    return sharding == null ? plainChunk(c) : innerChunk(c);
  }

  /**
   * Remote directory stores: the chunk objects a read needs (the inner chunks' byte ranges of a sharded array, after
   * their shards' indexes) are fetched ahead, in parallel; a chunk object that is not there is still the fill value.
   */
  @Override
  public FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
    if (!(store instanceof DirectoryStore) || !((DirectoryStore) store).files().isRemote() || unreadable != null) {
      return FileHandles.Prefetch.NONE;
    }
    DirectoryStore ds = (DirectoryStore) store;
    List<FileHandles.Range> ranges = new ArrayList<>();
    for (long index : chunks) {
      long[] c = coords(index);
      if (sharding == null) {
        ranges.add(new FileHandles.Range(ds.path(prefix + keys.key(c)), 0, -1));
        continue;
      }
      Inner in = inner(c);
      if (in != null && in.offset >= 0 && in.size > 0 && in.size <= Bounds.MAX_ARRAY) { // else the read says what is wrong
        ranges.add(new FileHandles.Range(ds.path(in.key), in.offset, in.size));
      }
    }
    return ds.files().prefetch(ranges);
  }

  private ChunkData plainChunk(long[] c) throws IOException {
    String k = keys.key(c);
    String key = prefix + k;
    String where = store.describe(key) + ": chunk " + k + " of array '" + name + "'";
    try {
      if (pipeline.bloscOnly() && store instanceof DirectoryStore && ((DirectoryStore) store).keepOpen()) {
        DirectoryStore ds = (DirectoryStore) store;
        long size = ds.size(key);
        if (size < 0) {
          return null;
        }
        if (size > Bounds.MAX_ARRAY) {
          throw new FormatException("chunk file of " + size + " bytes");
        }
        // the stored bytes go into a pooled buffer, given back when the reader releases the chunk
        byte[] b = FetchBuffers.take((int) size);
        try {
          ds.readFully(key, b, (int) size);
        } catch (IOException | RuntimeException e) {
          FetchBuffers.give(b);
          throw e;
        }
        BloscChunkData d = BloscChunkData.pooled(b, 0, (int) size, where, () -> refetch(key, size));
        return checked(d, where);
      }
      byte[] b = store.get(key, Bounds.MAX_ARRAY);
      if (b == null) {
        return null;
      }
      if (pipeline.bloscOnly()) {
        return checked(BloscChunkData.of(b, 0, b.length, where), where);
      }
      return decodedOnRead(pipeline, b, where);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(where)) {
        throw e;
      }
      throw FormatException.in(where, e);
    }
  }

  private byte[] refetch(String key, long size) throws IOException {
    byte[] b = store.get(key, Bounds.MAX_ARRAY);
    if (b == null || b.length != size) {
      throw new FormatException(store.describe(key) + ": chunk file changed or vanished since it was first read");
    }
    return b;
  }

  private ChunkData checked(BloscChunkData d, String where) throws IOException {
    if (d.size() != chunkBytes) {
      d.release();
      throw new FormatException(where + ": Blosc frame holds " + d.size() + " bytes, the chunk shape needs " + chunkBytes);
    }
    return d;
  }

  // ------------------------------------------------------------------------------------------ sharding

  /** Where an inner chunk of a sharded array is stored: its shard's key and its bytes there. */
  private record Inner(String key, String where, long offset, long size) {}

  /** The stored inner chunk at grid coordinates c, or null when it is not written (the fill value). */
  private Inner inner(long[] c) throws IOException {
    int rank = c.length;
    long[] shard = new long[rank];
    long[] local = new long[rank];
    for (int d = 0; d < rank; d++) {
      shard[d] = c[d] / sharding.perShard[d];
      local[d] = c[d] % sharding.perShard[d];
    }
    String k = keys.key(shard);
    String key = prefix + k;
    long shardIndex = 0;
    for (int d = 0; d < rank; d++) {
      long n = (gridShape[d] + sharding.perShard[d] - 1) / sharding.perShard[d];
      shardIndex = shardIndex * n + shard[d];
    }
    long[] index = shardIndex(shardIndex, key, k);
    if (index == NO_SHARD) {
      return null;
    }
    int j = sharding.entry(local);
    long off = index[2 * j];
    long nb = index[2 * j + 1];
    if (off == -1 && nb == -1) {
      return null; // never written
    }
    String where = store.describe(key) + ": inner chunk " + java.util.Arrays.toString(local) + " (index entry " + j
        + ") of shard " + k + " of array '" + name + "'";
    return new Inner(key, where, off, nb);
  }

  private ChunkData innerChunk(long[] c) throws IOException {
    Inner in = inner(c);
    if (in == null) {
      return null;
    }
    String key = in.key;
    String where = in.where;
    long off = in.offset;
    long nb = in.size;
    try {
      byte[] b = store.getRange(key, off, (int) nb);
      if (b == null) {
        throw new FormatException("shard vanished since its index was read");
      }
      if (sharding.inner.bloscOnly()) {
        return checked(BloscChunkData.of(b, 0, b.length, where), where);
      }
      return decodedOnRead(sharding.inner, b, where);
    } catch (IOException e) {
      throw FormatException.in(where, e);
    }
  }

  /**
   * The stored chunk {@code b}, decoded by {@code p} when it is read (straight into the reader's array when it takes the
   * whole chunk); a failure names {@code where}.
   */
  private ChunkData decodedOnRead(Pipeline p, byte[] b, String where) throws IOException {
    if (p.steps.isEmpty()) { // stored as they are: the stored bytes themselves, checked now
      return ChunkData.of(p.decode(b, 0, b.length, chunkBytes));
    }
    return ChunkData.withAnyContext(ChunkData.decodedOnRead(chunkBytes, (dst, o) -> p.decodeInto(b, 0, b.length,
        chunkBytes, dst, o)), e -> FormatException.in(where, e instanceof IOException ? (IOException) e
            : new FormatException(String.valueOf(e.getMessage()), e)));
  }

  /** The decoded index of a shard (offset, nbytes pairs), {@link #NO_SHARD} when the shard is not stored. */
  private long[] shardIndex(long shardIndex, String key, String k) throws IOException {
    synchronized (shardIndexes) {
      long[] have = shardIndexes.get(shardIndex);
      if (have != null) {
        return have;
      }
    }
    String where = store.describe(key) + ": index of shard " + k + " of array '" + name + "'";
    long[] idx;
    try {
      idx = readIndex(key);
    } catch (IOException e) {
      throw FormatException.in(where, e);
    }
    synchronized (shardIndexes) {
      if (shardIndexes.put(shardIndex, idx) == null) {
        cachedEntries += idx.length / 2 + 1;
      }
      java.util.Iterator<long[]> it = shardIndexes.values().iterator();
      while (cachedEntries > INDEX_CACHE_ENTRIES && it.hasNext()) {
        long[] old = it.next();
        cachedEntries -= old.length / 2 + 1;
        it.remove();
      }
    }
    return idx;
  }

  private long[] readIndex(String key) throws IOException {
    int len = sharding.indexBytes;
    byte[] raw;
    long shardSize;
    if (sharding.indexAtStart) {
      shardSize = store.size(key);
      if (shardSize < 0) {
        return NO_SHARD;
      }
      if (shardSize < len) {
        throw new FormatException(shardSize + " bytes, too short for its " + len + "-byte index");
      }
      raw = store.getRange(key, 0, len);
    } else {
      Store.Suffix s = store.getSuffix(key, len);
      if (s == null) {
        return NO_SHARD;
      }
      raw = s.bytes();
      shardSize = s.size();
    }
    if (raw == null) {
      return NO_SHARD;
    }
    byte[] dec = sharding.index.decode(raw, 0, raw.length, 16L * sharding.count);
    long[] idx = new long[2 * sharding.count];
    boolean big = sharding.indexBigEndian;
    for (int i = 0; i < idx.length; i++) {
      long v = 0;
      int p = 8 * i;
      if (big) {
        for (int b = 0; b < 8; b++) {
          v = v << 8 | (dec[p + b] & 0xFF);
        }
      } else {
        for (int b = 7; b >= 0; b--) {
          v = v << 8 | (dec[p + b] & 0xFF);
        }
      }
      idx[i] = v;
    }
    for (int j = 0; j < sharding.count; j++) {
      long off = idx[2 * j];
      long nb = idx[2 * j + 1];
      if (off == -1 && nb == -1) {
        continue;
      }
      if (off < 0 || nb < 0 || nb > Bounds.MAX_ARRAY || off > shardSize - nb) {
        throw new FormatException("index entry " + j + " (offset " + Long.toUnsignedString(off) + ", " + Long.toUnsignedString(nb)
            + " bytes) lies outside the shard of " + shardSize + " bytes");
      }
    }
    return idx;
  }

  @Override
  public String toString() {
    return name + " " + dtype() + " " + grid;
  }
}
