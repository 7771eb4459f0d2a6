/**
 * Internal to chunkcdm, not API: the settings every module reads ({@link org.chunkcdm.blosc.internal.Settings})
 * and the libc calls through Java 22+'s FFM API ({@link org.chunkcdm.blosc.internal.Ffm}).
 *
 * <p>May import: the JDK only.
 */
package org.chunkcdm.blosc.internal;
