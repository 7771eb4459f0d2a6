package org.chunkcdm.ncstream;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Deflater;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.DecodePool;
import org.chunkcdm.chunk.ReadSettings;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.ArrayStructureBB;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.ma2.StructureDataDeep;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.EnumTypedef;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Structure;
import ucar.nc2.Variable;
import ucar.nc2.dataset.VariableDS;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * Writes ncstream (netcdf-java's {@code NcStreamProto} messages, grammar "NcStream Grammar Version2") to an
 * {@link OutputStream} in bounded memory: the start magic, a header message for a {@link NetcdfFile} (groups,
 * dimensions, attributes, enum typedefs, variables, structures; optionally only some variables), data messages,
 * an error message, the end magic.
 *
 * <p>{@link #writeData(Variable, Section)} writes a variable as data messages of at most
 * {@link Options#messageBytes(long)} payload bytes each (a variable no larger than that in one message, which
 * stock netcdf-java readers need): every message is a C-order-contiguous slab of the selection (leading indices
 * fixed, one dimension ranged, trailing dimensions whole) whose boundaries fall on the variable's chunk
 * boundaries when it has a chunk layout. Variables of chunkcdm's IOSPs (SPobject a {@link ChunkedArray}, also
 * behind a {@code VariableDS} whose enhancements change none of its values) go
 * as the raw bytes of their chunks in the chunks' own byte order (the {@code bigend} flag says which; no
 * conversion), read with {@link SectionReader#readBytes}; other variables through {@link Variable#read(Section)}
 * in slabs, big-endian.
 *
 * <p>{@link #writeDataMessage(Variable, Section)} writes a section as exactly ONE data message, big-endian, as
 * netcdf-java 5.5.3's cdmremote client ({@code NcStreamReader}, which ignores {@code bigend}) needs for a
 * {@code req=data} response; the payload is still read and written in bounded pieces.
 *
 * <p>Encodings follow netcdf-java: numbers and char as a length-prefixed byte block (optionally DEFLATE, zlib
 * format); String and Opaque as a count followed by length-prefixed items (UTF-8 for strings); Structure as a
 * length-prefixed {@code StructureData} message (big-endian fixed part, strings on its heap). Variable-length
 * arrays and sequences are refused with an IOException.
 *
 * <p>The slabs of a chunked variable are read and written by several workers (the calling thread and background
 * threads, as many as core's decode threads): each decodes its slab into its own reused buffer and writes it when
 * every earlier slab is written (one slab buffer per worker in memory). Not thread-safe: one writer per stream
 * (the workers take turns on it; a stream is written by one thread at a time, not always the caller's). Byte
 * counts returned are bytes written to the stream.
 */
public final class NcStreamOut {
  /** Default payload bound of one data message. */
  public static final long DEFAULT_MESSAGE_BYTES = 1L << 20;
  /**
   * A one-message section ({@link #writeDataMessage}) is deflated only up to this many payload bytes, since its
   * compressed length must precede it (the compressed bytes are held in memory); larger ones go uncompressed.
   */
  public static final long DEFLATE_ONE_MESSAGE_BYTES = 16L << 20;
  /** Version field of data messages (netcdf-java 5: proto3 encoding). */
  static final int DATA_VERSION = 3;
  /** Version field of the header message (as netcdf-java's writer). */
  static final int HEADER_VERSION = 1;

  private static final VarHandle LE16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BE16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** Called after each data message with the uncompressed payload bytes it carried. */
  public interface Progress {
    void advance(long dataBytes);
  }

  /** Writer settings (immutable; each setter returns a copy). */
  public static final class Options {
    final long messageBytes;
    final int deflateLevel; // Integer.MIN_VALUE = off
    final boolean bigEndian;
    final long headerDataBytes;
    final Progress progress;

    private Options(long messageBytes, int deflateLevel, boolean bigEndian, long headerDataBytes, Progress progress) {
      this.messageBytes = messageBytes;
      this.deflateLevel = deflateLevel;
      this.bigEndian = bigEndian;
      this.headerDataBytes = headerDataBytes;
      this.progress = progress;
    }

    /** 1 MiB messages, no compression, chunk byte order, no data in the header, no progress. */
    public static Options defaults() {
      return new Options(DEFAULT_MESSAGE_BYTES, Integer.MIN_VALUE, false, 0, null);
    }

    /**
     * Payload bound of one data message (at least 1 KiB). Below 1 MiB, variables stock netcdf-java readers
     * read whole (one message up to 1 MB) may be split.
     */
    public Options messageBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("message bound " + bytes + " < 1024 bytes");
      }
      return new Options(bytes, deflateLevel, bigEndian, headerDataBytes, progress);
    }

    /** DEFLATE (zlib) numeric and char payloads at {@code level} 0..9, or -1 for zlib's default level. */
    public Options deflate(int level) {
      if (level < -1 || level > 9) {
        throw new IllegalArgumentException("deflate level " + level + " not in -1..9");
      }
      return new Options(messageBytes, level, bigEndian, headerDataBytes, progress);
    }

    /** No compression. */
    public Options noDeflate() {
      return new Options(messageBytes, Integer.MIN_VALUE, bigEndian, headerDataBytes, progress);
    }

    /** Always big-endian payloads (converting chunks of the other order) instead of the chunks' own order. */
    public Options bigEndian(boolean always) {
      return new Options(messageBytes, deflateLevel, always, headerDataBytes, progress);
    }

    /**
     * Numeric variables smaller than {@code bytes} carry their values in the header ("immediate" data, as
     * netcdf-java's writer does below 100 bytes; the cdmremote client then does not ask for them). 0 = never.
     */
    public Options headerDataBytes(long bytes) {
      return new Options(messageBytes, deflateLevel, bigEndian, Math.max(0, bytes), progress);
    }

    public Options progress(Progress p) {
      return new Options(messageBytes, deflateLevel, bigEndian, headerDataBytes, p);
    }

    public boolean deflates() {
      return deflateLevel != Integer.MIN_VALUE;
    }
  }

  private final OutputStream out;
  private final Options opt;
  private long written;
  private Deflater deflater;

  public NcStreamOut(OutputStream out) {
    this(out, Options.defaults());
  }

  public NcStreamOut(OutputStream out, Options options) {
    this.out = out;
    this.opt = options;
  }

  /** Bytes written to the stream so far. */
  public long bytesWritten() {
    return written;
  }

  // ------------------------------------------------------------------ framing

  /** MAGIC_START. */
  public long writeStart() throws IOException {
    return put(NcStream.MAGIC_START);
  }

  /** MAGIC_END. */
  public long writeEnd() throws IOException {
    return put(NcStream.MAGIC_END);
  }

  /** An error message (MAGIC_ERR, length, {@code Error}); a reader stops at it. */
  public long writeError(String message) throws IOException {
    byte[] b = NcStream.encodeErrorMessage(message == null ? "error" : message).toByteArray();
    return put(NcStream.MAGIC_ERR) + putVInt(b.length) + put(b);
  }

  /**
   * A header message for {@code nc}: every group, dimension, attribute and enum typedef, and the variables in
   * {@code vars} (null = all; a structure goes whole with its members). {@code location} null = the file's.
   */
  public long writeHeader(NetcdfFile nc, String location, Collection<? extends Variable> vars) throws IOException {
    Set<String> keep = null;
    if (vars != null) {
      keep = new HashSet<>();
      for (Variable v : vars) {
        keep.add(v.getFullName());
      }
    }
    NcStreamProto.Header.Builder h = NcStreamProto.Header.newBuilder();
    String loc = location != null ? location : nc.getLocation();
    if (loc != null) {
      h.setLocation(loc);
    }
    if (nc.getTitle() != null) {
      h.setTitle(nc.getTitle());
    }
    if (nc.getId() != null) {
      h.setId(nc.getId());
    }
    h.setRoot(encodeGroup(nc.getRootGroup(), keep));
    h.setVersion(HEADER_VERSION);
    byte[] b = h.build().toByteArray();
    return put(NcStream.MAGIC_HEADER) + putVInt(b.length) + put(b);
  }

  /**
   * The whole stream: start, header (only {@code vars}; null = every variable), each variable's data, end. A failure while writing data ends the stream with an error message naming the
   * variable and is then rethrown.
   */
  public long writeAll(NetcdfFile nc, String location, List<? extends Variable> vars) throws IOException {
    List<Variable> list = new ArrayList<>(vars != null ? vars : dataVariables(nc));
    // strings and opaque data last: netcdf-java's NcStreamIosp cannot skip them and stops indexing there
    list.sort(java.util.Comparator.comparing(v -> v.getDataType() == DataType.STRING || v.getDataType() == DataType.OPAQUE));
    long n = writeStart() + writeHeader(nc, location, vars);
    for (Variable v : list) {
      try {
        n += writeData(v, null);
      } catch (IOException | RuntimeException e) {
        writeError(v.getFullName() + ": " + e.getMessage());
        out.flush();
        throw e;
      }
    }
    return n + writeEnd();
  }

  /** The variables whose data a whole-file stream carries: every non-member variable, groups included. */
  public static List<Variable> dataVariables(NetcdfFile nc) {
    List<Variable> out = new ArrayList<>();
    for (Variable v : nc.getVariables()) {
      if (v.getParentStructure() == null) {
        out.add(v);
      }
    }
    return out;
  }

  /** Uncompressed payload bytes of a whole variable as {@link #writeData} counts them (for progress). */
  public static long dataBytes(Variable v) {
    return v.getSize() * Math.max(1, v.getElementSize());
  }

  // ------------------------------------------------------------------ data

  /**
   * Writes {@code section} of {@code v} (null = all) as bounded data messages; a selection with no elements
   * writes nothing. Sections are in the variable's CDM index space (strides allowed).
   */
  public long writeData(Variable v, Section section) throws IOException {
    Section s = fill(v, section);
    if (s.computeSize() == 0) {
      return 0;
    }
    DataType dt = v.getDataType();
    if (dt == DataType.SEQUENCE) {
      throw new IOException(v.getFullName() + ": sequences are not supported by this writer");
    }
    boolean whole = isWhole(s, v.getShape());
    ChunkedArray raw = rawSource(v);
    int[] chunkShape = null;
    ChunkGrid.Flat flat = null;
    int extra = 1;
    if (whole) {
      if (raw != null) {
        extra = raw.dtype().extraDim() > 0 ? raw.dtype().extraDim() : 1;
        if (raw.grid() instanceof ChunkGrid.Regular) {
          int[] cs = ((ChunkGrid.Regular) raw.grid()).chunkShape();
          chunkShape = raw.dtype().extraDim() > 0 ? append(cs, raw.dtype().extraDim()) : cs;
        } else {
          flat = (ChunkGrid.Flat) raw.grid();
        }
      } else {
        chunkShape = chunkSizesAttribute(v);
      }
    }
    long elem = elementBytes(v);
    Slabs slabs = new Slabs(s.getShape(), elem, opt.messageBytes, chunkShape, flat, extra);
    long n = 0;
    try {
      if (raw != null && !slabs.single() && isFixedSize(v)
          && (raw.dtype().extraDim() == 0 || elem * raw.dtype().extraDim() <= opt.messageBytes)) { // whole items
        return writeParallel(v, s, slabs, raw);
      }
      for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
        Section piece = toVariable(s, slab[0], slab[1]);
        n += writeMessage(v, piece, raw, false);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return n;
  }

  private static boolean isFixedSize(Variable v) {
    DataType dt = v.getDataType();
    return !v.isVariableLength() && dt != DataType.STRING && dt != DataType.OPAQUE && dt != DataType.STRUCTURE
        && dt != DataType.SEQUENCE;
  }

  /**
   * Threads that read and write the slabs of one chunked variable, the calling thread included: as many as the chunk
   * layer's decode threads ({@code -Dchunkcdm.decode.threads}, default the available processors); fewer when their
   * slab buffers (one message each) would take more than a quarter of the heap.
   */
  /** Tests: the number of workers instead of the decode threads' (0 = those). */
  static volatile int workersForTests;

  static int workers(long slabBytes) {
    int want = Math.max(1, Math.min(64, workersForTests > 0 ? workersForTests : DecodePool.threads()));
    long quarter = Runtime.getRuntime().maxMemory() / 4;
    while (want > 1 && want * slabBytes > quarter) {
      want--;
    }
    return want;
  }

  /**
   * Writes the slabs of a chunked variable with {@link #workers} threads (the caller and background threads).
   * Each worker takes the next slab, decodes its chunks itself (no other decode thread helps:
   * {@code ReadSettings} of one thread) straight into its own reused buffer, byte-swaps or deflates it, waits
   * until every earlier slab is written and then writes the message itself, while the other workers decode the
   * next slabs. The payload thus leaves from the core (and its cache) that decoded it, no slab is handed between
   * threads, and the cores decode in parallel with the one write in progress. Messages stay in order; memory is
   * one buffer of at most one message per worker, reused for every slab (plus the compressed copy with DEFLATE).
   * A failure (a read, a write) stops the workers at the failing slab: every earlier slab is still written, none
   * from it on; an interrupt stops them all. The failure of the lowest slab is rethrown once all workers have
   * stopped.
   */
  private long writeParallel(Variable v, Section s, Slabs slabs, ChunkedArray raw) throws IOException {
    long elem = elementBytes(v);
    long most = Math.min(opt.messageBytes, s.computeSize() * elem);
    if (most > Integer.MAX_VALUE - 64) {
      throw new IOException(v.getFullName() + ": a slab of " + most + " bytes is too large for one message");
    }
    org.chunkcdm.io.Bounds.checkAllocation(most, v.getFullName() + ": a slab buffer");
    int nw = workers(most);
    ChunkedArray one = raw.withSettings(ReadSettings.of(raw.settings().cache(), 1));
    Turns t = new Turns(v, s, slabs);
    List<Future<?>> helpers = new ArrayList<>(nw - 1);
    try {
      for (int i = 1; i < nw; i++) {
        helpers.add(WORKERS.submit(() -> work(t, one, (int) most)));
      }
      work(t, one, (int) most);
    } finally {
      // every worker has stopped before the caller goes on (or closes the file)
      boolean interrupted = false;
      for (Future<?> f : helpers) {
        while (true) {
          try {
            f.get();
            break;
          } catch (InterruptedException e) {
            interrupted = true;
            t.fail(-1, new java.io.InterruptedIOException("interrupted while writing " + v.getFullName()));
          } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            t.fail(-1, e.getCause() != null ? e.getCause() : e);
            break;
          }
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    t.rethrow();
    return t.bytes;
  }

  /** Shared state of the workers of one variable: the slab iterator and whose turn it is to write. */
  private static final class Turns {
    final Variable v;
    final Section s;
    final Slabs slabs;
    long taken; // slabs handed out
    long done; // slabs written: the slab numbered {@code done} may write now
    long bytes; // stream bytes written
    long stopAt = Long.MAX_VALUE; // slabs from this number on are not written (a failure)
    Throwable failure; // the failure of the lowest slab number

    Turns(Variable v, Section s, Slabs slabs) {
      this.v = v;
      this.s = s;
      this.slabs = slabs;
    }

    /**
     * Slab {@code seq} failed: it and every later slab are dropped, the earlier ones are still written (so the
     * stream holds every message before the failing one); -1 stops everything (an interrupt).
     */
    synchronized void fail(long seq, Throwable e) {
      if (seq < stopAt) {
        stopAt = seq;
        failure = e;
      }
      notifyAll();
    }

    void rethrow() throws IOException {
      Throwable e;
      synchronized (this) {
        e = failure;
      }
      if (e == null) {
        return;
      }
      if (e instanceof UncheckedIOException) {
        e = e.getCause();
      }
      if (e instanceof IOException) {
        throw (IOException) e;
      }
      if (e instanceof RuntimeException) {
        throw (RuntimeException) e;
      }
      if (e instanceof Error) {
        throw (Error) e;
      }
      throw new IOException(v.getFullName() + ": " + e, e);
    }
  }

  /** One worker of {@link #writeParallel}: takes, reads, prepares and writes slabs until none is left or one failed. */
  private Void work(Turns t, ChunkedArray raw, int most) {
    byte[] buf = null;
    Deflater z = null;
    ByteArrayOutputStream zout = null;
    long seq = -1;
    try {
      while (true) {
        Section piece;
        synchronized (t) {
          seq = t.taken;
          if (seq >= t.stopAt) {
            return null;
          }
          int[][] slab = t.slabs.next();
          if (slab == null) {
            return null;
          }
          t.taken++;
          piece = toVariable(t.s, slab[0], slab[1]);
        }
        if (buf == null) {
          buf = new byte[most];
        }
        Slab p = readSlab(piece, raw, opt.bigEndian, buf);
        buf = p.bytes; // grown when a slab was larger than expected
        byte[] payload = p.bytes;
        int plen = p.length;
        byte[] head;
        if (opt.deflates()) {
          if (z == null) {
            z = new Deflater(opt.deflateLevel);
            zout = new ByteArrayOutputStream(Math.max(64, most / 2));
          }
          zout.reset();
          deflateInto(z, p.bytes, p.length, zout);
          payload = zout.toByteArray();
          plen = payload.length;
          head = dataHead(t.v, piece, p.bigEndian, true, p.length, plen);
        } else {
          head = dataHead(t.v, piece, p.bigEndian, false, 0, plen);
        }
        synchronized (t) {
          while (t.done != seq && seq < t.stopAt) {
            t.wait();
          }
          if (seq >= t.stopAt) {
            return null;
          }
        }
        // this slab's turn: no other worker writes until done moves on
        out.write(head);
        out.write(payload, 0, plen);
        written += head.length + (long) plen;
        report(p.length);
        synchronized (t) {
          t.done++;
          t.bytes += head.length + (long) plen;
          t.notifyAll();
        }
      }
    } catch (InterruptedException e) {
      t.fail(-1, new java.io.InterruptedIOException("interrupted while writing " + t.v.getFullName()));
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      t.fail(seq, e);
    } finally {
      if (z != null) {
        z.end();
      }
    }
    return null;
  }

  /** A slab read into a reused buffer: its first {@code length} bytes. */
  private static final class Slab {
    final byte[] bytes;
    final int length;
    final boolean bigEndian;

    Slab(byte[] bytes, int length, boolean bigEndian) {
      this.bytes = bytes;
      this.length = length;
      this.bigEndian = bigEndian;
    }
  }

  /** Reads {@code s} of a chunked variable (whole items) into {@code b}, or a larger new array when it does not fit. */
  private static Slab readSlab(Section s, ChunkedArray raw, boolean forceBig, byte[] b) throws IOException {
    DType dt = raw.dtype();
    int rank = raw.grid().rank();
    long[] first = new long[rank];
    long[] count = new long[rank];
    long[] stride = new long[rank];
    long len = dt.itemSize();
    for (int d = 0; d < rank; d++) {
      Range r = s.getRange(d);
      first[d] = r.first();
      count[d] = r.length();
      stride[d] = r.stride();
      len *= count[d];
    }
    if (b.length < len) {
      b = new byte[(int) len];
    }
    int n = (int) len;
    SectionReader.readBytes(raw, first, count, stride, b, 0);
    if (dt.kind() == DType.Kind.BOOL) {
      for (int i = 0; i < n; i++) {
        b[i] = b[i] != 0 ? (byte) 1 : 0;
      }
    }
    int unit = dt.kind() == DType.Kind.COMPLEX ? dt.itemSize() / 2 : dt.extraDim() > 0 ? 1 : dt.itemSize();
    boolean big = dt.order() == ByteOrder.BIG_ENDIAN || unit == 1;
    if (forceBig && !big) {
      swap(b, n, unit);
      big = true;
    }
    return new Slab(b, n, big);
  }

  /** Background workers of {@link #writeParallel} (daemon threads, created on demand, idle ones end after a minute). */
  private static final ExecutorService WORKERS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "chunkcdm-ncstream-worker");
    t.setDaemon(true);
    return t;
  });

  /**
   * Writes {@code section} of {@code v} (null = all) as exactly one data message, big-endian (what netcdf-java
   * 5.5.3's cdmremote client reads for a {@code req=data} response). Payloads of fixed-size types are read and
   * written in bounded pieces; with DEFLATE the compressed message is built in memory first, so only sections
   * of at most {@link #DEFLATE_ONE_MESSAGE_BYTES} are deflated (larger ones go uncompressed). Strings, opaque
   * and structure data are read in bounded pieces too.
   * The first piece is read before anything is written, so a failing read of a small section leaves the
   * stream untouched; a failure later leaves a partial message (the caller must abort the stream).
   */
  public long writeDataMessage(Variable v, Section section) throws IOException {
    Section s = fill(v, section);
    if (v.getDataType() == DataType.SEQUENCE) {
      throw new IOException(v.getFullName() + ": sequences are not supported by this writer");
    }
    try {
      return writeMessage(v, s, rawSource(v), true);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  // ------------------------------------------------------------------ one message

  private long writeMessage(Variable v, Section s, ChunkedArray raw, boolean forceBig) throws IOException {
    DataType dt = v.getDataType();
    if (v.isVariableLength()) {
      throw new IOException(v.getFullName() + ": variable-length arrays are not supported by this writer");
    }
    if (dt == DataType.STRING || dt == DataType.OPAQUE) {
      return writeObjects(v, s);
    }
    if (dt == DataType.STRUCTURE) {
      return writeStructure(v, s);
    }
    long nelems = s.computeSize();
    long elem = elementBytes(v);
    long payload = nelems * elem;
    if (payload > Integer.MAX_VALUE - 64) {
      throw new IOException(v.getFullName() + ": section " + s + " of " + payload + " bytes is too large for one"
          + " ncstream data message (2 GiB)");
    }
    boolean big = forceBig || opt.bigEndian;
    if (!forceBig || payload <= opt.messageBytes) {
      // one piece
      Piece p = readPiece(v, s, raw, big);
      return emitPrimitive(v, s, p.bytes, p.bigEndian, p.bytes.length);
    }
    // one message of many pieces (cdmremote): bounded reads, streamed payload
    Slabs slabs = new Slabs(s.getShape(), elem, opt.messageBytes, null, null, 1);
    int[][] first = slabs.next();
    Piece p0 = readPiece(v, toVariable(s, first[0], first[1]), raw, true);
    if (opt.deflates() && payload <= DEFLATE_ONE_MESSAGE_BYTES) {
      // the compressed length precedes the data: compress every piece first (at most about the payload)
      ByteArrayOutputStream z = new ByteArrayOutputStream();
      Deflater d = deflater();
      d.reset();
      byte[] buf = new byte[64 << 10];
      for (Piece p = p0; p != null; ) {
        d.setInput(p.bytes);
        while (!d.needsInput()) {
          z.write(buf, 0, d.deflate(buf));
        }
        int[][] slab = slabs.next();
        p = slab == null ? null : readPiece(v, toVariable(s, slab[0], slab[1]), raw, true);
      }
      d.finish();
      while (!d.finished()) {
        z.write(buf, 0, d.deflate(buf));
      }
      long n = putDataProto(v, s, true, true, (int) payload);
      n += putVInt(z.size());
      z.writeTo(out);
      written += z.size();
      report(payload);
      return n + z.size();
    }
    long n = putDataProto(v, s, true, false, 0);
    n += putVInt((int) payload);
    n += put(p0.bytes);
    report(p0.bytes.length);
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      Piece p = readPiece(v, toVariable(s, slab[0], slab[1]), raw, true);
      n += put(p.bytes);
      report(p.bytes.length);
    }
    return n;
  }

  /** Payload bytes of one slab and their byte order. */
  private static final class Piece {
    final byte[] bytes;
    final boolean bigEndian;

    Piece(byte[] bytes, boolean bigEndian) {
      this.bytes = bytes;
      this.bigEndian = bigEndian;
    }
  }

  private static Piece readPiece(Variable v, Section s, ChunkedArray raw, boolean forceBig) throws IOException {
    if (raw != null && raw.dtype().extraDim() > 0 && s.getRange(s.getRank() - 1).length() != raw.dtype().extraDim()) {
      raw = null; // part of each item: the CDM path cuts it
    }
    if (raw != null) {
      DType dt = raw.dtype();
      int rank = raw.grid().rank();
      long[] first = new long[rank];
      long[] count = new long[rank];
      long[] stride = new long[rank];
      for (int d = 0; d < rank; d++) {
        Range r = s.getRange(d);
        first[d] = r.first();
        count[d] = r.length();
        stride[d] = r.stride();
      }
      byte[] b = SectionReader.readBytes(raw, first, count, stride);
      if (dt.kind() == DType.Kind.BOOL) {
        for (int i = 0; i < b.length; i++) {
          b[i] = b[i] != 0 ? (byte) 1 : 0;
        }
      }
      int unit = dt.kind() == DType.Kind.COMPLEX ? dt.itemSize() / 2 : dt.extraDim() > 0 ? 1 : dt.itemSize();
      boolean big = dt.order() == ByteOrder.BIG_ENDIAN || unit == 1;
      if (forceBig && !big) {
        swap(b, unit);
        big = true;
      }
      return new Piece(b, big);
    }
    Array a;
    try {
      a = v.read(s);
    } catch (InvalidRangeException e) {
      throw new IOException(v.getFullName() + ": bad section " + s + ": " + e.getMessage(), e);
    }
    return new Piece(primitiveBytes(v.getDataType(), a), true);
  }

  /** One data message of the first {@code len} bytes of {@code b}. */
  private long emitPrimitive(Variable v, Section s, byte[] b, boolean big, int len) throws IOException {
    if (opt.deflates()) {
      byte[] z = deflate(b, len);
      long n = putDataProto(v, s, big, true, len);
      n += putVInt(z.length) + put(z);
      report(len);
      return n;
    }
    long n = putDataProto(v, s, big, false, 0);
    n += putVInt(len);
    out.write(b, 0, len);
    written += len;
    report(len);
    return n + len;
  }

  /**
   * MAGIC_DATA, the {@code Data} message with its length, and the payload length: everything of a data message
   * of numbers or chars before its {@code payloadLength} payload bytes.
   */
  private static byte[] dataHead(Variable v, Section s, boolean big, boolean deflated, int uncompressed, int payloadLength) {
    byte[] p = dataProto(v, s, big, deflated, uncompressed);
    ByteArrayOutputStream b = new ByteArrayOutputStream(NcStream.MAGIC_DATA.length + p.length + 10);
    b.write(NcStream.MAGIC_DATA, 0, NcStream.MAGIC_DATA.length);
    writeVInt(b, p.length);
    b.write(p, 0, p.length);
    writeVInt(b, payloadLength);
    return b.toByteArray();
  }

  private static byte[] dataProto(Variable v, Section s, boolean big, boolean deflated, int uncompressed) {
    NcStreamProto.Data.Builder b = NcStreamProto.Data.newBuilder();
    b.setVarName(NetcdfFiles.makeFullName(v));
    b.setDataType(NcStream.convertDataType(v.getDataType()));
    b.setSection(NcStream.encodeSection(s));
    if (deflated) {
      b.setCompress(NcStreamProto.Compress.DEFLATE);
      b.setUncompressedSize(uncompressed);
    }
    b.setVdata(v.isVariableLength());
    b.setBigend(big);
    b.setVersion(DATA_VERSION);
    return b.build().toByteArray();
  }

  /** DEFLATE (zlib) of the first {@code len} bytes of {@code b} into {@code z} with {@code d} (reset first). */
  private static void deflateInto(Deflater d, byte[] b, int len, ByteArrayOutputStream z) {
    d.reset();
    d.setInput(b, 0, len);
    d.finish();
    byte[] buf = new byte[64 << 10];
    while (!d.finished()) {
      int m = d.deflate(buf);
      z.write(buf, 0, m);
    }
  }

  private long putDataProto(Variable v, Section s, boolean big, boolean deflated, int uncompressed) throws IOException {
    byte[] p = dataProto(v, s, big, deflated, uncompressed);
    return put(NcStream.MAGIC_DATA) + putVInt(p.length) + put(p);
  }

  /** String and opaque data: count, then each item length-prefixed (UTF-8 strings); read in bounded slabs. */
  private long writeObjects(Variable v, Section s) throws IOException {
    DataType dt = v.getDataType();
    long nobj = s.computeSize();
    if (nobj > Integer.MAX_VALUE) {
      throw new IOException(v.getFullName() + ": " + nobj + " items are too many for one data message");
    }
    long n = putDataProto(v, s, true, false, 0);
    n += putVInt((int) nobj);
    long per = dt == DataType.STRING ? 64 : 256; // rough bytes per item for slab sizing
    Slabs slabs = new Slabs(s.getShape(), per, opt.messageBytes, null, null, 1);
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
      Section piece = toVariable(s, slab[0], slab[1]);
      Array a;
      try {
        a = v.read(piece);
      } catch (InvalidRangeException e) {
        throw new IOException(v.getFullName() + ": bad section " + piece + ": " + e.getMessage(), e);
      }
      buf.reset();
      IndexIterator it = a.getIndexIterator();
      while (it.hasNext()) {
        Object o = it.getObjectNext();
        byte[] item;
        if (o instanceof String) {
          item = ((String) o).getBytes(StandardCharsets.UTF_8);
        } else if (o instanceof ByteBuffer) {
          ByteBuffer bb = ((ByteBuffer) o).duplicate();
          bb.rewind();
          item = new byte[bb.remaining()];
          bb.get(item);
        } else {
          throw new IOException(v.getFullName() + ": unexpected item " + (o == null ? "null" : o.getClass().getName()));
        }
        writeVInt(buf, item.length);
        buf.write(item, 0, item.length);
      }
      buf.writeTo(out);
      written += buf.size();
      n += buf.size();
      report(buf.size());
    }
    return n;
  }

  /** A structure slab: length-prefixed {@code StructureData} with a big-endian fixed part and a string heap. */
  private long writeStructure(Variable v, Section s) throws IOException {
    Array a;
    try {
      a = v.read(s);
    } catch (InvalidRangeException e) {
      throw new IOException(v.getFullName() + ": bad section " + s + ": " + e.getMessage(), e);
    }
    ArrayStructureBB bb = StructureDataDeep.copyToArrayBB((ArrayStructure) a, ByteOrder.BIG_ENDIAN, true);
    NcStreamProto.StructureData.Builder sd = NcStreamProto.StructureData.newBuilder();
    ByteBuffer data = bb.getByteBuffer();
    sd.setData(ByteString.copyFrom(data.array(), data.arrayOffset(), data.limit()));
    sd.setNrows(a.getSize());
    sd.setRowLength(bb.getStructureMembers().getStructureSize());
    List<Object> heap = bb.getHeap();
    if (heap != null) {
      for (Object o : heap) {
        if (o instanceof String) {
          sd.addHeapCount(1);
          sd.addSdata((String) o);
        } else if (o instanceof String[]) {
          String[] ss = (String[]) o;
          sd.addHeapCount(ss.length);
          for (String x : ss) {
            sd.addSdata(x);
          }
        } else {
          throw new IOException(v.getFullName() + ": structure member data of " + o.getClass().getSimpleName()
              + " (variable-length members) is not supported by this writer");
        }
      }
    }
    byte[] p = sd.build().toByteArray();
    long n = putDataProto(v, s, true, false, 0);
    n += putVInt(p.length) + put(p);
    report(p.length);
    return n;
  }

  // ------------------------------------------------------------------ header encoding

  private NcStreamProto.Group.Builder encodeGroup(Group g, Set<String> keep) throws IOException {
    NcStreamProto.Group.Builder gb = NcStreamProto.Group.newBuilder();
    gb.setName(g.getShortName() == null ? "" : g.getShortName());
    for (Dimension d : g.getDimensions()) {
      gb.addDims(encodeDim(d));
    }
    for (Attribute a : g.attributes()) {
      gb.addAtts(NcStream.encodeAtt(a));
    }
    for (EnumTypedef e : g.getEnumTypedefs()) {
      gb.addEnumTypes(encodeEnum(e));
    }
    for (Variable v : g.getVariables()) {
      if (keep != null && !keep.contains(v.getFullName())) {
        continue;
      }
      if (v instanceof Structure) {
        gb.addStructs(encodeStructure((Structure) v));
      } else {
        gb.addVars(encodeVar(v, opt.headerDataBytes));
      }
    }
    for (Group sub : g.getGroups()) {
      gb.addGroups(encodeGroup(sub, keep));
    }
    return gb;
  }

  private static NcStreamProto.Dimension.Builder encodeDim(Dimension d) {
    NcStreamProto.Dimension.Builder b = NcStreamProto.Dimension.newBuilder();
    if (d.getShortName() != null) {
      b.setName(d.getShortName());
    }
    if (!d.isVariableLength()) {
      b.setLength(d.getLength());
    }
    b.setIsPrivate(!d.isShared());
    b.setIsVlen(d.isVariableLength());
    b.setIsUnlimited(d.isUnlimited());
    return b;
  }

  private static NcStreamProto.EnumTypedef.Builder encodeEnum(EnumTypedef e) {
    NcStreamProto.EnumTypedef.Builder b = NcStreamProto.EnumTypedef.newBuilder();
    b.setName(e.getShortName());
    for (Map.Entry<Integer, String> en : new java.util.TreeMap<>(e.getMap()).entrySet()) {
      b.addMap(NcStreamProto.EnumTypedef.EnumType.newBuilder().setCode(en.getKey()).setValue(en.getValue()));
    }
    return b;
  }

  private NcStreamProto.Variable.Builder encodeVar(Variable v, long headerData) throws IOException {
    NcStreamProto.Variable.Builder b = NcStreamProto.Variable.newBuilder();
    b.setName(v.getShortName());
    b.setDataType(NcStream.convertDataType(v.getDataType()));
    if (v.getDataType().isEnum() && v.getEnumTypedef() != null) {
      b.setEnumType(v.getEnumTypedef().getShortName());
    }
    for (Dimension d : v.getDimensions()) {
      b.addShape(encodeDim(d));
    }
    for (Attribute a : v.attributes()) {
      b.addAtts(NcStream.encodeAtt(a));
    }
    if (headerData > 0 && v.getDataType().isNumeric() && !v.isVariableLength() && v.getParentStructure() == null
        && dataBytes(v) < headerData) {
      // netcdf-java's decoder wraps these bytes in a big-endian buffer
      b.setData(ByteString.copyFrom(primitiveBytes(v.getDataType(), v.read())));
    }
    return b;
  }

  private NcStreamProto.Structure.Builder encodeStructure(Structure s) throws IOException {
    NcStreamProto.Structure.Builder b = NcStreamProto.Structure.newBuilder();
    b.setName(s.getShortName());
    b.setDataType(NcStream.convertDataType(s.getDataType()));
    for (Dimension d : s.getDimensions()) {
      b.addShape(encodeDim(d));
    }
    for (Attribute a : s.attributes()) {
      b.addAtts(NcStream.encodeAtt(a));
    }
    for (Variable m : s.getVariables()) {
      if (m instanceof Structure) {
        b.addStructs(encodeStructure((Structure) m));
      } else {
        b.addVars(encodeVar(m, 0));
      }
    }
    return b;
  }

  // ------------------------------------------------------------------ helpers

  /** The chunked array behind {@code v} when its raw chunk bytes are exactly the CDM values, else null. */
  static ChunkedArray rawSource(Variable v) {
    Variable base = v;
    while (base instanceof VariableDS) {
      VariableDS ds = (VariableDS) base;
      if (ds.getOriginalVariable() == null || ds.hasCachedData()) {
        return null;
      }
      // enhancements that change no value of this variable (no scale/offset, no missing or valid-range
      // attributes, no type change: checked below) leave the raw chunks right
      if (!ds.getEnhanceMode().isEmpty() && (ds.hasScaleOffset() || ds.hasMissing() || ds.hasValidData()
          || ds.hasFillValue() || ds.hasMissingValue())) {
        return null;
      }
      Variable org = ds.getOriginalVariable();
      if (org.getDataType() != ds.getDataType() || !java.util.Arrays.equals(org.getShape(), ds.getShape())) {
        return null;
      }
      base = org;
    }
    if (base.hasCachedData() || !(base.getSPobject() instanceof ChunkedArray)) {
      return null;
    }
    ChunkedArray a = (ChunkedArray) base.getSPobject();
    DType dt = a.dtype();
    switch (dt.kind()) {
      case INT:
      case UINT:
      case COMPLEX:
      case BOOL:
      case BYTES:
      case OPAQUE:
        break;
      case FLOAT:
        if (dt.itemSize() == 2) {
          return null;
        }
        break;
      default:
        return null;
    }
    if (org.chunkcdm.cdm.CdmTypes.of(dt) != v.getDataType()) {
      return null;
    }
    int[] cdm;
    try {
      cdm = SectionReader.cdmShape(a.grid().shape(), dt.extraDim());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return java.util.Arrays.equals(cdm, v.getShape()) ? a : null;
  }

  private static long elementBytes(Variable v) {
    DataType dt = v.getDataType();
    if (dt == DataType.STRUCTURE) {
      return Math.max(1, v.getElementSize());
    }
    return Math.max(1, dt.getSize());
  }

  private static Section fill(Variable v, Section section) throws IOException {
    try {
      Section s = section == null ? v.getShapeAsSection() : Section.fill(section, v.getShape());
      if (s.getRank() != v.getRank()) {
        throw new InvalidRangeException("rank " + s.getRank() + " != " + v.getRank());
      }
      int[] shape = v.getShape();
      for (int d = 0; d < s.getRank(); d++) {
        Range r = s.getRange(d);
        if (r == Range.VLEN || r.length() == 0) {
          continue;
        }
        if (r.first() < 0 || r.last() >= shape[d]) {
          throw new InvalidRangeException("range " + r + " outside dimension " + d + " of length " + shape[d]);
        }
      }
      return s;
    } catch (InvalidRangeException e) {
      throw new IOException(v.getFullName() + ": bad section " + section + ": " + e.getMessage(), e);
    }
  }

  private static boolean isWhole(Section s, int[] shape) {
    for (int d = 0; d < s.getRank(); d++) {
      Range r = s.getRange(d);
      if (r.first() != 0 || r.stride() != 1 || r.length() != shape[d]) {
        return false;
      }
    }
    return true;
  }

  /** Maps a slab given in selection index space to the variable's index space. */
  private static Section toVariable(Section s, int[] origin, int[] count) throws IOException {
    List<Range> rs = new ArrayList<>(origin.length);
    try {
      for (int d = 0; d < origin.length; d++) {
        Range r = s.getRange(d);
        int first = r.element(origin[d]);
        int last = r.element(origin[d] + count[d] - 1);
        rs.add(new Range(first, last, r.stride()));
      }
    } catch (InvalidRangeException e) {
      throw new IOException(e.getMessage(), e);
    }
    return new Section(rs);
  }

  /** {@code _ChunkSizes} of a variable when it has one entry per dimension, else null. */
  private static int[] chunkSizesAttribute(Variable v) {
    Attribute a = v.findAttribute("_ChunkSizes");
    if (a == null || a.isString() || a.getLength() != v.getRank()) {
      return null;
    }
    int[] cs = new int[a.getLength()];
    for (int i = 0; i < cs.length; i++) {
      Number n = a.getNumericValue(i);
      if (n == null || n.longValue() <= 0) {
        return null;
      }
      cs[i] = (int) Math.min(Integer.MAX_VALUE, n.longValue());
    }
    return cs;
  }

  private static int[] append(int[] a, int x) {
    int[] b = java.util.Arrays.copyOf(a, a.length + 1);
    b[a.length] = x;
    return b;
  }

  /** Values of a fixed-size-element array in C order, big-endian; char as one byte each. */
  static byte[] primitiveBytes(DataType dt, Array a) throws IOException {
    int n = (int) a.getSize();
    switch (dt.getPrimitiveClassType().getSimpleName()) {
      case "byte": {
        byte[] b = (byte[]) a.get1DJavaArray(DataType.BYTE);
        return b.length == n ? b : java.util.Arrays.copyOf(b, n);
      }
      case "char": {
        byte[] b = new byte[n];
        IndexIterator it = a.getIndexIterator();
        for (int i = 0; i < n; i++) {
          b[i] = (byte) it.getCharNext();
        }
        return b;
      }
      case "short": {
        short[] v = (short[]) a.get1DJavaArray(DataType.SHORT);
        ByteBuffer bb = ByteBuffer.allocate(2 * n);
        bb.asShortBuffer().put(v, 0, n);
        return bb.array();
      }
      case "int": {
        int[] v = (int[]) a.get1DJavaArray(DataType.INT);
        ByteBuffer bb = ByteBuffer.allocate(4 * n);
        bb.asIntBuffer().put(v, 0, n);
        return bb.array();
      }
      case "long": {
        long[] v = (long[]) a.get1DJavaArray(DataType.LONG);
        ByteBuffer bb = ByteBuffer.allocate(8 * n);
        bb.asLongBuffer().put(v, 0, n);
        return bb.array();
      }
      case "float": {
        float[] v = (float[]) a.get1DJavaArray(DataType.FLOAT);
        ByteBuffer bb = ByteBuffer.allocate(4 * n);
        bb.asFloatBuffer().put(v, 0, n);
        return bb.array();
      }
      case "double": {
        double[] v = (double[]) a.get1DJavaArray(DataType.DOUBLE);
        ByteBuffer bb = ByteBuffer.allocate(8 * n);
        bb.asDoubleBuffer().put(v, 0, n);
        return bb.array();
      }
      default:
        throw new IOException("no fixed-size encoding for data type " + dt);
    }
  }

  /** Reverses the byte order of {@code unit}-byte values in place. */
  static void swap(byte[] b, int unit) {
    swap(b, b.length, unit);
  }

  /** Reverses the byte order of the {@code unit}-byte values in the first {@code len} bytes of {@code b}. */
  static void swap(byte[] b, int len, int unit) {
    int n = len / unit;
    switch (unit) {
      case 2:
        for (int i = 0; i < n; i++) {
          BE16.set(b, 2 * i, (short) LE16.get(b, 2 * i));
        }
        break;
      case 4:
        for (int i = 0; i < n; i++) {
          BE32.set(b, 4 * i, (int) LE32.get(b, 4 * i));
        }
        break;
      case 8:
        for (int i = 0; i < n; i++) {
          BE64.set(b, 8 * i, (long) LE64.get(b, 8 * i));
        }
        break;
      default:
        break;
    }
  }

  private Deflater deflater() {
    if (deflater == null) {
      deflater = new Deflater(opt.deflateLevel);
    }
    return deflater;
  }

  private byte[] deflate(byte[] b, int len) {
    ByteArrayOutputStream z = new ByteArrayOutputStream(Math.max(64, len / 4));
    deflateInto(deflater(), b, len, z);
    return z.toByteArray();
  }

  private void report(long bytes) {
    if (opt.progress != null) {
      opt.progress.advance(bytes);
    }
  }

  private long put(byte[] b) throws IOException {
    out.write(b);
    written += b.length;
    return b.length;
  }

  private long putVInt(int value) throws IOException {
    byte[] b = new byte[5];
    int n = 0;
    int v = value;
    while ((v & ~0x7F) != 0) {
      b[n++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[n++] = (byte) v;
    out.write(b, 0, n);
    written += n;
    return n;
  }

  private static void writeVInt(ByteArrayOutputStream o, int value) {
    int v = value;
    while ((v & ~0x7F) != 0) {
      o.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    o.write(v);
  }

  /** Flushes the underlying stream. */
  public void flush() throws IOException {
    out.flush();
  }
}
