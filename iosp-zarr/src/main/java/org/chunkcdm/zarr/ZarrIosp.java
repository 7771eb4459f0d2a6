package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.cdm.CdmNames;
import org.chunkcdm.cdm.CdmTypes;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.DataType;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.Variable;
import ucar.unidata.io.RandomAccessFile;

/**
 * netcdf-java IOSP for Zarr v2 and v3 stores (directory or zip): groups become CDM groups, arrays CDM variables over
 * {@link ZarrArray}s, with the shared dimensions and attributes of {@link ZarrTree} (the model the opener also
 * shows). The store directory opens through {@link ZarrDirectoryProvider} or by its root metadata file
 * ({@code zarr.json}, {@code .zmetadata}, {@code .zgroup}, {@code .zarray}); a zip store through
 * {@link ZarrZipProvider}.
 */
public class ZarrIosp extends ChunkedIosp {
  public ZarrIosp() {
    super("Zarr", "Zarr v2/v3 store (chunkcdm)");
  }

  @Override
  public boolean isValidFile(RandomAccessFile raf) throws IOException {
    Path p = entryPathOrNull(raf);
    if (p == null) {
      return false;
    }
    if (Zarr.isZipName(p)) {
      return Zarr.isZipStore(p);
    }
    if (!Zarr.isEntryFile(p) || raf.length() > Store.MAX_METADATA) {
      return false;
    }
    byte[] b = new byte[(int) Math.min(raf.length(), 4096)];
    raf.seek(0);
    raf.readFully(b);
    String head = new String(b, StandardCharsets.UTF_8);
    return head.trim().startsWith("{") && (head.contains("\"zarr_format\"") || head.contains("\"metadata\""));
  }

  @Override
  protected Path datasetRoot(Path entry) {
    return Zarr.storeRoot(entry);
  }

  @Override
  protected void build(Path entry, Group.Builder root) throws IOException {
    Path storeRoot = Zarr.storeRoot(entry);
    ZarrTree t = ZarrTree.read(Zarr.store(files(), storeRoot), Zarr.storeName(storeRoot));
    Map<String, Group.Builder> groups = new HashMap<>();
    groups.put("", root);
    if (t.root.isArray) {
      addDims(root, t, "");
      addVariable(root, t.root, t, groups);
      return;
    }
    addGroup(root, t.root, t, groups);
  }

  private static void addDims(Group.Builder g, ZarrTree t, String path) {
    Map<String, Long> dims = t.dims.get(path);
    if (dims == null) {
      return;
    }
    for (Map.Entry<String, Long> d : dims.entrySet()) {
      int len = (int) (long) d.getValue();
      g.addDimension(Dimension.builder().setName(d.getKey()).setIsUnlimited(len == 0).setLength(len).build());
    }
  }

  private void addGroup(Group.Builder g, Node n, ZarrTree t, Map<String, Group.Builder> groups) throws IOException {
    groups.put(n.path, g);
    CdmAttributes.toCdm(ZarrTree.userAttributes(n.attrs)).forEach(g::addAttribute);
    addDims(g, t, n.path);
    for (Node c : n.children) {
      if (c.isArray) {
        addVariable(g, c, t, groups);
      }
    }
    for (Node c : n.children) {
      if (!c.isArray) {
        Group.Builder sub = Group.builder().setName(CdmNames.valid(c.name));
        g.addGroup(sub);
        addGroup(sub, c, t, groups);
      }
    }
  }

  private void addVariable(Group.Builder g, Node a, ZarrTree t, Map<String, Group.Builder> groups) throws IOException {
    String name = CdmNames.valid(a.name);
    List<Dimension> dims = new ArrayList<>();
    for (String[] d : t.arrayDims.get(a)) {
      if (d.length > 2) { // a dimension of the array's own: its name is taken in the group with another length
        dims.add(Dimension.builder().setName(d[1]).setIsShared(false).setLength((int) a.shape[dims.size()]).build());
        continue;
      }
      Group.Builder owner = groups.get(d[0]);
      Dimension dim = owner == null ? null : owner.findDimensionLocal(d[1]).orElse(null);
      if (dim == null) {
        throw new IOException(t.store.root() + ": array '" + a.path + "': dimension " + d[1] + " not found");
      }
      dims.add(dim);
    }
    Variable.Builder<?> v = Variable.builder().setName(name);
    if (a.array == null) {
      String msg = t.store.root() + ": array '" + ZarrTree.pathName(a) + "' cannot be read: " + a.unreadable;
      v.setDataType(DataType.STRING).setDimensions(dims);
      v.setSPobject((VariableReader) section -> {
        throw new org.chunkcdm.io.FormatException(msg);
      });
    } else {
      DType dt = a.array.dtype();
      if (dt.extraDim() > 0) {
        String suffix = dt.kind() == DType.Kind.BYTES ? "_strlen" : dt.kind() == DType.Kind.COMPLEX ? "_complex" : "_bytes";
        String dn = name + suffix;
        Dimension extra = g.findDimensionLocal(dn).orElse(null);
        if (extra == null) {
          extra = Dimension.builder().setName(dn).setLength(dt.extraDim()).build();
          g.addDimension(extra);
        }
        dims.add(extra);
      }
      try {
        SectionReader.cdmShape(a.array.grid().shape(), dt.extraDim());
      } catch (IllegalArgumentException e) {
        throw new IOException(t.store.root() + ": array '" + a.path + "': " + e.getMessage());
      }
      v.setDataType(CdmTypes.of(dt)).setDimensions(dims);
      v.setSPobject(a.array);
    }
    CdmAttributes.toCdm(t.arrayAttrs.get(a)).forEach(v::addAttribute);
    g.addVariable(v);
  }
}
