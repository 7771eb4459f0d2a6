/**
 * {@code chunkcdm serve}: a directory's datasets over cdmremote, in bounded memory, never outside the directory.
 *
 * <p>May import: {@code org.chunkcdm.cli}, the ncstream writer, the CDM adapter, netcdf-java, Jetty.
 */
package org.chunkcdm.cli.serve;
