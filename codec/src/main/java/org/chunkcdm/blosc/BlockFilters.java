package org.chunkcdm.blosc;

import java.io.IOException;

/** Undoing the filters of one decoded Blosc block: the reordering steps (byte and bit unshuffle) and DELTA. */
final class BlockFilters {
  private BlockFilters() {}

  /** True when filter {@code f} changes the bytes of a block of {@code bsize} bytes. */
  static boolean transforms(int f, int meta, int ts, int bsize, int version) {
    switch (f) {
      case BloscHeader.SHUFFLE: {
        int group = meta != 0 && version >= 3 ? meta & 0xff : ts;
        return group > 1 && bsize >= group;
      }
      case BloscHeader.BITSHUFFLE: {
        if (bsize < ts) {
          return false;
        }
        int items = bsize / ts;
        if (version <= 2) {
          return items % 8 == 0;
        }
        return items >= 8;
      }
      case BloscHeader.DELTA:
        return true;
      default:
        return false; // NOFILTER, TRUNC_PREC (lossy, nothing to undo)
    }
  }

  /**
   * The filter slot of the one filter that changes a block of {@code bsize} bytes of this chunk, or -1 when none or
   * several do.
   */
  static int onlyStep(BloscHeader h, int bsize) {
    int[] filters = h.filters();
    int[] meta = h.filtersMeta();
    int only = -1;
    for (int i = 5; i >= 0; i--) {
      if (transforms(filters[i], meta[i], h.typesize(), bsize, h.version())) {
        if (only >= 0) {
          return -1;
        }
        only = i;
      }
    }
    return only;
  }

  /**
   * Undoes the filters of block {@code b} ({@code bsize} bytes, at least one filter transforming) whose decoded
   * streams lie at {@code cur[cp..]}, or, with {@code pa}, as the planes {@code pa[s][po[s]..]} of {@code neblock}
   * bytes each that the first filter (a byte shuffle) reads where they lie. Out-of-place steps alternate between
   * scratch buffers, the last one lands in {@code dst[dp..]}. With {@code td}, the last step may store the items into
   * {@code td}'s array from element {@code ti} instead: returns true then (see
   * {@link JavaBlosc#decodeBlock(BloscHeader, byte[], int, int, byte[], int, byte[], int, ChunkDictionary,
   * TypedDestination, int)}), false when the block was written to {@code dst}.
   */
  static boolean undo(BloscHeader h, int b, int bsize, byte[] cur, int cp, byte[][] pa, int[] po, int neblock,
      byte[] dst, int dp, byte[] ref, int rp, TypedDestination td, int ti) throws IOException {
    final int ts = h.typesize();
    final int version = h.version();
    int[] filters = h.filters();
    int[] meta = h.filtersMeta();
    int remainingOutOfPlace = 0;
    for (int i = 5; i >= 0; i--) {
      if (transforms(filters[i], meta[i], ts, bsize, version) && filters[i] != BloscHeader.DELTA) {
        remainingOutOfPlace++;
      }
    }
    int spare = 1;
    for (int i = 5; i >= 0; i--) {
      int f = filters[i];
      if (!transforms(f, meta[i], ts, bsize, version)) {
        continue;
      }
      if (f == BloscHeader.DELTA) {
        Filters.undelta(ts, cur, cp, bsize, b == 0 ? null : ref, rp);
        continue;
      }
      remainingOutOfPlace--;
      int group = meta[i] != 0 && version >= 3 ? meta[i] & 0xff : ts;
      if (remainingOutOfPlace == 0 && td != null && bsize % ts == 0 // the last step, into a typed array?
          && intoTyped(f, group, ts, cur, cp, bsize, pa, po, neblock, td, ti)) {
        return true;
      }
      byte[] next;
      int np;
      if (remainingOutOfPlace == 0) { // the last reordering step writes the final block; DELTA then runs in place there
        next = dst;
        np = dp;
      } else {
        next = JavaBlosc.scratch(spare, bsize);
        spare = spare == 1 ? 2 : 1;
        np = 0;
      }
      if (f == BloscHeader.SHUFFLE && pa != null) { // the first filter undone: planes where they lie
        Filters.unshufflePlanes(pa.length, pa, po, next, np, neblock);
        pa = null;
      } else if (f == BloscHeader.SHUFFLE) {
        Filters.unshuffle(group, cur, cp, next, np, bsize);
      } else {
        Filters.bitunshuffle(ts, cur, cp, next, np, bsize);
      }
      cur = next;
      cp = np;
    }
    if (cur != dst || cp != dp) {
      RawCopy.copy(cur, cp, dst, dp, bsize);
    }
    return false;
  }

  /**
   * The last reordering step (filter {@code f}, shuffle group {@code group}) of a block of whole items, straight into
   * {@code td}'s array from element {@code ti} when a typed kernel ({@link TypedUnshuffle}) takes it: returns true
   * then, false when nothing was written.
   */
  private static boolean intoTyped(int f, int group, int ts, byte[] cur, int cp, int bsize, byte[][] pa, int[] po,
      int neblock, TypedDestination td, int ti) throws IOException {
    if (f == BloscHeader.SHUFFLE && pa != null) {
      return pa.length == ts && TypedUnshuffle.planes(ts, pa, po, neblock, td, ti);
    } else if (f == BloscHeader.SHUFFLE) {
      if (group != ts) {
        return false;
      }
      int items = bsize / ts;
      byte[][] qa = new byte[ts][];
      int[] qo = new int[ts];
      for (int j = 0; j < ts; j++) {
        qa[j] = cur;
        qo[j] = cp + j * items;
      }
      return TypedUnshuffle.planes(ts, qa, qo, items, td, ti);
    }
    return TypedUnshuffle.bits(ts, cur, cp, bsize, td, ti);
  }
}
