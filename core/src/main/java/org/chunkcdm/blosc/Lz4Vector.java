package org.chunkcdm.blosc;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Lz4#decode}'s fast loop with 16-byte vector copies: the literal block as one vector, a match at an offset
 * of 16 or more as one vector plus one 8-byte word (2-5% faster than 8-byte words on the LZ4 streams of Blosc2
 * chunks; docs/BENCHMARKS.md, fourth pass). The same sequences take the same way as in {@link Lz4#decodeWords},
 * the careful path is {@link Lz4#sequence}. Loaded only when the JVM has {@code jdk.incubator.vector} and
 * {@link Lz4#VECTOR} holds; otherwise this class is never loaded.
 */
final class Lz4Vector {
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VectorSpecies<Byte> B16 = ByteVector.SPECIES_128;

  private Lz4Vector() {}

  /** Decodes as {@link Lz4#decode}. */
  static void decode(byte[] in, int ip0, int inLen, byte[] out, int op0, int outLen, byte[] dict)
      throws IOException {
    int ip = ip0;
    int op = op0;
    final int ipEnd = ip0 + inLen;
    final int opEnd = op0 + outLen;
    final int ipLimit = ipEnd - 20;
    final int opLimit = opEnd - 64;
    while (true) {
      while (ip < ipLimit && op < opLimit) {
        int token = in[ip] & 0xff;
        if (token >= 0xf0) { // 15 or more literals
          break;
        }
        int lit = token >>> 4;
        int mp = ip + 1 + lit; // the match offset: ip + 16 at most, inside the input
        int offset = (short) SHORT.get(in, mp) & 0xffff;
        int nop = op + lit;
        if (offset == 0 || offset > nop - op0) { // refused or taken from the dictionary by the careful path
          break;
        }
        int len = token & 15;
        int np = mp + 2;
        if (len == 15) {
          int b;
          do {
            if (np >= ipEnd) {
              throw Lz4.corrupt("match length passes the end of the input", nop - op0, outLen);
            }
            b = in[np++] & 0xff;
            len += b;
          } while (b == 255 && len <= outLen);
          if (len + 4 + 8 > opEnd - nop) { // the 8-byte rounds below must stay inside the output
            break;
          }
        }
        len += 4;
        // literals (at most 14) as one 16-byte block: reads end 3 bytes before ipEnd, writes 48 before opEnd
        ByteVector.fromArray(B16, in, ip + 1).intoArray(out, op);
        ip = np;
        if (offset >= 8) {
          // each 8-byte read ends at or before the write it feeds: every byte read is final
          int ref = nop - offset;
          if (offset >= 16) { // the 16 bytes read lie before the 16 written
            ByteVector.fromArray(B16, out, ref).intoArray(out, nop);
          } else {
            LONG.set(out, nop, (long) LONG.get(out, ref));
            LONG.set(out, nop + 8, (long) LONG.get(out, ref + 8));
          }
          LONG.set(out, nop + 16, (long) LONG.get(out, ref + 16));
          for (int i = 24; i < len; i += 8) {
            LONG.set(out, nop + i, (long) LONG.get(out, ref + i));
          }
        } else {
          // period 1..7: the first 8 bytes from the period's bytes (the rest of the read is masked off), each
          // next 8 bytes by a rotation in a register, so no write waits for a read of the bytes just written
          long w = ((long) LONG.get(out, nop - offset) & Lz4.MASK[offset]) * Lz4.REPEAT[offset];
          int r = Lz4.ROT_RIGHT[offset];
          int l = Lz4.ROT_LEFT[offset];
          LONG.set(out, nop, w);
          w = (w >>> r) | (w << l);
          LONG.set(out, nop + 8, w);
          w = (w >>> r) | (w << l);
          LONG.set(out, nop + 16, w);
          for (int i = 24; i < len; i += 8) {
            w = (w >>> r) | (w << l);
            LONG.set(out, nop + i, w);
          }
        }
        op = nop + len;
      }
      long next = Lz4.sequence(in, ip, ipEnd, out, op, op0, outLen, dict);
      if (next < 0) {
        return;
      }
      ip = (int) (next >>> 32);
      op = (int) next;
    }
  }


  /** A stream of literal runs and matches at offsets 1..40 decodes here as in {@link Lz4#decodeWords}. */
  static boolean selfCheck() throws IOException {
    java.io.ByteArrayOutputStream s = new java.io.ByteArrayOutputStream();
    int n = 0;
    for (int offset = 1; offset <= 40; offset++) {
      int lit = offset % 5 == 0 ? 20 : offset % 3;
      int len = 4 + (offset * 7) % 40;
      s.write(Math.min(lit, 15) << 4 | Math.min(len - 4, 15));
      if (lit >= 15) {
        s.write(lit - 15);
      }
      for (int i = 0; i < lit; i++) {
        s.write(n + i * 31 + offset);
      }
      n += lit;
      int d = Math.min(offset, n); // never before the start
      s.write(d);
      s.write(0);
      if (len - 4 >= 15) {
        s.write(len - 4 - 15);
      }
      n += len;
    }
    s.write(0x80);
    for (int i = 0; i < 8; i++) {
      s.write(i);
    }
    n += 8;
    byte[] stream = s.toByteArray();
    byte[] a = new byte[n];
    byte[] b = new byte[n];
    decode(stream, 0, stream.length, a, 0, n, null);
    Lz4.decodeWords(stream, 0, stream.length, b, 0, n, null);
    return java.util.Arrays.equals(a, b);
  }
}
