/**
 * The ds format ({@code .ds} files): header parsing, variables as one-chunk arrays (bit-packed bools, missing-value
 * bitmasks, strings), an opener and an IOSP on the chunk layer.
 *
 * <p>May import: the chunk layer, the CDM adapter, netcdf-java (IOSP classes only), Jackson.
 */
package org.chunkcdm.ds;
