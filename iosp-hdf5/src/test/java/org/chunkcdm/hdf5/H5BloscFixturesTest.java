package org.chunkcdm.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.testkit.CdmArrays;
import org.chunkcdm.testkit.Fixtures;
import org.chunkcdm.testkit.NetcdfChecks;
import org.chunkcdm.testkit.TestFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.CoordinateAxis;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.dataset.VariableDS;

/** Every variable of the hdf5-blosc fixtures against the manifest's expected values, through netcdf-java. */
class H5BloscFixturesTest {
  private static final String STOCK = "ucar.nc2.internal.iosp.hdf5.H5iospNew";

  @BeforeAll
  static void register() throws IOException {
    assertTrue(H5Internals.available(), () -> "netcdf-java internals unreachable: " + H5Internals.failure());
    String log = NetcdfChecks.registerLikeThreddsConfig(H5Iosp.class);
    assertFalse(log.toLowerCase().contains("fail") || log.toLowerCase().contains("error"), log);
  }

  static List<Fixtures.Variable> variables() {
    List<Fixtures.Variable> out = new ArrayList<>();
    for (Fixtures.Dataset d : Fixtures.manifest("hdf5-blosc").datasets("hdf5-blosc")) {
      out.addAll(d.variables());
    }
    return out;
  }

  static String cdmName(Fixtures.Variable fv) {
    String n = fv.name();
    return n.startsWith("/") ? n.substring(1) : n;
  }

  static int itemSize(String dtype) {
    return Integer.parseInt(dtype.substring(2));
  }

  static DataType cdmType(String dtype) {
    char k = dtype.charAt(1);
    int n = itemSize(dtype);
    if (k == 'f') {
      return n == 8 ? DataType.DOUBLE : DataType.FLOAT;
    }
    boolean u = k == 'u';
    switch (n) {
      case 1:
        return u ? DataType.UBYTE : DataType.BYTE;
      case 2:
        return u ? DataType.USHORT : DataType.SHORT;
      case 4:
        return u ? DataType.UINT : DataType.INT;
      default:
        return u ? DataType.ULONG : DataType.LONG;
    }
  }

  /** Whole, strided, and single-element reads of one variable of an open file. */
  static int checkVariable(NetcdfFile nc, Fixtures.Variable fv) throws Exception {
    Variable v = nc.findVariable(cdmName(fv));
    assertNotNull(v, fv + " not found in " + nc.getLocation());
    long[] shape = fv.shape();
    String what = fv.dataset().path() + "#" + fv.name();
    assertEquals(cdmType(fv.dtype()), v.getDataType(), what);
    byte[] want = fv.expected();
    Array whole = v.read();
    assertArrayEquals(want, CdmArrays.littleEndian(whole), what + " whole");
    int rank = shape.length;
    int item = itemSize(fv.dtype());
    int checks = 1;
    for (int variant = 0; variant < 3; variant++) {
      long[] first = new long[rank];
      long[] count = new long[rank];
      long[] stride = new long[rank];
      for (int d = 0; d < rank; d++) {
        long n = shape[d];
        if (variant == 0) { // strided
          first[d] = Math.min(1, n - 1);
          stride[d] = d % 2 == 0 ? 3 : 2;
        } else if (variant == 1) { // one element in the middle (block-level partial decode)
          first[d] = n / 2;
          stride[d] = 1;
        } else { // a box crossing chunk edges from the last element backwards
          first[d] = Math.max(0, n - 7);
          stride[d] = 1;
        }
        long last = variant == 1 ? first[d] : n - 1;
        count[d] = Math.max(1, (last - first[d]) / stride[d] + 1);
      }
      List<ucar.ma2.Range> ranges = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        ranges.add(new ucar.ma2.Range((int) first[d], (int) (first[d] + (count[d] - 1) * stride[d]), (int) stride[d]));
      }
      Section s = new Section(ranges);
      Array got = v.read(s);
      assertArrayEquals(CdmArrays.gather(want, shape, item, first, count, stride), CdmArrays.littleEndian(got),
          what + " section " + s);
      checks++;
    }
    return checks;
  }

  @Test
  void everyVariableThroughNetcdfFiles() throws Exception {
    int n = 0;
    for (Fixtures.Variable fv : variables()) {
      try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString())) {
        assertTrue(nc.getIosp() instanceof H5Iosp, nc.getIosp().getClass().getName());
        n += checkVariable(nc, fv);
      }
    }
    assertEquals(36 * 4, n);
  }

  @Test
  void everyVariableThroughNetcdfDatasets() throws Exception {
    int n = 0;
    for (Fixtures.Variable fv : variables()) {
      // raw values: no enhancement (the CF test below checks the enhanced view)
      try (NetcdfDataset ds = NetcdfDatasets.openDataset(fv.dataset().file().toString(), false, null)) {
        n += checkVariable(ds, fv);
      }
    }
    assertEquals(36 * 4, n);
  }

  /** Without Blosc support netcdf-java itself fails on these variables: the test files really need this IOSP. */
  @Test
  void stockNetcdfJavaCannotReadThem() throws Exception {
    Fixtures.Variable fv = Fixtures.manifest("hdf5-blosc").dataset("pytables_blosc.h5").variables().get(0);
    try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString(), STOCK, -1, null, null)) {
      Variable v = nc.findVariable(cdmName(fv));
      Exception e = assertThrows(Exception.class, v::read);
      NetcdfChecks.assertMentions(e, "32001");
    }
  }

  @Test
  void cfThroughEnhancedDataset() throws Exception {
    Path nc4 = Fixtures.family("hdf5-blosc").resolve("netcdf4_blosc.nc");
    try (NetcdfDataset ds = NetcdfDatasets.openDataset(nc4.toString())) {
      // packed int16 -> float through scale_factor / add_offset; _FillValue -> NaN
      VariableDS precip = (VariableDS) ds.findVariable("precip");
      assertEquals(DataType.FLOAT, precip.getDataType());
      short[] raw = toShorts(expected("netcdf4_blosc.nc", "precip"));
      Array got = precip.read();
      int nFill = 0;
      for (int i = 0; i < raw.length; i++) {
        float g = got.getFloat(i);
        if (raw[i] == Short.MIN_VALUE) {
          assertTrue(Float.isNaN(g), "precip fill at " + i);
          nFill++;
        } else {
          assertEquals(raw[i] * 0.05f + 10.0f, g, 1e-3f, "precip " + i);
        }
      }
      assertTrue(nFill > 0, "the fixture has fill values in precip");
      // coordinate systems: sst on time, depth, latitude, longitude
      VariableDS sst = (VariableDS) ds.findVariable("sst");
      assertFalse(sst.getCoordinateSystems().isEmpty(), "sst has a coordinate system");
      CoordinateAxis lat = ds.findCoordinateAxis("latitude");
      assertNotNull(lat);
      double[] latWant = toDoubles(expected("netcdf4_blosc.nc", "latitude"));
      Array latGot = lat.read();
      for (int i = 0; i < latWant.length; i++) {
        assertEquals(latWant[i], latGot.getDouble(i), 0.0);
      }
      Array sstGot = sst.read();
      boolean nan = false;
      for (int i = 0; i < sstGot.getSize(); i++) {
        nan |= Float.isNaN(sstGot.getFloat(i));
      }
      assertTrue(nan, "sst _FillValue -999 reads as NaN when enhanced");
    }
  }

  /**
   * Plain NetCDF-4 / HDF5 files (and the unfiltered variables of the Blosc file): same header, same values; chunked
   * numeric variables are read by chunkcdm (deflate, shuffle and Fletcher32 included), the others by netcdf-java.
   */
  @Test
  void plainFilesIdenticalToStockNetcdfJava() throws Exception {
    List<Path> files = List.of(Fixtures.family("ds").resolve("nc/basic.nc"),
        Fixtures.family("ds").resolve("nc/types.nc"), Fixtures.family("hdf5-blosc").resolve("netcdf4_blosc.nc"));
    int compared = 0;
    int byChunkcdm = 0;
    for (Path p : files) {
      try (NetcdfFile stock = NetcdfFiles.open(p.toString(), STOCK, -1, null, null);
          NetcdfFile ours = NetcdfFiles.open(p.toString())) {
        assertTrue(ours.getIosp() instanceof H5Iosp);
        assertEquals(stock.toString(), ours.toString(), p + " header");
        assertEquals(stock.getFileTypeId(), ours.getFileTypeId());
        for (Variable sv : stock.getVariables()) {
          Variable ov = ours.findVariable(sv.getFullNameEscaped());
          Array want;
          try {
            want = sv.read();
          } catch (Exception e) {
            continue; // a Blosc variable: stock netcdf-java fails, checked against the manifest above
          }
          NetcdfChecks.assertSameArray(want, ov.read(), p + " " + sv.getFullName());
          boolean chunkedNumbers = sv.getDataType().isNumeric() && sv.findAttribute("_ChunkSizes") != null;
          assertEquals(chunkedNumbers, ((H5Iosp) ours.getIosp()).arrayOf(ov) != null,
              "read by chunkcdm: " + sv.getFullName());
          compared++;
          byChunkcdm += chunkedNumbers ? 1 : 0;
        }
      }
    }
    assertTrue(compared >= 10, "compared " + compared + " variables");
    assertTrue(byChunkcdm >= 3 && byChunkcdm < compared, byChunkcdm + " of " + compared + " read by chunkcdm");
  }

  /** TDS's file cache: release() parks the file, reacquire() hands it out again; the first read comes after. */
  @Test
  void readsAfterReleaseAndReacquire() throws Exception {
    Fixtures.Variable fv = variables().stream().filter(v -> v.name().equals("sst")).findFirst().orElseThrow();
    try (NetcdfFile nc = NetcdfFiles.open(fv.dataset().file().toString())) {
      nc.getIosp().release();
      nc.getIosp().reacquire();
      assertArrayEquals(fv.expected(), CdmArrays.littleEndian(nc.findVariable("sst").read()));
      nc.getIosp().release();
      nc.getIosp().reacquire();
      assertArrayEquals(fv.expected(), CdmArrays.littleEndian(nc.findVariable("sst").read()));
    }
  }

  @Test
  void concurrentReadsOfOneFile() throws Exception {
    Path f = Fixtures.family("hdf5-blosc").resolve("h5py_plugin_blosc_nd.h5");
    try (NetcdfFile nc = NetcdfFiles.open(f.toString())) {
      List<NetcdfChecks.Read> reads = new ArrayList<>();
      for (Variable v : nc.getVariables()) {
        if (((H5Iosp) nc.getIosp()).arrayOf(v) == null) {
          continue;
        }
        Section whole = new Section(v.getShape());
        reads.add(new NetcdfChecks.Read(v, whole, v.read(whole)));
        int[] origin = new int[v.getRank()];
        int[] shape = v.getShape().clone();
        for (int d = 0; d < shape.length; d++) {
          origin[d] = shape[d] / 3;
          shape[d] = Math.max(1, shape[d] / 2);
        }
        Section s = new Section(origin, shape);
        reads.add(new NetcdfChecks.Read(v, s, v.read(s)));
      }
      assertTrue(reads.size() >= 12);
      NetcdfChecks.assertConcurrentReads(reads, 4, 40);
    }
  }

  @Test
  void malformedBloscChunkIsAnIOExceptionNamingVariableAndChunk(@TempDir Path tmp) throws Exception {
    Path src = Fixtures.family("hdf5-blosc").resolve("pytables_blosc.h5");
    Path bad = TestFiles.copy(src, tmp.resolve("damaged.h5"));
    byte[] file = Fixtures.bytes(bad);
    // the first chunk of /f32_1d_lz4_shuffle: Blosc header version 2, lz4 format 1, flags 0x21, typesize 4, nbytes 4000
    byte[] header = {2, 1, 0x21, 4, (byte) 0xa0, 0x0f, 0, 0};
    int at = TestFiles.indexOf(file, header);
    assertTrue(at > 0, "Blosc header found");
    // point its first block offset past the frame
    TestFiles.patch(bad, at + 16, TestFiles.le(0x7ffffff0L, 4));
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      Variable v = nc.findVariable("f32_1d_lz4_shuffle");
      IOException e = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(e, "f32_1d_lz4_shuffle", "chunk", "damaged.h5");
      // a small read of the same chunk fails the same way; other chunks still read
      IOException e2 = assertThrows(IOException.class, () -> v.read("5:6"));
      NetcdfChecks.assertMentions(e2, "f32_1d_lz4_shuffle", "chunk 0");
      byte[] want = Fixtures.manifest("hdf5-blosc").dataset("pytables_blosc.h5").variables().get(0).expected();
      Array ok = v.read("2000:2999");
      byte[] slice = new byte[4000];
      System.arraycopy(want, 8000, slice, 0, 4000);
      assertArrayEquals(slice, CdmArrays.littleEndian(ok));
    }
  }

  /** Blosc + Fletcher32: a flipped byte in a chunk stored raw (filter mask 1) fails the checksum, never reads wrong. */
  @Test
  void fletcher32MismatchIsAnIOException(@TempDir Path tmp) throws Exception {
    Path src = Fixtures.family("hdf5-blosc").resolve("h5py_plugin_blosc_nd.h5");
    Fixtures.Variable fv = variables().stream().filter(v -> v.name().equals("f64_1d_blosc_lz4_fletcher32")).findFirst()
        .orElseThrow();
    byte[] want = fv.expected();
    Path bad = TestFiles.copy(src, tmp.resolve("fletcher.h5"));
    byte[] file = Fixtures.bytes(bad);
    // chunks of the random second half are stored raw: find 16 of a chunk's expected bytes (little-endian, as stored)
    int at = -1;
    int chunk = -1;
    for (int c = 6; c >= 0 && at < 0; c--) {
      at = TestFiles.indexOf(file, java.util.Arrays.copyOfRange(want, c * 2400 + 80, c * 2400 + 96));
      chunk = c;
    }
    assertTrue(at > 0 && chunk > 0, "raw chunk found");
    TestFiles.patch(bad, at + 3, new byte[] {(byte) (file[at + 3] ^ 0x40)});
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      Variable v = nc.findVariable("f64_1d_blosc_lz4_fletcher32");
      IOException e = assertThrows(IOException.class, v::read);
      NetcdfChecks.assertMentions(e, "f64_1d_blosc_lz4_fletcher32", "chunk " + chunk, "Fletcher32", "filter mask 1");
      Array first = v.read("0:299"); // chunk 0 is intact
      assertArrayEquals(java.util.Arrays.copyOf(want, 2400), CdmArrays.littleEndian(first));
    }
  }

  @Test
  void truncatedBlosc2FrameIsAnIOException(@TempDir Path tmp) throws Exception {
    Path src = Fixtures.family("hdf5-blosc").resolve("pytables_blosc2.h5");
    Path bad = TestFiles.copy(src, tmp.resolve("damaged2.h5"));
    byte[] file = Fixtures.bytes(bad);
    byte[] magic = {(byte) 0x9e, (byte) 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0};
    int at = TestFiles.indexOf(file, magic);
    assertTrue(at > 0);
    // frame_len (uint64 BE at offset 16 of the frame) no longer matches the stored chunk
    TestFiles.patch(bad, at + 16, TestFiles.be(3, 8));
    try (NetcdfFile nc = NetcdfFiles.open(bad.toString())) {
      int failed = 0;
      for (Variable v : nc.getVariables()) {
        if (((H5Iosp) nc.getIosp()).arrayOf(v) == null) {
          continue;
        }
        try {
          v.read();
        } catch (IOException e) {
          NetcdfChecks.assertMentions(e, v.getFullName(), "chunk", "frame_len");
          failed++;
        }
      }
      assertEquals(1, failed);
    }
  }

  private static byte[] expected(String file, String name) {
    for (Fixtures.Variable v : variables()) {
      if (v.dataset().path().equals(file) && v.name().equals(name)) {
        return v.expected();
      }
    }
    throw new AssertionError("no " + file + "#" + name + " in the manifest");
  }

  private static short[] toShorts(byte[] b) {
    short[] s = new short[b.length / 2];
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(s);
    return s;
  }

  private static double[] toDoubles(byte[] b) {
    double[] s = new double[b.length / 8];
    java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(s);
    return s;
  }
}
