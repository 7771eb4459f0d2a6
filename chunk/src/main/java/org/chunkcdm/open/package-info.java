/**
 * The opener SPI: a dataset as named chunked arrays with dimensions and attributes, without netcdf-java
 * ({@link org.chunkcdm.open.Datasets#open}, {@link org.chunkcdm.open.DatasetOpener} registered per format module through
 * {@code META-INF/services}). The Fiji plugin reads every format through it.
 *
 * <p>May import: the JDK, {@code org.chunkcdm.chunk}, {@code org.chunkcdm.io}, Jackson (JSON attribute values). Never
 * netcdf-java.
 */
package org.chunkcdm.open;
