package org.chunkcdm.blosc.zstd;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** XXH64 (seed 0 by default), written from the published xxHash specification; used for zstd's content checksum. */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private XxHash64() {}

  static long hash(byte[] b, int off, int len, long seed) {
    int p = off;
    final int end = off + len;
    long acc;
    if (len >= 32) {
      long v1 = seed + P1 + P2;
      long v2 = seed + P2;
      long v3 = seed;
      long v4 = seed - P1;
      final int limit = end - 32;
      do {
        v1 = round(v1, (long) LONG.get(b, p));
        v2 = round(v2, (long) LONG.get(b, p + 8));
        v3 = round(v3, (long) LONG.get(b, p + 16));
        v4 = round(v4, (long) LONG.get(b, p + 24));
        p += 32;
      } while (p <= limit);
      acc = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      acc = merge(acc, v1);
      acc = merge(acc, v2);
      acc = merge(acc, v3);
      acc = merge(acc, v4);
    } else {
      acc = seed + P5;
    }
    acc += len;
    while (p + 8 <= end) {
      acc ^= round(0, (long) LONG.get(b, p));
      acc = Long.rotateLeft(acc, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      acc ^= ((int) INT.get(b, p) & 0xFFFFFFFFL) * P1;
      acc = Long.rotateLeft(acc, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      acc ^= (b[p] & 0xFFL) * P5;
      acc = Long.rotateLeft(acc, 11) * P1;
      p++;
    }
    acc ^= acc >>> 33;
    acc *= P2;
    acc ^= acc >>> 29;
    acc *= P3;
    acc ^= acc >>> 32;
    return acc;
  }

  private static long round(long acc, long lane) {
    acc += lane * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long merge(long acc, long v) {
    acc ^= round(0, v);
    return acc * P1 + P4;
  }
}
