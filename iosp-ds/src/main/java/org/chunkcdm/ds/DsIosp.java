package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.DatasetVariable;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;


/**
 * netcdf-java IOSP for ds-format {@code .ds} files (format ds-1.x, and the pre-1.0 experimental layout
 * without version line). Opening reads the version line and the one-line JSON header, nothing else; every
 * variable reads its bytes from the body on demand (see {@link DsArray}, {@link DsStrings}).
 *
 * <p>The dataset (variables, dimension names, attributes, arrays) is read by {@link DsDatasets}, the same code
 * {@link DsOpener} uses without netcdf-java; this class is its CDM view and adds the string variables' reader.
 */
public class DsIosp extends ChunkedIosp {
  /** Units that make netcdf-java show a Julian date ({@code .time: true}) as a date. */
  static final String JULIAN_DATE_UNITS = DsDatasets.JULIAN_DATE_UNITS;
  static final String JULIAN_DATE_CALENDAR = DsDatasets.JULIAN_DATE_CALENDAR;

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    // no raf.length() first (a system call per IOSP asked, on every open of any file): a short file reads short
    byte[] head = new byte[3];
    raf.seek(0);
    int n = raf.read(head);
    return n >= 2 && DsDatasets.looksLikeDs(head, n, raf.getLocation());
  }

  @Override
  public String getFileTypeId() {
    return "ds";
  }

  @Override
  public String getFileTypeDescription() {
    return "ds-format .ds file (chunkcdm)";
  }

  @Override
  protected Path datasetRoot(Path entry) {
    return entry;
  }

  /** File handles of the open file (tests check release()). */
  FileHandles handles() {
    return files();
  }

  /** The CDM view of the dataset {@link DsDatasets} reads; string variables read through {@link DsStrings}. */
  @Override
  protected void build(Path file, Group.Builder root) throws IOException {
    RandomAccessFile raf = openingFile();
    DsHeader.Opening opening = raf == null ? null : new DsHeader.Opening() {
      @Override
      public long length() throws IOException {
        return raf.length();
      }

      @Override
      public void readFully(byte[] buf) throws IOException {
        raf.seek(0);
        raf.readFully(buf);
      }
    };
    org.chunkcdm.open.BasicDataset ds = DsDatasets.read(files(), file, opening);
    try {
      ChunkedVariables.addDataset(root, ds, DsIosp::addStrings);
    } catch (IOException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private static Variable.Builder<?> addStrings(Group.Builder g, ChunkedVariable cv) throws IOException {
    DsDatasets.StringSpec s = (DsDatasets.StringSpec) ((DatasetVariable) cv).source();
    Variable.Builder<?> v = ChunkedVariables.addBare(g, cv.name(), s.shapeArray, cv.dimensions());
    int[] shape = new int[s.shape.length];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = (int) s.shape[i];
    }
    v.setSPobject(new DsStrings(s.body, s.what, shape, s.bytes, s.order, s.blockPos, s.len, s.masked, s.noData));
    return v;
  }
}
