package org.chunkcdm.open;

import org.chunkcdm.chunk.ChunkProbes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.chunkcdm.cdm.CdmAttributes;
import org.chunkcdm.chunk.ChunkCache;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.chunk.DecodePool;
import org.chunkcdm.chunk.SectionReader;
import org.chunkcdm.testkit.Fixtures;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Checks of a format module's {@link DatasetOpener} against the fixtures (used by each format module's tests
 * through core's test jar): the dataset opened by {@link Datasets#open} shows the variables, dimension names
 * and attributes of the IOSP's view ({@code NetcdfFiles.open} of the same path), and every variable with an
 * array reads, by typed read, the CDM read's values and the manifest's expected values, whole and in random
 * strided boxes.
 */
public final class OpenerChecks {
  private OpenerChecks() {}

  /** Checks one fixture dataset; returns the number of element values compared. */
  public static long check(Fixtures.Dataset d, String format) throws Exception {
    return check(d.file(), format, d);
  }

  /** Checks the dataset at {@code p}; {@code manifest} (may be null) gives expected values. */
  public static long check(Path p, String format, Fixtures.Dataset manifest) throws Exception {
    long compared = 0;
    DatasetOpener o = Datasets.find(p);
    assertNotNull(o, "no opener claims " + p);
    assertEquals(format, o.format(), p.toString());
    try (ChunkedDataset ds = Datasets.open(p); NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      assertEquals(format, ds.format());
      List<String> cdmNames = new ArrayList<>();
      for (Variable v : nc.getVariables()) {
        cdmNames.add(v.getShortName());
      }
      List<String> names = new ArrayList<>();
      for (ChunkedVariable v : ds.variables()) {
        names.add(v.name());
      }
      assertEquals(cdmNames, names, p + ": variables");
      assertSameAttributes(nc.getRootGroup().attributes(), ds.attributes(), ds.unsigned(), p + " (global)");
      Random r = new Random(p.toString().hashCode());
      for (ChunkedVariable cv : ds.variables()) {
        String what = p + ": " + cv.name();
        Variable v = nc.getRootGroup().findVariableLocal(cv.name());
        assertNotNull(v, what);
        List<String> dims = new ArrayList<>();
        for (Dimension dim : v.getDimensions()) {
          dims.add(dim.getShortName());
        }
        ChunkedArray a = cv.array();
        int rank = a != null ? a.grid().rank() : cv.dimensions().size();
        assertEquals(dims.subList(0, rank), cv.dimensions(), what + ": dimensions");
        assertSameAttributes(v.attributes(), cv.attributes(), cv.unsigned(), what);
        if (a == null) {
          continue;
        }
        Fixtures.Variable fv = manifestVariable(manifest, ds, cv);
        compared += checkValues(a, v, fv, r, what);
      }
    }
    return compared;
  }

  private static Fixtures.Variable manifestVariable(Fixtures.Dataset m, ChunkedDataset ds, ChunkedVariable cv) {
    if (m == null) {
      return null;
    }
    List<Fixtures.Variable> vs = m.variables();
    if (vs.size() == 1 && ds.variables().size() == 1) {
      return vs.get(0);
    }
    for (Fixtures.Variable f : vs) {
      if (Names.valid(f.name()).equals(cv.name())) {
        return f;
      }
    }
    return null;
  }

  private static long checkValues(ChunkedArray a, Variable v, Fixtures.Variable fv, Random r, String what)
      throws Exception {
    DType dt = a.dtype();
    long[] shape = a.grid().shape();
    long n = 1;
    for (long s : shape) {
      n *= s;
    }
    boolean expected = fv != null && fv.hasExpected() && !fv.json().path("missing").asBoolean(false);
    if (SectionReader.typedClass(dt) == null) {
      byte[] raw = SectionReader.readBytes(a, new long[shape.length], shape, ones(shape.length));
      if (expected && (dt.order() == ByteOrder.LITTLE_ENDIAN || dt.kind() == DType.Kind.BYTES
          || dt.kind() == DType.Kind.OPAQUE)) {
        assertArrayEquals(fv.expected(), raw, what + ": bytes");
      }
      return n;
    }
    Object whole = SectionReader.readTyped(a, new long[shape.length], shape, null);
    assertEquals(n, Array.getLength(whole), what);
    Object cdm = v.read().get1DJavaArray(v.getDataType());
    assertTrue(sameValues(cdm, whole), what + ": typed read differs from the CDM read");
    if (expected) {
      assertTrue(sameValues(fromLittleEndian(dt, fv.expected(), (int) n), whole),
          what + ": typed read differs from the manifest's expected values");
    }
    long compared = 2 * n;
    for (int q = 0; q < 12 && n > 0; q++) {
      long[] origin = new long[shape.length];
      long[] count = new long[shape.length];
      long[] stride = new long[shape.length];
      long m = 1;
      for (int d = 0; d < shape.length; d++) {
        origin[d] = (long) (r.nextDouble() * shape[d]);
        stride[d] = 1 + (r.nextInt(3) == 0 ? r.nextInt(5) : 0);
        long max = (shape[d] - 1 - origin[d]) / stride[d] + 1;
        count[d] = 1 + (long) (r.nextDouble() * Math.min(max, 200));
        m *= count[d];
      }
      if (m > 4_000_000) {
        continue;
      }
      int off = r.nextInt(3);
      Object box = SectionReader.newTypedArray(dt, (int) m + off);
      SectionReader.readInto(a, origin, count, stride, box, off);
      long[] coord = new long[shape.length];
      for (int e = 0; e < m; e++) {
        long rem = e;
        long flat = 0;
        for (int d = shape.length - 1; d >= 0; d--) {
          coord[d] = origin[d] + (rem % count[d]) * stride[d];
          rem /= count[d];
        }
        for (int d = 0; d < shape.length; d++) {
          flat = flat * shape[d] + coord[d];
        }
        Object want = Array.get(whole, (int) flat);
        Object got = Array.get(box, off + e);
        assertEquals(want, got, what + ": box element " + e);
      }
      compared += m;
    }
    return compared;
  }

  static long[] ones(int n) {
    long[] s = new long[n];
    java.util.Arrays.fill(s, 1);
    return s;
  }

  /** Equal primitive arrays (floats by bits, so NaN equals NaN). */
  static boolean sameValues(Object a, Object b) {
    if (a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof byte[]) {
      return java.util.Arrays.equals((byte[]) a, (byte[]) b);
    } else if (a instanceof short[]) {
      return java.util.Arrays.equals((short[]) a, (short[]) b);
    } else if (a instanceof int[]) {
      return java.util.Arrays.equals((int[]) a, (int[]) b);
    } else if (a instanceof long[]) {
      return java.util.Arrays.equals((long[]) a, (long[]) b);
    } else if (a instanceof float[]) {
      return java.util.Arrays.equals((float[]) a, (float[]) b);
    } else if (a instanceof double[]) {
      return java.util.Arrays.equals((double[]) a, (double[]) b);
    }
    return false;
  }

  /** The manifest's little-endian raw values as the typed read's Java array. */
  static Object fromLittleEndian(DType dt, byte[] raw, int n) {
    ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    Object out = SectionReader.newTypedArray(dt, n);
    for (int i = 0; i < n; i++) {
      switch (dt.kind()) {
        case BOOL:
          ((byte[]) out)[i] = raw[i] != 0 ? (byte) 1 : 0;
          break;
        case FLOAT:
          if (dt.itemSize() == 2) {
            ((float[]) out)[i] = DType.halfToFloat(bb.getShort(2 * i));
          } else if (dt.itemSize() == 4) {
            ((float[]) out)[i] = bb.getFloat(4 * i);
          } else {
            ((double[]) out)[i] = bb.getDouble(8 * i);
          }
          break;
        default:
          switch (dt.itemSize()) {
            case 1:
              ((byte[]) out)[i] = raw[i];
              break;
            case 2:
              ((short[]) out)[i] = bb.getShort(2 * i);
              break;
            case 4:
              ((int[]) out)[i] = bb.getInt(4 * i);
              break;
            default:
              ((long[]) out)[i] = bb.getLong(8 * i);
          }
      }
    }
    return out;
  }

  /** The opener's neutral attributes, converted to CDM, equal the IOSP's (names, order, types, values). */
  static void assertSameAttributes(Iterable<Attribute> cdm, Map<String, Object> neutral, java.util.Set<String> unsigned,
      String what) {
    List<String> want = new ArrayList<>();
    for (Attribute a : cdm) {
      want.add(describe(a));
    }
    List<String> got = new ArrayList<>();
    for (Attribute a : CdmAttributes.toCdm(neutral, unsigned)) {
      got.add(describe(a));
    }
    assertEquals(want, got, what + ": attributes");
  }

  static String describe(Attribute a) {
    StringBuilder sb = new StringBuilder(a.getShortName()).append(':').append(a.getDataType()).append('[');
    for (int i = 0; i < a.getLength(); i++) {
      sb.append(i > 0 ? "," : "").append(a.getValue(i));
    }
    return sb.append(']').toString();
  }

  /**
   * Opens {@code p} with a private cache of {@code bound} bytes and one decode thread, reads every variable whole
   * and in pieces twice: the private cache stays within its bound, the shared cache is not touched, and no
   * decode work leaves the calling thread.
   */
  public static void checkPrivateSettings(Path p, long bound) throws Exception {
    ChunkCache shared = ChunkCache.shared();
    long sb = shared.bytes();
    long sh = shared.hits();
    long sm = shared.misses();
    long helped = ChunkProbes.helpedJobs();
    ChunkCache mine = new ChunkCache(bound);
    try (ChunkedDataset ds = Datasets.open(p, OpenOptions.defaults().withCache(mine).withDecodeThreads(1))) {
      for (int rep = 0; rep < 2; rep++) {
        for (ChunkedVariable v : ds.variables()) {
          ChunkedArray a = v.array();
          if (a == null || SectionReader.typedClass(a.dtype()) == null) {
            continue;
          }
          assertSame(mine, a.settings().cache());
          assertEquals(1, a.settings().decodeThreads());
          long[] shape = a.grid().shape();
          SectionReader.readTyped(a, new long[shape.length], shape, null);
          if (shape.length > 0 && shape[0] > 2) { // a piece: decodes whole chunks into the cache
            long[] cnt = shape.clone();
            cnt[0] = shape[0] / 2;
            SectionReader.readTyped(a, new long[shape.length], cnt, null);
          }
          assertTrue(mine.bytes() <= bound, p + ": private cache holds " + mine.bytes() + " bytes");
        }
      }
    }
    assertEquals(sb, shared.bytes(), p + ": shared cache bytes");
    assertEquals(sh, shared.hits(), p + ": shared cache hits");
    assertEquals(sm, shared.misses(), p + ": shared cache misses");
    assertEquals(helped, ChunkProbes.helpedJobs(), p + ": decode work on other threads");
  }

  /**
   * Many threads read random boxes of every typed variable of one opened dataset at once (shared cache, decode
   * pool); every box equals the same box cut from a whole-array read.
   */
  public static void checkConcurrentTypedReads(Path p, int threads, int boxesPerThread) throws Exception {
    try (ChunkedDataset ds = Datasets.open(p)) {
      List<ChunkedArray> arrays = new ArrayList<>();
      List<Object> wholes = new ArrayList<>();
      for (ChunkedVariable v : ds.variables()) {
        ChunkedArray a = v.array();
        if (a != null && SectionReader.typedClass(a.dtype()) != null && a.grid().rank() > 0) {
          long[] shape = a.grid().shape();
          if (java.util.Arrays.stream(shape).anyMatch(x -> x == 0)) {
            continue; // nothing to read
          }
          arrays.add(a);
          wholes.add(SectionReader.readTyped(a, new long[shape.length], shape, null));
        }
      }
      if (arrays.isEmpty()) {
        return;
      }
      java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newFixedThreadPool(threads);
      try {
        List<java.util.concurrent.Future<Integer>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int seed = t;
          fs.add(ex.submit(() -> {
            Random r = new Random(seed);
            int checked = 0;
            for (int q = 0; q < boxesPerThread; q++) {
              int k = r.nextInt(arrays.size());
              ChunkedArray a = arrays.get(k);
              long[] shape = a.grid().shape();
              long[] origin = new long[shape.length];
              long[] count = new long[shape.length];
              long m = 1;
              for (int d = 0; d < shape.length; d++) {
                origin[d] = (long) (r.nextDouble() * shape[d]);
                count[d] = 1 + (long) (r.nextDouble() * Math.min(shape[d] - origin[d], 64));
                m *= count[d];
              }
              Object box = SectionReader.readTyped(a, origin, count, null);
              long[] c = new long[shape.length];
              for (int e = 0; e < m; e++) {
                long rem = e;
                long flat = 0;
                for (int d = shape.length - 1; d >= 0; d--) {
                  c[d] = origin[d] + rem % count[d];
                  rem /= count[d];
                }
                for (int d = 0; d < shape.length; d++) {
                  flat = flat * shape[d] + c[d];
                }
                if (!Array.get(wholes.get(k), (int) flat).equals(Array.get(box, e))) {
                  throw new AssertionError(p + ": concurrent box element " + e + " differs");
                }
              }
              checked++;
            }
            return checked;
          }));
        }
        for (java.util.concurrent.Future<Integer> f : fs) {
          assertEquals(boxesPerThread, (int) f.get(), p.toString());
        }
      } finally {
        ex.shutdownNow();
      }
    }
  }

  // ---------------------------------------------------------------- without netcdf-java

  /** The test class path minus netcdf-java (every {@code edu/ucar} artifact), test classes and the test kit. */
  static java.net.URL[] classPathWithoutNetcdfJava() throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<java.net.URL> urls = new ArrayList<>();
    for (String e : cp.split(java.io.File.pathSeparator)) {
      String n = e.replace('\\', '/');
      if (e.isEmpty() || n.contains("/edu/ucar/") || n.contains("ucar") || n.contains("test-classes")
          || n.contains("testkit") || n.contains("netcdf-bootstrap") || n.contains("junit") || n.contains("opentest4j")) {
        continue;
      }
      urls.add(java.nio.file.Paths.get(e).toUri().toURL());
    }
    return urls.toArray(new java.net.URL[0]);
  }

  /** A class loader over {@link #classPathWithoutNetcdfJava()} that records the classes it defines. */
  static final class Isolated extends java.net.URLClassLoader {
    final List<String> loaded = new java.util.concurrent.CopyOnWriteArrayList<>();

    Isolated() throws Exception {
      super(classPathWithoutNetcdfJava(), ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      Class<?> c = super.findClass(name);
      loaded.add(name);
      return c;
    }
  }

  /**
   * Opens every dataset through {@link Datasets#open} inside a class loader whose class path is this module's
   * classes and dependencies without netcdf-java (parent: the platform loader), reads every variable with an
   * array (typed read, or bytes), and compares the values with the same read in the normal class path. Then
   * scans every chunkcdm class that loader defined: none may refer to a {@code ucar/} class (so a reference
   * on a path the fixtures do not take fails too). Returns the number of classes checked.
   */
  public static int checkWithoutNetcdfJava(List<Path> paths, String format) throws Exception {
    Thread t = Thread.currentThread();
    ClassLoader old = t.getContextClassLoader();
    try (Isolated cl = new Isolated()) {
      t.setContextClassLoader(cl);
      org.junit.jupiter.api.Assertions.assertThrows(ClassNotFoundException.class, () -> cl.loadClass("ucar.ma2.Array"),
          "netcdf-java must not be on the isolated class path");
      Class<?> datasets = cl.loadClass(Datasets.class.getName());
      assertSame(cl, datasets.getClassLoader());
      java.lang.reflect.Method open = datasets.getMethod("open", Path.class);
      Class<?> cds = cl.loadClass(ChunkedDataset.class.getName());
      Class<?> cvar = cl.loadClass(ChunkedVariable.class.getName());
      Class<?> carr = cl.loadClass(ChunkedArray.class.getName());
      Class<?> dtype = cl.loadClass(DType.class.getName());
      Class<?> sr = cl.loadClass(SectionReader.class.getName());
      java.lang.reflect.Method typedClass = sr.getMethod("typedClass", dtype);
      java.lang.reflect.Method readTyped = sr.getMethod("readTyped", carr, long[].class, long[].class, long[].class);
      java.lang.reflect.Method readBytes = sr.getMethod("readBytes", carr, long[].class, long[].class, long[].class);
      for (Path p : paths) {
        Object ds = open.invoke(null, p);
        try (ChunkedDataset here = Datasets.open(p)) {
          assertEquals(format, cds.getMethod("format").invoke(ds));
          List<?> vars = (List<?>) cds.getMethod("variables").invoke(ds);
          assertEquals(here.variables().size(), vars.size(), p.toString());
          for (int i = 0; i < vars.size(); i++) {
            Object v = vars.get(i);
            ChunkedVariable hv = here.variables().get(i);
            assertEquals(hv.name(), cvar.getMethod("name").invoke(v));
            assertEquals(hv.dimensions(), cvar.getMethod("dimensions").invoke(v));
            assertEquals(hv.attributes().keySet(), ((Map<?, ?>) cvar.getMethod("attributes").invoke(v)).keySet());
            Object a = cvar.getMethod("array").invoke(v);
            if (a == null) {
              org.junit.jupiter.api.Assertions.assertNull(hv.array());
              continue;
            }
            long[] shape = (long[]) cl.loadClass(org.chunkcdm.chunk.ChunkGrid.class.getName()).getMethod("shape")
                .invoke(carr.getMethod("grid").invoke(a));
            long[] origin = new long[shape.length];
            String what = p + ": " + hv.name();
            if (typedClass.invoke(null, carr.getMethod("dtype").invoke(a)) != null) {
              Object got = readTyped.invoke(null, a, origin, shape, null);
              Object want = SectionReader.readTyped(hv.array(), origin, shape, null);
              assertTrue(sameValues(want, got), what + ": values without netcdf-java");
            } else {
              assertArrayEquals(SectionReader.readBytes(hv.array(), origin, shape, ones(shape.length)),
                  (byte[]) readBytes.invoke(null, a, origin, shape, ones(shape.length)), what);
            }
          }
        } finally {
          ((java.io.Closeable) ds).close();
        }
      }
      int scanned = 0;
      for (String name : cl.loaded) {
        if (!name.startsWith("org.chunkcdm.")) {
          continue;
        }
        try (java.io.InputStream in = cl.getResourceAsStream(name.replace('.', '/') + ".class")) {
          byte[] b = in.readAllBytes();
          String text = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1);
          assertTrue(!text.contains("ucar/"), name + " refers to netcdf-java (ucar/...) but is loaded by the opener path");
          scanned++;
        }
      }
      assertTrue(cl.loaded.contains(Datasets.class.getName()));
      return scanned;
    } finally {
      t.setContextClassLoader(old);
    }
  }
}
