package org.chunkcdm.bcolz;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.DatasetVariable;
import ucar.ma2.DataType;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for the bcolz family: bcolz carray and ctable directories, the Blaze "chunked" variant
 * ({@code data/__N__.bin} Bloscpack superchunks, {@code meta/attributes}) and Bloscpack format-3 files.
 *
 * <p>Entry files: a carray opens from {@code meta/sizes}, {@code meta/storage}, {@code __attrs__} (Blaze:
 * also {@code meta/attributes}); a ctable from {@code __rootdirs__} (or its {@code __attrs__}); directories
 * open through {@link BcolzDirectoryProvider}. A Bloscpack file is its own entry file.
 *
 * <p>ctables: at open each column's {@code meta/sizes}, {@code meta/storage} and {@code __attrs__} (three
 * small JSON files) are read, because netcdf-java needs every variable's type, shape and attributes when the
 * dataset is built. No chunk file of any column is opened before a read of that column needs it, so a user
 * reading 3 of 100,000 columns reads the data of 3 columns only.
 *
 * <p>The dataset itself (variables, dimension names, attributes, chunked arrays) is read by {@link Bcolz}, the
 * same code {@link BcolzOpener} uses without netcdf-java; this class is its CDM view.
 */
public class BcolzIosp extends ChunkedIosp {
  public BcolzIosp() {
    super("bcolz", "bcolz carray/ctable, Blaze chunked array or Bloscpack file (chunkcdm)");
  }

  /** Name of the shared row dimension of a ctable's columns. */
  public static final String ROW_DIM = Bcolz.ROW_DIM;

  /** What an entry file opens (null: not ours), judged from names. */
  static Bcolz.Kind classify(Path p) {
    return Bcolz.classify(p);
  }

  static boolean isCarrayDir(Path dir) {
    return Bcolz.isCarrayDir(dir);
  }

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    Path p = entryPathOrNull(raf);
    if (p == null) {
      return false;
    }
    if (classify(p) != null) {
      return true;
    }
    if (raf.length() < Bloscpack.HEADER) {
      return false;
    }
    byte[] head = new byte[5];
    raf.seek(0);
    raf.readFully(head);
    return Bloscpack.isBloscpack(head, head.length);
  }

  @Override
  protected Path datasetRoot(Path entry) throws IOException {
    return Bcolz.datasetRoot(entry);
  }

  /** The CDM view of the dataset {@link Bcolz} reads (the same the opener returns). */
  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    ChunkedVariables.addDataset(root, Bcolz.read(files(), entry), BcolzIosp::addObjectVariable);
  }

  /** A Python-object carray/column: declared so the rest of the dataset opens, but every read fails clearly. */
  private static Variable.Builder<?> addObjectVariable(Group.Builder g, ChunkedVariable cv) throws IOException {
    if (!(cv instanceof DatasetVariable) || !(((DatasetVariable) cv).source() instanceof CArray)) {
      throw new IOException("variable " + cv.name() + " has no chunked array");
    }
    CArray a = (CArray) ((DatasetVariable) cv).source();
    String name = cv.name();
    List<Dimension> dims = new ArrayList<>();
    for (int d = 0; d < a.shape.length; d++) {
      String dn = cv.dimensions().get(d);
      Dimension have = g.findDimensionLocal(dn).orElse(null);
      if (have == null) {
        have = Dimension.builder(dn, (int) a.shape[d]).build();
        g.addDimension(have);
      } else if (have.getLength() != a.shape[d]) {
        throw new IOException(a.dir + ": " + name + ": dimension " + dn + " length mismatch");
      }
      dims.add(have);
    }
    Variable.Builder<?> v = Variable.builder().setName(name).setDataType(DataType.STRING).setDimensions(dims);
    String msg = a.dir + ": column/array '" + a.name + "' holds pickled Python objects (dtype '" + a.storageDtype
        + "'), which chunkcdm does not read";
    v.setSPobject((VariableReader) section -> {
      throw new IOException(msg);
    });
    g.addVariable(v);
    return v;
  }

  /** e.g. "blosc lz4, byte shuffle, typesize 8; chunk checksum adler32" (from chunk 0's Blosc header). */
  static String describe(Bloscpack bp) throws IOException {
    return Bcolz.describe(bp);
  }
}
