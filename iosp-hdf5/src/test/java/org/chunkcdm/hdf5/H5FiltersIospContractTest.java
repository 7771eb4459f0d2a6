package org.chunkcdm.hdf5;

import java.util.List;

/**
 * The IOSP contract ({@link H5FamilyContract}) over every file of testdata/hdf5-filters (h5py + hdf5plugin and
 * Debian's plugins: LZF, LZ4, Bitshuffle, Zstd, BZip2, N-bit, scale-offset, alone and in pipelines with shuffle,
 * deflate and Fletcher32; netCDF4-python files with Zstd and BZip2).
 */
class H5FiltersIospContractTest extends H5FamilyContract {
  H5FiltersIospContractTest() {
    super("hdf5-filters", List.of("netcdf4_zstd_bzip2.nc", "nbit.h5", "pipelines_nd.h5"));
  }
}
