/**
 * Any CDM dataset as ncstream (netcdf-java's serialization): the writer behind {@code chunkcdm convert} and
 * {@code serve}, and NetCDF-3 output.
 *
 * <p>May import: the chunk layer, the CDM adapter, netcdf-java, protobuf (netcdf-java's ncstream messages).
 */
package org.chunkcdm.ncstream;
