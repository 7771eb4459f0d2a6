/**
 * The former name of the HDF5 reader ({@link org.chunkcdm.hdf5blosc.H5BloscIosp}, now {@link org.chunkcdm.hdf5.H5Iosp}),
 * kept for existing {@code threddsConfig.xml} files.
 *
 * <p>May import: {@code org.chunkcdm.hdf5}.
 */
package org.chunkcdm.hdf5blosc;
