package org.chunkcdm.ds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
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
  public DsIosp() {
    super("ds", "ds-format .ds file (chunkcdm)");
  }

  /** Units that make netcdf-java show a Julian date ({@code .time: true}) as a date. */
  static final String JULIAN_DATE_UNITS = Template.JULIAN_DATE_UNITS;
  static final String JULIAN_DATE_CALENDAR = Template.JULIAN_DATE_CALENDAR;

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    // no raf.length() first (a system call per IOSP asked, on every open of any file): a short file reads short
    byte[] head = new byte[3];
    raf.seek(0);
    int n = raf.read(head);
    return n >= 2 && DsDatasets.looksLikeDs(head, n, raf.getLocation());
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
    addAll(root, DsDatasets.open(files(), file, opening), file);
  }

  /** The CDM variables and global attributes of an open file. */
  static void addAll(Group.Builder root, DsDatasets.Opened ds, Path file) throws IOException {
    try {
      for (DsDatasets.Bound b : ds.vars) {
        Template t = b.t;
        Variable.Builder<?> v = b.spec != null ? addStrings(root, t.cdmName, t.dims, b.spec)
            : addNumeric(root, t, b.array);
        v.addAttributes(cdmAttributes(t));
      }
      CdmAttributes.toCdm(ds.global).forEach(root::addAttribute);
    } catch (IOException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A template's attributes in CDM form, made once per template: netcdf-java's {@link Attribute}s are
   * immutable (their {@code getValues()} hands out copies), so the files sharing a template share them.
   */
  @SuppressWarnings("unchecked")
  private static List<Attribute> cdmAttributes(Template t) {
    Object c = t.cdm;
    if (c == null) {
      c = java.util.Collections.unmodifiableList(CdmAttributes.toCdm(t.attrs));
      t.cdm = c;
    }
    return (List<Attribute>) c;
  }

  /**
   * A numeric or bool variable: as {@link ChunkedVariables#addBare} (same type, shared dimensions, SPobject), with
   * the template's names (valid CDM names already) and its shape (each dimension checked against CDM's int
   * range when the template was made).
   */
  private static Variable.Builder<?> addNumeric(Group.Builder g, Template t, DsArray a)
      throws IOException {
    int rank = t.shape.length;
    List<Dimension> dims = new java.util.ArrayList<>(rank);
    for (int d = 0; d < rank; d++) {
      dims.add(ChunkedVariables.dimension(g, t.dims.get(d), (int) t.shape[d], t.cdmName));
    }
    Variable.Builder<?> v = Variable.builder().setName(t.cdmName).setDataType(CdmTypes.of(t.dt)).setDimensions(dims);
    v.setSPobject(a);
    g.addVariable(v);
    return v;
  }

  private static Variable.Builder<?> addStrings(Group.Builder g, String name, List<String> dims,
      DsDatasets.StringSpec s) throws IOException {
    Variable.Builder<?> v = ChunkedVariables.addBare(g, name, s.shapeArray, dims);
    int[] shape = new int[s.shape.length];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = (int) s.shape[i];
    }
    v.setSPobject(new DsStrings(s.body, s.what, shape, s.bytes, s.order, s.blockPos, s.len, s.masked, s.noData));
    return v;
  }
}
