package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The two passes of {@link VectorUnshuffle#bitRowsPermuted}, each over 64 row bytes (512 items) at a time in eight
 * 512-bit registers of eight lanes: the three lane-wise bit swaps ({@link #bitSwaps}), then, in place, a byte
 * permute per register and the three lane-wise byte swaps ({@link #byteSwapsPermuted}). Each pass keeps its eight
 * registers in one loop body without calls: helper methods there stop being inlined at C2's node-count cutoff and
 * the vectors are boxed (see {@link VectorUnshuffle#BYTE_ARRAY_API}). Loaded only with the Vector API module, as
 * {@link VectorUnshuffle}.
 */
final class VectorBitRows {
  private VectorBitRows() {}

  private static final VectorSpecies<Long> L512 = LongVector.SPECIES_512;
  private static final VectorSpecies<Byte> B512 = ByteVector.SPECIES_512;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final boolean BYTE_ARRAY_API = VectorUnshuffle.BYTE_ARRAY_API;
  /** Byte p of a 512-bit register takes byte 8 * (p % 8) + p / 8: lane index swapped with byte-in-lane index. */
  private static final VectorShuffle<Byte> T88 = VectorShuffle.fromOp(B512, p -> 8 * (p % 8) + p / 8);

  /**
   * The first pass: for each 64 row bytes {@code g < m} of the eight rows of {@code rowBytes} bytes at
   * {@code src[s0..]}, eight registers of eight lanes (register = row) whose register index is exchanged with the
   * bit-in-byte index by three lane-wise bit swaps, stored at {@code dst[o + 8 * g..]}, register r at
   * {@code 64 * r}.
   */
  static void bitSwaps(byte[] src, int s0, int rowBytes, byte[] dst, int o, int m) {
    for (int g = 0; g < m; g += 64) {
      int s = s0 + g;
      LongVector r0 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 0 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 0 * rowBytes).reinterpretAsLongs();
      LongVector r1 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 1 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 1 * rowBytes).reinterpretAsLongs();
      LongVector r2 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 2 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 2 * rowBytes).reinterpretAsLongs();
      LongVector r3 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 3 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 3 * rowBytes).reinterpretAsLongs();
      LongVector r4 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 4 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 4 * rowBytes).reinterpretAsLongs();
      LongVector r5 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 5 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 5 * rowBytes).reinterpretAsLongs();
      LongVector r6 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 6 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 6 * rowBytes).reinterpretAsLongs();
      LongVector r7 = BYTE_ARRAY_API ? LongVector.fromByteArray(L512, src, s + 7 * rowBytes, LE)
          : ByteVector.fromArray(B512, src, s + 7 * rowBytes).reinterpretAsLongs();
      LongVector t;
      t = r0.lanewise(LSHR, 1).lanewise(XOR, r1).and(0x5555555555555555L);
      r1 = r1.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 1));
      t = r2.lanewise(LSHR, 1).lanewise(XOR, r3).and(0x5555555555555555L);
      r3 = r3.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 1));
      t = r4.lanewise(LSHR, 1).lanewise(XOR, r5).and(0x5555555555555555L);
      r5 = r5.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 1));
      t = r6.lanewise(LSHR, 1).lanewise(XOR, r7).and(0x5555555555555555L);
      r7 = r7.lanewise(XOR, t);
      r6 = r6.lanewise(XOR, t.lanewise(LSHL, 1));
      t = r0.lanewise(LSHR, 2).lanewise(XOR, r2).and(0x3333333333333333L);
      r2 = r2.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 2));
      t = r1.lanewise(LSHR, 2).lanewise(XOR, r3).and(0x3333333333333333L);
      r3 = r3.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 2));
      t = r4.lanewise(LSHR, 2).lanewise(XOR, r6).and(0x3333333333333333L);
      r6 = r6.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 2));
      t = r5.lanewise(LSHR, 2).lanewise(XOR, r7).and(0x3333333333333333L);
      r7 = r7.lanewise(XOR, t);
      r5 = r5.lanewise(XOR, t.lanewise(LSHL, 2));
      t = r0.lanewise(LSHR, 4).lanewise(XOR, r4).and(0x0F0F0F0F0F0F0F0FL);
      r4 = r4.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 4));
      t = r1.lanewise(LSHR, 4).lanewise(XOR, r5).and(0x0F0F0F0F0F0F0F0FL);
      r5 = r5.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 4));
      t = r2.lanewise(LSHR, 4).lanewise(XOR, r6).and(0x0F0F0F0F0F0F0F0FL);
      r6 = r6.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 4));
      t = r3.lanewise(LSHR, 4).lanewise(XOR, r7).and(0x0F0F0F0F0F0F0F0FL);
      r7 = r7.lanewise(XOR, t);
      r3 = r3.lanewise(XOR, t.lanewise(LSHL, 4));
      int d = o + 8 * g;
      if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
        r0.intoByteArray(dst, d + 0, LE);
        r1.intoByteArray(dst, d + 64, LE);
        r2.intoByteArray(dst, d + 128, LE);
        r3.intoByteArray(dst, d + 192, LE);
        r4.intoByteArray(dst, d + 256, LE);
        r5.intoByteArray(dst, d + 320, LE);
        r6.intoByteArray(dst, d + 384, LE);
        r7.intoByteArray(dst, d + 448, LE);
      } else {
        r0.reinterpretAsBytes().intoArray(dst, d + 0);
        r1.reinterpretAsBytes().intoArray(dst, d + 64);
        r2.reinterpretAsBytes().intoArray(dst, d + 128);
        r3.reinterpretAsBytes().intoArray(dst, d + 192);
        r4.reinterpretAsBytes().intoArray(dst, d + 256);
        r5.reinterpretAsBytes().intoArray(dst, d + 320);
        r6.reinterpretAsBytes().intoArray(dst, d + 384);
        r7.reinterpretAsBytes().intoArray(dst, d + 448);
      }
    }
  }

  /**
   * The second pass, in place on the {@code m / 64} tiles of 512 bytes at {@code dst[o..]} the first pass wrote:
   * every register first has its lane index swapped with its byte-in-lane index ({@link #T88}), then the register
   * index is exchanged with the byte-in-lane index by three lane-wise byte swaps. The bit swaps act within bytes, so
   * the byte permute may come after them; this leaves item {@code 64 * register + 8 * lane + byte} in place.
   */
  static void byteSwapsPermuted(byte[] dst, int o, int m) {
    for (int g = 0; g < m; g += 64) {
      int d = o + 8 * g;
      LongVector r0 = ByteVector.fromArray(B512, dst, d + 0).rearrange(T88).reinterpretAsLongs();
      LongVector r1 = ByteVector.fromArray(B512, dst, d + 64).rearrange(T88).reinterpretAsLongs();
      LongVector r2 = ByteVector.fromArray(B512, dst, d + 128).rearrange(T88).reinterpretAsLongs();
      LongVector r3 = ByteVector.fromArray(B512, dst, d + 192).rearrange(T88).reinterpretAsLongs();
      LongVector r4 = ByteVector.fromArray(B512, dst, d + 256).rearrange(T88).reinterpretAsLongs();
      LongVector r5 = ByteVector.fromArray(B512, dst, d + 320).rearrange(T88).reinterpretAsLongs();
      LongVector r6 = ByteVector.fromArray(B512, dst, d + 384).rearrange(T88).reinterpretAsLongs();
      LongVector r7 = ByteVector.fromArray(B512, dst, d + 448).rearrange(T88).reinterpretAsLongs();
      LongVector t;
      t = r0.lanewise(LSHR, 8).lanewise(XOR, r1).and(0x00FF00FF00FF00FFL);
      r1 = r1.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r2.lanewise(LSHR, 8).lanewise(XOR, r3).and(0x00FF00FF00FF00FFL);
      r3 = r3.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r4.lanewise(LSHR, 8).lanewise(XOR, r5).and(0x00FF00FF00FF00FFL);
      r5 = r5.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r6.lanewise(LSHR, 8).lanewise(XOR, r7).and(0x00FF00FF00FF00FFL);
      r7 = r7.lanewise(XOR, t);
      r6 = r6.lanewise(XOR, t.lanewise(LSHL, 8));
      t = r0.lanewise(LSHR, 16).lanewise(XOR, r2).and(0x0000FFFF0000FFFFL);
      r2 = r2.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r1.lanewise(LSHR, 16).lanewise(XOR, r3).and(0x0000FFFF0000FFFFL);
      r3 = r3.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r4.lanewise(LSHR, 16).lanewise(XOR, r6).and(0x0000FFFF0000FFFFL);
      r6 = r6.lanewise(XOR, t);
      r4 = r4.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r5.lanewise(LSHR, 16).lanewise(XOR, r7).and(0x0000FFFF0000FFFFL);
      r7 = r7.lanewise(XOR, t);
      r5 = r5.lanewise(XOR, t.lanewise(LSHL, 16));
      t = r0.lanewise(LSHR, 32).lanewise(XOR, r4).and(0x00000000FFFFFFFFL);
      r4 = r4.lanewise(XOR, t);
      r0 = r0.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r1.lanewise(LSHR, 32).lanewise(XOR, r5).and(0x00000000FFFFFFFFL);
      r5 = r5.lanewise(XOR, t);
      r1 = r1.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r2.lanewise(LSHR, 32).lanewise(XOR, r6).and(0x00000000FFFFFFFFL);
      r6 = r6.lanewise(XOR, t);
      r2 = r2.lanewise(XOR, t.lanewise(LSHL, 32));
      t = r3.lanewise(LSHR, 32).lanewise(XOR, r7).and(0x00000000FFFFFFFFL);
      r7 = r7.lanewise(XOR, t);
      r3 = r3.lanewise(XOR, t.lanewise(LSHL, 32));
      if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
        r0.intoByteArray(dst, d + 0, LE);
        r1.intoByteArray(dst, d + 64, LE);
        r2.intoByteArray(dst, d + 128, LE);
        r3.intoByteArray(dst, d + 192, LE);
        r4.intoByteArray(dst, d + 256, LE);
        r5.intoByteArray(dst, d + 320, LE);
        r6.intoByteArray(dst, d + 384, LE);
        r7.intoByteArray(dst, d + 448, LE);
      } else {
        r0.reinterpretAsBytes().intoArray(dst, d + 0);
        r1.reinterpretAsBytes().intoArray(dst, d + 64);
        r2.reinterpretAsBytes().intoArray(dst, d + 128);
        r3.reinterpretAsBytes().intoArray(dst, d + 192);
        r4.reinterpretAsBytes().intoArray(dst, d + 256);
        r5.reinterpretAsBytes().intoArray(dst, d + 320);
        r6.reinterpretAsBytes().intoArray(dst, d + 384);
        r7.reinterpretAsBytes().intoArray(dst, d + 448);
      }
    }
  }
}
