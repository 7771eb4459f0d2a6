package org.chunkcdm.fiji;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.open.ChunkedDataset;
import org.chunkcdm.open.ChunkedVariable;
import org.chunkcdm.open.DatasetOpener;
import org.chunkcdm.open.OpenOptions;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * TEST ONLY, to be dropped when the real format openers (seam branch) are merged: a {@link DatasetOpener} that
 * opens a chunkcdm dataset through netcdf-java and the chunkcdm IOSPs and exposes each variable's
 * {@link ChunkedArray} (the IOSPs' {@code Variable.getSPobject()}), dimension names and attributes. It claims
 * only datasets where at least one variable is a chunkcdm array, so NetCDF/HDF5 files still take the plugin's
 * netcdf-java fallback.
 */
public final class NetcdfBackedTestOpener implements DatasetOpener {
  @Override
  public String format() {
    return "netcdf-backed-test";
  }

  @Override
  public boolean canOpen(Path path) {
    String n = path.getFileName() == null ? "" : path.getFileName().toString();
    if (n.endsWith(".nc") || n.endsWith(".h5")) {
      return false;
    }
    try (NetcdfFile nc = NetcdfFiles.open(path.toAbsolutePath().toString())) {
      for (Variable v : nc.getVariables()) {
        if (v.getSPobject() instanceof ChunkedArray) {
          return true;
        }
      }
      return !nc.getVariables().isEmpty() && !Files.isRegularFile(path) || n.endsWith(".ds");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  @Override
  public ChunkedDataset open(Path path, OpenOptions options) throws IOException {
    NetcdfFile nc = NetcdfFiles.open(path.toAbsolutePath().toString());
    List<ChunkedVariable> vars = new ArrayList<>();
    for (Variable v : nc.getVariables()) {
      List<String> dims = new ArrayList<>();
      for (Dimension d : v.getDimensions()) {
        dims.add(d.getShortName());
      }
      Object sp = v.getSPobject();
      ChunkedArray a = sp instanceof ChunkedArray ? (ChunkedArray) sp : null;
      if (a != null && a.dtype().extraDim() > 0) {
        dims = dims.subList(0, dims.size() - 1);
      }
      Map<String, Object> attrs = attrs(v.attributes());
      String name = v.getFullName();
      List<String> fd = dims;
      vars.add(new ChunkedVariable() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public List<String> dimensions() {
          return fd;
        }

        @Override
        public ChunkedArray array() {
          return a;
        }

        @Override
        public Map<String, Object> attributes() {
          return attrs;
        }
      });
    }
    Map<String, Object> global = attrs(nc.getRootGroup().attributes());
    return new ChunkedDataset() {
      @Override
      public String format() {
        return "netcdf-backed-test";
      }

      @Override
      public Path root() {
        return path;
      }

      @Override
      public List<ChunkedVariable> variables() {
        return vars;
      }

      @Override
      public Map<String, Object> attributes() {
        return global;
      }

      @Override
      public long lastModified() throws IOException {
        return Files.getLastModifiedTime(path).toMillis();
      }

      @Override
      public void close() throws IOException {
        nc.close();
      }
    };
  }

  static Map<String, Object> attrs(Iterable<Attribute> atts) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Attribute at : atts) {
      if (at.isString()) {
        out.put(at.getShortName(), at.getStringValue());
      } else if (at.getValues() != null) {
        Object j = at.getValues().get1DJavaArray(at.getDataType());
        out.put(at.getShortName(), java.lang.reflect.Array.getLength(j) == 1 ? java.lang.reflect.Array.get(j, 0) : j);
      }
    }
    return out;
  }
}
