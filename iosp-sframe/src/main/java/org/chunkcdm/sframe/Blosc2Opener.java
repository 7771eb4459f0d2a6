package org.chunkcdm.sframe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.io.Locations;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.FormatOpener;
import org.chunkcdm.open.OpenOptions;

/**
 * Opens Blosc2 frames without netcdf-java: a sparse frame directory ({@code x.b2frame/}) or its
 * {@code chunks.b2frame}, a contiguous frame file, b2nd arrays in either ({@link Blosc2Frames}).
 */
public final class Blosc2Opener extends FormatOpener {
  public Blosc2Opener() {
    super(Blosc2Frames.FORMAT);
  }

  @Override
  protected boolean claims(Path path) throws IOException {
    byte[] head = DatasetOpener.head(entry(path), ContiguousFrame.PROBE_BYTES);
    // a python-blosc2 container's key-map frame (embed.b2e, .b2e) belongs to the stores opener
    return head.length >= Frame.FIXED_HEADER
        && Arrays.equals(head, 0, Frame.MAGIC.length, Frame.MAGIC, 0, Frame.MAGIC.length)
        && !ContiguousFrame.isStoreFrame(head);
  }

  private static Path entry(Path path) {
    Path p = path.toAbsolutePath().normalize();
    return Locations.mayBeDirectory(p) ? p.resolve(Blosc2Frames.INDEX_FILE) : p;
  }

  @Override
  public ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    Path entry = entry(path);
    if (!Files.isRegularFile(entry)) {
      throw new IOException(path + ": not a Blosc2 frame (no " + Blosc2Frames.INDEX_FILE + ")");
    }
    return DatasetOpener.open(Blosc2Frames.datasetRoot(entry), files -> Blosc2Frames.read(files, entry), options);
  }
}
