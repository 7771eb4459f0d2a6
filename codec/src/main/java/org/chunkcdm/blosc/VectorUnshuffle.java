package org.chunkcdm.blosc;

import static jdk.incubator.vector.VectorOperators.B2I;
import static jdk.incubator.vector.VectorOperators.B2L;
import static jdk.incubator.vector.VectorOperators.B2S;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteOrder;
import java.util.Random;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * Byte unshuffle for item sizes 2, 4 and 8 on the JDK's incubating Vector API (SIMD from plain Java: no native
 * library). Each byte plane is widened to the item's lane type, shifted to its byte position and OR-ed in; the
 * lanes are stored as little-endian bytes (item size 8 where the CPU has AVX-512 VBMI: a byte permute per plane
 * register and an 8x8 byte transpose per lane instead, {@link #unshuffle8Permuted}). Also the 512-bit bit-rows
 * kernels of the bit unshuffle ({@link #bitRows(byte[], int, int, byte[], int)}). Used only when the JVM runs with
 * {@code --add-modules jdk.incubator.vector} and {@link #selfCheck()} agrees with the scalar code (see
 * {@link Filters}); otherwise this class is never loaded.
 */
final class VectorUnshuffle {
  /** Hardware vector width: 512-bit registers (AVX-512) take twice the items per step. */
  private static final int BITS = VectorShape.preferredShape().vectorBitSize();
  private static final boolean WIDE = BITS >= 512;
  private static final VectorSpecies<Byte> PLANE2 = WIDE ? ByteVector.SPECIES_256 : ByteVector.SPECIES_128;
  private static final VectorSpecies<Short> ITEMS2 = WIDE ? ShortVector.SPECIES_512 : ShortVector.SPECIES_256;
  private static final VectorSpecies<Byte> PLANE4 = WIDE ? ByteVector.SPECIES_128 : ByteVector.SPECIES_64;
  private static final VectorSpecies<Integer> ITEMS4 = WIDE ? IntVector.SPECIES_512 : IntVector.SPECIES_256;
  private static final VectorSpecies<Long> ITEMS8 = LongVector.SPECIES_512;
  private static final VectorSpecies<Byte> B512 = ByteVector.SPECIES_512;
  /** Byte p of a 512-bit register takes byte 8 * (p % 8) + p / 8: lane index swapped with byte-in-lane index. */
  private static final VectorShuffle<Byte> T88 = VectorShuffle.fromOp(B512, p -> 8 * (p % 8) + p / 8);

  private VectorUnshuffle() {}

  /** True when the item size has a vector path on this machine. */
  static boolean handles(int ts) {
    return BITS >= 256 && (ts == 2 || ts == 4 || (ts == 8 && WIDE));
  }

  /**
   * Unshuffles the first items of {@code n} (planes of {@code n} bytes at {@code src[sp..]}) into
   * {@code dst[dp..]}; returns how many items it did (a multiple of the vector length; the caller does the rest).
   */
  static int unshuffle(int ts, byte[] src, int sp, byte[] dst, int dp, int n) {
    byte[][] pa = new byte[ts][];
    int[] po = new int[ts];
    for (int j = 0; j < ts; j++) {
      pa[j] = src;
      po[j] = sp + j * n;
    }
    return unshuffle(ts, pa, po, dst, dp, n);
  }

  /** As {@link #unshuffle(int, byte[], int, byte[], int, int)} with plane j at {@code pa[j][po[j]..]}. */
  static int unshuffle(int ts, byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    switch (ts) {
      case 2:
        return unshuffle2(pa[0], po[0], pa[1], po[1], dst, dp, n);
      case 4:
        return unshuffle4(pa, po, dst, dp, n); // a byte-permute kernel as for 8 measured no faster (61 GB/s)
      case 8:
        return BYTE_PERMUTE ? unshuffle8Permuted(pa, po, dst, dp, n) : unshuffle8(pa, po, dst, dp, n);
      default:
        return 0;
    }
  }

  private static int unshuffle2(byte[] a0, int o0, byte[] a1, int o1, byte[] dst, int dp, int n) {
    int step = ITEMS2.length();
    int m = n - n % step;
    for (int i = 0; i < m; i += step) {
      ShortVector lo = (ShortVector) ByteVector.fromArray(PLANE2, a0, o0 + i).convertShape(B2S, ITEMS2, 0);
      ShortVector hi = (ShortVector) ByteVector.fromArray(PLANE2, a1, o1 + i).convertShape(B2S, ITEMS2, 0);
      ShortVector r = lo.and((short) 0xff).or(hi.lanewise(LSHL, 8));
      if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
        r.intoByteArray(dst, dp + 2 * i, LE);
      } else {
        r.reinterpretAsBytes().intoArray(dst, dp + 2 * i);
      }
    }
    return m;
  }

  private static int unshuffle4(byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int step = ITEMS4.length();
    int m = n - n % step;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3];
    for (int i = 0; i < m; i += step) {
      IntVector b0 = (IntVector) ByteVector.fromArray(PLANE4, a0, o0 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b1 = (IntVector) ByteVector.fromArray(PLANE4, a1, o1 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b2 = (IntVector) ByteVector.fromArray(PLANE4, a2, o2 + i).convertShape(B2I, ITEMS4, 0);
      IntVector b3 = (IntVector) ByteVector.fromArray(PLANE4, a3, o3 + i).convertShape(B2I, ITEMS4, 0);
      IntVector r = b0.and(0xff).or(b1.and(0xff).lanewise(LSHL, 8)).or(b2.and(0xff).lanewise(LSHL, 16))
          .or(b3.lanewise(LSHL, 24));
      if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
        r.intoByteArray(dst, dp + 4 * i, LE);
      } else {
        r.reinterpretAsBytes().intoArray(dst, dp + 4 * i);
      }
    }
    return m;
  }

  static int unshuffle8(byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int step = ITEMS8.length(); // 8: one 64-bit load per plane
    int m = n - n % step;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3], a4 = pa[4], a5 = pa[5], a6 = pa[6], a7 = pa[7];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3], o4 = po[4], o5 = po[5], o6 = po[6], o7 = po[7];
    for (int i = 0; i < m; i += step) {
      LongVector r = widen(a0, o0 + i).and(0xffL);
      r = r.or(widen(a1, o1 + i).and(0xffL).lanewise(LSHL, 8));
      r = r.or(widen(a2, o2 + i).and(0xffL).lanewise(LSHL, 16));
      r = r.or(widen(a3, o3 + i).and(0xffL).lanewise(LSHL, 24));
      r = r.or(widen(a4, o4 + i).and(0xffL).lanewise(LSHL, 32));
      r = r.or(widen(a5, o5 + i).and(0xffL).lanewise(LSHL, 40));
      r = r.or(widen(a6, o6 + i).and(0xffL).lanewise(LSHL, 48));
      r = r.or(widen(a7, o7 + i).lanewise(LSHL, 56));
      if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
        r.intoByteArray(dst, dp + 8 * i, LE);
      } else {
        r.reinterpretAsBytes().intoArray(dst, dp + 8 * i);
      }
    }
    return m;
  }

  /**
   * Byte unshuffle of 8-byte items, 64 at a time, where {@link #BYTE_PERMUTE}: every 64-byte plane register has
   * its lane index swapped with its byte-in-lane index ({@link #T88}), then three rounds of lane-wise byte swaps
   * exchange the plane index with the byte-in-lane index (an 8x8 byte transpose per lane, as in the 64-bit
   * register path), leaving register r with items {@code 8r..8r+7}. Returns the items done (a multiple of 64).
   * Measured 34 -> 67 GB/s (128 KiB block, FilterPathBench).
   */
  static int unshuffle8Permuted(byte[][] pa, int[] po, byte[] dst, int dp, int n) {
    int m = n & ~63;
    final byte[] a0 = pa[0], a1 = pa[1], a2 = pa[2], a3 = pa[3], a4 = pa[4], a5 = pa[5], a6 = pa[6], a7 = pa[7];
    final int o0 = po[0], o1 = po[1], o2 = po[2], o3 = po[3], o4 = po[4], o5 = po[5], o6 = po[6], o7 = po[7];
    for (int i = 0; i < m; i += 64) {
      LongVector r0 = ByteVector.fromArray(B512, a0, o0 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r1 = ByteVector.fromArray(B512, a1, o1 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r2 = ByteVector.fromArray(B512, a2, o2 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r3 = ByteVector.fromArray(B512, a3, o3 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r4 = ByteVector.fromArray(B512, a4, o4 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r5 = ByteVector.fromArray(B512, a5, o5 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r6 = ByteVector.fromArray(B512, a6, o6 + i).rearrange(T88).reinterpretAsLongs();
      LongVector r7 = ByteVector.fromArray(B512, a7, o7 + i).rearrange(T88).reinterpretAsLongs();
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
      int d = dp + 8 * i;
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
    return m;
  }

  /**
   * Byte unshuffle of {@code tiles * 512} items of 8 bytes from the planes {@code src[sp + j * n ..]} written by
   * {@link #bitRows(byte[], int, int, byte[], int, boolean)} with units: item unit {@code q} of a tile is read from
   * unit {@code 8 * (q % 8) + q / 8}.
   */
  static void unshuffle8Units(byte[] src, int sp, int n, int tiles, byte[] dst, int dp) {
    final int o0 = sp, o1 = sp + n, o2 = sp + 2 * n, o3 = sp + 3 * n, o4 = sp + 4 * n, o5 = sp + 5 * n, o6 = sp + 6 * n,
        o7 = sp + 7 * n;
    for (int t = 0; t < tiles; t++) {
      int base = 512 * t;
      for (int q = 0; q < 64; q++) {
        int i = base + 8 * (((q & 7) << 3) | (q >>> 3));
        LongVector r = widen(src, o0 + i).and(0xffL);
        r = r.or(widen(src, o1 + i).and(0xffL).lanewise(LSHL, 8));
        r = r.or(widen(src, o2 + i).and(0xffL).lanewise(LSHL, 16));
        r = r.or(widen(src, o3 + i).and(0xffL).lanewise(LSHL, 24));
        r = r.or(widen(src, o4 + i).and(0xffL).lanewise(LSHL, 32));
        r = r.or(widen(src, o5 + i).and(0xffL).lanewise(LSHL, 40));
        r = r.or(widen(src, o6 + i).and(0xffL).lanewise(LSHL, 48));
        r = r.or(widen(src, o7 + i).lanewise(LSHL, 56));
        if (BYTE_ARRAY_API) { // see BYTE_ARRAY_API
          r.intoByteArray(dst, dp + 8 * (base + 8 * q), LE);
        } else {
          r.reinterpretAsBytes().intoArray(dst, dp + 8 * (base + 8 * q));
        }
      }
    }
  }

  private static LongVector widen(byte[] a, int p) {
    return (LongVector) ByteVector.fromArray(ByteVector.SPECIES_64, a, p).convertShape(B2L, ITEMS8, 0);
  }

  private static final VectorSpecies<Long> L512 = LongVector.SPECIES_512;
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  /**
   * Whether this JDK's Vector API still has the byte-array loads and stores of JDK 16-18
   * ({@code LongVector.fromByteArray}, {@code intoByteArray}); JDK 19 replaced them with memory-segment methods.
   * JDK 17's C2 compiles them to plain vector loads and stores, while the portable form below, a byte vector
   * reinterpreted, left the typesize-8 and bit kernels boxed there (65 -> 2.7 GB/s, FilterPathBench); on JDK 19 and
   * later the portable form is the only one and runs at full speed (JDK 25: 70 GB/s). A constant, so C2 drops the
   * other branch; a call to a method the JDK lacks is only an error when it runs. The branch is written out at every
   * load and store: in a helper method C2 stopped inlining at its node-count cutoff and boxed the vectors again.
   */
  static final boolean BYTE_ARRAY_API = byteArrayApi();

  private static boolean byteArrayApi() {
    try {
      LongVector.class.getMethod("intoByteArray", byte[].class, int.class, ByteOrder.class);
      LongVector.class.getMethod("fromByteArray", VectorSpecies.class, byte[].class, int.class, ByteOrder.class);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** True when bit unshuffle has a vector path here (512-bit registers: eight 64-bit lanes). */
  static boolean handlesBits() {
    return WIDE && L512.length() == 8;
  }

  /**
   * The first row bytes of one byte plane from its eight bit rows ({@code rowBytes} bytes each at
   * {@code src[s0..]}; see {@link Filters#bitsToPlanes}), 512 items (64 row bytes) at a time: returns the row
   * bytes done, a multiple of 64; the caller does the rest. Eight registers of eight lanes hold the rows' bits;
   * register, lane, byte and bit index are permuted by three lane-wise bit swaps (register with bit), three
   * lane-wise byte swaps (register with byte) and three lane swaps (register with lane).
   */
  static int bitRows(byte[] src, int s0, int rowBytes, byte[] dst, int o) {
    return BYTE_PERMUTE ? bitRowsPermuted(src, s0, rowBytes, dst, o) : bitRows(src, s0, rowBytes, dst, o, false);
  }

  /**
   * Whether {@link #bitRows(byte[], int, int, byte[], int)} takes {@link #bitRowsPermuted}: the CPU must permute
   * the 64 bytes of a 512-bit register in one instruction (AVX-512 VBMI, {@code avx512vbmi} in the flags of
   * {@code /proc/cpuinfo}; the JDK has no portable way to ask); anywhere else (no such file, no flag) the lane-swap
   * kernel is kept.
   */
  static final boolean BYTE_PERMUTE = bytePermute();

  private static boolean bytePermute() {
    if (!WIDE) {
      return false;
    }
    try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(java.nio.file.Path.of("/proc/cpuinfo"),
        java.nio.charset.StandardCharsets.ISO_8859_1)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.startsWith("flags")) {
          return vbmiFlag(line);
        }
      }
      return false;
    } catch (java.io.IOException | RuntimeException e) { // not Linux, or not readable here
      return false;
    }
  }

  /** True when {@code line} is a {@code /proc/cpuinfo} flags line listing {@code avx512vbmi}. */
  static boolean vbmiFlag(String line) {
    int colon = line.indexOf(':');
    if (!line.startsWith("flags") || colon < 0) {
      return false;
    }
    return java.util.Arrays.asList(line.substring(colon + 1).trim().split("\\s+")).contains("avx512vbmi");
  }

  /**
   * As {@link #bitRows(byte[], int, int, byte[], int)}; with {@code units} the three lane swaps are left out (they
   * took half the time) and every 512 items come out with their 8-item units permuted: unit {@code q = 8L + m}
   * (items {@code 8q..8q+7} of the 512) lies at unit {@code 8m + L} ({@link #unshuffle8Units} reads them so).
   * Passes over the output ({@link VectorBitRows}): the bit swaps, the byte swaps, then (without units) the lane
   * swaps, each in place on the 512-byte tiles just written. Against the one-pass kernel, bit-shuffled typesize-8
   * Blosc2 chunks (units) measured 2-4% slower on Java 17 and within noise on Java 25.
   */
  static int bitRows(byte[] src, int s0, int rowBytes, byte[] dst, int o, boolean units) {
    int m = rowBytes & ~63;
    VectorBitRows.bitSwaps(src, s0, rowBytes, dst, o, m);
    VectorBitRows.byteSwaps(dst, o, m, false);
    if (!units) {
      VectorBitRows.laneSwaps(dst, o, m);
    }
    return m;
  }

  /**
   * As {@link #bitRows(byte[], int, int, byte[], int, boolean)} without units, in plain item order, but without
   * the three lane swaps: every register has its lane index swapped with its byte-in-lane index (one byte permute
   * per register, {@code vpermb} where the CPU has AVX-512 VBMI). The bit swaps act within bytes, so they do not
   * care; the three byte swaps then exchange the register index with the byte-in-lane index, which leaves item
   * {@code 64 * register + 8 * lane + byte} in place. Measured 21.7 -> 32.5 GB/s against the lane-swap kernel
   * (8192 row bytes, in one pass). Two passes over the output ({@link VectorBitRows}): the bit swaps, then the
   * permute and the byte swaps in place on the 512-byte tiles just written; measured within noise of the one pass
   * (1 and 4 KiB rows, Java 17 and 25; bit-shuffled Blosc2 chunks -2..+1% on Java 17, +0..+15% on Java 25). Only
   * taken where {@link #BYTE_PERMUTE}: without VBMI the JDK runs the 512-bit byte permute as plain Java.
   */
  static int bitRowsPermuted(byte[] src, int s0, int rowBytes, byte[] dst, int o) {
    int m = rowBytes & ~63;
    VectorBitRows.bitSwaps(src, s0, rowBytes, dst, o, m);
    VectorBitRows.byteSwaps(dst, o, m, true);
    return m;
  }

  /**
   * Compares this path with the plain definition of the unshuffle on random planes of several lengths and
   * offsets; false (and the scalar code is used) on any difference, e.g. a JDK whose incubator API behaves
   * differently.
   */
  static boolean selfCheck() {
    Random rnd = new Random(42);
    for (int ts : new int[] {2, 4, 8}) {
      if (!handles(ts)) {
        continue;
      }
      for (int n : new int[] {0, 1, 7, 8, 63, 64, 65, 1000, 4099}) {
        byte[] src = new byte[3 + ts * n];
        rnd.nextBytes(src);
        byte[] got = new byte[5 + ts * n];
        byte[] want = new byte[5 + ts * n];
        int done = unshuffle(ts, src, 3, got, 5, n);
        if (done < 0 || done > n || n - done >= 64) {
          return false;
        }
        for (int i = 0; i < done; i++) {
          for (int j = 0; j < ts; j++) {
            want[5 + i * ts + j] = src[3 + j * n + i];
          }
        }
        if (!java.util.Arrays.equals(got, want)) {
          return false;
        }
      }
    }
    return bitsSelfCheck(rnd);
  }

  private static boolean bitsSelfCheck(Random rnd) {
    if (!handlesBits()) {
      return true;
    }
    for (int rowBytes : new int[] {0, 8, 63, 64, 65, 200, 4096 + 24}) {
      byte[] src = new byte[3 + 8 * rowBytes];
      rnd.nextBytes(src);
      byte[] got = new byte[5 + 8 * rowBytes];
      byte[] want = new byte[5 + 8 * rowBytes];
      int done = bitRows(src, 3, rowBytes, got, 5);
      if (done != (rowBytes & ~63)) {
        return false;
      }
      for (int i = 0; i < 8 * done; i++) { // item i: bit k from bit i % 8 of byte i / 8 of row k
        int v = 0;
        for (int k = 0; k < 8; k++) {
          v |= ((src[3 + k * rowBytes + i / 8] >>> (i % 8)) & 1) << k;
        }
        want[5 + i] = (byte) v;
      }
      if (!java.util.Arrays.equals(got, want)) {
        return false;
      }
    }
    // the unit order of bitRows(..., true) read back by unshuffle8Units: two tiles of 512 items of 8 bytes
    int n = 1024;
    byte[] rows = new byte[8 * n];
    rnd.nextBytes(rows);
    byte[] planes = new byte[8 * n];
    for (int j = 0; j < 8; j++) {
      if (bitRows(rows, j * n, n / 8, planes, j * n, true) != n / 8) {
        return false;
      }
    }
    byte[] got = new byte[8 * n];
    unshuffle8Units(planes, 0, n, n / 512, got, 0);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < 8; j++) {
        int v = 0;
        for (int k = 0; k < 8; k++) {
          v |= ((rows[(8 * j + k) * (n / 8) + i / 8] >>> (i % 8)) & 1) << k;
        }
        if (got[8 * i + j] != (byte) v) {
          return false;
        }
      }
    }
    return true;
  }
}
