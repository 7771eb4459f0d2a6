/**
 * The chunk layer: a stored array as a chunk grid with "get chunk i"
 * ({@link org.chunkcdm.chunk.ChunkedArray}, {@link org.chunkcdm.chunk.BasicChunkedArray}), the one section assembly
 * ({@link org.chunkcdm.chunk.SectionReader}, planned per grid by {@code RegularPlan}/{@code FlatPlan}, fetched per chunk by
 * {@code ChunkTask}/{@code PartRead}), the one byte-bounded cache ({@link org.chunkcdm.chunk.ChunkCache}), the decode
 * threads ({@link org.chunkcdm.chunk.DecodePool}) and Blosc chunks as chunk data
 * ({@link org.chunkcdm.chunk.BloscChunkData}).
 *
 * <p>May import: the JDK, the codec ({@code org.chunkcdm.blosc}) and {@code org.chunkcdm.io}. Never netcdf-java.
 */
package org.chunkcdm.chunk;
