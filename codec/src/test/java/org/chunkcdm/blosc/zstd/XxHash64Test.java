package org.chunkcdm.blosc.zstd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** XXH64 against the published value for empty input and against the checksums the reference zstd writes. */
class XxHash64Test {
  @Test
  void emptyInput() {
    assertEquals(0xEF46DB3751D8E999L, XxHash64.hash(new byte[0], 0, 0, 0));
  }

  /** zstd stores the low 32 bits of XXH64 (seed 0) of the content after the last block. */
  @Test
  void lowBitsEqualTheReferenceChecksums() throws IOException {
    Random r = new Random(4);
    for (int len = 0; len < 2000; len += len < 100 ? 1 : 37) {
      byte[] data = new byte[len + 3];
      r.nextBytes(data);
      byte[] content = java.util.Arrays.copyOfRange(data, 3, 3 + len);
      byte[] f = ZstdTestData.compress(content, 1, true, true, null);
      int want = (f[f.length - 4] & 0xFF) | (f[f.length - 3] & 0xFF) << 8 | (f[f.length - 2] & 0xFF) << 16
          | (f[f.length - 1] & 0xFF) << 24;
      assertEquals(want, (int) XxHash64.hash(data, 3, len, 0), "length " + len);
    }
  }
}
