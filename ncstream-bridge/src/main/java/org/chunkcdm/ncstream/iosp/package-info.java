/**
 * The {@code .ncs} reader: ncstream files as CDM datasets, data messages served by the chunk layer's section
 * assembly where they tile a variable.
 *
 * <p>May import: the chunk layer, the CDM adapter, netcdf-java, protobuf.
 */
package org.chunkcdm.ncstream.iosp;
