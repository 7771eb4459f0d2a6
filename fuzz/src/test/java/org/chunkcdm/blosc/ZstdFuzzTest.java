package org.chunkcdm.blosc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.chunkcdm.blosc.zstd.ZstdDecoder;
import org.chunkcdm.blosc.zstd.ZstdDictionary;
import org.chunkcdm.fuzz.FuzzSupport;
import org.junit.jupiter.api.extension.ExtendWith;

/** zstd frames (with and without a dictionary): output of exactly the expected size or an IOException. */
@ExtendWith(FuzzSupport.WarmUp.class)
class ZstdFuzzTest {
  /** First three bytes: expected output length; then the frame(s). */
  @FuzzTest
  void zstdFrame(byte[] data) {
    if (data.length < 3) {
      return;
    }
    int outLen = (data[0] & 0xff) << 16 | (data[1] & 0xff) << 8 | (data[2] & 0xff);
    FuzzSupport.expectIoOnly(() -> new ZstdDecoder().decompress(data, 3, data.length - 3, new byte[outLen], 0, outLen));
  }

  /** First two bytes: dictionary length; then the dictionary, two bytes of output length, the frame. */
  @FuzzTest
  void zstdWithDictionary(byte[] data) {
    if (data.length < 4) {
      return;
    }
    int dictLen = Math.min((data[0] & 0xff) << 8 | (data[1] & 0xff), data.length - 4);
    int p = 2 + dictLen;
    int outLen = ((data[p] & 0xff) << 8 | (data[p + 1] & 0xff)) * 4;
    FuzzSupport.expectIoOnly(() -> {
      ZstdDictionary dict = new ZstdDictionary(Arrays.copyOfRange(data, 2, 2 + dictLen));
      new ZstdDecoder().decompress(data, p + 2, data.length - p - 2, new byte[outLen], 0, outLen, dict);
    });
  }
}
