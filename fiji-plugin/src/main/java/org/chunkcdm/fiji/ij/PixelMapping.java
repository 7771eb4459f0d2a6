package org.chunkcdm.fiji.ij;

import java.util.Map;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fiji.ImageVariable;

/**
 * How stored values become ImageJ pixels: uint8/bool → 8-bit, uint16 → 16-bit, int8/int16 → 16-bit shifted by
 * 32768 with ImageJ's signed-16-bit calibration, everything else → 32-bit float (lossy above 2^24 for 32/64-bit
 * integers). CF {@code scale_factor}/{@code add_offset} become the calibration function of 8/16-bit images and
 * are applied to the values of 32-bit images, where {@code _FillValue}/{@code missing_value} become NaN.
 */
final class PixelMapping {
  final DType dtype;
  final int bitDepth;
  final boolean signed16;
  final double scale;
  final double offset;
  final boolean scaled;
  final double[] missing;

  PixelMapping(ImageVariable v) {
    this.dtype = v.array().dtype();
    DType.Kind k = dtype.kind();
    int size = dtype.itemSize();
    if (k == DType.Kind.BOOL || k == DType.Kind.UINT && size == 1) {
      bitDepth = 8;
      signed16 = false;
    } else if (k == DType.Kind.UINT && size == 2) {
      bitDepth = 16;
      signed16 = false;
    } else if (k == DType.Kind.INT && size <= 2) {
      bitDepth = 16;
      signed16 = true;
    } else {
      bitDepth = 32;
      signed16 = false;
    }
    Map<String, Object> a = v.attributes();
    Double sf = number(a.get("scale_factor"));
    Double ao = number(a.get("add_offset"));
    scaled = sf != null || ao != null;
    scale = sf == null ? 1 : sf;
    offset = ao == null ? 0 : ao;
    double[] fv = numbers(a.get("_FillValue"));
    double[] mv = numbers(a.get("missing_value"));
    missing = new double[fv.length + mv.length];
    System.arraycopy(fv, 0, missing, 0, fv.length);
    System.arraycopy(mv, 0, missing, fv.length, mv.length);
  }

  /** The physical value of a raw stored value (scale/offset applied). */
  double physical(double raw) {
    return scaled ? raw * scale + offset : raw;
  }

  boolean isMissing(double raw) {
    for (double m : missing) {
      if (raw == m || Double.isNaN(m) && Double.isNaN(raw)) {
        return true;
      }
    }
    return false;
  }

  /** The ImageJ pixel value (what the processor stores) of a raw stored value. */
  double pixel(double raw) {
    if (bitDepth == 32) {
      return isMissing(raw) ? Double.NaN : physical(raw);
    }
    return signed16 ? raw + 32768 : raw;
  }

  static Double number(Object o) {
    if (o instanceof Number) {
      return ((Number) o).doubleValue();
    }
    double[] d = numbers(o);
    return d.length >= 1 ? d[0] : null;
  }

  static double[] numbers(Object o) {
    if (o instanceof Number) {
      return new double[] {((Number) o).doubleValue()};
    }
    if (o != null && o.getClass().isArray() && !(o instanceof Object[])) {
      int n = java.lang.reflect.Array.getLength(o);
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = ((Number) java.lang.reflect.Array.get(o, i)).doubleValue();
      }
      return d;
    }
    return new double[0];
  }
}
