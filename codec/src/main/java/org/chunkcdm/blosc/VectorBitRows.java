package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The passes of {@link VectorUnshuffle}'s bit-row kernels over the output, each over 64 row bytes (512 items) at a
 * time in eight 512-bit registers of eight lanes: the three lane-wise bit swaps ({@link #bitSwaps}), then, in place,
 * the three lane-wise byte swaps ({@link #byteSwaps}; where the CPU permutes bytes, after a byte permute per
 * register that leaves the items in order), else also the three lane swaps ({@link #laneSwaps}). Each pass keeps its
 * eight registers in one loop body that calls only one-line helpers: larger ones stop being inlined at C2's
 * node-count cutoff and the vectors are boxed (see {@link VectorUnshuffle#BYTE_ARRAY_API}). Loaded only with the
 * Vector API module, as {@link VectorUnshuffle}.
 */
final class VectorBitRows {
  private VectorBitRows() {}

  private static final VectorSpecies<Long> L512 = LongVector.SPECIES_512;
  private static final VectorSpecies<Byte> B512 = ByteVector.SPECIES_512;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final boolean BYTE_ARRAY_API = VectorUnshuffle.BYTE_ARRAY_API;
  /** Byte p of a 512-bit register takes byte 8 * (p % 8) + p / 8: lane index swapped with byte-in-lane index. */
  private static final VectorShuffle<Byte> T88 = VectorShuffle.fromOp(B512, p -> 8 * (p % 8) + p / 8);
  /** Lane L takes lane L ^ d; HId: the lanes whose bit d is set. */
  private static final VectorShuffle<Long> X1 = VectorShuffle.fromOp(L512, i -> i ^ 1);
  private static final VectorShuffle<Long> X2 = VectorShuffle.fromOp(L512, i -> i ^ 2);
  private static final VectorShuffle<Long> X4 = VectorShuffle.fromOp(L512, i -> i ^ 4);
  private static final VectorMask<Long> HI1 = VectorMask.fromLong(L512, 0b10101010);
  private static final VectorMask<Long> HI2 = VectorMask.fromLong(L512, 0b11001100);
  private static final VectorMask<Long> HI4 = VectorMask.fromLong(L512, 0b11110000);

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
   * The second pass, in place on the {@code m / 64} tiles of 512 bytes at {@code dst[o..]} the first pass wrote: the
   * register index is exchanged with the byte-in-lane index by three lane-wise byte swaps. With {@code permute},
   * every register first has its lane index swapped with its byte-in-lane index ({@link #T88}): the bit swaps act
   * within bytes, so the byte permute may come after them, and this leaves item {@code 64 * register + 8 * lane +
   * byte} in place ({@link VectorUnshuffle#bitRowsPermuted}); without it the lane swaps remain
   * ({@link #laneSwaps}).
   */
  static void byteSwaps(byte[] dst, int o, int m, boolean permute) {
    for (int g = 0; g < m; g += 64) {
      int d = o + 8 * g;
      LongVector r0 = permuted(ByteVector.fromArray(B512, dst, d + 0), permute).reinterpretAsLongs();
      LongVector r1 = permuted(ByteVector.fromArray(B512, dst, d + 64), permute).reinterpretAsLongs();
      LongVector r2 = permuted(ByteVector.fromArray(B512, dst, d + 128), permute).reinterpretAsLongs();
      LongVector r3 = permuted(ByteVector.fromArray(B512, dst, d + 192), permute).reinterpretAsLongs();
      LongVector r4 = permuted(ByteVector.fromArray(B512, dst, d + 256), permute).reinterpretAsLongs();
      LongVector r5 = permuted(ByteVector.fromArray(B512, dst, d + 320), permute).reinterpretAsLongs();
      LongVector r6 = permuted(ByteVector.fromArray(B512, dst, d + 384), permute).reinterpretAsLongs();
      LongVector r7 = permuted(ByteVector.fromArray(B512, dst, d + 448), permute).reinterpretAsLongs();
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

  /**
   * The third pass of {@link VectorUnshuffle#bitRows(byte[], int, int, byte[], int, boolean)} without units, in
   * place on the tiles the byte swaps wrote: the register index is exchanged with the lane index by three lane
   * swaps (a blend of each register pair with the other's lanes moved by 1, 2 and 4).
   */
  static void laneSwaps(byte[] dst, int o, int m) {
    for (int g = 0; g < m; g += 64) {
      int d = o + 8 * g;
      LongVector r0 = ByteVector.fromArray(B512, dst, d + 0).reinterpretAsLongs();
      LongVector r1 = ByteVector.fromArray(B512, dst, d + 64).reinterpretAsLongs();
      LongVector r2 = ByteVector.fromArray(B512, dst, d + 128).reinterpretAsLongs();
      LongVector r3 = ByteVector.fromArray(B512, dst, d + 192).reinterpretAsLongs();
      LongVector r4 = ByteVector.fromArray(B512, dst, d + 256).reinterpretAsLongs();
      LongVector r5 = ByteVector.fromArray(B512, dst, d + 320).reinterpretAsLongs();
      LongVector r6 = ByteVector.fromArray(B512, dst, d + 384).reinterpretAsLongs();
      LongVector r7 = ByteVector.fromArray(B512, dst, d + 448).reinterpretAsLongs();
      LongVector t;
      t = r0;
      r0 = r0.blend(r1.rearrange(X1), HI1);
      r1 = r1.blend(t.rearrange(X1), HI1.not());
      t = r2;
      r2 = r2.blend(r3.rearrange(X1), HI1);
      r3 = r3.blend(t.rearrange(X1), HI1.not());
      t = r4;
      r4 = r4.blend(r5.rearrange(X1), HI1);
      r5 = r5.blend(t.rearrange(X1), HI1.not());
      t = r6;
      r6 = r6.blend(r7.rearrange(X1), HI1);
      r7 = r7.blend(t.rearrange(X1), HI1.not());
      t = r0;
      r0 = r0.blend(r2.rearrange(X2), HI2);
      r2 = r2.blend(t.rearrange(X2), HI2.not());
      t = r1;
      r1 = r1.blend(r3.rearrange(X2), HI2);
      r3 = r3.blend(t.rearrange(X2), HI2.not());
      t = r4;
      r4 = r4.blend(r6.rearrange(X2), HI2);
      r6 = r6.blend(t.rearrange(X2), HI2.not());
      t = r5;
      r5 = r5.blend(r7.rearrange(X2), HI2);
      r7 = r7.blend(t.rearrange(X2), HI2.not());
      t = r0;
      r0 = r0.blend(r4.rearrange(X4), HI4);
      r4 = r4.blend(t.rearrange(X4), HI4.not());
      t = r1;
      r1 = r1.blend(r5.rearrange(X4), HI4);
      r5 = r5.blend(t.rearrange(X4), HI4.not());
      t = r2;
      r2 = r2.blend(r6.rearrange(X4), HI4);
      r6 = r6.blend(t.rearrange(X4), HI4.not());
      t = r3;
      r3 = r3.blend(r7.rearrange(X4), HI4);
      r7 = r7.blend(t.rearrange(X4), HI4.not());
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

  /** {@code v} with its lane index swapped with its byte-in-lane index ({@link #T88}) when {@code permute}. */
  private static ByteVector permuted(ByteVector v, boolean permute) {
    return permute ? v.rearrange(T88) : v;
  }
}
