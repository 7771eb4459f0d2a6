/**
 * bcolz carray and ctable directories, Blaze chunked directories and Bloscpack files: metadata parsing and chunk
 * location, an opener ({@link org.chunkcdm.open.DatasetOpener}) and an IOSP on the chunk layer.
 *
 * <p>May import: the codec, the chunk layer, the CDM adapter, netcdf-java (IOSP classes only), Jackson.
 */
package org.chunkcdm.bcolz;
