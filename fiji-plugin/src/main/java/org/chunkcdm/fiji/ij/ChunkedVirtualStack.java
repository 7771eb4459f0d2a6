package org.chunkcdm.fiji.ij;

import ij.IJ;
import ij.VirtualStack;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import ij.process.ShortProcessor;
import java.io.IOException;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.fiji.Types;

/**
 * A variable as an ImageJ virtual (hyper)stack. A displayed plane is read through core's section assembly,
 * which decodes only the chunks the plane crosses, in parallel, with core's shared chunk cache; nothing else is
 * held. Large planes are read in bands of chunk rows with a progress bar (Esc cancels: the rest of the plane
 * stays 0/NaN and the status line says so); the status line reports the chunks each plane touched.
 */
public final class ChunkedVirtualStack extends VirtualStack {
  /** Planes above this many bytes are read in bands with progress and cancel. */
  static final long BAND_BYTES = 16L << 20;

  private final StackSpec spec;
  private final PixelMapping map;
  private final ChunkedArray a;
  private final int w;
  private final int h;
  private final int nz;
  private final int nc;
  private final int nt;
  private volatile String lastStatus = "";

  public ChunkedVirtualStack(StackSpec spec) throws IOException {
    super(checkedInt(spec.width(), "width"), checkedInt(spec.height(), "height"), null, null);
    if (spec.width() * spec.height() >= Integer.MAX_VALUE) {
      throw new IOException("a plane of " + spec.width() + " x " + spec.height() + " pixels is more than ImageJ can hold "
          + "(2^31): choose a crop or stride in the subset field");
    }
    this.spec = spec;
    this.map = new PixelMapping(spec.v);
    this.a = spec.v.array();
    this.w = (int) spec.width();
    this.h = (int) spec.height();
    this.nz = spec.slices();
    this.nc = spec.channels();
    this.nt = spec.frames();
    setBitDepth(map.bitDepth);
  }

  private static int checkedInt(long v, String what) throws IOException {
    if (v > Integer.MAX_VALUE) {
      throw new IOException("image " + what + " " + v + " exceeds ImageJ's limit; choose a crop or stride");
    }
    return (int) v;
  }

  public StackSpec spec() {
    return spec;
  }

  PixelMapping mapping() {
    return map;
  }

  @Override
  public int getSize() {
    return nz * nc * nt;
  }

  @Override
  public int size() {
    return getSize();
  }

  @Override
  public String getSliceLabel(int n) {
    long[] f = planeFirst(n);
    StringBuilder sb = new StringBuilder();
    for (int d = 0; d < f.length; d++) {
      if (d != spec.x() && d != spec.y() && spec.shape[d] > 1) {
        sb.append(sb.length() == 0 ? "" : " ").append(spec.v.dimensions().get(d)).append('=').append(f[d]);
      }
    }
    return sb.toString();
  }

  @Override
  public String getFileName(int n) {
    return spec.v.name();
  }

  @Override
  public void deleteSlice(int n) {
    throw new UnsupportedOperationException("chunkcdm stacks are read-only views");
  }

  @Override
  public Object getPixels(int n) {
    return getProcessor(n).getPixels();
  }

  @Override
  public void setPixels(Object pixels, int n) {
    // read-only view: edits of a virtual plane are not kept (as for other virtual stacks)
  }

  /** CDM start index of plane {@code n} (1-based, ImageJ order c fastest, then z, then t). */
  long[] planeFirst(int n) {
    if (n < 1 || n > getSize()) {
      throw new IllegalArgumentException("plane " + n + " outside 1.." + getSize());
    }
    int i = n - 1;
    int c = i % nc;
    int z = (i / nc) % nz;
    int t = i / (nc * nz);
    long[] f = spec.first.clone();
    int[] idx = {0, 0, z, c, t};
    for (int r = 2; r < 5; r++) {
      int d = spec.dimOf[r];
      if (d >= 0) {
        f[d] = spec.first[d] + idx[r] * spec.stride[d];
      }
    }
    return f;
  }

  @Override
  public ImageProcessor getProcessor(int n) {
    Object pixels;
    try {
      pixels = readPlane(n, true);
    } catch (IOException e) {
      IJ.log("chunkcdm: " + e.getMessage());
      IJ.showStatus("chunkcdm: error: " + e.getMessage());
      pixels = blank();
    }
    ImageProcessor ip;
    if (map.bitDepth == 8) {
      ip = new ByteProcessor(w, h, (byte[]) pixels);
    } else if (map.bitDepth == 16) {
      ip = new ShortProcessor(w, h, (short[]) pixels, null);
    } else {
      ip = new FloatProcessor(w, h, (float[]) pixels);
    }
    return ip;
  }

  private Object blank() {
    if (map.bitDepth == 8) {
      return new byte[w * h];
    } else if (map.bitDepth == 16) {
      return new short[w * h];
    }
    float[] f = new float[w * h];
    java.util.Arrays.fill(f, Float.NaN);
    return f;
  }

  /** Rows per band: whole chunk rows, about {@link #BAND_BYTES} each. */
  int bandRows() {
    long rowBytes = (long) w * Math.max(1, a.dtype().itemSize());
    long rows = Math.max(1, BAND_BYTES / Math.max(1, rowBytes));
    if (rows >= h) {
      return h;
    }
    ChunkGrid g = a.grid();
    if (g instanceof ChunkGrid.Regular) {
      long ch = ((ChunkGrid.Regular) g).chunkShape()[spec.y()];
      long step = Math.max(1, ch / spec.stride[spec.y()]);
      rows = Math.max(step, rows / step * step);
    }
    return (int) Math.min(h, rows);
  }

  /** The pixels of plane {@code n}; {@code interactive} shows progress and honours Esc. */
  Object readPlane(int n, boolean interactive) throws IOException {
    long[] f = planeFirst(n);
    long[] cnt = new long[f.length];
    java.util.Arrays.fill(cnt, 1);
    int ix = spec.x();
    int iy = spec.y();
    cnt[ix] = w;
    Object out = blank();
    long before = SectionReader.chunksTouched();
    long t0 = System.nanoTime();
    int band = iy < 0 ? 1 : bandRows();
    boolean cancelled = false;
    boolean banded = band < h;
    for (int r0 = 0; r0 < h; r0 += band) {
      int rows = Math.min(band, h - r0);
      long[] bf = f.clone();
      long[] bc = cnt.clone();
      if (iy >= 0) {
        bf[iy] = spec.first[iy] + r0 * spec.stride[iy];
        bc[iy] = rows;
      }
      Object prim = Types.read(a, bf, bc, spec.stride);
      put(prim, out, r0, rows, iy >= 0 && ix < iy);
      if (banded && interactive) {
        IJ.showProgress(r0 + rows, h);
        if (IJ.escapePressed()) {
          IJ.resetEscape();
          cancelled = true;
          break;
        }
      }
    }
    if (banded && interactive) {
      IJ.showProgress(1.0);
    }
    long chunks = SectionReader.chunksTouched() - before;
    long ms = (System.nanoTime() - t0) / 1_000_000;
    lastStatus = "chunkcdm: " + spec.v.name() + " plane " + n + "/" + getSize() + ": " + chunks + " chunk reads, " + ms
        + " ms" + (cancelled ? " (CANCELLED: plane incomplete)" : "");
    if (interactive) {
      IJ.showStatus(lastStatus);
    }
    return out;
  }

  String lastStatus() {
    return lastStatus;
  }

  /** Converts a band (rows r0.., C order over the selection) into the plane's pixel array. */
  private void put(Object prim, Object out, int r0, int rows, boolean transposed) {
    int nb = w * rows;
    int base = r0 * w;
    if (!transposed && (map.bitDepth == 8 || map.bitDepth == 16 && !map.signed16)) {
      System.arraycopy(prim, 0, out, base, nb); // same element type and layout (bool already 0/1)
      return;
    }
    for (int e = 0; e < nb; e++) {
      int o = transposed ? (r0 + e % rows) * w + e / rows : base + e; // transposed: X before Y in CDM order
      if (map.bitDepth == 8) {
        ((byte[]) out)[o] = ((byte[]) prim)[e];
      } else if (map.bitDepth == 16) {
        if (map.signed16) {
          int raw = prim instanceof short[] ? ((short[]) prim)[e] : ((byte[]) prim)[e];
          ((short[]) out)[o] = (short) (raw + 32768);
        } else {
          ((short[]) out)[o] = ((short[]) prim)[e];
        }
      } else {
        ((float[]) out)[o] = (float) map.pixel(Types.value(map.dtype, prim, e));
      }
    }
  }
}
