package org.chunkcdm.hdf5blosc;

import org.chunkcdm.hdf5.H5Iosp;

/**
 * The former name of {@link H5Iosp}, kept so that existing {@code threddsConfig.xml} files that register
 * {@code org.chunkcdm.hdf5blosc.H5BloscIosp} keep working: it is {@link H5Iosp} (every filter, not only Blosc).
 * New configurations name {@code org.chunkcdm.hdf5.H5Iosp}.
 *
 * @deprecated register {@link H5Iosp} instead
 */
@Deprecated
public class H5BloscIosp extends H5Iosp {
  /** Registers {@link H5Iosp} (the same reader) with netcdf-java ahead of the built-in readers. */
  public static void register() {
    H5Iosp.register();
  }
}
