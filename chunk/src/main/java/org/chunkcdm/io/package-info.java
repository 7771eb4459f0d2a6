/**
 * File access for every format: positional, thread-safe reads of a dataset's files that never leave the dataset
 * ({@link org.chunkcdm.io.FileHandles}, with memory-mapped and {@code pread} reads), zip members read in place
 * ({@link org.chunkcdm.io.ZipIndex}), the allocation bound ({@link org.chunkcdm.io.Bounds}) and the format error
 * ({@link org.chunkcdm.io.FormatException}).
 *
 * <p>May import: the JDK and the codec's errors and internals. Never netcdf-java.
 */
package org.chunkcdm.io;
