/**
 * The optional native decoder: c-blosc 1.x through JNA, found by the codec's
 * {@link org.chunkcdm.blosc.NativeBlosc} service loader.
 *
 * <p>May import: the codec and JNA.
 */
package org.chunkcdm.nativeblosc;
