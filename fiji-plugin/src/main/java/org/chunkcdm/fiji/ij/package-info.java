/**
 * The ImageJ face of the plugin: the import command, virtual hyperstacks, the macro functions.
 *
 * <p>May import: {@code org.chunkcdm.fiji}, the chunk layer, ImageJ 1.x.
 */
package org.chunkcdm.fiji.ij;
