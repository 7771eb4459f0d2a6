package org.chunkcdm.sframe;

import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.cdm.DatasetDirectoryProvider;

/**
 * Lets netcdf-java open a Blosc2 sparse frame by its directory path ({@code x.b2frame/}): the entry file is
 * the directory's {@code chunks.b2frame}, which {@link Blosc2FrameIosp} recognises by its frame magic.
 */
public class Blosc2FrameDirectoryProvider extends DatasetDirectoryProvider {
  @Override
  protected Path entryFile(Path dir) {
    Path index = dir.resolve(Blosc2FrameIosp.INDEX_FILE);
    return Files.isRegularFile(index) ? index : null;
  }
}
