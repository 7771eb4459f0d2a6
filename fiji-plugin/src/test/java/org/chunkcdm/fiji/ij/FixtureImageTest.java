package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.measure.Calibration;
import ij.process.ImageProcessor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.imglib2.Cursor;
import net.imglib2.img.cell.LazyCellImg;
import net.imglib2.type.numeric.IntegerType;
import net.imglib2.type.numeric.RealType;
import net.imglib2.type.numeric.real.DoubleType;
import net.imglib2.type.numeric.real.FloatType;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fiji.ChunkImgs;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.Types;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fixture variable of rank &ge; 2 in testdata/{bcolz,bloscpack,blosc2,ds,zarr,blosc2-stores}, through the ImgLib2
 * adapter (every pixel of the LazyCellImg) and through the ImageJ virtual stack (every pixel of every plane,
 * the calibrated value for signed 16-bit), against the manifest's expected bytes. Variables that are no image
 * (strings, empty) must be refused with a message naming the variable.
 */
class FixtureImageTest {
  static Stream<Arguments> variables() {
    List<Arguments> out = new ArrayList<>();
    for (String fam : new String[] {"bcolz", "bloscpack", "blosc2", "ds", "zarr", "blosc2-stores"}) {
      for (Fixtures.Dataset d : Fixtures.manifest(fam).datasets()) {
        for (Fixtures.Variable v : d.variables()) {
          if (v.shape().length >= 2 && !(fam.equals("zarr") && v.shape().length > 3)) { // zarr: one plane per index
            out.add(Arguments.of(fam + ":" + v, v));
          }
        }
      }
    }
    assertTrue(out.size() >= 90, "fixture variables of rank >= 2: " + out.size());
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variables")
  void everyPixel(String label, Fixtures.Variable fv) throws IOException {
    try (ImageDataset ds = ImageDataset.open(fv.dataset().file())) {
      ImageVariable v = variable(ds, fv);
      String why = v.whyNotAnImage();
      if (v.array() != null) {
        assertEquals(java.util.Arrays.toString(fv.shape()), java.util.Arrays.toString(v.shape()));
      }
      if (!fv.hasExpected() || fv.dtype().contains("U") || fv.dtype().equals("str") || fv.dtype().equals("unicode")
          || product(fv.shape()) == 0) {
        assertNotNull(why, label + " must be refused");
        assertTrue(why.contains(v.name()), why);
        IOException e = assertThrows(IOException.class, () -> ChunkImgs.open(v));
        assertTrue(e.getMessage().contains(v.name()), e.getMessage());
        assertThrows(IOException.class, () -> StackSpec.defaults(v));
        return;
      }
      assertEquals(null, why);
      Expected exp = new Expected(v.array().dtype(), fv.expected(), v.attributes());
      if (fv.json().hasNonNull("mask")) {
        exp.mask = Fixtures.bytes(Fixtures.family(label.substring(0, label.indexOf(':'))).resolve(fv.json().path("mask").asText()));
      }
      checkImgLib2(v, exp);
      checkStack(v, exp);
    }
  }

  /**
   * The manifest's variable: by name, or, for one-array datasets whose manifest calls it "data", the dataset's
   * only variable (the CDM names it after the dataset, docs/cdm-contract.md).
   */
  static ImageVariable variable(ImageDataset ds, Fixtures.Variable fv) throws IOException {
    for (ImageVariable v : ds.variables()) {
      if (v.name().equals(fv.name())) {
        return v;
      }
    }
    assertEquals(1, ds.variables().size(), "no variable " + fv.name() + " in " + ds.path());
    return ds.variables().get(0);
  }

  static long product(long[] s) {
    long p = 1;
    for (long x : s) {
      p *= x;
    }
    return p;
  }

  /** Expected raw values from the manifest's little-endian bytes. */
  static final class Expected {
    final DType dt;
    final ByteBuffer b;
    final Map<String, Object> attrs;
    /** ds masks: 1 = missing; the reader puts the variable's _FillValue there (the expected file holds 0). */
    byte[] mask;

    boolean masked(long i) {
      return mask != null && mask[(int) i] != 0;
    }

    /** The fill value a missing element reads as, from the variable's _FillValue attribute. */
    double fill() {
      Object o = attrs.get("_FillValue");
      assertTrue(o instanceof Number, "masked variable without a numeric _FillValue: " + attrs);
      return ((Number) o).doubleValue();
    }

    Expected(DType dt, byte[] bytes, Map<String, Object> attrs) {
      this.dt = dt;
      this.b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      this.attrs = attrs;
    }

    /** Integer bits (sign- or zero-extended per kind; 64-bit unsigned as raw bits). */
    long bits(long i) {
      if (masked(i)) {
        return (long) fill();
      }
      int size = dt.itemSize();
      int at = (int) (i * size);
      boolean u = dt.kind() != DType.Kind.INT;
      switch (size) {
        case 1:
          return dt.kind() == DType.Kind.BOOL ? (b.get(at) != 0 ? 1 : 0) : u ? b.get(at) & 0xff : b.get(at);
        case 2:
          return u ? b.getShort(at) & 0xffff : b.getShort(at);
        case 4:
          return u ? b.getInt(at) & 0xffffffffL : b.getInt(at);
        default:
          return b.getLong(at);
      }
    }

    double real(long i) {
      if (masked(i)) {
        return fill();
      }
      int size = dt.itemSize();
      if (dt.kind() == DType.Kind.FLOAT) {
        int at = (int) (i * size);
        return size == 2 ? org.chunkcdm.chunk.DType.halfToFloat(b.getShort(at)) : size == 4 ? b.getFloat(at) : b.getDouble(at);
      }
      long v = bits(i);
      if (dt.kind() == DType.Kind.UINT && size == 8 && v < 0) {
        return (double) ((v >>> 1) | (v & 1)) * 2.0;
      }
      return v;
    }

    double attr(String name, double dflt) {
      Object o = attrs.get(name);
      if (o instanceof Number) {
        return ((Number) o).doubleValue();
      }
      return dflt;
    }

    /** The 32-bit plane value: fill/missing → NaN, then CF scale/offset. */
    float floatPixel(long i) {
      double raw = real(i);
      for (String m : new String[] {"_FillValue", "missing_value"}) {
        Object o = attrs.get(m);
        if (o instanceof Number && (((Number) o).doubleValue() == raw
            || Double.isNaN(((Number) o).doubleValue()) && Double.isNaN(raw))) {
          return Float.NaN;
        }
      }
      if (attrs.containsKey("scale_factor") || attrs.containsKey("add_offset")) {
        raw = raw * attr("scale_factor", 1) + attr("add_offset", 0);
      }
      return (float) raw;
    }
  }

  static void checkImgLib2(ImageVariable v, Expected exp) throws IOException {
    LazyCellImg<?, ?> img = ChunkImgs.open(v);
    long[] shape = v.shape();
    int n = shape.length;
    assertEquals(n, img.numDimensions());
    for (int d = 0; d < n; d++) {
      assertEquals(shape[n - 1 - d], img.dimension(d), "ImgLib2 axis " + d + " is CDM dimension " + (n - 1 - d));
    }
    Cursor<?> c = img.localizingCursor();
    long[] pos = new long[n];
    long seen = 0;
    while (c.hasNext()) {
      Object t = c.next();
      c.localize(pos);
      long flat = 0;
      for (int d = n - 1; d >= 0; d--) { // CDM index = reversed position, C order
        flat = flat * shape[n - 1 - d] + pos[d];
      }
      String where = v.name() + " at " + java.util.Arrays.toString(pos);
      if (t instanceof FloatType) {
        assertEquals(Float.floatToIntBits((float) exp.real(flat)), Float.floatToIntBits(((FloatType) t).get()), where);
      } else if (t instanceof DoubleType) {
        assertEquals(Double.doubleToLongBits(exp.real(flat)), Double.doubleToLongBits(((DoubleType) t).get()), where);
      } else {
        assertTrue(t instanceof IntegerType, where + ": " + t.getClass());
        assertEquals(exp.bits(flat), ((IntegerType<?>) t).getIntegerLong(), where);
        if (!(exp.dt.kind() == DType.Kind.UINT && exp.dt.itemSize() == 8)) { // ImgLib2 rounds those its own way
          assertEquals(exp.real(flat), ((RealType<?>) t).getRealDouble(), 0.0, where);
        }
      }
      seen++;
    }
    assertEquals(product(shape), seen);
  }

  static void checkStack(ImageVariable v, Expected exp) throws IOException {
    long[] shape = v.shape();
    int n = shape.length;
    ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
    ImageStack stack = imp.getStack();
    assertTrue(stack.isVirtual());
    int w = (int) shape[n - 1];
    int h = (int) shape[n - 2];
    int planes = n == 2 ? 1 : (int) shape[0];
    assertEquals(w, imp.getWidth());
    assertEquals(h, imp.getHeight());
    assertEquals(planes, stack.getSize());
    DType dt = v.array().dtype();
    boolean signed16 = dt.kind() == DType.Kind.INT && dt.itemSize() <= 2;
    int expectBits = dt.kind() == DType.Kind.BOOL || dt.kind() == DType.Kind.UINT && dt.itemSize() == 1 ? 8
        : dt.kind() == DType.Kind.UINT && dt.itemSize() == 2 || signed16 ? 16 : 32;
    assertEquals(expectBits, imp.getBitDepth(), v.name());
    Calibration cal = imp.getCalibration();
    boolean scaled = exp.attrs.containsKey("scale_factor") || exp.attrs.containsKey("add_offset");
    for (int p = 1; p <= planes; p++) {
      ImageProcessor ip = stack.getProcessor(p);
      for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
          long flat = ((long) (p - 1) * h + y) * w + x;
          String where = v.name() + " plane " + p + " x=" + x + " y=" + y;
          if (expectBits == 32) {
            assertEquals(Float.floatToIntBits(exp.floatPixel(flat)), Float.floatToIntBits(ip.getf(x, y)), where);
          } else if (signed16) {
            assertEquals(exp.bits(flat), ip.get(x, y) - 32768, where);
            double physical = scaled ? exp.bits(flat) * exp.attr("scale_factor", 1) + exp.attr("add_offset", 0) : exp.bits(flat);
            assertEquals(physical, cal.getCValue(ip.get(x, y)), 1e-9 * Math.max(1, Math.abs(physical)), where + " (calibrated)");
          } else {
            assertEquals(exp.bits(flat), ip.get(x, y), where);
          }
        }
      }
    }
    double lo = imp.getDisplayRangeMin();
    double hi = imp.getDisplayRangeMax();
    assertTrue(lo < hi, v.name() + ": display range " + lo + ".." + hi + " would look blank");
    assertTrue(String.valueOf(imp.getProperty("Info")).contains("variable: " + v.name()));
  }
}
