package org.chunkcdm.blosc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.fuzz.FuzzSupport;
import org.chunkcdm.testkit.ZlibReference;

/**
 * The whole-buffer zlib decoder ({@link Inflate}): any bytes give exactly the expected output or an IOException,
 * and its verdict agrees with java.util.zip (the system zlib): when Inflate decodes a stream, zlib decodes it to
 * the same bytes; when zlib decodes a stream to exactly the expected size with nothing left over, so does Inflate.
 */
class InflateFuzzTest {
  /** First three bytes: expected output length (bounded); then the zlib stream. */
  @FuzzTest
  void inflate(byte[] data) {
    if (data.length < 3) {
      return;
    }
    int outLen = ((data[0] & 0xff) << 16 | (data[1] & 0xff) << 8 | (data[2] & 0xff)) % (FuzzSupport.MAX_DECODE + 1);
    byte[] out = new byte[outLen];
    boolean ok;
    try {
      new Inflate().decode(data, 3, data.length - 3, out, 0, outLen);
      ok = true;
    } catch (IOException e) {
      if (e.getMessage() == null || e.getMessage().isEmpty()) {
        throw new AssertionError("IOException without a message", e);
      }
      ok = false;
    }
    byte[] want = zlib(data, outLen);
    if (ok && (want == null || !Arrays.equals(want, out))) {
      throw new AssertionError("Inflate decodes a stream that java.util.zip " + (want == null ? "refuses" : "decodes differently"));
    }
    if (!ok && want != null) {
      throw new AssertionError("Inflate refuses a stream that java.util.zip decodes to exactly " + outLen + " bytes");
    }
  }

  /** java.util.zip's bytes when it decodes the stream to exactly outLen bytes and consumes all of it, else null. */
  static byte[] zlib(byte[] data, int outLen) {
    int[] trailing = {0};
    byte[] out = ZlibReference.inflate(data, 3, data.length - 3, outLen, trailing);
    return trailing[0] == 0 ? out : null;
  }

}
