package org.chunkcdm.sframe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import ucar.nc2.Group;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for Blosc2 frames: sparse frames (a {@code name.b2frame/} directory whose
 * {@code chunks.b2frame} holds header, offsets index and trailer, plus one {@code XXXXXXXX.chunk} file per
 * stored chunk), contiguous frames ({@code .b2frame}, {@code .b2f}) and b2nd N-d arrays stored in either
 * (a {@code b2nd} metalayer). One variable, named after the directory or file.
 *
 * <p>A plain frame is a 1-D array of its typesize (docs/cdm-contract.md: 1/2/4/8 bytes → unsigned integers,
 * other typesizes → UBYTE records with an extra dimension) cut into the frame's chunks in index order. A b2nd
 * array is an N-d variable of its numpy dtype on a regular grid of chunkshape; block padding is dropped and a
 * small section decodes only the blocks it intersects ({@link B2nd}). Metalayers and vlmetalayers become
 * attributes of the variable ({@link MetaAttributes}).
 *
 * <p>Opening reads the frame header, the offsets index and the trailer only (frames with variable chunk sizes
 * learn their chunk boundaries from the chunks' 16-byte headers on the first read that needs them).
 */
public class Blosc2FrameIosp extends ChunkedIosp {
  public Blosc2FrameIosp() {
    super("blosc2", "Blosc2 sparse or contiguous frame, b2nd array (chunkcdm)");
  }

  static final String INDEX_FILE = Blosc2Frames.INDEX_FILE;

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    if (raf.length() < Frame.FIXED_HEADER) {
      return false;
    }
    byte[] head = new byte[(int) Math.min(raf.length(), ContiguousFrame.PROBE_BYTES)];
    raf.seek(0);
    raf.readFully(head);
    // a python-blosc2 container's key-map frame (embed.b2e, .b2e) belongs to the stores reader
    return Arrays.equals(head, 0, Frame.MAGIC.length, Frame.MAGIC, 0, Frame.MAGIC.length)
        && !ContiguousFrame.isStoreFrame(head);
  }

  /** True when the frame file at {@code p} is a sparse frame's index file (frame_type byte 1). */
  static boolean isSparse(Path p) throws IOException {
    return Blosc2Frames.isSparse(p);
  }

  @Override
  protected Path datasetRoot(Path entry) throws IOException {
    return Blosc2Frames.datasetRoot(entry);
  }

  /** The CDM view of the dataset {@link Blosc2Frames} reads (the same the opener returns). */
  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    ChunkedVariables.addDataset(root, Blosc2Frames.read(files(), entry), null);
  }
}
