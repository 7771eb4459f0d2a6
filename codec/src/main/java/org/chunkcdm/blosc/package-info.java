/**
 * The pure-Java Blosc1/Blosc2 codec (artifact {@code chunkcdm-codec}): chunks ({@link org.chunkcdm.blosc.BloscChunk},
 * {@link org.chunkcdm.blosc.BloscHeader}), frames ({@link org.chunkcdm.blosc.BloscFrame}), the codecs alone
 * ({@link org.chunkcdm.blosc.Streams}), the thread budget ({@link org.chunkcdm.blosc.BlockExecutor}) and the errors
 * ({@link org.chunkcdm.blosc.CodecException}, {@link org.chunkcdm.blosc.LimitException}). Package-private classes are
 * the decoders and kernels behind them.
 *
 * <p>May import: the JDK (including the incubating Vector API, loaded only where the JVM has it), aircompressor
 * (Snappy), {@code org.chunkcdm.blosc.zstd} and {@code org.chunkcdm.blosc.internal}. Nothing else of chunkcdm.
 */
package org.chunkcdm.blosc;
