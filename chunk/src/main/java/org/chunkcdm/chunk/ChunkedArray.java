package org.chunkcdm.chunk;

import java.io.IOException;

/**
 * A format's view of one stored N-d array: element type, chunk grid, and "get chunk i". A format module
 * implements only this (metadata parsing and chunk location); {@link SectionReader} does all section
 * assembly (chunk intersection, strides, byte order, fill values) for every format.
 *
 * <p>Implementations must be thread-safe: many threads read one array, so {@link #chunk(long)} must not
 * rely on a shared file pointer.
 */
public interface ChunkedArray {
  DType dtype();

  ChunkGrid grid();

  /**
   * The decoded content of chunk {@code index} (C order over the grid), or {@code null} when the chunk is not
   * stored and reads as the fill value. Errors are IOExceptions naming the file and the chunk.
   */
  ChunkData chunk(long index) throws IOException;

  /**
   * Announces that a read will now need {@code chunks} (indexes, ascending, none already in the cache): a format
   * whose stored bytes may be remote tells its {@link org.chunkcdm.io.FileHandles#prefetch} where they lie, so
   * they come with few coalesced, parallel requests. The read closes the result when it is done. Default:
   * nothing (local files need no announcement).
   */
  default org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws IOException {
    return org.chunkcdm.io.FileHandles.Prefetch.NONE;
  }

  /** Fill value for missing chunks: {@code itemSize} bytes in the dtype's byte order, or null for zeros. */
  default byte[] fillValue() {
    return null;
  }

  /**
   * Identity of this array's content for the shared decoded-chunk cache (e.g. path, variable, modification
   * time), or null to disable caching. Two arrays with equal keys must have equal chunks.
   */
  default Object cacheKey() {
    return null;
  }

  /**
   * The read settings (cache, decode threads) reads of this array use when the caller passes none:
   * {@link ReadSettings#defaults()} unless the array was made with {@link #withSettings(ReadSettings)}.
   */
  default ReadSettings settings() {
    return ReadSettings.defaults();
  }

  /**
   * This array reading with other settings (e.g. a host's private cache): a view sharing dtype, grid, chunks
   * and cache key; {@code this} when the settings are already these.
   */
  default ChunkedArray withSettings(ReadSettings s) {
    ReadSettings want = s == null ? ReadSettings.defaults() : s;
    if (want == settings()) {
      return this;
    }
    ChunkedArray base = this instanceof SettingsView ? ((SettingsView) this).base : this;
    return new SettingsView(base, want);
  }

  /** The view {@link #withSettings(ReadSettings)} returns. */
  final class SettingsView implements ChunkedArray {
    final ChunkedArray base;
    final ReadSettings settings;

    SettingsView(ChunkedArray base, ReadSettings settings) {
      this.base = base;
      this.settings = settings;
    }

    /** The array this view reads. */
    public ChunkedArray base() {
      return base;
    }

    @Override
    public DType dtype() {
      return base.dtype();
    }

    @Override
    public ChunkGrid grid() {
      return base.grid();
    }

    @Override
    public ChunkData chunk(long index) throws java.io.IOException {
      return base.chunk(index);
    }

    @Override
    public byte[] fillValue() {
      return base.fillValue();
    }

    @Override
    public org.chunkcdm.io.FileHandles.Prefetch prefetch(long[] chunks) throws java.io.IOException {
      return base.prefetch(chunks);
    }

    @Override
    public Object cacheKey() {
      return base.cacheKey();
    }

    @Override
    public ReadSettings settings() {
      return settings;
    }
  }
}
