package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Found by fuzzing (FormatFuzzTest#blosc2Frame): msgpack lengths are checked before msgpack-core allocates. */
class MetaAttributesBoundsTest {
  @Test
  void hugeClaimedLengthsAreNotDecodedAsMsgpack() {
    // str32 / bin32 / array32 / map32 claiming ~4 GiB in a few bytes
    assertNull(MetaAttributes.msgpack(new byte[] {(byte) 0xdb, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0, 'a'}));
    assertNull(MetaAttributes.msgpack(new byte[] {(byte) 0xc6, (byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1}));
    assertNull(MetaAttributes.msgpack(new byte[] {(byte) 0xdd, (byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1}));
    assertNull(MetaAttributes.msgpack(new byte[] {(byte) 0xdf, (byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2}));
    assertNull(MetaAttributes.msgpack(new byte[] {(byte) 0xc9, (byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 1}));
    byte[] deep = new byte[1000];
    java.util.Arrays.fill(deep, (byte) 0x91); // arrays of one array, 1000 deep
    assertNull(MetaAttributes.msgpack(deep));
  }

  @Test
  void ordinaryValuesStillDecode() {
    // {"a": [1, "x"]}
    byte[] b = {(byte) 0x81, (byte) 0xa1, 'a', (byte) 0x92, 1, (byte) 0xa1, 'x'};
    assertEquals("{\"a\":[1,\"x\"]}", MetaAttributes.msgpack(b).toString());
  }
}
