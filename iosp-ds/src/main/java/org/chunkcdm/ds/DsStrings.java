package org.chunkcdm.ds;

import org.chunkcdm.chunk.Lazy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.cdm.ChunkedIosp;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;

/**
 * A {@code str} or {@code unicode} variable: [bitmask] K uint64 byte lengths ({@code .endian} order), then the
 * K strings back to back (K = stored elements). On the first read the length array is scanned once into a
 * prefix index (the byte offset of every {@link #BLOCK}-th string, validated against {@code .len}); a read then
 * fetches only the lengths from the block start of the strings it needs, and only their bytes.
 *
 * <p>{@code unicode} is UTF-8 (invalid sequences become U+FFFD). {@code str} is arbitrary bytes: decoded as
 * UTF-8 when valid, else as ISO-8859-1 (one char per byte, so no byte is lost). Masked elements read as "".
 */
final class DsStrings implements ChunkedIosp.VariableReader {
  static final int BLOCK = 256;
  private static final int PIECE = 1 << 13; // lengths read at once while indexing

    private final DsFile file;
  private final Object what;
  private final int[] shape;
  private final long n;
  private final boolean bytes; // str (else unicode)
  private final ByteOrder order;
  private final long blockPos;
  private final long len;
  private final Bitmask mask;
  private final boolean noData;
  private final Lazy<Index> indexLazy = new Lazy<>(this::buildIndex);

  private static final class Index {
    final long stored; // K
    final long lengthsPos; // file position of the length array
    final long stringsPos; // file position of the first string
    final long[] offsetAt; // byte offset (from stringsPos) of string b*BLOCK

    Index(long stored, long lengthsPos, long[] offsetAt) {
      this.stored = stored;
      this.lengthsPos = lengthsPos;
      this.stringsPos = lengthsPos + 8 * stored;
      this.offsetAt = offsetAt;
    }
  }

  DsStrings(DsFile file, Object what, int[] shape, boolean bytes, ByteOrder order, long blockPos,
      long len, boolean masked, boolean noData) {
        this.file = file;
    this.what = what;
    this.shape = shape.clone();
    long c = 1;
    for (int s : shape) {
      c *= s;
    }
    this.n = c;
    this.bytes = bytes;
    this.order = order;
    this.blockPos = blockPos;
    this.len = len;
    this.noData = noData;
    this.mask = masked && !noData ? new Bitmask(file, what, blockPos, n) : null;
  }

  @Override
  public Array read(Section section) throws IOException {
    Section s;
    try {
      s = section == null ? new Section(shape) : Section.fill(section, shape);
    } catch (InvalidRangeException e) {
      throw new IOException(what + ": bad section " + section + ": " + e.getMessage(), e);
    }
    long size = s.computeSize();
    if (size > Integer.MAX_VALUE - 16) {
      throw new FormatException(what + ": section of " + size + " strings is too large for one read");
    }
    String[] out = new String[(int) size];
    if (size > 0 && noData) {
      java.util.Arrays.fill(out, "");
    } else if (size > 0) {
      long[] elems = new long[out.length];
      Section.Iterator it = s.getIterator(shape);
      int[] idx = new int[shape.length];
      for (int i = 0; i < elems.length; i++) {
        elems[i] = it.next(idx);
      }
      readElements(elems, out);
    }
    return Array.factory(DataType.STRING, s.getShape(), out);
  }

  /** Fills {@code out[i]} with element {@code elems[i]} (ascending linear indexes). */
  private void readElements(long[] elems, String[] out) throws IOException {
    Index ix = index();
    // stored index of each element (-1 = missing)
    long[] k = new long[elems.length];
    if (mask == null) {
      System.arraycopy(elems, 0, k, 0, elems.length);
    } else {
      long[] w = new long[2];
      byte[] m = mask.window(elems[0], elems[elems.length - 1], w);
      long base = w[0];
      long rank = w[1];
      long at = elems[0];
      for (int i = 0; i < elems.length; i++) {
        rank += (elems[i] - at) - Bitmask.count(m, at - base, elems[i] - base);
        at = elems[i];
        k[i] = Bitmask.isSet(m, at - base) ? -1 : rank;
      }
    }
    // runs of consecutive stored indexes share one read of lengths and one of bytes
    int i = 0;
    while (i < k.length) {
      if (k[i] < 0) {
        out[i++] = "";
        continue;
      }
      int j = i + 1;
      while (j < k.length && k[j] == k[j - 1] + 1) {
        j++;
      }
      readRun(ix, k[i], j - i, out, i);
      i = j;
    }
  }

  /** Stored strings {@code [k0, k0 + count)} into {@code out[outOff..]}. */
  private void readRun(Index ix, long k0, int count, String[] out, int outOff) throws IOException {
    long blk = k0 / BLOCK;
    long first = blk * BLOCK;
    int nl = (int) (k0 + count - first);
    byte[] lb = new byte[8 * nl];
    file.readFully(ix.lengthsPos + 8 * first, lb, 0, lb.length);
    ByteBuffer lens = ByteBuffer.wrap(lb).order(order);
    long start = ix.offsetAt[(int) blk];
    for (long q = first; q < k0; q++) {
      start += lens.getLong((int) (8 * (q - first)));
    }
    long end = start;
    for (int q = 0; q < count; q++) {
      end += lens.getLong(8 * (int) (k0 - first + q));
    }
    if (end - start > Integer.MAX_VALUE - 16) {
      throw new FormatException(what + ": " + (end - start) + " bytes of strings are too many for one read");
    }
    byte[] sb = new byte[(int) (end - start)];
    file.readFully(ix.stringsPos + start, sb, 0, sb.length);
    int p = 0;
    for (int q = 0; q < count; q++) {
      int l = (int) lens.getLong(8 * (int) (k0 - first + q));
      out[outOff + q] = decode(sb, p, l);
      p += l;
    }
  }

  private String decode(byte[] b, int off, int l) {
    if (!bytes) {
      return new String(b, off, l, StandardCharsets.UTF_8);
    }
    try {
      CharBuffer cb = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, off, l));
      return cb.toString();
    } catch (CharacterCodingException e) {
      return new String(b, off, l, StandardCharsets.ISO_8859_1);
    }
  }

  private Index index() throws IOException {
    return indexLazy.get();
  }

  /** One pass over the length array: block offsets, each length and the total checked against {@code .len}. */
  private Index buildIndex() throws IOException {
    long maskBytes = mask == null ? 0 : Bitmask.bytes(n);
    long stored = mask == null ? n : n - mask.missing();
    long lengthsPos = blockPos + maskBytes;
    long room = len - maskBytes - 8 * stored; // bytes left for the strings
    if (room < 0) {
      throw new FormatException(what + ": .len " + len + " cannot hold " + (mask == null ? "" : "the bitmask and ")
          + stored + " string lengths");
    }
    long blocks = (stored + BLOCK - 1) / BLOCK;
    long[] offsetAt = new long[(int) Math.max(1, blocks)];
    byte[] buf = new byte[8 * (int) Math.min(PIECE, Math.max(1, stored))];
    ByteBuffer bb = ByteBuffer.wrap(buf).order(order);
    long total = 0;
    for (long at = 0; at < stored; at += buf.length / 8) {
      int cnt = (int) Math.min(buf.length / 8, stored - at);
      file.readFully(lengthsPos + 8 * at, buf, 0, 8 * cnt);
      for (int i = 0; i < cnt; i++) {
        long q = at + i;
        if (q % BLOCK == 0) {
          offsetAt[(int) (q / BLOCK)] = total;
        }
        long l = bb.getLong(8 * i);
        if (l < 0 || l > room - total || l > Integer.MAX_VALUE - 16) {
          throw new FormatException(what + ": string " + q + " has length " + Long.toUnsignedString(l) + " but only "
              + (room - total) + " bytes of .len remain");
        }
        total += l;
      }
    }
    if (total != room) {
      throw new FormatException(what + ": the string lengths add up to " + total + " bytes but .len leaves " + room);
    }
    return new Index(stored, lengthsPos, offsetAt);
  }
}
