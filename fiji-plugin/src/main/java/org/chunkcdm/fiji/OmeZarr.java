package org.chunkcdm.fiji;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OME-Zarr (NGFF) images: the {@code multiscales} metadata of a Zarr store's root group (NGFF 0.4 {@code
 * multiscales}, 0.5 {@code ome.multiscales}) names the arrays of one image at decreasing resolution. Opened, the
 * dataset lists those arrays first, full resolution first, each with its OME {@code axes} as dimension names and
 * the attribute {@link #AXES} (axis types), which {@code StackSpec} uses for the default X/Y/Z/C/T roles.
 */
public final class OmeZarr {
  /** Variable attribute: the OME axis type of each dimension ({@code space}, {@code channel}, {@code time}, ...). */
  public static final String AXES = "ome_axes";
  /** Variable attribute: the resolution level (0 = full resolution). */
  public static final String LEVEL = "ome_level";

  private static final ObjectMapper JSON = new ObjectMapper();

  private OmeZarr() {}

  /** The multiscales JSON of the root group, or null when the dataset is no OME-Zarr image. */
  static JsonNode multiscales(Map<String, Object> global) {
    for (String k : new String[] {"multiscales", "ome.multiscales"}) {
      Object v = global.get(k);
      if (v instanceof String) {
        try {
          JsonNode n = JSON.readTree((String) v);
          if (n != null && n.isArray() && n.size() > 0 && n.get(0).path("datasets").isArray()) {
            return n;
          }
        } catch (IOException | RuntimeException e) {
          return null;
        }
      }
    }
    return null;
  }

  /**
   * Puts the first multiscale image's levels at the front of {@code ds}'s variables (full resolution first, in the
   * metadata's order), named by OME axes; nothing changes for other datasets.
   */
  static void apply(ImageDataset ds) {
    JsonNode ms = multiscales(ds.attributes());
    if (ms == null) {
      return;
    }
    JsonNode image = ms.get(0);
    List<String> axisNames = new ArrayList<>();
    List<String> axisTypes = new ArrayList<>();
    for (JsonNode a : image.path("axes")) {
      String name = a.isTextual() ? a.textValue() : a.path("name").asText("");
      axisNames.add(name);
      String type = a.isTextual() ? typeOf(name) : a.path("type").asText(typeOf(name));
      axisTypes.add(type);
    }
    List<ImageVariable> levels = new ArrayList<>();
    int level = 0;
    for (JsonNode d : image.path("datasets")) {
      String path = d.path("path").asText("");
      ImageVariable v = find(ds, path);
      if (v == null) {
        continue;
      }
      List<String> dims = v.dimensions();
      Map<String, Object> attrs = new LinkedHashMap<>(v.attributes());
      if (axisNames.size() == v.rank() && axisNames.stream().noneMatch(String::isEmpty)
          && axisNames.stream().distinct().count() == axisNames.size()) {
        dims = axisNames;
        attrs.put(AXES, axisTypes.toArray(new String[0]));
      }
      attrs.put(LEVEL, level++);
      levels.add(new ImageVariable(ds, v.name(), dims, v.array(), attrs));
      ds.variables().remove(v);
    }
    ds.variables().addAll(0, levels);
  }

  private static ImageVariable find(ImageDataset ds, String path) {
    for (ImageVariable v : ds.variables()) {
      if (v.name().equals(path)) {
        return v;
      }
    }
    return null;
  }

  /** The axis type NGFF implies by name (0.3 lists names only). */
  static String typeOf(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "x":
      case "y":
      case "z":
        return "space";
      case "c":
        return "channel";
      case "t":
        return "time";
      default:
        return "";
    }
  }

  /**
   * Default roles X, Y, Z, C, T (dimension index or -1) of an OME level from its axis names and types: x, y, z by
   * name (else the last spatial axes), c/channel and t/time by type; null when the variable has no OME axes or no
   * two spatial axes for X and Y.
   */
  public static int[] roles(ImageVariable v) {
    Object t = v.attributes().get(AXES);
    if (!(t instanceof String[]) || ((String[]) t).length != v.rank()) {
      return null;
    }
    String[] types = (String[]) t;
    List<String> dims = v.dimensions();
    int[] r = {-1, -1, -1, -1, -1};
    List<Integer> space = new ArrayList<>();
    for (int d = 0; d < types.length; d++) {
      String type = types[d].toLowerCase(Locale.ROOT);
      if (type.equals("space")) {
        space.add(d);
      } else if (type.equals("channel") && r[3] < 0) {
        r[3] = d;
      } else if (type.equals("time") && r[4] < 0) {
        r[4] = d;
      }
    }
    int x = dims.indexOf("x");
    int y = dims.indexOf("y");
    int z = dims.indexOf("z");
    if (x < 0 || y < 0) {
      if (space.size() < 2) {
        return null;
      }
      x = space.get(space.size() - 1);
      y = space.get(space.size() - 2);
      z = space.size() > 2 ? space.get(space.size() - 3) : -1;
    }
    r[0] = x;
    r[1] = y;
    r[2] = z;
    return r;
  }
}
