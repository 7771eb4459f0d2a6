package org.chunkcdm.ncstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.chunk.ChunkGrid;
import org.chunkcdm.chunk.ChunkedArray;
import org.chunkcdm.testkit.NetcdfChecks;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.stream.NcStreamReader;

/**
 * Every fixture dataset written by {@link NcStreamOut}, decoded by an independent test-side walker and by
 * netcdf-java's own readers ({@code NcStreamReader} for the header and single big-endian data messages,
 * {@code NcStreamIosp} for a whole {@code .ncs} file's variables up to 1 MB): same names, types, shapes,
 * attributes and values as the source; data messages are bounded, C-order contiguous and chunk aligned.
 */
class NcStreamOutTest {
  static Stream<Arguments> datasets() {
    return FixtureStreams.datasets().stream().map(p -> Arguments.of(FixtureStreams.name(p), p));
  }

  static NetcdfFile open(Path p) throws IOException {
    return NetcdfFiles.open(p.toString());
  }

  /** Small messages (4 KiB) in the chunks' byte order: every variable round-trips, slabs as promised. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void smallMessagesRoundTrip(String name, Path p) throws Exception {
    try (NetcdfFile nc = open(p)) {
      long bound = 4096;
      byte[] s = write(nc, NcStreamOut.Options.defaults().messageBytes(bound));
      NcsWalker w = new NcsWalker(s, nc);
      assertTrue(w.ended, name + ": no MAGIC_END");
      assertNull(w.error);
      for (Variable v : NcStreamOut.dataVariables(nc)) {
        String what = name + ":" + v.getFullName();
        Array want = v.read();
        Array got = w.assemble(v);
        if (v.getSize() == 0) {
          assertNull(got, what + ": an empty variable has no data message");
          continue;
        }
        assertNotNull(got, what + ": no data message");
        NetcdfChecks.assertSameArray(want, got, what);
        checkSlabs(v, w.byVar.get(NetcdfFiles.makeFullName(v)), bound, what);
      }
    }
  }

  /** Big-endian, DEFLATE level 1, 64 KiB messages: the same values. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void bigEndianDeflated(String name, Path p) throws Exception {
    try (NetcdfFile nc = open(p)) {
      byte[] s = write(nc, NcStreamOut.Options.defaults().messageBytes(64 << 10).bigEndian(true).deflate(1));
      NcsWalker w = new NcsWalker(s, nc);
      for (NcsWalker.Msg m : w.messages) {
        DataType dt = ucar.nc2.stream.NcStream.convertDataType(m.proto.getDataType());
        if (dt.isNumeric() || dt == DataType.CHAR) {
          assertTrue(m.proto.getBigend(), name + ": " + m.proto.getVarName() + " not big-endian");
          assertEquals(ucar.nc2.stream.NcStreamProto.Compress.DEFLATE, m.proto.getCompress());
        }
      }
      for (Variable v : NcStreamOut.dataVariables(nc)) {
        if (v.getSize() > 0) {
          NetcdfChecks.assertSameArray(v.read(), w.assemble(v), name + ":" + v.getFullName());
        }
      }
    }
  }

  /**
   * netcdf-java's NcStreamReader (the cdmremote client's decoder) reads our header to the same metadata, and each
   * single-message section written by {@link NcStreamOut#writeDataMessage} (whole, and strided) to the values.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void netcdfJavaReaderReadsHeaderAndDataMessages(String name, Path p) throws Exception {
    try (NetcdfFile nc = open(p)) {
      ByteArrayOutputStream h = new ByteArrayOutputStream();
      NcStreamOut w = new NcStreamOut(h, NcStreamOut.Options.defaults().messageBytes(8192));
      w.writeStart();
      w.writeHeader(nc, "test", null);
      NetcdfFile remote = new NcStreamReader().readStream(new java.io.ByteArrayInputStream(h.toByteArray()), null);
      assertSameMetadata(nc, remote, name);
      for (Variable v : NcStreamOut.dataVariables(nc)) {
        if (v.getDataType() == DataType.OPAQUE) {
          continue; // NcStreamReader decodes opaque data as ByteBuffers: compared by the walker tests
        }
        for (Section sec : sections(v)) {
          ByteArrayOutputStream d = new ByteArrayOutputStream();
          new NcStreamOut(d, NcStreamOut.Options.defaults().messageBytes(8192).remoteNames(true)).writeDataMessage(v, sec);
          NcStreamReader.DataResult r = new NcStreamReader().readData(new java.io.ByteArrayInputStream(d.toByteArray()),
              remote, "test");
          assertEquals(NetcdfFiles.makeFullName(v), r.varNameFullEsc);
          Array want = v.read(sec);
          Array got = r.data;
          if (want.getDataType() != got.getDataType() && want.getDataType().isUnsigned()) {
            // the message carries the unsigned type itself; a signed result would be a decoding difference
            got = Array.factory(want.getDataType(), got.getShape(), got.getStorage());
          }
          NetcdfChecks.assertSameArray(want, got, name + ":" + v.getFullName() + sec);
        }
      }
    }
  }

  /** Stock NcStreamIosp opens our .ncs and reads every fixed-size variable of at most 1 MB whole. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void stockNcStreamIospReadsSmallVariables(String name, Path p, @TempDir Path tmp) throws Exception {
    Path out = tmp.resolve("x.ncs");
    try (NetcdfFile nc = open(p)) {
      try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(out))) {
        new NcStreamOut(o).writeAll(nc, null, null);
      }
      try (NetcdfFile back = NetcdfFiles.open(out.toString())) {
        assertEquals("ncstream", back.getFileTypeId());
        assertSameMetadata(nc, back, name);
        int checked = 0;
        for (Variable v : NcStreamOut.dataVariables(nc)) {
          if (v.getSize() == 0 || v.getDataType().isString() || v.getDataType() == DataType.OPAQUE
              || NcStreamOut.dataBytes(v) > 1_000_000) {
            continue; // NcStreamIosp reads neither string data nor multi-message variables
          }
          Variable bv = back.findVariable(NetcdfFiles.makeFullName(v));
          Array got;
          try {
            got = bv.read();
          } catch (RuntimeException e) {
            throw new AssertionError(name + ":" + v.getFullName() + " [" + NetcdfFiles.makeFullName(v) + "] via NcStreamIosp", e);
          }
          NetcdfChecks.assertSameArray(v.read(), got, name + ":" + v.getFullName() + " via NcStreamIosp");
          checked++;
        }
        assertTrue(checked > 0 || NcStreamOut.dataVariables(nc).stream().allMatch(v -> v.getDataType().isString()
            || v.getSize() == 0 || NcStreamOut.dataBytes(v) > 1_000_000), name + ": nothing checked");
      }
    }
  }

  // ------------------------------------------------------------------ helpers

  static byte[] write(NetcdfFile nc, NcStreamOut.Options o) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    new NcStreamOut(b, o).writeAll(nc, null, null);
    return b.toByteArray();
  }

  /** Whole, a strided section and a single element (when the variable has elements). */
  static List<Section> sections(Variable v) throws Exception {
    List<Section> out = new ArrayList<>();
    out.add(v.getShapeAsSection());
    if (v.getSize() == 0 || v.getRank() == 0) {
      return out;
    }
    int[] shape = v.getShape();
    List<ucar.ma2.Range> strided = new ArrayList<>();
    List<ucar.ma2.Range> one = new ArrayList<>();
    for (int d = 0; d < shape.length; d++) {
      int first = shape[d] > 2 ? 1 : 0;
      strided.add(new ucar.ma2.Range(first, shape[d] - 1, shape[d] > 4 ? 3 : 1));
      one.add(new ucar.ma2.Range(shape[d] - 1, shape[d] - 1));
    }
    out.add(new Section(strided));
    out.add(new Section(one));
    return out;
  }

  static void assertSameMetadata(NetcdfFile want, NetcdfFile got, String name) {
    assertEquals(NcStreamOut.dataVariables(want).size(), NcStreamOut.dataVariables(got).size(), name + ": variables");
    for (Variable v : NcStreamOut.dataVariables(want)) {
      Variable g = got.findVariable(NetcdfFiles.makeFullName(v));
      assertNotNull(g, name + ": variable " + v.getFullName() + " missing");
      assertEquals(v.getDataType(), g.getDataType(), name + ":" + v.getFullName());
      assertEquals(List.of(toList(v.getShape())), List.of(toList(g.getShape())), name + ":" + v.getFullName());
      assertEquals(v.getDimensionsString(), g.getDimensionsString(), name + ":" + v.getFullName());
      for (Attribute a : v.attributes()) {
        Attribute b = g.findAttribute(a.getShortName());
        assertNotNull(b, name + ":" + v.getFullName() + ": attribute " + a.getShortName());
        assertEquals(a.getStringValue(), b.getStringValue(), name + ":" + v.getFullName() + "@" + a.getShortName());
        assertEquals(a.getLength(), b.getLength(), name + ":" + v.getFullName() + "@" + a.getShortName());
        for (int i = 0; i < a.getLength() && !a.isString(); i++) {
          assertEquals(a.getNumericValue(i), b.getNumericValue(i), name + ":" + v.getFullName() + "@" + a.getShortName());
        }
      }
    }
    for (Attribute a : want.getRootGroup().attributes()) {
      Attribute b = got.getRootGroup().findAttribute(a.getShortName());
      assertNotNull(b, name + ": global attribute " + a.getShortName());
      assertEquals(a.getStringValue(), b.getStringValue(), name + ": global attribute " + a.getShortName());
    }
    for (ucar.nc2.Dimension d : want.getRootGroup().getDimensions()) {
      ucar.nc2.Dimension e = got.getRootGroup().findDimension(d.getShortName());
      assertNotNull(e, name + ": dimension " + d.getShortName());
      assertEquals(d.getLength(), e.getLength());
      assertEquals(d.isUnlimited(), e.isUnlimited(), name + ": dimension " + d.getShortName() + " unlimited");
    }
  }

  private static List<Integer> toList(int[] a) {
    List<Integer> l = new ArrayList<>();
    for (int x : a) {
      l.add(x);
    }
    return l;
  }

  /**
   * Messages of a whole variable: payload within the bound (or one element row), consecutive C-order ranges
   * covering the variable exactly once, each a slab (leading extents 1, one ranged dimension, trailing whole),
   * and for a chunked variable, starts on chunk boundaries of the ranged dimension.
   */
  static void checkSlabs(Variable v, List<NcsWalker.Msg> ms, long bound, String what) {
    int[] shape = v.getShape();
    long elem = Math.max(1, v.getDataType().getSize());
    long expectNext = 0;
    ChunkedArray raw = NcStreamOut.rawSource(v);
    for (NcsWalker.Msg m : ms) {
      Section s = m.section;
      long size = s.computeSize();
      if (v.getDataType().isNumeric() || v.getDataType() == DataType.CHAR) {
        assertTrue(size * elem <= bound || ms.size() == 1 && size * elem <= bound, what + ": message of " + size * elem
            + " bytes over " + bound);
      }
      // C-order start offset and contiguity
      long start = 0;
      int ranged = -1; // first dimension with more than one index: every later one must be whole
      for (int d = 0; d < shape.length; d++) {
        ucar.ma2.Range r = s.getRange(d);
        start = start * shape[d] + r.first();
        assertTrue(r.stride() == 1 || r.length() == 1, what + ": strided message " + s);
        if (ranged >= 0) {
          assertEquals(shape[d], r.length(), what + ": not a C-order slab: " + s);
        } else if (r.length() != 1) {
          ranged = d;
        }
      }
      assertEquals(expectNext, start, what + ": message " + s + " does not follow the previous one");
      expectNext = start + size;
      if (raw != null && raw.grid() instanceof ChunkGrid.Regular && ranged >= 0 && ranged < raw.grid().rank()) {
        int c = ((ChunkGrid.Regular) raw.grid()).chunkShape()[ranged];
        ucar.ma2.Range r = s.getRange(ranged);
        long cdmElems = 1;
        for (int d = ranged + 1; d < shape.length; d++) {
          cdmElems *= shape[d];
        }
        if ((long) c * cdmElems * elem <= bound) {
          assertEquals(0, r.first() % c, what + ": message " + s + " does not start on a chunk boundary (" + c + ")");
          assertTrue(r.last() == shape[ranged] - 1 || (r.last() + 1) % c == 0, what + ": message " + s + " ends inside a chunk");
        } else {
          assertEquals(r.first() / c, r.last() / c, what + ": message " + s + " crosses a chunk boundary (" + c + ")");
        }
      }
    }
    assertEquals(v.getSize(), expectNext, what + ": messages do not cover the variable");
  }
}
