package org.chunkcdm.cdm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Locations;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.nc2.iosp.AbstractIOServiceProvider;
import ucar.nc2.util.CancelTask;
import ucar.unidata.io.RandomAccessFile;

/**
 * Base of chunkcdm's IOSPs (netcdf-java 5.5.3 builder path). A subclass parses metadata in
 * {@link #build(Path, Group.Builder)} and gives each variable a {@link ChunkedArray} (or a
 * {@link VariableReader} for variable-length data) as its SPobject, usually through {@link ChunkedVariables}.
 * Reads go through the shared {@link SectionReader}; file access goes through {@link #files()} (positional
 * reads, so reads never share a file pointer; closed by {@link #release()}, reopened on demand). A one-file
 * dataset keeps the RandomAccessFile netcdf-java opened it with and reads through its channel; a directory
 * dataset closes it once the metadata is read.
 */
public abstract class ChunkedIosp extends AbstractIOServiceProvider {
  static {
    // http(s):// datasets through chunkcdm's client (netcdf-java's own HTTP provider is asked before ServiceLoader's)
    RemoteRafProvider.register();
  }

  private final String fileTypeId;
  private final String fileTypeDescription;
  private volatile FileHandles files;
  private RandomAccessFile opening; // the file netcdf-java opened, during build(Path, Group.Builder) only

  /** An IOSP whose datasets report {@code fileTypeId} and {@code fileTypeDescription}. */
  protected ChunkedIosp(String fileTypeId, String fileTypeDescription) {
    this.fileTypeId = fileTypeId;
    this.fileTypeDescription = fileTypeDescription;
  }

  @Override
  public String getFileTypeId() {
    return fileTypeId;
  }

  @Override
  public String getFileTypeDescription() {
    return fileTypeDescription;
  }

  /** Reads a variable whose values are not a fixed-size chunked array (e.g. strings). */
  public interface VariableReader {
    Array read(Section section) throws IOException;
  }

  @Override
  public boolean isBuilder() {
    return true;
  }

  @Override
  public final void build(RandomAccessFile raf, Group.Builder rootGroup, CancelTask cancelTask) throws IOException {
    this.location = raf.getLocation();
    Path entry = entryPath(raf.getLocation());
    boolean adopted = false;
    try {
      Path root = datasetRoot(entry);
      java.io.RandomAccessFile file = raf.getRandomAccessFile();
      if (file != null && !Locations.isRemote(entry) && (root == entry || root.toAbsolutePath().normalize().equals(entry))) {
        // a one-file dataset reads through the file netcdf-java already opened: no second open (a directory
        // dataset closes its entry file below, so a parked dataset holds no handle)
        files = new FileHandles(entry, file.getChannel(), raf);
        adopted = true;
      } else {
        files = new FileHandles(root);
      }
      opening = raf;
      build(entry, rootGroup);
      if (Locations.isRemote(entry)) {
        files.size(entry); // pins the entry object (no request: its start is cached) for getLastModified()
      }
    } catch (IOException | RuntimeException e) {
      if (files != null) {
        files.close();
      }
      if (!adopted) {
        raf.close();
      }
      throw e;
    } finally {
      this.raf = null;
      opening = null;
    }
    if (!adopted) {
      raf.close();
    }
  }

  /**
   * The dataset root that contains every file this dataset reads: the directory of a directory dataset, or
   * the file itself for a one-file dataset (the default).
   */
  protected Path datasetRoot(Path entryFile) throws IOException {
    return entryFile;
  }

  /** Parses the dataset whose entry file (the file netcdf-java opened) is given. */
  protected abstract void build(Path entryFile, Group.Builder root) throws IOException;

  /**
   * The RandomAccessFile netcdf-java opened the entry file with, while {@link #build(Path, Group.Builder)} runs
   * (null afterwards). Its buffer usually already holds the file's first bytes (netcdf-java read them for
   * {@code isValidFile}), so a format can read its header from it without another system call. Not thread-safe:
   * use it only inside build.
   */
  protected RandomAccessFile openingFile() {
    return opening;
  }

  /** Positional file access inside the dataset root. */
  protected FileHandles files() {
    return files;
  }

  /** The open dataset's file handles, for tests and diagnostics (which files are open, mapped, were read). */
  public FileHandles handles() {
    return files;
  }

  @Override
  public Array readData(Variable v, Section section) throws IOException, InvalidRangeException {
    Object sp = v.getSPobject();
    if (sp instanceof ChunkedArray) {
      return CdmReader.read((ChunkedArray) sp, section);
    }
    if (sp instanceof VariableReader) {
      return ((VariableReader) sp).read(section);
    }
    throw new IOException(location + ": variable " + v.getFullName() + " has no reader");
  }

  /** Bytes of one piece of {@link #readToOutputStream} (bounds the heap a streamed section needs): 8 MiB. */
  private static volatile long pieceBytes = 8L << 20;

  static long pieceBytes() {
    return pieceBytes;
  }

  /** Tests: smaller pieces, so that small variables stream in several. */
  static void setPieceBytes(long bytes) {
    pieceBytes = Math.max(1, bytes);
  }

  /**
   * Streams a section in netcdf-java's wire encoding (big-endian numbers, as {@code IospHelper.copyToOutputStream}
   * writes them) in pieces of at most about 8 MiB: C-order slabs of the selection (leading indices fixed, one
   * dimension split, trailing dimensions whole), so a large variable is never held in memory whole, whatever
   * its shape. {@code Variable.readToStream} (netcdf-java's {@code NcStreamWriter}) ends here.
   */
  @Override
  public long readToOutputStream(Variable v, Section section, OutputStream out)
      throws IOException, InvalidRangeException {
    Section s = Section.fill(section, v.getShape());
    long written = 0;
    boolean numeric = v.getDataType().isNumeric();
    for (Section piece : pieces(s, Math.max(1, v.getElementSize()), pieceBytes())) {
      if (numeric) {
        byte[] b = bigEndian(readData(v, piece));
        out.write(b);
        written += b.length;
      } else {
        written += super.readToOutputStream(v, piece, out); // chars, strings: the same encoding piece by piece
      }
    }
    return written;
  }

  /** A numeric array's values, big-endian, in C order. */
  static byte[] bigEndian(Array a) {
    Object p = a.get1DJavaArray(a.getDataType());
    if (p instanceof byte[]) {
      return (byte[]) p;
    }
    int n = (int) a.getSize();
    ByteBuffer bb = ByteBuffer.allocate(n * a.getDataType().getSize()).order(ByteOrder.BIG_ENDIAN);
    if (p instanceof double[]) {
      bb.asDoubleBuffer().put((double[]) p);
    } else if (p instanceof float[]) {
      bb.asFloatBuffer().put((float[]) p);
    } else if (p instanceof long[]) {
      bb.asLongBuffer().put((long[]) p);
    } else if (p instanceof int[]) {
      bb.asIntBuffer().put((int[]) p);
    } else if (p instanceof short[]) {
      bb.asShortBuffer().put((short[]) p);
    } else {
      throw new IllegalArgumentException("not a numeric array: " + a.getDataType());
    }
    return bb.array();
  }

  /** As {@link #readToOutputStream}, to a channel (netcdf-java's default holds the whole section). */
  @Override
  public long readToByteChannel(Variable v, Section section, WritableByteChannel channel)
      throws IOException, InvalidRangeException {
    return readToOutputStream(v, section, unclosable(Channels.newOutputStream(channel)));
  }

  /** As {@link #readToOutputStream}, to a channel (netcdf-java's default holds the whole section). */
  @Override
  public long streamToByteChannel(Variable v, Section section, WritableByteChannel channel)
      throws IOException, InvalidRangeException {
    return readToOutputStream(v, section, unclosable(Channels.newOutputStream(channel)));
  }

  private static OutputStream unclosable(OutputStream o) {
    return new java.io.FilterOutputStream(o) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }

  /**
   * Cuts a (filled) section into C-order pieces of at most {@code maxBytes} (at least one element each):
   * leading dimensions one index at a time, the first dimension whose trailing extent fits split into runs,
   * later dimensions whole. Concatenated, the pieces' elements are the section's in C order.
   */
  public static List<Section> pieces(Section s, int elemBytes, long maxBytes) throws InvalidRangeException {
    return Sections.pieces(s, elemBytes, maxBytes);
  }

  @Override
  public void close() throws IOException {
    release();
  }

  /** Frees file handles, keeps metadata (TDS file cache). */
  @Override
  public void release() throws IOException {
    FileHandles f = files;
    if (f != null) {
      f.close();
    }
  }

  /** Nothing to do: file handles reopen on the next read. */
  @Override
  public void reacquire() throws IOException {}

  /**
   * The newest modification time of any file of the dataset (directories walked recursively); for a remote
   * dataset the version of the objects its open read (Last-Modified, and the ETag for changes within a second),
   * asked of the server now, so THREDDS' file cache reopens a dataset whose objects were replaced.
   */
  @Override
  public long getLastModified() {
    FileHandles f = files;
    return f == null ? 0 : f.lastModified();
  }

  /** {@code file:/x} and {@code file:///x} URLs to plain paths. */
  public static String stripFileUrl(String location) {
    return Locations.stripFileUrl(location);
  }

  /**
   * The path of a location netcdf-java gives an IOSP ({@code raf.getLocation()}): a local file (also from a
   * {@code file:} URL) or an object ({@code s3://}, {@code cdms3:}, {@code http(s)://}); absolute and normalized.
   */
  public static Path entryPath(String location) {
    return Locations.path(location).toAbsolutePath().normalize();
  }

  /** The {@link #entryPath} of {@code raf}'s location, or null when it names no path (not a file this IOSP reads). */
  protected static Path entryPathOrNull(RandomAccessFile raf) {
    try {
      return entryPath(raf.getLocation());
    } catch (RuntimeException e) { // InvalidPathException, a malformed URL
      return null;
    }
  }
}
