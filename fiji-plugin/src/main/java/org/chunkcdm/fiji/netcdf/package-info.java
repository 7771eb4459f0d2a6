/**
 * Files only netcdf-java reads (NetCDF, HDF5 without chunkcdm's filters) as image sources, used when netcdf-java is on
 * the class path.
 *
 * <p>May import: {@code org.chunkcdm.fiji}, the chunk layer, the CDM adapter, netcdf-java.
 */
package org.chunkcdm.fiji.netcdf;
