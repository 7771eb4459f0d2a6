/**
 * Benchmarks and differential campaigns, run by the scripts in {@code bench/} (never by {@code mvn verify}); results in
 * docs/BENCHMARKS.md and docs/RELIABILITY.md.
 *
 * <p>May import: anything; reaches the codec and the chunk layer through their public API and the test-only probes.
 */
package org.chunkcdm.bench;
