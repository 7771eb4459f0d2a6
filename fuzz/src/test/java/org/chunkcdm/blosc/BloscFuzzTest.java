package org.chunkcdm.blosc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.chunkcdm.fuzz.FuzzSupport;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Blosc chunks (16-byte Blosc1 and 32-byte Blosc2 headers, every codec and filter) and the bare codec streams:
 * any bytes give output or an IOException. Package org.chunkcdm.blosc to reach the package-private decoders.
 */
@ExtendWith(FuzzSupport.WarmUp.class)
class BloscFuzzTest {
  /** A whole chunk through the pure-Java decoder, also by byte range ("getitem") and by block. */
  @FuzzTest
  void bloscChunk(byte[] data) {
    FuzzSupport.expectIoOnly(() -> {
      BloscHeader h = BloscHeader.parse(data, 0, data.length);
      if (h.nbytes() > FuzzSupport.MAX_DECODE) {
        return;
      }
      byte[] out = new byte[h.nbytes()];
      Blosc.decompress(h, data, 0, out, 0, Blosc.Impl.JAVA);
      if (h.nbytes() > 2) {
        byte[] part = new byte[h.nbytes() / 2];
        Blosc.decompressRange(data, 0, data.length, 1, part.length, part, 0);
        if (!Arrays.equals(part, 0, part.length, out, 1, 1 + part.length)) {
          throw new AssertionError("range decode differs from the whole chunk");
        }
      }
    });
  }

  /** Inputs forced to the Blosc2 extended header (flags bits 0 and 2, format version 5). */
  @FuzzTest
  void blosc2Chunk(byte[] data) {
    if (data.length < 32) {
      return;
    }
    byte[] c = data.clone();
    c[0] = 5;
    c[2] |= 0x05;
    bloscChunk(c);
  }

  /** The LZ4 block decoder with a prefix dictionary: first byte = dictionary length, then output length. */
  @FuzzTest
  void lz4WithDictionary(byte[] data) {
    if (data.length < 3) {
      return;
    }
    int dictLen = Math.min(data[0] & 0xff, data.length - 3);
    int outLen = ((data[1] & 0xff) << 8 | (data[2] & 0xff)) * 4;
    byte[] dict = dictLen == 0 ? null : Arrays.copyOfRange(data, 3, 3 + dictLen);
    int ip = 3 + dictLen;
    FuzzSupport.expectIoOnly(() -> Lz4.decode(data, ip, data.length - ip, new byte[outLen], 0, outLen, dict));
  }

  /** BloscLZ streams: first two bytes = output length. */
  @FuzzTest
  void bloscLz(byte[] data) {
    if (data.length < 2) {
      return;
    }
    int outLen = ((data[0] & 0xff) << 8 | (data[1] & 0xff)) * 4;
    FuzzSupport.expectIoOnly(() -> BloscLZ.decode(data, 2, data.length - 2, new byte[outLen], 0, outLen));
  }
}
