package org.chunkcdm.hdf5;

import java.util.List;

/**
 * The IOSP contract ({@link H5FamilyContract}) over every file of testdata/hdf5-blosc (PyTables Blosc and
 * Blosc2, the h5py plugin's Blosc, a NetCDF-4 file with Blosc variables).
 */
class H5BloscIospContractTest extends H5FamilyContract {
  H5BloscIospContractTest() {
    super("hdf5-blosc", List.of("netcdf4_blosc.nc", "pytables_blosc2.h5"));
  }
}
