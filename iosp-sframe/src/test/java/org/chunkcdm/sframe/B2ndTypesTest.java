package org.chunkcdm.sframe;

import org.chunkcdm.testkit.TestFiles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * The contract's special types for b2nd dtypes without a fixture of their own (float16, complex64, bool):
 * real b2nd files whose dtype string is changed to another of the same item size, so the stored bytes are
 * read as the new type and compared with the expected bytes reinterpreted here.
 */
class B2ndTypesTest {
  @TempDir
  Path tmp;

  /** A copy of a contiguous b2nd fixture with its 3-character dtype string replaced. */
  Path withDtype(Fixtures.Dataset d, String from, String to) throws IOException {
    Path f = TestFiles.copy(d.file(), tmp.resolve(d.file().getFileName().toString()));
    byte[] b = Files.readAllBytes(f);
    byte[] pat = ("\u00db\0\0\0\3" + from).getBytes(StandardCharsets.ISO_8859_1);
    int at = MalformedTest.indexOf(b, pat);
    TestFiles.patch(f, at + 5, to.getBytes(StandardCharsets.US_ASCII));
    return f;
  }

  static Variable only(NetcdfFile nc) {
    Variable v = nc.getVariables().get(0);
    assertNotNull(v);
    return v;
  }

  /** numpy float16 to float, written independently of core's conversion. */
  static float half(int h) {
    int sign = (h >> 15) & 1;
    int exp = (h >> 10) & 0x1f;
    int mant = h & 0x3ff;
    float v;
    if (exp == 0) {
      v = Math.scalb((float) mant, -24);
    } else if (exp == 31) {
      v = mant == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      v = Math.scalb((float) (mant | 0x400), exp - 25);
    }
    return sign == 1 ? -v : v;
  }

  @Test
  void float16() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("b2nd/b2nd_3d_i2_cframe.b2nd");
    byte[] raw = d.variables().get(0).expected();
    try (NetcdfFile nc = NetcdfFiles.open(withDtype(d, "<i2", "<f2").toString())) {
      Variable v = only(nc);
      assertEquals(DataType.FLOAT, v.getDataType());
      assertArrayEquals(new int[] {20, 41, 53}, v.getShape());
      Array a = v.read();
      ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      IndexIterator it = a.getIndexIterator();
      for (int i = 0; i < raw.length / 2; i++) {
        float want = half(bb.getShort(2 * i) & 0xffff);
        float got = it.getFloatNext();
        assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(got), "element " + i);
      }
    }
  }

  @Test
  void complex64() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("b2nd/b2nd_2d_f8_cframe.b2nd");
    byte[] raw = d.variables().get(0).expected();
    try (NetcdfFile nc = NetcdfFiles.open(withDtype(d, "<f8", "<c8").toString())) {
      Variable v = only(nc);
      assertEquals(DataType.FLOAT, v.getDataType());
      assertArrayEquals(new int[] {120, 101, 2}, v.getShape());
      Array a = v.read();
      ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      IndexIterator it = a.getIndexIterator();
      for (int i = 0; i < raw.length / 4; i++) {
        assertEquals(bb.getInt(4 * i), Float.floatToRawIntBits(it.getFloatNext()), "float " + i);
      }
      // a strided section of the real parts only
      Array re = v.read("3:100:7, 5:90:11, 0");
      ByteBuffer eb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
      IndexIterator ri = re.getIndexIterator();
      for (int r = 3; r <= 100; r += 7) {
        for (int c = 5; c <= 90; c += 11) {
          assertEquals(eb.getInt(8 * (r * 101 + c)), Float.floatToRawIntBits(ri.getFloatNext()), r + "," + c);
        }
      }
    } catch (ucar.ma2.InvalidRangeException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void bool() throws IOException {
    // bool has 1-byte items: the uint8 b2nd array (a sparse frame) gets dtype '|b1' in its chunks.b2frame
    Fixtures.Dataset u1 = Fixtures.manifest("blosc2").dataset("b2nd/b2nd_3d_u1_sframe.b2frame");
    Path dir = TestFiles.copy(u1.file(), tmp.resolve("flags.b2frame"));
    Path idx = dir.resolve("chunks.b2frame");
    byte[] b = Files.readAllBytes(idx);
    int at = MalformedTest.indexOf(b, ("\u00db\0\0\0\3|u1").getBytes(StandardCharsets.ISO_8859_1));
    TestFiles.patch(idx, at + 5, "|b1".getBytes(StandardCharsets.US_ASCII));
    byte[] raw = u1.variables().get(0).expected();
    try (NetcdfFile nc = NetcdfFiles.open(dir.toString())) {
      Variable v = only(nc);
      assertEquals(DataType.UBYTE, v.getDataType());
      assertNotNull(v.findAttribute("flag_values"));
      assertEquals("false true", v.findAttribute("flag_meanings").getStringValue());
      Array a = v.read();
      IndexIterator it = a.getIndexIterator();
      for (int i = 0; i < raw.length; i++) {
        assertEquals(raw[i] != 0 ? 1 : 0, it.getByteNext(), "element " + i);
      }
    }
  }
}
