package org.chunkcdm.sframe;

import java.io.IOException;
import org.msgpack.core.MessageUnpacker;

/**
 * The metalayer names of a Blosc2 frame header seen alone (its first bytes, e.g. to tell a python-blosc2 container's
 * frame from an array's). A whole frame is parsed by the codec's {@link org.chunkcdm.blosc.BloscFrame}.
 */
final class FrameHeader {
  private FrameHeader() {}

  /**
   * The names of the fixed metalayers of the frame whose first bytes are {@code start} (its whole header or
   * more); empty when {@code start} is not a frame header or is cut short.
   */
  static java.util.Set<String> metalayerNames(byte[] start) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    if (start.length < Frame.FIXED_HEADER
        || !java.util.Arrays.equals(start, 0, Frame.MAGIC.length, Frame.MAGIC, 0, Frame.MAGIC.length)) {
      return names;
    }
    try (MessageUnpacker u = Msgpack.unpacker(start)) {
      if (u.unpackArrayHeader() != 14) {
        return names;
      }
      for (int i = 0; i < 13; i++) { // magic .. the filter fixext
        u.skipValue();
      }
      if (u.unpackArrayHeader() != 3) {
        return names;
      }
      u.skipValue(); // section size
      int n = u.unpackMapHeader();
      for (int i = 0; i < n && i < 64; i++) {
        names.add(u.unpackString());
        u.skipValue();
      }
    } catch (IOException | RuntimeException e) {
      // a cut or damaged header: the names read so far
    }
    return names;
  }
}
