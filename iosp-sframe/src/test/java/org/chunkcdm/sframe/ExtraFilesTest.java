package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Files written by the real library (python-blosc2 4.12.0 with c-blosc2 3.3.3, see
 * src/test/resources/blosc2-extra/generate.py) for cases the shared fixtures lack: item sizes above 255
 * ({@code |S300}, {@code <U70}, a plain frame of 300-byte items: the frame header keeps the typesize while
 * the chunks say 1), a structured dtype (read as opaque records), a dimension of length 0 and a 0-d array.
 */
class ExtraFilesTest {
  static Path dir() {
    return Fixtures.root().resolve("iosp-sframe/src/test/resources/blosc2-extra");
  }

  static List<JsonNode> datasets() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    new ObjectMapper().readTree(dir().resolve("extra.json").toFile()).path("datasets").forEach(out::add);
    return out;
  }

  static Stream<JsonNode> all() throws IOException {
    return datasets().stream();
  }

  static JsonNode dataset(String path) throws IOException {
    return datasets().stream().filter(d -> d.path("path").asText().equals(path)).findFirst().orElseThrow();
  }

  static byte[] expected(JsonNode d) throws IOException {
    return Files.readAllBytes(dir().resolve(d.path("expected").asText()));
  }

  static int[] ints(JsonNode a) {
    int[] r = new int[a.size()];
    for (int i = 0; i < r.length; i++) {
      r[i] = a.get(i).asInt();
    }
    return r;
  }

  /** The raw bytes of what the variable holds (shape and element layout as the contract gives them). */
  static byte[] bytesOf(Array a) {
    if (a.getDataType() == DataType.CHAR) {
      char[] c = (char[]) a.copyTo1DJavaArray();
      byte[] b = new byte[c.length];
      for (int i = 0; i < c.length; i++) {
        b[i] = (byte) c[i];
      }
      return b;
    }
    assertEquals(DataType.UBYTE, a.getDataType());
    return (byte[]) a.copyTo1DJavaArray();
  }

  /** UCS-4 items of {@code width} bytes to strings, trailing NULs dropped (numpy's view of {@code <U}). */
  static List<String> ucs4(byte[] raw, int width) {
    ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < raw.length / width; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < width / 4; k++) {
        int cp = bb.getInt(i * width + 4 * k);
        if (cp != 0) {
          sb.appendCodePoint(cp);
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("all")
  void readsAsTheLibraryWroteIt(JsonNode d) throws IOException {
    String path = d.path("path").asText();
    byte[] raw = expected(d);
    int ts = d.path("typesize").asInt();
    int[] shape = ints(d.path("shape"));
    try (NetcdfFile nc = NetcdfFiles.open(dir().resolve(path).toString())) {
      assertEquals("blosc2", nc.getFileTypeId());
      Variable v = nc.getVariables().get(0);
      assertEquals(path.substring(0, path.indexOf('.')), v.getShortName());
      Array a = v.read();
      String dtype = d.path("dtype").asText();
      if (dtype.startsWith("<U")) {
        assertEquals(DataType.STRING, v.getDataType());
        assertArrayEquals(shape, v.getShape());
        List<String> want = ucs4(raw, ts);
        for (int i = 0; i < want.size(); i++) {
          assertEquals(want.get(i), a.getObject(i), path + " element " + i);
        }
        return;
      }
      if (shape.length == 0) { // a 0-d array: a CDM scalar, no chunk shape to report
        assertEquals(DataType.DOUBLE, v.getDataType(), path);
        assertEquals(0, v.getRank(), path);
        assertEquals(ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getDouble(), a.getDouble(0), 0.0, path);
        assertEquals(1, a.getSize());
        assertEquals(null, v.findAttribute("_ChunkSizes"), path);
        return;
      }
      if (dtype.equals("<i4")) { // the empty array
        assertEquals(DataType.INT, v.getDataType());
        assertArrayEquals(shape, v.getShape(), path);
        assertEquals(0, raw.length);
        assertEquals(0, a.getSize());
        return;
      }
      int[] cdmShape = java.util.Arrays.copyOf(shape, shape.length + 1);
      cdmShape[shape.length] = ts; // S<n>, opaque records and typesize > 8: an extra last dimension of the item bytes
      assertArrayEquals(cdmShape, v.getShape(), path);
      assertEquals(dtype.startsWith("|S") ? DataType.CHAR : DataType.UBYTE, v.getDataType(), path);
      assertArrayEquals(raw, bytesOf(a), path);
    }
  }

  /** A strided section across chunk and block boundaries of the 300-byte strings. */
  @Test
  void sectionOfWideStrings() throws IOException, InvalidRangeException {
    JsonNode d = dataset("s300_2d.b2nd");
    byte[] raw = expected(d);
    try (NetcdfFile nc = NetcdfFiles.open(dir().resolve("s300_2d.b2nd").toString())) {
      Variable v = nc.getVariables().get(0);
      byte[] got = bytesOf(v.read("2:21:3, 1:2, 0:299"));
      int k = 0;
      for (int r = 2; r <= 21; r += 3) {
        for (int c = 1; c <= 2; c++) {
          for (int b = 0; b < 300; b++) {
            assertEquals(raw[(r * 3 + c) * 300 + b], got[k++], r + "," + c + "," + b);
          }
        }
      }
      assertEquals(k, got.length);
      // chunks (10, 2) of 300-byte strings: the string length is the chunk's last CDM dimension
      assertArrayEquals(new int[] {10, 2, 300},
          (int[]) v.findAttribute("_ChunkSizes").getValues().get1DJavaArray(ucar.ma2.DataType.INT));
    }
  }

  @Test
  void structuredDtypeKeepsItsDescription() throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(dir().resolve("void7_2d.b2nd").toString())) {
      Variable v = nc.getVariables().get(0);
      assertNotNull(v.findAttribute("numpy_dtype"));
      assertEquals(dataset("void7_2d.b2nd").path("dtype").asText().replace("|V7", "V7"),
          v.findAttribute("numpy_dtype").getStringValue());
    }
  }

  @Test
  void pythonObjectDtypeIsRefused(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
    // the int64 b2nd fixture with its dtype string '<i8' patched to '|O8' (same length, same item size)
    Fixtures.Dataset fx = Fixtures.manifest("blosc2").dataset("b2nd/b2nd_1d_i8_sframe.b2frame");
    Path copy = org.chunkcdm.testkit.TestFiles.copy(fx.file(), tmp.resolve("objects.b2frame"));
    Path idx = copy.resolve("chunks.b2frame");
    byte[] b = Files.readAllBytes(idx);
    int at = MalformedTest.indexOf(b, "\u00db\0\0\0\3<i8".getBytes(StandardCharsets.ISO_8859_1));
    org.chunkcdm.testkit.TestFiles.patch(idx, at + 5, "|O8".getBytes(StandardCharsets.US_ASCII));
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> NetcdfFiles.open(copy.toString()).close());
    MalformedTest.assertMentions(e, "chunks.b2frame", "|O8", "Python objects");
  }
}
