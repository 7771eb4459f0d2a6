package org.chunkcdm.sframe;

import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;

/**
 * msgpack-core's unpacker for the few hundred bytes of a frame's header, trailer and metalayers. On Java 24 and
 * later msgpack-core's default buffer calls {@code sun.misc.Unsafe} memory methods, which makes the JVM print four
 * warning lines in every host (the command line, ImageJ, a server's log) the first time a Blosc2 frame opens;
 * there this class selects msgpack's documented ByteBuffer-based buffer ({@code msgpack.universal-buffer}) before
 * msgpack initializes, unless the property is already set. The values read are the same either way. Strings
 * are decoded with a 64-char buffer instead of msgpack-core's 8,192 per unpacker (opening a store of 1,000 arrays
 * spent most of its CPU time zeroing those buffers).
 */
final class Msgpack {
  private Msgpack() {}

  static {
    if (Runtime.version().feature() >= 24 && System.getProperty("msgpack.universal-buffer") == null) {
      System.setProperty("msgpack.universal-buffer", "true");
    }
  }

  private static final MessagePack.UnpackerConfig CONFIG = new MessagePack.UnpackerConfig().withStringDecoderBufferSize(64);

  static MessageUnpacker unpacker(byte[] bytes) {
    return CONFIG.newUnpacker(bytes);
  }
}
