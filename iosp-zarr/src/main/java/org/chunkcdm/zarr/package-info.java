/**
 * Zarr v2 and v3 stores (directories, zip stores): metadata and codec pipelines, chunk keys and shard indexes, an
 * opener ({@link org.chunkcdm.open.DatasetOpener}) and an IOSP on the chunk layer.
 *
 * <p>May import: the codec, the chunk layer, the CDM adapter, netcdf-java (IOSP classes only), Jackson,
 * commons-compress (bzip2) and xz-java (LZMA).
 */
package org.chunkcdm.zarr;
