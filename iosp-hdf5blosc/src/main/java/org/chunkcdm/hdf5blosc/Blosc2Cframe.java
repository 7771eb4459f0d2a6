package org.chunkcdm.hdf5blosc;

import java.io.IOException;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscChunkData;

/**
 * The one Blosc2 chunk of an HDF5 Blosc2-filter (32026) chunk: each stored chunk is a whole Blosc2 contiguous
 * frame holding a single Blosc2 chunk (for rank &gt; 1 a b2nd array whose shape, chunk shape and block shape
 * equal the HDF5 chunk shape). Only the fixed frame header fields and the offsets index are read; the chunk
 * itself goes to core's {@link BloscChunkData} (block-level partial decode).
 *
 * <p>iosp-sframe's {@code Frame} reads frames from files through {@code FileHandles}; this is the in-memory
 * counterpart for the one-chunk frames of the HDF5 filter.
 */
final class Blosc2Cframe {
  private Blosc2Cframe() {}

  private static final byte[] MAGIC = {(byte) 0x9e, (byte) 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0};

  static BloscChunkData chunk(byte[] f, int rank, long expectedBytes) throws IOException {
    if (f.length < 87) {
      throw new IOException("Blosc2 frame: " + f.length + " bytes, less than a frame header");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (f[i] != MAGIC[i]) {
        throw new IOException("Blosc2 frame: no frame magic (0x9E 0xA8 'b2frame\\0') at the start");
      }
    }
    if ((f[10] & 0xff) != 0xd2 || (f[15] & 0xff) != 0xcf || (f[24] & 0xff) != 0xa4 || (f[29] & 0xff) != 0xd3
        || (f[38] & 0xff) != 0xd3) {
      throw new IOException("Blosc2 frame: header fields are not where a contiguous frame has them");
    }
    long headerLen = be(f, 11, 4);
    long frameLen = be(f, 16, 8);
    int frameType = f[26] & 0xff;
    long nbytes = be(f, 30, 8);
    long cbytes = be(f, 39, 8);
    if (frameLen != f.length) {
      throw new IOException("Blosc2 frame: frame_len " + frameLen + " but the chunk holds " + f.length + " bytes");
    }
    if (frameType != 0) {
      throw new IOException("Blosc2 frame: frame type " + frameType + " is not contiguous (0)");
    }
    if (headerLen < 87 || cbytes < 0 || headerLen + cbytes > f.length) {
      throw new IOException("Blosc2 frame: header_len " + headerLen + " + cbytes " + cbytes + " exceed the frame's "
          + f.length + " bytes");
    }
    if (nbytes != expectedBytes) {
      throw new IOException("Blosc2 frame: holds " + nbytes + " bytes, the HDF5 chunk needs " + expectedBytes);
    }
    // offsets index: a Blosc2 chunk of int64 offsets right after the chunks section
    int ixPos = (int) (headerLen + cbytes);
    byte[] offs = Blosc.decompress(f, ixPos, f.length - ixPos);
    if (offs.length != 8) {
      throw new IOException("Blosc2 frame: " + offs.length / 8 + " chunks, the HDF5 Blosc2 filter writes exactly 1");
    }
    long off0 = 0;
    for (int i = 7; i >= 0; i--) {
      off0 = off0 << 8 | (offs[i] & 0xff);
    }
    if (off0 < 0 || off0 > cbytes - 16) {
      throw new IOException("Blosc2 frame: chunk offset " + off0 + " outside the chunks section of " + cbytes + " bytes");
    }
    int pos = (int) (headerLen + off0);
    BloscChunkData d = BloscChunkData.of(f, pos, (int) (headerLen + cbytes - pos));
    if (d.size() != expectedBytes) {
      throw new IOException("Blosc2 frame: its chunk holds " + d.size() + " bytes, the HDF5 chunk needs " + expectedBytes);
    }
    if (rank > 1 && d.header().nblocks() > 1) {
      // b2nd blocks smaller than the chunk are stored block by block, not in C order over the chunk
      throw new IOException("Blosc2 frame: b2nd chunk of " + d.header().nblocks()
          + " blocks (block shape smaller than the chunk shape) is not supported");
    }
    return d;
  }

  private static long be(byte[] b, int off, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = v << 8 | (b[off + i] & 0xff);
    }
    return v;
  }
}
