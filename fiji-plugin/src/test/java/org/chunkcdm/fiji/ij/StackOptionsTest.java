package org.chunkcdm.fiji.ij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.measure.Calibration;
import ij.process.ImageProcessor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.fiji.ImageDataset;
import org.chunkcdm.fiji.ImageVariable;
import org.chunkcdm.fiji.SyntheticVolume;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;

/**
 * The ImageJ stack's options: axis defaults and roles, subset (crop / stride / sub-range), CF calibration from
 * coordinate variables, scale_factor/add_offset on 16-bit and float planes, _FillValue → NaN, display range from
 * valid_range, load into RAM, the cache warning, the SciJava command and the static macro entry.
 */
class StackOptionsTest {
  /** A small in-memory array of one chunk. */
  static ChunkedArray array(DType dt, long[] shape, byte[] le) {
    int[] c = new int[shape.length];
    for (int d = 0; d < c.length; d++) {
      c[d] = (int) shape[d];
    }
    ChunkGrid g = ChunkGrid.regular(shape, c);
    return new ChunkedArray() {
      @Override
      public DType dtype() {
        return dt;
      }

      @Override
      public ChunkGrid grid() {
        return g;
      }

      @Override
      public ChunkData chunk(long index) {
        return ChunkData.of(le);
      }
    };
  }

  static ImageVariable var(String name, List<String> dims, ChunkedArray a, Map<String, Object> attrs) {
    ImageDataset ds = new ImageDataset(Paths.get("/mem"), "memory", Map.of(), null);
    ImageVariable v = new ImageVariable(ds, name, dims, a, attrs);
    ds.add(v);
    return v;
  }

  @Test
  void defaultAxesPerRank() {
    assertEquals(List.of(1, 0, -1, -1, -1), List.of(box(StackSpec.defaultRoles(2))));
    assertEquals(List.of(2, 1, 0, -1, -1), List.of(box(StackSpec.defaultRoles(3))));
    assertEquals(List.of(3, 2, 1, -1, 0), List.of(box(StackSpec.defaultRoles(4))));
    assertEquals(List.of(4, 3, 2, 1, 0), List.of(box(StackSpec.defaultRoles(5))));
  }

  static Integer[] box(int[] a) {
    Integer[] o = new Integer[a.length];
    for (int i = 0; i < a.length; i++) {
      o[i] = a[i];
    }
    return o;
  }

  @Test
  void rank4IsTimeAndZHyperstack() throws IOException {
    SyntheticVolume a4 = null; // rank 4 from a synthetic 3-D generator: t = 2 copies
    SyntheticVolume vol = new SyntheticVolume(6, 40, 30, 2, 16, 16);
    ChunkedArray four = new ChunkedArray() {
      final ChunkGrid g = ChunkGrid.regular(new long[] {2, 3, 40, 30}, new int[] {1, 3, 40, 30});

      @Override
      public DType dtype() {
        return vol.dtype();
      }

      @Override
      public ChunkGrid grid() {
        return g;
      }

      @Override
      public ChunkData chunk(long t) throws IOException {
        byte[] b = new byte[3 * 40 * 30 * 2];
        for (int z = 0; z < 3; z++) {
          for (int y = 0; y < 40; y++) {
            for (int x = 0; x < 30; x++) {
              int v = SyntheticVolume.value(t * 3 + z, y, x);
              int i = ((z * 40 + y) * 30 + x) * 2;
              b[i] = (byte) v;
              b[i + 1] = (byte) (v >>> 8);
            }
          }
        }
        return ChunkData.of(b);
      }
    };
    assertNull(a4);
    ImageVariable v = var("v4", List.of("time", "depth", "y", "x"), four, Map.of());
    ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
    assertEquals(1, imp.getNChannels());
    assertEquals(3, imp.getNSlices());
    assertEquals(2, imp.getNFrames());
    assertTrue(imp.isHyperStack());
    imp.setPosition(1, 2, 2); // c, z, t
    assertEquals(SyntheticVolume.value(1 * 3 + 1, 7, 5), imp.getProcessor().get(5, 7));
    assertTrue(imp.getStack().getSliceLabel(imp.getCurrentSlice()).contains("time=1"));

    // roles: X = y, Y = x (transposed view), Z = time, depth fixed at index 2 by the subset
    StackSpec s = StackSpec.of(v, new String[] {"y", "x", "time", "-", "-"}, ":,2,:,:");
    ImagePlus tr = ChunkcdmImageJ.image(v, s, true);
    assertEquals(40, tr.getWidth());
    assertEquals(30, tr.getHeight());
    assertEquals(2, tr.getStackSize());
    tr.setSlice(2);
    assertEquals(SyntheticVolume.value(1 * 3 + 2, 33, 11), tr.getProcessor().get(33, 11));
    IOException e = assertThrows(IOException.class, () -> StackSpec.of(v, new String[] {"x", "y", "-", "-", "-"}, "0:1,:,:,:"));
    assertTrue(e.getMessage().contains("has no role"), e.getMessage());
    e = assertThrows(IOException.class, () -> StackSpec.of(v, new String[] {"x", "x", "-", "-", "-"}, null));
    assertTrue(e.getMessage().contains("both X and Y"), e.getMessage());
  }

  @Test
  void subsetCropsAndStrides() throws IOException {
    SyntheticVolume a = new SyntheticVolume(20, 300, 200, 4, 64, 64);
    ImageVariable v = var("vol", List.of("z", "y", "x"), a, Map.of());
    StackSpec s = StackSpec.of(v, null, "3:15:4, 10:209:3, 1:")
    ;
    ImagePlus imp = ChunkcdmImageJ.image(v, s, true);
    assertEquals(4, imp.getStackSize()); // z 3, 7, 11, 15
    assertEquals(67, imp.getHeight()); // 10..208 step 3
    assertEquals(199, imp.getWidth());
    imp.setSlice(3);
    ImageProcessor ip = imp.getProcessor();
    for (int[] p : new int[][] {{0, 0}, {198, 66}, {50, 20}}) {
      assertEquals(SyntheticVolume.value(11, 10 + 3L * p[1], 1 + p[0]), ip.get(p[0], p[1]));
    }
    IOException e = assertThrows(IOException.class, () -> StackSpec.of(v, null, "0:20,:,:"));
    assertTrue(e.getMessage().contains("outside dimension z"), e.getMessage());
    // load into RAM: same values, not virtual
    ImagePlus ram = ChunkcdmImageJ.image(v, s, false);
    assertFalse(ram.getStack().isVirtual());
    ram.setSlice(3);
    assertEquals(ip.get(50, 20), ram.getProcessor().get(50, 20));
  }

  @Test
  void escapeCancelsABandedPlaneRead() throws IOException {
    // planes over 16 MiB load in bands; Esc stops after the current band and the status says so
    SyntheticVolume a = new SyntheticVolume(2, 4096, 4096, 1, 512, 512);
    ImageVariable v = var("big", List.of("z", "y", "x"), a, Map.of());
    ChunkedVirtualStack s = new ChunkedVirtualStack(StackSpec.defaults(v));
    assertTrue(s.bandRows() < 4096, "banded: " + s.bandRows());
    ij.IJ.setKeyDown(java.awt.event.KeyEvent.VK_ESCAPE);
    try {
      short[] px = (short[]) s.readPlane(2, true);
      assertTrue(s.lastStatus().contains("CANCELLED"), s.lastStatus());
      assertEquals(SyntheticVolume.value(1, 0, 7), px[7] & 0xffff, "the first band is loaded");
      assertEquals(0, px[px.length - 1], "the rest is not");
    } finally {
      ij.IJ.resetEscape();
    }
    short[] px = (short[]) s.readPlane(2, true);
    assertFalse(s.lastStatus().contains("CANCELLED"), s.lastStatus());
    assertTrue(s.lastStatus().contains("64 chunk reads"), s.lastStatus());
    assertEquals(SyntheticVolume.value(1, 4095, 4095), px[px.length - 1] & 0xffff);
  }

  @Test
  void badChunkIsAClearErrorNotACrash() throws IOException {
    ChunkGrid g = ChunkGrid.regular(new long[] {2, 100, 100}, new int[] {1, 50, 50});
    ChunkedArray bad = new ChunkedArray() {
      @Override
      public DType dtype() {
        return DType.of(DType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
      }

      @Override
      public ChunkGrid grid() {
        return g;
      }

      @Override
      public ChunkData chunk(long index) throws IOException {
        throw new IOException("/data/x.b2nd: chunk " + index + ": bad Blosc header");
      }
    };
    ImageVariable v = var("broken", List.of("z", "y", "x"), bad, Map.of());
    ChunkedVirtualStack s = new ChunkedVirtualStack(StackSpec.defaults(v));
    IOException e = assertThrows(IOException.class, () -> s.readPlane(1, false));
    assertTrue(e.getMessage().contains("/data/x.b2nd: chunk 0: bad Blosc header"), e.getMessage());
    ImageProcessor ip = s.getProcessor(2); // the display gets a NaN plane and the error in the Log
    assertTrue(Float.isNaN(ip.getf(0, 0)));
    java.io.UncheckedIOException u = assertThrows(java.io.UncheckedIOException.class,
        () -> org.chunkcdm.fiji.ChunkImgs.open(v).randomAccess().setPositionAndGet(new long[] {60, 60, 1}));
    assertTrue(u.getMessage().contains("broken") && u.getMessage().contains("bad Blosc header"), u.getMessage());
  }

  @Test
  void signed16WithScaleOffsetAndFloatFill() throws IOException {
    short[] raw = {-32768, -1, 0, 1, 1000, 32767};
    ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    for (short s : raw) {
      b.putShort(s);
    }
    Map<String, Object> att = new LinkedHashMap<>();
    att.put("scale_factor", 0.5);
    att.put("add_offset", 10.0);
    att.put("units", "K");
    ImageVariable v = var("packed", List.of("y", "x"), array(DType.of(DType.Kind.INT, 2, ByteOrder.LITTLE_ENDIAN),
        new long[] {2, 3}, b.array()), att);
    ImagePlus imp = ChunkcdmImageJ.image(v, StackSpec.defaults(v), true);
    assertEquals(16, imp.getBitDepth());
    Calibration cal = imp.getCalibration();
    for (int i = 0; i < raw.length; i++) {
      int px = imp.getProcessor().get(i % 3, i / 3);
      assertEquals(raw[i] + 32768, px);
      assertEquals(raw[i] * 0.5 + 10, cal.getCValue(px), 1e-12);
    }
    assertEquals("K", cal.getValueUnit());

    ByteBuffer f = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
    for (float x : new float[] {1.5f, -9999f, 3f, Float.NaN}) {
      f.putFloat(x);
    }
    Map<String, Object> fa = new LinkedHashMap<>();
    fa.put("_FillValue", -9999f);
    fa.put("valid_range", new float[] {0f, 4f});
    ImageVariable fv = var("f", List.of("y", "x"), array(DType.of(DType.Kind.FLOAT, 4, ByteOrder.BIG_ENDIAN),
        new long[] {2, 2}, f.array()), fa);
    ImagePlus fi = ChunkcdmImageJ.image(fv, StackSpec.defaults(fv), true);
    assertEquals(32, fi.getBitDepth());
    assertEquals(1.5f, fi.getProcessor().getf(0, 0));
    assertTrue(Float.isNaN(fi.getProcessor().getf(1, 0)), "_FillValue → NaN");
    assertEquals(3f, fi.getProcessor().getf(0, 1));
    assertEquals(0, fi.getDisplayRangeMin());
    assertEquals(4, fi.getDisplayRangeMax());
  }

  @Test
  void cfCalibrationFromCoordinateVariables() throws IOException {
    Path p = Fixtures.family("ds").resolve("nd_shared_dims.ds");
    try (ImageDataset ds = ImageDataset.open(p)) {
      ImageVariable pressure = ds.variable("pressure");
      ImagePlus imp = ChunkcdmImageJ.image(pressure, StackSpec.defaults(pressure), true);
      double[] lon = ChunkcdmImageJ.coordinate(pressure, 2);
      double[] lat = ChunkcdmImageJ.coordinate(pressure, 1);
      assertNotNull(lon);
      assertNotNull(lat);
      Calibration cal = imp.getCalibration();
      assertEquals(Math.abs((lon[4] - lon[0]) / 4), cal.pixelWidth, 1e-6);
      assertEquals(Math.abs((lat[2] - lat[0]) / 2), cal.pixelHeight, 1e-6);
      assertEquals(lon[0], cal.getX(0), 1e-6); // calibrated x of pixel 0
      assertEquals("degrees_east", cal.getXUnit());
      assertEquals("hPa", cal.getValueUnit());
      ImageVariable t = ds.variable("temperature");
      ImagePlus ti = ChunkcdmImageJ.image(t, StackSpec.defaults(t), true);
      assertEquals(150, ti.getDisplayRangeMin());
      assertEquals(350, ti.getDisplayRangeMax());
      String info = (String) ti.getProperty("Info");
      assertTrue(info.contains("valid_range = [150.0, 350.0]"), info);
      assertTrue(info.contains("axes: X=lon Y=lat Z=time"), info);
    }
  }

  @Test
  void cacheWarningWhenOneSlabDoesNotFit() throws IOException {
    SyntheticVolume big = new SyntheticVolume(100, 50000, 50000, 8, 4096, 4096);
    ImageVariable v = var("big", List.of("z", "y", "x"), big, Map.of());
    String w = ChunkcdmImageJ.cacheWarning(StackSpec.of(v, null, "0:0:1,::,::".replace("::", ":")));
    assertNotNull(w);
    assertTrue(w.contains("more than the chunk cache"), w);
    SyntheticVolume small = new SyntheticVolume(10, 100, 100, 1, 100, 100);
    assertNull(ChunkcdmImageJ.cacheWarning(StackSpec.defaults(var("small", List.of("z", "y", "x"), small, Map.of()))));
    IOException e = assertThrows(IOException.class, () -> new ChunkedVirtualStack(StackSpec.defaults(v)));
    assertTrue(e.getMessage().contains("crop or stride"), e.getMessage());
    e = assertThrows(IOException.class, () -> ChunkcdmImageJ.image(v, StackSpec.defaults(v), true));
    assertTrue(e.getMessage().contains("2^31") && e.getMessage().contains("stride"), e.getMessage());
    // below 2^31 pixels but more than the heap can read (about 3 copies of the plane)
    long side = (long) Math.sqrt(Runtime.getRuntime().maxMemory() / 2.0 / 2) + 1;
    if (side * side < Integer.MAX_VALUE) {
      SyntheticVolume wide = new SyntheticVolume(2, side, side, 1, 4096, 4096);
      ImageVariable wv = var("wide", List.of("z", "y", "x"), wide, Map.of());
      e = assertThrows(IOException.class, () -> ChunkcdmImageJ.image(wv, StackSpec.defaults(wv), true));
      assertTrue(e.getMessage().contains("cannot be held") && !e.getMessage().contains("2^31"), e.getMessage());
      long stride = Long.parseLong(e.getMessage().replaceAll(".*stride (\\d+) in X.*", "$1"));
      StackSpec ok = StackSpec.of(wv, null, "0:0,0:" + (side - 1) + ":" + stride + ",0:" + (side - 1) + ":" + stride);
      ChunkcdmImageJ.checkPlaneFitsHeap(ok); // the suggested stride fits
    }
  }

  @Test
  void scijavaCommandAndStaticEntry() throws Exception {
    Path p = Fixtures.family("ds").resolve("nd_shared_dims.ds");
    ChunkcdmCommand c = new ChunkcdmCommand();
    c.path = p.toFile();
    c.variable = "count";
    c.run();
    assertEquals(3, c.image.getStackSize() > 0 ? c.image.getHeight() : -1);
    assertEquals(5, c.image.getWidth());
    assertEquals(4, c.image.getStackSize());
    assertEquals(3, c.img.numDimensions());
    assertEquals(5, c.img.dimension(0));
    ImagePlus imp = ChunkcdmImageJ.openImage(p.toString(), "orography", null, null, true);
    assertEquals(16, imp.getBitDepth());
    assertTrue(ChunkcdmImageJ.open(p.toString(), "no_such").startsWith("error: "));
    assertTrue(ChunkcdmImageJ.open("/no/such/file.ds", "x").startsWith("error: "));
  }
}
