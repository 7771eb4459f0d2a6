package org.chunkcdm.blosc2stores;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.cdm.ChunkedVariables;
import org.chunkcdm.open.ChunkedVariable;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for python-blosc2's containers: DictStore and TreeStore ({@code .b2d} directory, opened by
 * its path or its {@code embed.b2e}; {@code .b2z} zip read in place), EmbedStore ({@code .b2e}) and CTable. A
 * value stored under the key {@code /dir/arr} is the variable {@code arr} of group {@code dir}; TreeStore and
 * CTable attributes become global and group attributes; a CTable's columns share the dimension {@code row}.
 * The view is the one {@link Blosc2StoreOpener} gives ({@link Blosc2Stores}).
 */
public class Blosc2StoreIosp extends ChunkedIosp {
  public Blosc2StoreIosp() {
    super(Blosc2Stores.FORMAT, "python-blosc2 DictStore, TreeStore, EmbedStore or CTable (chunkcdm)");
  }

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    Path p = entryPathOrNull(raf);
    if (p == null) {
      return false;
    }
    Blosc2Stores.Kind k = Blosc2Stores.kind(p);
    return k != null && k != Blosc2Stores.Kind.DIRECTORY;
  }

  @Override
  protected Path datasetRoot(Path entry) {
    return Blosc2Stores.datasetRoot(entry);
  }

  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    StoreDataset ds = Blosc2Stores.read(files(), null);
    for (Map.Entry<String, Map<String, Object>> g : ds.groupAttributes().entrySet()) {
      CdmAttributes.toCdm(g.getValue(), ds.groupUnsigned(g.getKey())).forEach(group(root, g.getKey())::addAttribute);
    }
    for (ChunkedVariable cv : ds.variables()) {
      String name = cv.name();
      Group.Builder g = group(root, Blosc2Stores.parent(name));
      Variable.Builder<?> v = ChunkedVariables.addBare(g, Blosc2Stores.last(name), cv.array(), cv.dimensions());
      CdmAttributes.toCdm(cv.attributes(), cv.unsigned()).forEach(v::addAttribute);
    }
    CdmAttributes.toCdm(ds.attributes(), ds.unsigned()).forEach(root::addAttribute);
  }

  /** The group at {@code path} ("a/b"; "" = root), made when missing. */
  private static Group.Builder group(Group.Builder root, String path) {
    Group.Builder g = root;
    if (path.isEmpty()) {
      return g;
    }
    for (String seg : path.split("/")) {
      Group.Builder parent = g;
      g = parent.findGroupLocal(seg).orElseGet(() -> {
        Group.Builder n = Group.builder().setName(seg);
        parent.addGroup(n);
        return n;
      });
    }
    return g;
  }
}
