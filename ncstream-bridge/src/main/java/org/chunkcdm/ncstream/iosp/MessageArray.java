package org.chunkcdm.ncstream.iosp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.chunk.BasicChunkedArray;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Inflation;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.Structure;
import ucar.nc2.Variable;

/**
 * A fixed-size variable whose data messages are non-overlapping C-order ranges of it (slabs along the outer
 * dimension, as netcdf-java's NcStreamWriter and chunkcdm's writer make them): a flat chunk grid with one chunk
 * per message (and fill-value chunks for the ranges no message covers), served by core's {@link org.chunkcdm.chunk.SectionReader}.
 */
final class MessageArray extends BasicChunkedArray implements ChunkedIosp.VariableReader {
  private final FileHandles files;
  private final Path file;
  private final String what;
  private final DataType type;
  private final DType dtype;
  private final ChunkGrid.Flat grid;
  private final DataMessage[] chunks; // null = not stored

  private MessageArray(FileHandles files, Path file, String what, DataType type, DType dtype, ChunkGrid.Flat grid,
      DataMessage[] chunks, byte[] fill, Object cacheKey) {
    super(dtype, grid, fill, cacheKey);
    this.files = files;
    this.file = file;
    this.what = what;
    this.type = type;
    this.dtype = dtype;
    this.grid = grid;
    this.chunks = chunks;
  }

  /** The element type of a fixed-size primitive CDM type as stored (CHAR and enums read as integers). */
  static DType storageType(DataType t, ByteOrder order) {
    if (t == DataType.CHAR || t.isEnum()) {
      return DType.of(DType.Kind.INT, t.getSize(), order);
    }
    return CdmTypes.numeric(t, order);
  }

  /**
   * The chunked view of a variable when its messages allow it (fixed-size primitive type, every message a
   * stride-1 C-contiguous range, no two overlapping), else null (then the general reader serves it).
   */
  static MessageArray tryTiling(FileHandles files, Path file, String what, Variable.Builder<?> vb, int[] shape,
      List<DataMessage> msgs) throws IOException {
    DataType t = vb.dataType;
    if (vb instanceof Structure.Builder || NcStreamFileIosp.hasVlenDim(vb)) {
      return null;
    }
    ByteOrder order = msgs.isEmpty() ? ByteOrder.BIG_ENDIAN : msgs.get(0).order;
    DType dt = storageType(t, order);
    if (dt == null) {
      return null;
    }
    int rank = shape.length;
    long[] lshape = new long[rank];
    long[] stride = new long[rank];
    long total = 1;
    for (int d = rank - 1; d >= 0; d--) {
      lshape[d] = shape[d];
      stride[d] = total;
      total = Math.multiplyExact(total, (long) shape[d]);
    }
    List<long[]> ranges = messageRanges(what, msgs, shape, stride, dt.itemSize());
    if (ranges == null) {
      return null;
    }
    List<DataMessage> chunkList = new ArrayList<>();
    long[] s = tiles(ranges, msgs, total, chunkList);
    ChunkGrid.Flat grid = ChunkGrid.flat(lshape, s, false);
    long mtime = 0;
    try {
      mtime = Files.getLastModifiedTime(file).toMillis();
    } catch (IOException ignored) {
      // no caching identity beyond name and size
    }
    Object key = Arrays.asList("ncstream", file.toString(), vb.getFullName(), files.size(file), mtime);
    return new MessageArray(files, file, what, t, dt, grid, chunkList.toArray(new DataMessage[0]), fillBytes(vb, dt), key);
  }

  /**
   * {start, count, message index} of every non-empty message in flat C order, sorted by start; null when a message
   * is not a stride-1 C-contiguous range of the variable or two overlap.
   */
  private static List<long[]> messageRanges(String what, List<DataMessage> msgs, int[] shape, long[] stride, int item)
      throws IOException {
    List<long[]> ranges = new ArrayList<>();
    for (int i = 0; i < msgs.size(); i++) {
      DataMessage m = msgs.get(i);
      if (m.layout != DataMessage.Layout.REGULAR || m.vlen || m.section.getRank() != shape.length) {
        return null;
      }
      long n = m.section.computeSize();
      if (n == 0) {
        continue;
      }
      long start = contiguousStart(m.section, shape, stride);
      if (start < 0) {
        return null;
      }
      checkPayload(what, m, n * item);
      ranges.add(new long[] {start, n, i});
    }
    ranges.sort(Comparator.comparingLong(r -> r[0]));
    for (int i = 1; i < ranges.size(); i++) {
      if (ranges.get(i)[0] < ranges.get(i - 1)[0] + ranges.get(i - 1)[1]) {
        return null; // overlapping messages: later ones take precedence, the general reader knows how
      }
    }
    return ranges;
  }

  /**
   * The flat C-order start of a section that is contiguous in C order (leading ranges of length 1, one range of
   * any length, then whole dimensions), else -1.
   */
  private static long contiguousStart(Section sec, int[] shape, long[] stride) {
    int rank = shape.length;
    int k = 0;
    while (k < rank && sec.getRange(k).length() == 1) {
      k++;
    }
    long start = 0;
    for (int d = 0; d < rank; d++) {
      Range r = sec.getRange(d);
      if (d > k && (r.first() != 0 || r.length() != shape[d] || r.stride() != 1)) {
        return -1;
      }
      if (d == k && r.length() > 1 && r.stride() != 1) {
        return -1;
      }
      start += r.first() * stride[d];
    }
    return start;
  }

  /** A message's payload (or what it says it inflates to) must be its section's {@code bytes}. */
  private static void checkPayload(String what, DataMessage m, long bytes) throws IOException {
    if (!m.deflate && m.payloadLen != bytes) {
      throw new IOException(what + ": " + m + " holds " + m.payloadLen + " bytes, but its section " + m.section + " needs "
          + bytes);
    }
    if (m.deflate && m.uncompressedSize != 0 && m.uncompressedSize != bytes) {
      throw new IOException(what + ": " + m + " says it inflates to " + m.uncompressedSize + " bytes, but its section "
          + m.section + " needs " + bytes);
    }
  }

  /**
   * The flat chunk starts (and {@code total} last) of sorted, non-overlapping message ranges, gaps included;
   * {@code chunkList} gets each chunk's message (null for a gap).
   */
  private static long[] tiles(List<long[]> ranges, List<DataMessage> msgs, long total, List<DataMessage> chunkList) {
    List<Long> starts = new ArrayList<>();
    long at = 0;
    for (long[] r : ranges) {
      if (r[0] > at) {
        starts.add(at);
        chunkList.add(null);
      }
      starts.add(r[0]);
      chunkList.add(msgs.get((int) r[2]));
      at = r[0] + r[1];
    }
    if (at < total || starts.isEmpty()) {
      starts.add(at);
      chunkList.add(null);
    }
    long[] s = new long[starts.size() + 1];
    for (int i = 0; i < starts.size(); i++) {
      s[i] = starts.get(i);
    }
    s[starts.size()] = total;
    return s;
  }

  /** The variable's _FillValue, else netCDF's default fill for its type, as stored bytes. */
  static byte[] fillBytes(Variable.Builder<?> vb, DType dt) {
    Attribute a = vb.getAttributeContainer().findAttribute("_FillValue");
    Number n = a != null && !a.isString() && a.getLength() > 0 ? a.getNumericValue() : null;
    if (n == null) {
      n = vb.dataType == DataType.CHAR ? Integer.valueOf(0) : NcStreamFileIosp.defaultFill(vb.dataType);
    }
    if (n == null) {
      return null;
    }
    ByteBuffer bb = ByteBuffer.allocate(dt.itemSize()).order(dt.order());
    switch (dt.itemSize()) {
      case 1:
        bb.put(n.byteValue());
        break;
      case 2:
        bb.putShort(n.shortValue());
        break;
      case 4:
        if (dt.kind() == DType.Kind.FLOAT) {
          bb.putFloat(n.floatValue());
        } else {
          bb.putInt(n.intValue());
        }
        break;
      default:
        if (dt.kind() == DType.Kind.FLOAT) {
          bb.putDouble(n.doubleValue());
        } else {
          bb.putLong(n.longValue());
        }
    }
    return bb.array();
  }

  @Override
  public ChunkData chunk(long index) throws IOException {
    DataMessage m = chunks[(int) index];
    if (m == null) {
      return null;
    }
    long size = (grid.start(index + 1) - grid.start(index)) * dtype.itemSize();
    boolean swap = m.order != dtype.order() && dtype.itemSize() > 1;
    if (m.deflate) {
      return new Inflated(m, size, swap);
    }
    return new ChunkData() {
      @Override
      public long size() {
        return size;
      }

      @Override
      public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
        if (offset < 0 || len < 0 || offset + len > size) {
          throw new IOException(what + ": read of " + len + " bytes at " + offset + " outside " + m + " of " + size + " bytes");
        }
        files.readFully(file, m.payloadPos + offset, dst, dstOff, len);
        if (swap) {
          swap(dst, dstOff, len, dtype.itemSize());
        }
      }
    };
  }

  /** A deflated message, inflated on first use (once per chunk read; the section reader caches whole chunks). */
  private final class Inflated implements ChunkData {
    private final DataMessage m;
    private final long size;
    private final boolean swap;
    private byte[] bytes;

    Inflated(DataMessage m, long size, boolean swap) {
      this.m = m;
      this.size = size;
      this.swap = swap;
    }

    @Override
    public long size() {
      return size;
    }

    @Override
    public synchronized byte[] readAll() throws IOException {
      if (bytes == null) {
        bytes = inflate(files, file, what, m, size);
        if (swap) {
          swap(bytes, 0, bytes.length, dtype.itemSize());
        }
      }
      return bytes;
    }

    @Override
    public void read(long offset, byte[] dst, int dstOff, int len) throws IOException {
      byte[] all = readAll();
      if (offset < 0 || len < 0 || offset + len > all.length) {
        throw new IOException(what + ": read of " + len + " bytes at " + offset + " outside " + m + " of " + all.length + " bytes");
      }
      System.arraycopy(all, (int) offset, dst, dstOff, len);
    }
  }

  /** Inflates a deflated (zlib) payload that must give exactly {@code expected} bytes. */
  static byte[] inflate(FileHandles files, Path file, String what, DataMessage m, long expected) throws IOException {
    if (expected > Integer.MAX_VALUE - 16 || m.payloadLen > Integer.MAX_VALUE - 16) {
      throw new IOException(what + ": " + m + " is too large to inflate in one piece (" + expected + " bytes)");
    }
    org.chunkcdm.io.Bounds.checkAllocation(expected, what + ": " + m + ", inflated");
    byte[] in = files.read(file, m.payloadPos, m.payloadLen);
    byte[] out = new byte[(int) expected];
    Inflater inf = new Inflater();
    try {
      inf.setInput(in);
      int n = Inflation.inflateInto(inf, out);
      if (n != out.length || !inf.finished()) {
        throw new IOException(what + ": " + m + " inflates to " + (inf.finished() ? n + " bytes" : "less than its section")
            + ", its section needs " + expected);
      }
    } catch (DataFormatException e) {
      throw new IOException(what + ": " + m + " holds corrupt deflate data: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
    return out;
  }

  /**
   * Inflates a deflated payload of unknown inflated size (objects), refusing more than the project's one
   * allocation bound ({@link org.chunkcdm.io.Bounds#checkAllocation}) with a {@link org.chunkcdm.blosc.LimitException}.
   */
  static byte[] inflateAll(FileHandles files, Path file, String what, DataMessage m) throws IOException {
    if (m.payloadLen > Integer.MAX_VALUE - 16) {
      throw new IOException(what + ": " + m + " is too large to inflate in one piece");
    }
    byte[] in = files.read(file, m.payloadPos, m.payloadLen);
    long limit = org.chunkcdm.io.Bounds.maxAllocation();
    java.io.ByteArrayOutputStream out =
        new java.io.ByteArrayOutputStream((int) Math.max(64, Math.min(limit, (long) in.length * 4)));
    Inflater inf = new Inflater();
    try {
      inf.setInput(in);
      byte[] buf = new byte[1 << 16];
      while (!inf.finished()) {
        int k = inf.inflate(buf);
        if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
          throw new IOException(what + ": " + m + " holds truncated deflate data");
        }
        if ((long) out.size() + k > limit) { // the one bound rule: refused before the buffer grows past it
          org.chunkcdm.io.Bounds.checkAllocation((long) out.size() + k, what + ": " + m + ", inflated");
        }
        out.write(buf, 0, k);
      }
    } catch (DataFormatException e) {
      throw new IOException(what + ": " + m + " holds corrupt deflate data: " + e.getMessage(), e);
    } finally {
      inf.end();
    }
    return out.toByteArray();
  }

  static void swap(byte[] b, int off, int len, int item) {
    for (int i = off; i + item <= off + len; i += item) {
      for (int a = i, z = i + item - 1; a < z; a++, z--) {
        byte x = b[a];
        b[a] = b[z];
        b[z] = x;
      }
    }
  }

  @Override
  public Array read(Section section) throws IOException {
    Array a;
    try {
      a = org.chunkcdm.cdm.CdmReader.read(this, section);
    } catch (org.chunkcdm.blosc.LimitException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(what)) {
        throw e;
      }
      throw new org.chunkcdm.blosc.LimitException(what + ": " + e.getMessage()); // name file and variable
    }
    if (type == DataType.CHAR) {
      byte[] b = (byte[]) a.getStorage();
      char[] c = new char[b.length];
      for (int i = 0; i < b.length; i++) {
        c[i] = (char) (b[i] & 0xff);
      }
      return Array.factory(DataType.CHAR, a.getShape(), c);
    }
    if (type.isEnum()) {
      return Array.factory(type, a.getShape(), a.getStorage());
    }
    return a;
  }
}
