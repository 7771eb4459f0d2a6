/**
 * HDF5 / NetCDF-4 files with the filters netcdf-java 5.5.3 lacks (LZF, LZ4, Bitshuffle, Zstandard, BZip2, Blosc,
 * Blosc2, N-bit, scale-offset) and with N-bit datatypes: netcdf-java's HDF5 reader finds the datasets, chunks are read
 * and decoded through the chunk layer.
 *
 * <p>May import: the codec, the chunk layer, the CDM adapter, {@code org.chunkcdm.sframe} (Blosc2 frames), Apache
 * Commons Compress (BZip2), netcdf-java.
 */
package org.chunkcdm.hdf5;
