/**
 * Datasets as lazy ImgLib2 images: cells read through the chunk layer's section assembly and cache, any format the
 * opener SPI knows, without netcdf-java.
 *
 * <p>May import: the chunk layer, ImgLib2; not {@code org.chunkcdm.fiji.ij} or {@code org.chunkcdm.fiji.netcdf}.
 */
package org.chunkcdm.fiji;
