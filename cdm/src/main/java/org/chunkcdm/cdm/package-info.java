/**
 * The netcdf-java adapter: the IOSP base of every format ({@link org.chunkcdm.cdm.ChunkedIosp}), CDM reads through
 * the one section assembly ({@link org.chunkcdm.cdm.CdmReader}), CDM types, names and attributes, and the provider that
 * lets {@code NetcdfFiles.open} open dataset directories ({@link org.chunkcdm.cdm.DatasetDirectoryProvider}).
 *
 * <p>May import: the chunk layer ({@code chunk}, {@code io}, {@code open}), the codec, netcdf-java.
 */
package org.chunkcdm.cdm;
