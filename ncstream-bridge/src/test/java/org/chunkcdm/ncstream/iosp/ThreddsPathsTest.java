package org.chunkcdm.ncstream.iosp;

import org.chunkcdm.cdm.CdmProbes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import ucar.ma2.Range;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.iosp.IOServiceProvider;
import ucar.nc2.iosp.IospHelper;

/**
 * The calls THREDDS services make to pull data out of an IOSP (Variable.readToStream, readToByteChannel,
 * IOServiceProvider.streamToByteChannel) stream chunkcdm datasets in bounded pieces and give exactly netcdf-java's
 * encoding of the whole section.
 */
class ThreddsPathsTest {
  @Test
  void piecesAreBoundedAndConcatenateToTheSectionInCOrder() throws Exception {
    Random r = new Random(3);
    for (int t = 0; t < 300; t++) {
      int rank = 1 + r.nextInt(4);
      List<Range> ranges = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        int len = 1 + r.nextInt(9);
        int first = r.nextInt(5);
        int stride = 1 + r.nextInt(3);
        ranges.add(new Range(first, first + (len - 1) * stride, stride));
      }
      Section s = new Section(ranges);
      int elem = 1 << r.nextInt(4);
      long max = 1 + r.nextInt(200);
      List<Section> pieces = ChunkedIosp.pieces(s, elem, max);
      List<String> got = new ArrayList<>();
      for (Section p : pieces) {
        assertTrue(p.computeSize() * elem <= Math.max(max, elem), s + " max " + max + ": piece " + p);
        got.addAll(elements(p));
      }
      assertEquals(elements(s), got, s + " max " + max);
    }
  }

  static List<String> elements(Section s) {
    List<String> out = new ArrayList<>();
    Section.Iterator it = s.getIterator(maxShape(s));
    int[] idx = new int[s.getRank()];
    while (it.hasNext()) {
      it.next(idx);
      out.add(java.util.Arrays.toString(idx));
    }
    return out;
  }

  static int[] maxShape(Section s) {
    int[] m = new int[s.getRank()];
    for (int d = 0; d < m.length; d++) {
      m[d] = s.getRange(d).last() + 1;
    }
    return m;
  }

  @Test
  void streamingCallsGiveNetcdfJavasEncodingInSmallPieces() throws Exception {
    long old = CdmProbes.setStreamPieceBytes(1000);
    try {
      for (String[] ds : new String[][] {{"ds", "large.ds"}, {"ds", "strings.ds"}, {"ds", "all_types_1d.ds"},
          {"bcolz", "carray/multidim_float32_1000x3x4"}, {"bcolz", "carray/dtype_S7_zstd_c5_byteshuf_n600_cl128"},
          {"blosc2", "b2nd/b2nd_3d_i2_cframe.b2nd"}}) {
        Fixtures.Dataset d = Fixtures.manifest(ds[0]).dataset(ds[1]);
        try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
          IOServiceProvider iosp = nc.getIosp();
          assertTrue(iosp instanceof ChunkedIosp, d.toString());
          for (Variable v : nc.getVariables()) {
            List<Section> sections = new ArrayList<>(CdmCompare.sections(v.getShape(), 3, new Random(5)));
            sections.add(v.getShapeAsSection());
            for (Section s : sections) {
              ByteArrayOutputStream want = new ByteArrayOutputStream();
              IospHelper.copyToOutputStream(v.read(s), want);
              ByteArrayOutputStream a = new ByteArrayOutputStream();
              v.readToStream(s, a);
              assertArrayEquals(want.toByteArray(), a.toByteArray(), v.getFullName() + " readToStream " + s);
              ByteArrayOutputStream b = new ByteArrayOutputStream();
              v.readToByteChannel(s, Channels.newChannel(b));
              assertArrayEquals(want.toByteArray(), b.toByteArray(), v.getFullName() + " readToByteChannel " + s);
              ByteArrayOutputStream c = new ByteArrayOutputStream();
              iosp.streamToByteChannel(v, s, Channels.newChannel(c));
              assertArrayEquals(want.toByteArray(), c.toByteArray(), v.getFullName() + " streamToByteChannel " + s);
            }
          }
        }
      }
    } finally {
      CdmProbes.setStreamPieceBytes(old);
    }
  }
}
