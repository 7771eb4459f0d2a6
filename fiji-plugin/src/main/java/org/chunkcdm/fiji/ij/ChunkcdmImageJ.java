package org.chunkcdm.fiji.ij;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.measure.Calibration;
import ij.process.ImageProcessor;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.Types;
import org.chunkcdm.io.UserMessages;

/**
 * Builds the ImageJ image of a variable: the {@link ChunkedVirtualStack} (or a copy in RAM), hyperstack
 * dimensions, CF calibration (units and spacing/origin from 1-D coordinate variables, scale_factor/add_offset,
 * signed 16-bit), display range ({@code valid_range}, {@code valid_min/max}, {@code actual_range} or first-plane
 * statistics) and the attributes as Image › Show Info text. Also the static entry points for macros.
 */
public final class ChunkcdmImageJ {
  private ChunkcdmImageJ() {}

  /**
   * For {@code call("org.chunkcdm.fiji.ij.ChunkcdmImageJ.open", path, variable)} in headless plain-ImageJ
   * macros: opens the variable as a virtual hyperstack with the default axes and shows it. Returns the image
   * title, or a string starting with {@code "error: "}.
   */
  public static String open(String path, String variable) {
    try {
      ImagePlus imp = openImage(path, variable, null, null, true);
      imp.show();
      return imp.getTitle();
    } catch (IOException | RuntimeException e) {
      return "error: " + UserMessages.describe(e);
    }
  }

  /** Opens a variable as an ImagePlus (not shown); the dataset stays open as long as the image is used. */
  public static ImagePlus openImage(String path, String variable, String[] roles, String subset, boolean virtual) throws IOException {
    ImageDataset ds = ImageDataset.open(path);
    ImageVariable v = ds.variable(variable);
    return image(v, StackSpec.of(v, roles, subset), virtual);
  }

  /** The image of a variable per {@code spec}: virtual, or loaded into RAM (after a memory check). */
  public static ImagePlus image(ImageVariable v, StackSpec spec, boolean virtual) throws IOException {
    checkPlaneFitsHeap(spec);
    ChunkedVirtualStack vs = new ChunkedVirtualStack(spec);
    Path named = v.dataset().path();
    String title = (named == null || named.getFileName() == null ? String.valueOf(named) : named.getFileName().toString())
        + ":" + v.name();
    String warning = cacheWarning(spec);
    if (warning != null) {
      IJ.log(warning);
    }
    ImageStack stack = vs;
    if (!virtual) {
      stack = loadIntoRam(vs);
    }
    CLOSER.register();
    ImagePlus imp = new ImagePlus(title, stack);
    int c = spec.channels();
    int z = spec.slices();
    int t = spec.frames();
    imp.setDimensions(c, z, t);
    if (c > 1 || t > 1) {
      imp.setOpenAsHyperStack(true);
    }
    calibrate(imp, spec, vs.mapping());
    displayRange(imp, spec, vs.mapping());
    imp.setProperty("Info", info(v, spec));
    return imp;
  }

  /**
   * Refuses planes that cannot be held: 2^31 pixels or more (ImageJ's limit), or a plane whose read (stored
   * bytes, converted values and the plane, about 3 copies) needs more than the heap; the message gives the
   * sizes and a stride that fits.
   */
  static void checkPlaneFitsHeap(StackSpec spec) throws IOException {
    long pixels = spec.width() * spec.height();
    int item = Math.max(spec.v.array().dtype().itemSize(), new PixelMapping(spec.v).bitDepth / 8);
    long need = pixels * item * 3;
    long heap = Runtime.getRuntime().maxMemory();
    if (pixels >= Integer.MAX_VALUE || need > heap) {
      double limit = Math.min((double) Integer.MAX_VALUE - 1, heap / (3.0 * item));
      long stride = (long) Math.ceil(Math.sqrt(pixels / limit));
      throw new IOException(String.format(Locale.ROOT, "a plane of %d x %d pixels (%.1f MiB to read, heap %.0f MiB%s) "
          + "cannot be held: choose a crop or a stride in Subset, e.g. stride %d in X and Y gives %d x %d pixels",
          spec.width(), spec.height(), need / 1048576.0, heap / 1048576.0,
          pixels >= Integer.MAX_VALUE ? "; ImageJ planes hold fewer than 2^31 pixels" : "", stride,
          (spec.width() + stride - 1) / stride, (spec.height() + stride - 1) / stride));
    }
  }

  /** Closes a virtual image's dataset (file handles) when ImageJ closes the image. */
  static final DatasetCloser CLOSER = new DatasetCloser();

  static final class DatasetCloser implements ij.ImageListener {
    private boolean registered;

    synchronized void register() {
      if (!registered) {
        ImagePlus.addImageListener(this);
        registered = true;
      }
    }

    @Override
    public void imageOpened(ImagePlus imp) {}

    @Override
    public void imageUpdated(ImagePlus imp) {}

    @Override
    public void imageClosed(ImagePlus imp) {
      ImageStack s = imp.getStack();
      if (s instanceof ChunkedVirtualStack) {
        try {
          ((ChunkedVirtualStack) s).spec().v.dataset().close();
        } catch (IOException e) {
          IJ.log("chunkcdm: closing " + imp.getTitle() + ": " + UserMessages.describe(e));
        }
      }
    }
  }

  /** Copies every plane into memory (refused with an IOException when it does not fit the free heap). */
  static ImageStack loadIntoRam(ChunkedVirtualStack vs) throws IOException {
    long bytes = vs.spec().planeBytes(vs.mapping().bitDepth) * vs.getSize();
    Runtime rt = Runtime.getRuntime();
    long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    if (bytes > free * 0.8) {
      throw new IOException(String.format(Locale.ROOT, "loading into RAM needs %.1f MiB, only %.1f MiB of heap are free: "
          + "open it virtual, choose a subset, or raise the memory limit (Edit › Options › Memory)", bytes / 1048576.0,
          free / 1048576.0));
    }
    ImageStack s = new ImageStack(vs.getWidth(), vs.getHeight());
    int n = vs.getSize();
    for (int i = 1; i <= n; i++) {
      s.addSlice(vs.getSliceLabel(i), vs.getProcessor(i));
      IJ.showProgress(i, n);
      if (IJ.escapePressed()) {
        IJ.resetEscape();
        throw new IOException("loading into RAM cancelled at plane " + i + " of " + n);
      }
    }
    return s;
  }

  /**
   * A warning when the chunks one plane crosses (one slab) need more bytes than the chunk cache holds:
   * then moving through slices inside a slab decodes again. Null when they fit.
   */
  public static String cacheWarning(StackSpec spec) {
    ChunkedArray a = spec.v.array();
    ChunkGrid g = a.grid();
    long slab;
    if (g instanceof ChunkGrid.Regular) {
      int[] c = ((ChunkGrid.Regular) g).chunkShape();
      long n = 1;
      for (int r = 0; r < 2; r++) {
        int d = spec.dimOf[r];
        if (d < 0) {
          continue;
        }
        long lo = spec.first[d] / c[d];
        long hi = (spec.first[d] + (spec.count[d] - 1) * spec.stride[d]) / c[d];
        n *= hi - lo + 1;
      }
      slab = n * ((ChunkGrid.Regular) g).chunkElements() * a.dtype().itemSize();
    } else {
      // flat layout: a plane spans its C-order item range
      long[] shape = g.shape();
      long span = 1;
      int lo = Math.min(spec.x(), spec.y() < 0 ? spec.x() : spec.y());
      for (int d = lo; d < shape.length; d++) {
        span *= shape[d];
      }
      slab = span * a.dtype().itemSize();
    }
    long max = a.settings().cache().maxBytes(); // the cache this array reads through
    if (slab > max) {
      return String.format(Locale.ROOT, "chunkcdm: one plane of %s crosses %.1f MiB of chunks, more than the chunk cache "
          + "(%.1f MiB): slice changes will decode chunks again; start ImageJ with -Dchunkcdm.cache.bytes=%d for faster "
          + "browsing", spec.v.name(), slab / 1048576.0, max / 1048576.0, slab * 2);
    }
    return null;
  }

  // ------------------------------------------------------------------------------------------- calibration

  static void calibrate(ImagePlus imp, StackSpec spec, PixelMapping map) {
    Calibration cal = imp.getCalibration();
    String valueUnit = string(spec.v.attributes().get("units"));
    if (map.bitDepth != 32) {
      if (map.scaled) {
        double a0 = map.signed16 ? map.offset - 32768 * map.scale : map.offset;
        cal.setFunction(Calibration.STRAIGHT_LINE, new double[] {a0, map.scale}, valueUnit == null ? "value" : valueUnit);
      } else if (map.signed16) {
        cal.setSigned16BitCalibration();
      }
    } else if (valueUnit != null) {
      cal.setValueUnit(valueUnit);
    }
    for (int r = 0; r < 5; r++) {
      if (r == 3) {
        continue; // channels have no spacing
      }
      int d = spec.dimOf[r];
      if (d < 0) {
        continue;
      }
      double[] coord = coordinate(spec.v, d);
      if (coord == null) {
        continue;
      }
      long f = spec.first[d];
      long s = spec.stride[d];
      double step = (coord[coord.length - 1] - coord[0]) / (coord.length - 1) * s;
      double origin = coord[(int) f];
      if (!(step != 0) || Double.isNaN(step) || Double.isInfinite(step)) {
        continue;
      }
      String unit = string(spec.v.dataset().variables().stream().filter(cv -> cv.name().equals(spec.v.dimensions().get(d)))
          .findFirst().map(cv -> cv.attributes().get("units")).orElse(null));
      switch (r) {
        case 0:
          cal.pixelWidth = Math.abs(step);
          cal.xOrigin = -origin / step;
          if (unit != null) {
            cal.setXUnit(unit);
          }
          break;
        case 1:
          cal.pixelHeight = Math.abs(step);
          cal.yOrigin = -origin / step;
          if (unit != null) {
            cal.setYUnit(unit);
          }
          break;
        case 2:
          cal.pixelDepth = Math.abs(step);
          cal.zOrigin = -origin / step;
          if (unit != null) {
            cal.setZUnit(unit);
          }
          break;
        default:
          cal.frameInterval = Math.abs(step);
          if (unit != null) {
            cal.setTimeUnit(unit);
          }
      }
    }
  }

  /** Values of the 1-D coordinate variable of dimension {@code d} (same name, same length), or null. */
  static double[] coordinate(ImageVariable v, int d) {
    String dim = v.dimensions().get(d);
    long len = v.shape()[d];
    if (len < 2 || len > 1 << 24) {
      return null;
    }
    for (ImageVariable cv : v.dataset().variables()) {
      if (cv.name().equals(dim) && cv != v && cv.rank() == 1 && cv.shape()[0] == len && cv.whyNotAnImage() == null) {
        try {
          Object prim = Types.read(cv.array(), new long[] {0}, new long[] {len}, new long[] {1});
          double[] out = new double[(int) len];
          for (int i = 0; i < out.length; i++) {
            out[i] = Types.value(cv.array().dtype(), prim, i);
          }
          return out;
        } catch (IOException e) {
          IJ.log("chunkcdm: coordinate variable " + dim + ": " + UserMessages.describe(e));
          return null;
        }
      }
    }
    return null;
  }

  static void displayRange(ImagePlus imp, StackSpec spec, PixelMapping map) {
    Map<String, Object> att = spec.v.attributes();
    double[] range = null;
    double[] valid = PixelMapping.numbers(att.get("valid_range"));
    Double vmin = PixelMapping.number(att.get("valid_min"));
    Double vmax = PixelMapping.number(att.get("valid_max"));
    double[] actual = PixelMapping.numbers(att.get("actual_range"));
    if (valid.length == 2) {
      range = new double[] {map.pixel(valid[0]), map.pixel(valid[1])};
    } else if (vmin != null && vmax != null) {
      range = new double[] {map.pixel(vmin), map.pixel(vmax)};
    } else if (actual.length == 2) { // physical values
      if (map.bitDepth == 32) {
        range = actual.clone();
      } else {
        double r0 = (actual[0] - map.offset) / map.scale;
        double r1 = (actual[1] - map.offset) / map.scale;
        range = new double[] {map.pixel(r0), map.pixel(r1)};
      }
    }
    if (map.dtype.kind() == org.chunkcdm.chunk.DType.Kind.BOOL) {
      range = new double[] {0, 1};
    }
    ImageProcessor ip = imp.getProcessor();
    if (range == null || !(range[0] < range[1])) {
      ip.resetMinAndMax(); // first-plane statistics (NaN ignored)
      double lo = ip.getMin();
      double hi = ip.getMax();
      if (!(lo < hi)) {
        hi = lo + Math.max(1, Math.ulp((float) lo)); // a constant plane (1 is nothing next to a fill like 9.97e36)
      }
      range = new double[] {lo, hi};
    }
    imp.setDisplayRange(range[0], range[1]);
  }

  static String info(ImageVariable v, StackSpec spec) {
    StringBuilder sb = new StringBuilder();
    ImageDataset ds = v.dataset();
    ChunkedArray a = v.array();
    sb.append("chunkcdm dataset: ").append(ds.path()).append('\n');
    String version = ChunkcdmImageJ.class.getPackage().getImplementationVersion(); // the plugin jar's manifest
    sb.append("chunkcdm version: ").append(version != null ? version : "development build (no jar manifest)").append('\n');
    sb.append("format: ").append(ds.format()).append('\n');
    sb.append("variable: ").append(v.name()).append(' ').append(a.dtype()).append(' ')
        .append(java.util.Arrays.toString(v.shape())).append('\n');
    sb.append("dimensions: ").append(String.join(", ", v.dimensions())).append('\n');
    sb.append("chunk grid: ").append(a.grid()).append('\n');
    StringBuilder roles = new StringBuilder();
    for (int r = 0; r < 5; r++) {
      if (spec.dimOf[r] >= 0) {
        roles.append(StackSpec.ROLES[r]).append('=').append(v.dimensions().get(spec.dimOf[r])).append(' ');
      }
    }
    sb.append("axes: ").append(roles.toString().trim()).append('\n');
    sb.append("\nvariable attributes:\n");
    appendAttrs(sb, v.attributes());
    sb.append("\nglobal attributes:\n");
    appendAttrs(sb, ds.attributes());
    return sb.toString();
  }

  private static void appendAttrs(StringBuilder sb, Map<String, Object> attrs) {
    for (Map.Entry<String, Object> e : attrs.entrySet()) {
      sb.append("  ").append(e.getKey()).append(" = ").append(format(e.getValue())).append('\n');
    }
  }

  static String format(Object o) {
    if (o != null && o.getClass().isArray()) {
      StringBuilder sb = new StringBuilder("[");
      int n = Array.getLength(o);
      for (int i = 0; i < n && i < 64; i++) {
        sb.append(i > 0 ? ", " : "").append(Array.get(o, i));
      }
      return sb.append(n > 64 ? ", ...]" : "]").toString();
    }
    return String.valueOf(o);
  }

  static String string(Object o) {
    if (o instanceof String) {
      return ((String) o).isEmpty() ? null : (String) o;
    }
    return null;
  }

  /** Size and RAM estimate of a variable's default planes, for the dialog. */
  static String estimate(ImageVariable v) {
    try {
      StackSpec s = StackSpec.defaults(v);
      int bits = new PixelMapping(v).bitDepth;
      long plane = s.planeBytes(bits);
      long all = plane * s.getPlanes();
      return String.format(Locale.ROOT, "%s: %s %s, plane %d x %d (%.1f MiB), %d planes (%.1f GiB in RAM)", v.name(),
          java.util.Arrays.toString(v.shape()), v.array().dtype(), s.width(), s.height(), plane / 1048576.0, s.getPlanes(),
          all / 1073741824.0);
    } catch (IOException e) {
      return v.name() + ": " + UserMessages.describe(e);
    }
  }

  static Path path(String s) {
    return org.chunkcdm.io.Locations.path(s);
  }

  static List<ImageVariable> choices(ImageDataset ds) {
    return ds.imageVariables(1);
  }
}
