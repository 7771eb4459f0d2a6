/**
 * The Zstandard decoder (RFC 8878, with trained dictionaries) used by Blosc's zstd codec and by
 * {@link org.chunkcdm.blosc.Streams}.
 *
 * <p>May import: the JDK and {@code org.chunkcdm.blosc} (the errors, the LZ4-style copies).
 */
package org.chunkcdm.blosc.zstd;
