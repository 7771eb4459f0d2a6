package org.chunkcdm.ds;

import java.io.IOException;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;

/**
 * One numeric or bool {@code .ds} variable as a single-chunk {@link ChunkedArray} (bool as uint8 0/1, so a
 * masked cell can read as the fill value 255). Its one chunk is the
 * variable's logical content (C order, {@code .endian} byte order, bool as one 0/1 byte per element), served
 * by byte range straight from the file with positional reads: plain data by offset arithmetic, bool by
 * unpacking only the needed bits, masked data through the {@link Bitmask} rank index (missing elements read as
 * the fill value). Nothing is read when the variable is opened.
 */
final class DsArray extends BasicChunkedArray implements ChunkData {
    private final DsFile file;
  private final Object what;
  private final long n;
  private final boolean bits; // bool: bit-packed values
  private final long dataPos; // file position of the (non-missing) values
  private final long len; // .len
  private final Bitmask mask; // null when not masked
  private final boolean noData;
  private volatile boolean checked; // .len verified against the bitmask

  /**
   * @param blockPos file position of the variable's block ({@code .offset} + body start); ignored without data
   * @param fill fill value bytes for missing elements (dtype order), or null for zeros
   */
  DsArray(DsFile file, Object what, DType dtype, boolean bits, ChunkGrid grid, long n, long blockPos, long len,
      boolean masked, boolean noData, byte[] fill) {
    super(dtype, grid, fill, null);
    this.file = file;
    this.what = what;
    this.n = n; // the grid's element count
    this.bits = bits;
    this.len = len;
    this.noData = noData;
    this.mask = masked && !noData ? new Bitmask(file, what, blockPos, n) : null;
    this.dataPos = blockPos + (mask != null ? Bitmask.bytes(n) : 0);
    this.checked = mask == null;
  }

  /** The one-chunk grid of a variable of this shape. */
  static ChunkGrid grid(long[] shape) {
    return ChunkGrid.flat(shape, Math.max(1, count(shape)), false);
  }

  static long count(long[] shape) {
    long c = 1;
    for (long s : shape) {
      c = Math.multiplyExact(c, s);
    }
    return c;
  }

  /** Bytes a block of {@code stored} values takes (packed bits for bool). */
  private long storedBytes(long stored) {
    return bits ? (stored + 7) / 8 : stored * dtype().itemSize();
  }

  @Override
  public ChunkData chunk(long index) throws IOException {
    if (index != 0 || n == 0) {
      throw new FormatException(what + ": no chunk " + index);
    }
    return noData ? null : this;
  }

  // ------------------------------------------------------------------ ChunkData

  @Override
  public long size() {
    return n * dtype().itemSize();
  }

  @Override
  public void read(long offset, byte[] dst, int dstOff, int length) throws IOException {
    int item = dtype().itemSize();
    if (offset < 0 || length < 0 || offset + length > size()) {
      throw new FormatException(what + ": bytes " + offset + ".." + (offset + length) + " outside its " + size() + " bytes");
    }
    if (length == 0) {
      return;
    }
    if (mask == null && !bits) {
      file.readFully(dataPos + offset, dst, dstOff, length);
      return;
    }
    long e0 = offset / item;
    long e1 = (offset + length - 1) / item;
    boolean aligned = offset % item == 0 && length % item == 0;
    byte[] out = aligned ? dst : new byte[(int) ((e1 - e0 + 1) * item)];
    int outOff = aligned ? dstOff : 0;
    if (mask == null) {
      readStored(e0, (int) (e1 - e0 + 1), out, outOff);
    } else {
      readMasked(e0, e1, out, outOff);
    }
    if (!aligned) {
      System.arraycopy(out, (int) (offset - e0 * item), dst, dstOff, length);
    }
  }

  /** Elements {@code [e0, e1]} of a masked variable: stored values where present, the fill value elsewhere. */
  private void readMasked(long e0, long e1, byte[] out, int outOff) throws IOException {
    if (e0 == 0 && e1 == n - 1 && !bits && n <= WHOLE_MASKED) {
      readMaskedWhole(out, outOff);
      return;
    }
    checkLen();
    int item = dtype().itemSize();
    long[] w = new long[2];
    byte[] m = mask.window(e0, e1, w);
    long base = w[0];
    long k0 = w[1];
    int count = (int) (e1 - e0 + 1);
    int stored = count - (int) Bitmask.count(m, e0 - base, e1 - base + 1);
    byte[] vals = new byte[stored * item];
    readStored(k0, stored, vals, 0);
    // runs of stored values are copied in one piece each; missing elements get the fill value
    long bit = e0 - base;
    int j = 0;
    int i = 0;
    while (i < count) {
      int r = i;
      while (r < count && !Bitmask.isSet(m, bit + r)) {
        r++;
      }
      if (r > i) {
        int nb = (r - i) * item;
        System.arraycopy(vals, j, out, outOff + i * item, nb);
        j += nb;
        i = r;
      }
      while (i < count && Bitmask.isSet(m, bit + i)) {
        int o = outOff + i * item;
        if (fillValue() == null) {
          for (int b = 0; b < item; b++) {
            out[o + b] = 0;
          }
        } else {
          for (int b = 0; b < item; b++) {
            out[o + b] = fillValue()[b];
          }
        }
        i++;
      }
    }
  }

  /** Elements up to which a whole masked read takes {@link #readMaskedWhole} (the bitmask read in one piece). */
  private static final long WHOLE_MASKED = 1 << 20;

  /**
   * All elements of a (small) masked numeric variable: the bitmask read once (no rank index), the stored values
   * read straight into the tail of {@code out} and spread forward in place, runs at a time.
   */
  private void readMaskedWhole(byte[] out, int outOff) throws IOException {
    int item = dtype().itemSize();
    int count = (int) n;
    byte[] m = new byte[(int) Bitmask.bytes(n)];
    mask.readAll(m);
    long missing = Bitmask.count(m, 0, n);
    if (!checked) {
      checkLen(missing);
      checked = true;
    }
    int stored = count - (int) missing;
    int src = outOff + (int) missing * item;
    readStored(0, stored, out, src);
    int dst = outOff;
    int i = 0;
    while (i < count) {
      int r = Bitmask.nextSet(m, i, count); // the run [i, r) is stored
      if (r > i) {
        int nb = (r - i) * item;
        if (src != dst) {
          System.arraycopy(out, src, out, dst, nb); // dst < src: a forward move, as through a temporary copy
        }
        src += nb;
        dst += nb;
        i = r;
      }
      if (i < count) { // element i is missing
        if (fillValue() == null) {
          java.util.Arrays.fill(out, dst, dst + item, (byte) 0);
        } else {
          System.arraycopy(fillValue(), 0, out, dst, item);
        }
        dst += item;
        i++;
      }
    }
  }

  /** Stored values {@code [k0, k0 + count)} (bool: unpacked to one 0/1 byte each). */
  private void readStored(long k0, int count, byte[] out, int outOff) throws IOException {
    if (count == 0) {
      return;
    }
    if (!bits) {
      file.readFully(dataPos + k0 * dtype().itemSize(), out, outOff, count * dtype().itemSize());
      return;
    }
    long b0 = k0 / 8;
    long b1 = (k0 + count - 1) / 8;
    byte[] packed = new byte[(int) (b1 - b0 + 1)];
    file.readFully(dataPos + b0, packed, 0, packed.length);
    long shift = k0 - b0 * 8;
    for (int i = 0; i < count; i++) {
      out[outOff + i] = Bitmask.isSet(packed, shift + i) ? (byte) 1 : (byte) 0;
    }
  }

  /** Verifies once that {@code .len} equals the bitmask plus the values it says are stored. */
  private void checkLen() throws IOException {
    if (checked) {
      return;
    }
    checkLen(mask.missing());
    checked = true;
  }

  private void checkLen(long missing) throws IOException {
    long stored = n - missing;
    long want = Bitmask.bytes(n) + storedBytes(stored);
    if (want != len) {
      throw new FormatException(what + ": .len is " + len + " but the bitmask leaves " + stored + " of " + n
          + " values stored, which take " + want + " bytes");
    }
    checked = true;
  }
}
