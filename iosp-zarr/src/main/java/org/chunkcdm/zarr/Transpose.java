package org.chunkcdm.zarr;

import java.io.IOException;
import java.util.Arrays;
import org.chunkcdm.io.FormatException;

/**
 * Undoes an axis permutation of a chunk: the stored elements are C order over {@code encoded} where encoded axis k
 * is decoded axis {@code perm[k]} (Zarr v3 {@code transpose}; Zarr v2 order F is the reversed permutation); the
 * result is C order over the decoded shape.
 */
final class Transpose implements Step {
  final int[] encoded;
  final int[] perm;
  final int itemSize;

  Transpose(int[] encoded, int[] perm, int itemSize) {
    this.encoded = encoded.clone();
    this.perm = perm.clone();
    this.itemSize = itemSize;
  }

  /** Fortran order over {@code shape}: C order over the reversed shape. */
  static Transpose fortran(int[] shape, int itemSize) {
    int r = shape.length;
    int[] enc = new int[r];
    int[] perm = new int[r];
    for (int k = 0; k < r; k++) {
      enc[k] = shape[r - 1 - k];
      perm[k] = r - 1 - k;
    }
    return new Transpose(enc, perm, itemSize);
  }

  /** The shape after applying {@code perm} to {@code shape} (encoded axis k = axis perm[k]). */
  static int[] apply(int[] shape, int[] perm) {
    int[] out = new int[perm.length];
    for (int k = 0; k < perm.length; k++) {
      out[k] = shape[perm[k]];
    }
    return out;
  }

  /** The shape before {@code perm} was applied. */
  static int[] invert(int[] encoded, int[] perm) {
    int[] out = new int[perm.length];
    for (int k = 0; k < perm.length; k++) {
      out[perm[k]] = encoded[k];
    }
    return out;
  }

  /** True when {@code p} is a permutation of 0..rank-1. */
  static boolean isPermutation(int[] p, int rank) {
    if (p.length != rank) {
      return false;
    }
    boolean[] seen = new boolean[rank];
    for (int v : p) {
      if (v < 0 || v >= rank || seen[v]) {
        return false;
      }
      seen[v] = true;
    }
    return true;
  }

  boolean identity() {
    for (int k = 0; k < perm.length; k++) {
      if (perm[k] != k && encoded[k] > 1) {
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] decode(byte[] in, int off, int len, int outLen) throws IOException {
    int r = encoded.length;
    long n = 1;
    for (int e : encoded) {
      n *= e;
    }
    if (n * itemSize != len || outLen >= 0 && outLen != len) {
      throw new FormatException("transpose: " + len + " bytes for a chunk of " + Arrays.toString(encoded) + " elements of "
          + itemSize + " bytes");
    }
    byte[] out = new byte[len];
    if (r == 0 || n == 0) {
      System.arraycopy(in, off, out, 0, len);
      return out;
    }
    int[] decoded = invert(encoded, perm);
    long[] dstStride = new long[r]; // C strides of the decoded shape, in elements
    long s = 1;
    for (int d = r - 1; d >= 0; d--) {
      dstStride[d] = s;
      s *= decoded[d];
    }
    long[] step = new long[r]; // destination step of encoded axis k
    for (int k = 0; k < r; k++) {
      step[k] = dstStride[perm[k]];
    }
    int[] idx = new int[r];
    long dst = 0;
    int last = r - 1;
    int inner = encoded[last];
    long innerStep = step[last] * itemSize;
    int src = off;
    for (long done = 0; done < n; done += inner) {
      long d = dst * itemSize;
      for (int i = 0; i < inner; i++) {
        System.arraycopy(in, src, out, (int) d, itemSize);
        src += itemSize;
        d += innerStep;
      }
      for (int k = last - 1; k >= 0; k--) {
        dst += step[k];
        if (++idx[k] < encoded[k]) {
          break;
        }
        dst -= step[k] * encoded[k];
        idx[k] = 0;
      }
    }
    return out;
  }

  @Override
  public long encodedSize(long decodedLen) {
    return decodedLen;
  }

  @Override
  public String describe() {
    return "transpose " + Arrays.toString(perm);
  }
}
