/**
 * Blosc2 sparse frames, contiguous frames and b2nd arrays: frame parsing, b2nd chunk views, metalayer attributes,
 * an opener and an IOSP on the chunk layer.
 *
 * <p>May import: the codec, the chunk layer, the CDM adapter, netcdf-java (IOSP classes only), msgpack, Jackson.
 */
package org.chunkcdm.sframe;
