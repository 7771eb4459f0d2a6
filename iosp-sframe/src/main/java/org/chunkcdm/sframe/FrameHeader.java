package org.chunkcdm.sframe;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.chunkcdm.io.FormatException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * The msgpack parts of a Blosc2 frame: the header's fields after header_len and frame_len (with its metalayers), the
 * trailer's vlmetalayers (still compressed), and the metalayer names of a header seen alone. Failures are
 * FormatExceptions saying what is wrong; {@link Frame} adds the frame's name.
 */
final class FrameHeader {
  int generalFlags;
  int codecFlags;
  int otherFlags;
  boolean sparse;
  long nbytes;
  long cbytes;
  int typesize;
  int blocksize;
  int chunksize;
  final int[] filters = new int[6];
  final int[] filtersMeta = new int[6];
  int otherFlags2;
  final Map<String, byte[]> metalayers = new LinkedHashMap<>();

  private FrameHeader() {}

  /** Parses the whole msgpack header {@code h} (header_len bytes). */
  static FrameHeader parse(byte[] h) throws IOException {
    FrameHeader r = new FrameHeader();
    try (MessageUnpacker u = Msgpack.unpacker(h)) {
      expect(u.unpackArrayHeader() == 14, "the header is not a msgpack array of 14 fields");
      u.skipValue(); // magic, checked by the caller
      u.skipValue(); // header_len
      u.skipValue(); // frame_len
      expect(u.unpackRawStringHeader() == 4, "the flags field is not 4 bytes");
      byte[] flags = u.readPayload(4);
      r.generalFlags = flags[0] & 0xff;
      int frameType = flags[1] & 0xff;
      r.codecFlags = flags[2] & 0xff;
      r.otherFlags = flags[3] & 0xff;
      expect(frameType == 0 || frameType == 1, "frame type " + frameType + " is neither contiguous (0) nor sparse (1)");
      r.sparse = frameType == 1;
      r.nbytes = u.unpackLong();
      r.cbytes = u.unpackLong();
      r.typesize = u.unpackInt();
      r.blocksize = u.unpackInt();
      r.chunksize = u.unpackInt();
      u.skipValue(); // compression threads
      u.skipValue(); // decompression threads
      u.unpackBoolean(); // has vlmetalayers (the trailer tells)
      var fx = u.unpackExtensionTypeHeader();
      expect(fx.getLength() == 16, "the filter field is not a 16-byte msgpack fixext");
      byte[] f = u.readPayload(16);
      for (int i = 0; i < 6; i++) {
        r.filters[i] = f[i] & 0xff;
        r.filtersMeta[i] = f[8 + i];
      }
      r.otherFlags2 = f[14] & 0xff;
      readMetalayers(u, h.length, r.metalayers, "metalayer");
    }
    return r;
  }

  /** The vlmetalayers of the msgpack trailer {@code t}, as stored (Blosc2 chunks). */
  static Map<String, byte[]> trailer(byte[] t) throws IOException {
    Map<String, byte[]> vl = new LinkedHashMap<>();
    try (MessageUnpacker u = Msgpack.unpacker(t)) {
      expect(u.unpackArrayHeader() == 4, "the trailer is not a msgpack array of 4 fields");
      u.skipValue(); // trailer version
      readMetalayers(u, t.length, vl, "vlmetalayer");
    }
    return vl;
  }

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

  /** The name/offset map and the value list of a (vl)metalayer section. */
  private static void readMetalayers(MessageUnpacker u, int bufLen, Map<String, byte[]> out, String what)
      throws IOException {
    expect(u.unpackArrayHeader() == 3, what + " section is not a msgpack array of 3");
    u.skipValue(); // section size
    int n = u.unpackMapHeader();
    expect(n <= bufLen - u.getTotalReadBytes(), what + " section claims " + n + " entries, more than its bytes");
    String[] names = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = u.unpackString();
      u.skipValue(); // offset of the value; the values follow in the same order
    }
    int m = u.unpackArrayHeader();
    expect(m == n, what + " section lists " + n + " names but " + m + " values");
    for (int i = 0; i < n; i++) {
      expect(u.getNextFormat().getValueType() == ValueType.BINARY, what + " '" + names[i] + "' is not msgpack bin");
      int len = u.unpackBinaryHeader();
      expect(len >= 0 && len <= bufLen - u.getTotalReadBytes(), what + " '" + names[i] + "' length " + len + " lies past the section");
      out.put(names[i], u.readPayload(len));
    }
  }

  static void expect(boolean ok, String msg) throws IOException {
    if (!ok) {
      throw new FormatException(msg);
    }
  }
}
