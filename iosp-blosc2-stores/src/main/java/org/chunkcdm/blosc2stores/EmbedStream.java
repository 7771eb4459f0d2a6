package org.chunkcdm.blosc2stores;

import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import org.chunkcdm.blosc.BloscFrame;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.sframe.ContiguousFrame;

/**
 * The decompressed byte stream of an EmbedStore frame (a plain super-chunk of typesize 1 whose chunks are all
 * {@code chunksize} bytes but the last): each embedded value is a complete contiguous frame at (offset, length) of
 * that stream. {@link #slice} gives such a value as frame bytes; a read decodes only the blocks of the stream
 * chunks it covers (no copy of the stream is kept: embedded values are small by construction, and the value's own
 * decoded chunks go to the shared chunk cache like any array's). Thread-safe.
 */
final class EmbedStream {
  /** Stream chunks fetched (tests prove that opening a store touches only what it must). */
  static final LongAdder CHUNKS_FETCHED = new LongAdder();

  private final ContiguousFrame frame;
  private final String name;
  private final long length;
  private final int chunk;

  EmbedStream(ContiguousFrame frame, String name) throws IOException {
    this.frame = frame;
    this.name = name;
    this.length = frame.nbytes();
    this.chunk = frame.chunksize();
    if (length > 0 && chunk <= 0) {
      throw new FormatException(name + ": the embed store frame has no fixed chunksize (" + chunk
          + "), so its byte stream cannot be addressed");
    }
    if (frame.isB2nd()) {
      throw new FormatException(name + ": the embed store frame is a b2nd array, not a byte stream");
    }
  }

  /** Bytes of the decompressed stream. */
  long length() {
    return length;
  }

  /** The value at {@code offset, length} of the stream as frame bytes; outside the stream is a FormatException. */
  BloscFrame.Source slice(String key, long offset, long len) throws IOException {
    if (offset < 0 || len < 0 || offset > length - len) {
      throw new FormatException(name + ": key '" + key + "': the key map puts it at offset " + offset + ", length "
          + len + ", outside the embed store's byte stream of " + length + " bytes");
    }
    return new BloscFrame.Source() {
      @Override
      public long size() {
        return len;
      }

      @Override
      public void read(long pos, byte[] dst, int off, int n) throws IOException {
        if (pos < 0 || n < 0 || pos > len - n) {
          throw new FormatException(name + ": key '" + key + "': " + n + " bytes at " + pos
              + " lie outside the value's " + len + " bytes");
        }
        copy(offset + pos, dst, off, n);
      }
    };
  }

  /** Stream bytes {@code [at, at+n)} into {@code dst[off..]}, chunk by chunk. */
  private void copy(long at, byte[] dst, int off, int n) throws IOException {
    while (n > 0) {
      long k = at / chunk;
      int within = (int) (at % chunk);
      int part = (int) Math.min(n, chunk - within);
      if (k > Integer.MAX_VALUE) {
        throw new FormatException(name + ": stream position " + at + " needs chunk " + k);
      }
      ChunkData c = frame.chunk((int) k);
      CHUNKS_FETCHED.increment();
      try {
        if (c.size() < within + part) {
          throw new FormatException(name + ": stream chunk " + k + " holds " + c.size() + " bytes, fewer than the "
              + (within + part) + " the key map needs");
        }
        c.read(within, dst, off, part);
      } finally {
        c.release();
      }
      at += part;
      off += part;
      n -= part;
    }
  }
}
