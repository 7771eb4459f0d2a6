package org.chunkcdm.ncstream;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.chunkcdm.cdm.Sections;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DecodePool;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.chunk.Slabs;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStream;

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
 * <p>The slabs of a chunked variable are read and written by several workers (the calling thread and tasks on
 * the chunk layer's decode threads, as many workers as there are decode threads): each decodes a slab into a
 * reused buffer and hands the message over; whoever hands one over while no one writes writes it and the ready
 * ones after it, in order (at most two slab buffers per worker in memory). Not thread-safe: one writer per stream
 * (a stream is written by one thread at a time, not always the caller's). Byte counts returned are bytes written
 * to the stream.
 */
public final class NcStreamOut {
  /** Default payload bound of one data message. */
  public static final long DEFAULT_MESSAGE_BYTES = 1L << 20;
  /**
   * A one-message section ({@link #writeDataMessage}) is deflated only up to this many payload bytes, since its
   * compressed length must precede it (the compressed bytes are held in memory); larger ones go uncompressed.
   */
  public static final long DEFLATE_ONE_MESSAGE_BYTES = 16L << 20;

  /** Tests: the number of slab workers instead of the decode threads' (0 = those). */
  static volatile int workersForTests;

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
    final boolean remoteNames;

    private Options(long messageBytes, int deflateLevel, boolean bigEndian, long headerDataBytes, Progress progress,
        boolean remoteNames) {
      this.messageBytes = messageBytes;
      this.deflateLevel = deflateLevel;
      this.bigEndian = bigEndian;
      this.headerDataBytes = headerDataBytes;
      this.progress = progress;
      this.remoteNames = remoteNames;
    }

    /**
     * 1 MiB messages, no compression, chunk byte order, no data in the header, no progress, data messages named
     * as in an ncstream file.
     */
    public static Options defaults() {
      return new Options(DEFAULT_MESSAGE_BYTES, Integer.MIN_VALUE, false, 0, null, false);
    }

    /**
     * Payload bound of one data message (at least 1 KiB). Below 1 MiB, variables stock netcdf-java readers
     * read whole (one message up to 1 MB) may be split.
     */
    public Options messageBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("message bound " + bytes + " < 1024 bytes");
      }
      return new Options(bytes, deflateLevel, bigEndian, headerDataBytes, progress, remoteNames);
    }

    /** DEFLATE (zlib) numeric and char payloads at {@code level} 0..9, or -1 for zlib's default level. */
    public Options deflate(int level) {
      if (level < -1 || level > 9) {
        throw new IllegalArgumentException("deflate level " + level + " not in -1..9");
      }
      return new Options(messageBytes, level, bigEndian, headerDataBytes, progress, remoteNames);
    }

    /** No compression. */
    public Options noDeflate() {
      return new Options(messageBytes, Integer.MIN_VALUE, bigEndian, headerDataBytes, progress, remoteNames);
    }

    /** Always big-endian payloads (converting chunks of the other order) instead of the chunks' own order. */
    public Options bigEndian(boolean always) {
      return new Options(messageBytes, deflateLevel, always, headerDataBytes, progress, remoteNames);
    }

    /**
     * Numeric variables smaller than {@code bytes} carry their values in the header ("immediate" data, as
     * netcdf-java's writer does below 100 bytes; the cdmremote client then does not ask for them). 0 = never.
     */
    public Options headerDataBytes(long bytes) {
      return new Options(messageBytes, deflateLevel, bigEndian, Math.max(0, bytes), progress, remoteNames);
    }

    public Options progress(Progress p) {
      return new Options(messageBytes, deflateLevel, bigEndian, headerDataBytes, p, remoteNames);
    }

    /**
     * Data messages name their variable as netcdf-java's cdmremote client expects in a {@code req=data} response
     * (the escaped full name, {@code Variable.getFullNameEscaped()}), instead of as its ncstream file reader
     * looks it up (the group path, a slash and the short name as it is).
     */
    public Options remoteNames(boolean remote) {
      return new Options(messageBytes, deflateLevel, bigEndian, headerDataBytes, progress, remote);
    }

    public boolean deflates() {
      return deflateLevel != Integer.MIN_VALUE;
    }
  }

  private final Wire wire;
  private final Options opt;
  private final DataMessages messages;
  private final SlabPipeline pipeline;

  public NcStreamOut(OutputStream out) {
    this(out, Options.defaults());
  }

  public NcStreamOut(OutputStream out, Options options) {
    this(new Wire(out), options);
  }

  /**
   * Writes to a channel (a file's, a socket's): data payloads go out from direct buffers, with no copy in the JVM.
   * {@link #flush()} before closing the channel.
   */
  public NcStreamOut(GatheringByteChannel out, Options options) {
    this(new Wire(out), options);
  }

  private NcStreamOut(Wire wire, Options options) {
    this.wire = wire;
    this.opt = options;
    this.messages = new DataMessages(options, wire);
    this.pipeline = new SlabPipeline(options, wire, messages, DecodePool.executor());
  }

  /** Bytes written to the stream so far. */
  public long bytesWritten() {
    return wire.written();
  }

  // ------------------------------------------------------------------ framing

  /** MAGIC_START. */
  public long writeStart() throws IOException {
    return wire.put(NcStream.MAGIC_START);
  }

  /** MAGIC_END. */
  public long writeEnd() throws IOException {
    return wire.put(NcStream.MAGIC_END);
  }

  /** An error message (MAGIC_ERR, length, {@code Error}); a reader stops at it. */
  public long writeError(String message) throws IOException {
    return wire.message(NcStream.MAGIC_ERR,
        NcStream.encodeErrorMessage(message == null ? "error" : message).toByteArray());
  }

  /**
   * A header message for {@code nc}: every group, dimension, attribute and enum typedef, and the variables in
   * {@code vars} (null = all; a structure goes whole with its members). {@code location} null = the file's.
   */
  public long writeHeader(NetcdfFile nc, String location, Collection<? extends Variable> vars) throws IOException {
    return wire.message(NcStream.MAGIC_HEADER, new HeaderEncoder(opt.headerDataBytes).encode(nc, location, vars));
  }

  /**
   * The whole stream: start, header (only {@code vars}; null = every variable), each variable's data, end. A
   * failure while writing data ends the stream with an error message naming the variable and is then rethrown.
   */
  public long writeAll(NetcdfFile nc, String location, List<? extends Variable> vars) throws IOException {
    List<Variable> list = new ArrayList<>(vars != null ? vars : dataVariables(nc));
    // strings and opaque data last: netcdf-java's NcStreamIosp cannot skip them and stops indexing there
    list.sort(Comparator.comparing(v -> v.getDataType() == DataType.STRING || v.getDataType() == DataType.OPAQUE));
    long n = writeStart() + writeHeader(nc, location, vars);
    for (Variable v : list) {
      try {
        n += writeData(v, null);
      } catch (IOException | RuntimeException e) {
        writeError(v.getFullName() + ": " + e.getMessage());
        wire.flush();
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

  /** The chunked array behind {@code v} when its raw chunk bytes are exactly the CDM values, else null. */
  static ChunkedArray rawSource(Variable v) {
    return Payloads.rawSource(v);
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
    if (v.getDataType() == DataType.SEQUENCE) {
      throw new IOException(v.getFullName() + ": sequences are not supported by this writer");
    }
    ChunkedArray raw = rawSource(v);
    long elem = Payloads.elementBytes(v);
    Slabs slabs = slabs(v, s, raw, elem);
    long n = 0;
    try {
      if (raw != null && !slabs.single() && Payloads.isFixedSize(v)
          && (raw.dtype().extraDim() == 0 || elem * raw.dtype().extraDim() <= opt.messageBytes)) { // whole items
        return pipeline.write(v, s, slabs, raw);
      }
      for (int[][] slab = slabs.next(); slab != null; slab = slabs.next()) {
        n += messages.write(v, slabSection(s, slab), raw, false);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return n;
  }

  /**
   * The slabs of {@code s}: on the chunk boundaries of {@code raw} (or of the {@code _ChunkSizes} attribute)
   * when {@code s} is the whole variable.
   */
  private Slabs slabs(Variable v, Section s, ChunkedArray raw, long elem) {
    if (!isWhole(s, v.getShape())) {
      return new Slabs(s.getShape(), elem, opt.messageBytes);
    }
    if (raw == null) {
      return new Slabs(s.getShape(), elem, opt.messageBytes, Payloads.chunkSizesAttribute(v), null, 1);
    }
    int extraDim = raw.dtype().extraDim();
    int extra = extraDim > 0 ? extraDim : 1;
    if (raw.grid() instanceof ChunkGrid.Regular) {
      int[] cs = ((ChunkGrid.Regular) raw.grid()).chunkShape();
      int[] chunkShape = extraDim > 0 ? append(cs, extraDim) : cs;
      return new Slabs(s.getShape(), elem, opt.messageBytes, chunkShape, null, extra);
    }
    return new Slabs(s.getShape(), elem, opt.messageBytes, null, (ChunkGrid.Flat) raw.grid(), extra);
  }

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
      return messages.write(v, s, rawSource(v), true);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  // ------------------------------------------------------------------ sections

  private static Section fill(Variable v, Section section) throws IOException {
    try {
      Section s = section == null ? v.getShapeAsSection() : Section.fill(section, v.getShape());
      return Sections.checkBounds(s, v.getShape());
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

  /** A slab of {@link Slabs} ({origin, count} in the index space of selection {@code s}) in the variable's. */
  static Section slabSection(Section s, int[][] slab) throws IOException {
    try {
      return Sections.toVariable(s, slab[0], slab[1]);
    } catch (InvalidRangeException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /** {@code s} of {@code v} through netcdf-java. */
  static Array read(Variable v, Section s) throws IOException {
    try {
      return v.read(s);
    } catch (InvalidRangeException e) {
      throw new IOException(v.getFullName() + ": bad section " + s + ": " + e.getMessage(), e);
    }
  }

  private static int[] append(int[] a, int x) {
    int[] b = java.util.Arrays.copyOf(a, a.length + 1);
    b[a.length] = x;
    return b;
  }

  /** Flushes the underlying stream. */
  public void flush() throws IOException {
    wire.flush();
  }
}
