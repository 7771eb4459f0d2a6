package org.chunkcdm.hdf5;

import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.sframe.ContiguousFrame;

/**
 * The content of one HDF5 Blosc2-filter (32026) chunk: each stored chunk is a whole Blosc2 contiguous frame,
 * parsed by iosp-sframe's frame reader ({@link ContiguousFrame}). This class adds only the filter's rules: the
 * frame holds exactly one chunk; for rank &gt; 1 it may be a b2nd array whose shape and chunk shape equal the
 * HDF5 chunk shape, its block shape equal to it (one block) or smaller (blocks decoded only where a read needs
 * them, padding dropped); the decoded content is the full (padded) HDF5 chunk.
 */
final class Blosc2Cframe {
  private Blosc2Cframe() {}

  static ChunkData chunk(byte[] f, int[] chunkShape, long expectedBytes) throws IOException {
    try {
      return check(ContiguousFrame.parse(f, "Blosc2 frame"), chunkShape, expectedBytes);
    } catch (RuntimeException e) { // e.g. sizes of a lying b2nd metalayer overflowing
      throw new IOException("Blosc2 frame: " + e, e);
    }
  }

  private static ChunkData check(ContiguousFrame cf, int[] chunkShape, long expectedBytes) throws IOException {
    if (cf.chunks() != 1) {
      throw new IOException("Blosc2 frame: " + cf.chunks() + " chunks, the HDF5 Blosc2 filter writes exactly 1");
    }
    if (cf.isB2nd()) {
      long[] shape = cf.shape();
      int[] cs = cf.chunkShape();
      boolean same = shape.length == chunkShape.length;
      for (int d = 0; same && d < shape.length; d++) {
        same = shape[d] == chunkShape[d] && cs[d] == chunkShape[d];
      }
      if (!same) {
        throw new IOException("Blosc2 frame: b2nd array of shape " + Arrays.toString(shape) + ", chunk shape "
            + Arrays.toString(cs) + "; the HDF5 chunk shape is " + Arrays.toString(chunkShape));
      }
    } else if (cf.nbytes() != expectedBytes) {
      throw new IOException("Blosc2 frame: holds " + cf.nbytes() + " bytes, the HDF5 chunk needs " + expectedBytes);
    }
    ChunkData d = cf.chunk(0);
    if (d.size() != expectedBytes) {
      throw new IOException("Blosc2 frame: its chunk holds " + d.size() + " bytes, the HDF5 chunk needs " + expectedBytes);
    }
    return d;
  }
}
