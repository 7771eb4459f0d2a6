package org.chunkcdm.cdm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.io.FileHandles;
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
  private volatile FileHandles files;
  private RandomAccessFile opening; // the file netcdf-java opened, during build(Path, Group.Builder) only

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
    Path entry = Paths.get(stripFileUrl(raf.getLocation())).toAbsolutePath().normalize();
    boolean adopted = false;
    try {
      Path root = datasetRoot(entry);
      files = new FileHandles(root);
      java.io.RandomAccessFile file = raf.getRandomAccessFile();
      if (file != null && root.toAbsolutePath().normalize().equals(entry)) {
        // a one-file dataset reads through the file netcdf-java already opened: no second open (a directory
        // dataset closes its entry file below, so a parked dataset holds no handle)
        files.adopt(entry, file.getChannel(), raf);
        adopted = true;
      }
      opening = raf;
      build(entry, rootGroup);
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
   * the file itself for a one-file dataset.
   */
  protected abstract Path datasetRoot(Path entryFile) throws IOException;

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

  /**
   * Streams a section as big-endian values (the ncstream/DAP wire order) in pieces of a bounded size along
   * the outermost dimension, so a large variable is never held in memory twice over.
   */
  @Override
  public long readToOutputStream(Variable v, Section section, OutputStream out)
      throws IOException, InvalidRangeException {
    Section s = Section.fill(section, v.getShape());
    long rowBytes = Math.max(1, s.computeSize() / Math.max(1, s.getRank() == 0 ? 1 : s.getShape(0))) * v.getElementSize();
    int rowsPerPiece = s.getRank() == 0 ? 1 : (int) Math.max(1, Math.min(s.getShape(0), (8L << 20) / rowBytes));
    if (s.getRank() == 0 || rowsPerPiece >= s.getShape(0) || v.getDataType().isString()) {
      return super.readToOutputStream(v, s, out);
    }
    long written = 0;
    ucar.ma2.Range r0 = s.getRange(0);
    for (int i = 0; i < r0.length(); i += rowsPerPiece) {
      int n = Math.min(rowsPerPiece, r0.length() - i);
      Section piece = s.replaceRange(0, new ucar.ma2.Range(r0.element(i), r0.element(i + n - 1), r0.stride()));
      Array a = readData(v, piece);
      ByteBuffer bb = a.getDataAsByteBuffer(ByteOrder.BIG_ENDIAN);
      out.write(bb.array(), bb.arrayOffset(), bb.remaining());
      written += bb.remaining();
    }
    return written;
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

  /** The newest modification time of any file of the dataset (directories walked recursively). */
  @Override
  public long getLastModified() {
    FileHandles f = files;
    if (f == null) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(f.root())) {
      return s.mapToLong(p -> {
        try {
          return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
          return 0;
        }
      }).max().orElse(0);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** {@code file:/x} and {@code file:///x} URLs to plain paths. */
  public static String stripFileUrl(String location) {
    if (location.startsWith("file://")) {
      return location.substring("file://".length());
    }
    if (location.startsWith("file:")) {
      return location.substring("file:".length());
    }
    return location;
  }
}
