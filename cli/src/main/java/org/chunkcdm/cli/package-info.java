/**
 * The {@code chunkcdm} command line: {@code dump}, {@code convert}, {@code blosc}, {@code serve}, {@code --version}.
 *
 * <p>May import: every chunkcdm module, netcdf-java, picocli.
 */
package org.chunkcdm.cli;
