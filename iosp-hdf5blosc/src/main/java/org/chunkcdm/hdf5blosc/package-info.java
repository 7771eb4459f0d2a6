/**
 * HDF5 / NetCDF-4 files with the Blosc (32001) and Blosc2 (32026) filters: netcdf-java's HDF5 reader finds the
 * datasets, chunks are read and decoded through the chunk layer.
 *
 * <p>May import: the codec, the chunk layer, the CDM adapter, {@code org.chunkcdm.sframe} (Blosc2 frames), netcdf-java.
 */
package org.chunkcdm.hdf5blosc;
