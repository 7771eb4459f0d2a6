package org.chunkcdm.blosc;

import java.io.IOException;

/**
 * BloscLZ stream decoder. A stream is a sequence of instructions; the first byte's low 5 bits are the first
 * instruction (a literal run). Instruction {@code c < 32}: copy the next {@code c + 1} bytes. Otherwise a
 * match of length {@code (c >> 5) - 1} (when that is 6, following bytes are added up to and including the
 * first one that is not 255), plus 3, at distance {@code ((c & 31) << 8) + code + 1} back; when
 * {@code code == 255} and {@code (c & 31) == 31} two more big-endian bytes {@code v} give distance
 * {@code v + 8192}. The stream ends when the input is used up.
 */
final class BloscLZ {
  private BloscLZ() {}

  /** Decodes {@code in[ip0..ip0+inLen)} into exactly {@code outLen} bytes at {@code out[op0..]}. */
  static void decode(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen) throws IOException {
    int ip = ip0;
    final int ipEnd = ip0 + inLen;
    int op = op0;
    final int opEnd = op0 + outLen;
    if (inLen <= 0) {
      throw new CodecException("BloscLZ stream is empty");
    }
    int ctrl = in[ip++] & 31;
    while (true) {
      if (ctrl < 32) {
        int run = ctrl + 1;
        if (run > ipEnd - ip) {
          throw new CodecException("BloscLZ stream: literal run of " + run + " bytes passes the end of the input");
        }
        if (run > opEnd - op) {
          throw new CodecException("BloscLZ stream: output exceeds the expected " + outLen + " bytes");
        }
        if (ip <= ipEnd - 40 && op <= opEnd - 40) { // 8 bytes at a time, up to 7 past the run: still inside
          Lz4.wideCopy(in, ip, out, op, run);
        } else {
          System.arraycopy(in, ip, out, op, run);
        }
        ip += run;
        op += run;
      } else {
        int len = (ctrl >> 5) - 1;
        int ofs = (ctrl & 31) << 8;
        if (len == 6) {
          int code;
          do {
            if (ip >= ipEnd) {
              throw new CodecException("BloscLZ stream: match length passes the end of the input");
            }
            code = in[ip++] & 0xff;
            len += code;
          } while (code == 255);
        }
        if (ip >= ipEnd) {
          throw new CodecException("BloscLZ stream: match distance passes the end of the input");
        }
        int code = in[ip++] & 0xff;
        len += 3;
        int dist;
        if (code == 255 && ofs == (31 << 8)) {
          if (ipEnd - ip < 2) {
            throw new CodecException("BloscLZ stream: far match distance passes the end of the input");
          }
          dist = ((in[ip] & 0xff) << 8 | (in[ip + 1] & 0xff)) + 8192;
          ip += 2;
        } else {
          dist = ofs + code + 1;
        }
        int ref = op - dist;
        if (ref < op0) {
          throw new CodecException("BloscLZ stream: match distance " + dist + " reaches before the start of the output");
        }
        if (len > opEnd - op) {
          throw new CodecException("BloscLZ stream: output exceeds the expected " + outLen + " bytes");
        }
        if (len <= opEnd - 16 - op && (len <= 64 || dist < len)) { // room for 15 bytes past the match
          Lz4.wideMatch(out, op, dist, len);
        } else {
          Lz4.copyMatch(out, ref, op, len);
        }
        op += len;
      }
      if (ip >= ipEnd) {
        break;
      }
      ctrl = in[ip++] & 0xff;
    }
    if (op != opEnd) {
      throw new CodecException("BloscLZ stream decoded to " + (op - op0) + " bytes, expected " + outLen);
    }
  }
}
