package org.chunkcdm.zarr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How one stored chunk becomes its decoded bytes (C order over the chunk shape, in the array's byte order): the
 * decoding {@link Step}s in the order they run, each with the output size it must give (-1 where only the stream
 * tells). Immutable.
 */
final class Pipeline {
  final List<Step> steps;
  final long[] outLens;
  /** The part that describes the compression for users (compressors and filters, not the layout). */
  final String description;

  /**
   * @param steps decode order
   * @param decodedLen bytes of a decoded chunk; the sizes before it follow from each step's {@link Step#encodedSize}
   */
  Pipeline(List<Step> steps, long decodedLen, String description) {
    this.steps = List.copyOf(steps);
    this.outLens = new long[steps.size()];
    long want = decodedLen;
    for (int i = steps.size() - 1; i >= 0; i--) {
      outLens[i] = want;
      want = want < 0 ? -1 : steps.get(i).encodedSize(want);
    }
    this.description = description;
  }

  /** A pipeline with no steps: stored bytes are the decoded chunk. */
  static Pipeline raw(long decodedLen) {
    return new Pipeline(new ArrayList<>(), decodedLen, "none");
  }

  /** True when the chunk is one Blosc frame and nothing else (read through the shared Blosc chunk path). */
  boolean bloscOnly() {
    return steps.size() == 1 && steps.get(0) instanceof Compressors.Blosc;
  }

  /** The stored size when every step fixes its encoded size (e.g. raw bytes plus a checksum), else -1. */
  long storedLen() {
    long n = outLens.length == 0 ? -1 : outLens[0];
    return steps.isEmpty() ? -1 : n < 0 ? -1 : steps.get(0).encodedSize(n);
  }

  /**
   * Decodes into exactly {@code out[op..op + decodedLen)} (a pipeline of at least one step): the steps before the last
   * as {@link #decode}, the last straight into {@code out} where it can ({@link Step#decodeInto}).
   */
  void decodeInto(byte[] in, int off, int len, long decodedLen, byte[] out, int op) throws IOException {
    if (decodedLen > Integer.MAX_VALUE - 16) {
      throw new org.chunkcdm.io.FormatException("a decoded chunk of " + decodedLen + " bytes is too large");
    }
    int last = steps.size() - 1;
    byte[] cur = in;
    int o = off;
    int l = len;
    for (int i = 0; i < last; i++) {
      cur = undo(i, cur, o, l);
      o = 0;
      l = cur.length;
    }
    steps.get(last).decodeInto(cur, o, l, out, op, (int) decodedLen);
  }

  /** Step {@code i} on {@code in[off..off + len)}, with the output size it must give. */
  private byte[] undo(int i, byte[] in, int off, int len) throws IOException {
    long want = outLens[i];
    return steps.get(i).decode(in, off, len, want > Integer.MAX_VALUE ? -1 : (int) want);
  }

  byte[] decode(byte[] in, int off, int len, long decodedLen) throws IOException {
    byte[] cur = in;
    int o = off;
    int l = len;
    for (int i = 0; i < steps.size(); i++) {
      cur = undo(i, cur, o, l);
      o = 0;
      l = cur.length;
    }
    if (l != decodedLen) {
      throw new org.chunkcdm.io.FormatException("chunk decodes to " + l + " bytes, the chunk shape needs " + decodedLen);
    }
    if (o != 0 || cur.length != l) {
      cur = java.util.Arrays.copyOfRange(cur, o, o + l);
    }
    return cur;
  }
}
