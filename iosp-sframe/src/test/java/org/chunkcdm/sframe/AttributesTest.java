package org.chunkcdm.sframe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Metalayers and vlmetalayers become variable attributes, checked against the manifest's hex (decoded here
 * with msgpack-core / Jackson directly); b2nd and frame descriptions are attributes too.
 */
class AttributesTest {
  static List<String> withMeta() {
    return List.of("sframe/sf_meta_vlmeta_i2.b2frame", "cframe/cf_meta_vlmeta_f8.b2frame",
        "b2nd/b2nd_2d_f4_metas_cframe.b2nd");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withMeta")
  void metalayersAndVlmetalayers(String path) throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset(path);
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      int checked = 0;
      for (String section : new String[] {"metalayers", "vlmetalayers"}) {
        Iterator<Map.Entry<String, JsonNode>> it = d.json().path(section).fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          if (e.getKey().equals("b2nd")) {
            continue;
          }
          byte[] raw = HexFormat.of().parseHex(e.getValue().asText());
          checked += checkValue(v, e.getKey(), raw);
        }
      }
      assertTrue(checked >= 4, path + ": checked " + checked + " attribute values");
    }
  }

  /** One metalayer: msgpack (exactly one value) or JSON text; returns the number of attributes checked. */
  private static int checkValue(Variable v, String name, byte[] raw) throws IOException {
    Value value;
    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(raw)) {
      value = u.unpackValue();
      if (u.hasNext()) {
        value = null;
      }
    }
    if (value == null) { // JSON text
      JsonNode json = new ObjectMapper().readTree(new String(raw, StandardCharsets.UTF_8));
      int n = 0;
      Iterator<Map.Entry<String, JsonNode>> it = json.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> f = it.next();
        Attribute a = attr(v, name + "." + f.getKey());
        JsonNode j = f.getValue();
        if (j.isTextual()) {
          assertEquals(j.asText(), a.getStringValue(), a.toString());
        } else if (j.isNumber()) {
          assertEquals(j.asDouble(), a.getNumericValue().doubleValue(), a.toString());
        } else if (j.isArray()) {
          assertEquals(j.size(), a.getLength(), a.toString());
          for (int i = 0; i < j.size(); i++) {
            assertEquals(j.get(i).asText(), a.getValue(i).toString(), a.toString());
          }
        }
        n++;
      }
      return n;
    }
    switch (value.getValueType()) {
      case STRING:
        assertEquals(value.asStringValue().asString(), attr(v, name).getStringValue());
        return 1;
      case ARRAY: {
        Attribute a = attr(v, name);
        List<Value> list = value.asArrayValue().list();
        assertEquals(list.size(), a.getLength(), a.toString());
        for (int i = 0; i < list.size(); i++) {
          Value x = list.get(i);
          double want = x.isFloatValue() ? x.asFloatValue().toDouble() : x.asIntegerValue().toLong();
          assertEquals(want, a.getNumericValue(i).doubleValue(), a.toString());
        }
        return 1;
      }
      case MAP: {
        int n = 0;
        for (Map.Entry<Value, Value> f : value.asMapValue().entrySet()) {
          Attribute a = attr(v, name + "." + f.getKey().asStringValue().asString());
          Value x = f.getValue();
          if (x.isStringValue()) {
            assertEquals(x.asStringValue().asString(), a.getStringValue(), a.toString());
          } else {
            assertEquals(x.asIntegerValue().toLong(), a.getNumericValue().longValue(), a.toString());
          }
          n++;
        }
        return n;
      }
      default:
        throw new AssertionError("fixture metalayer " + name + " of unexpected type " + value.getValueType());
    }
  }

  private static Attribute attr(Variable v, String name) {
    Attribute a = v.findAttribute(name);
    assertNotNull(a, "attribute " + name + " in " + v.attributes());
    return a;
  }

  /** b2nd arrays carry their numpy dtype and block shape; every frame says what kind of frame it is. */
  @Test
  void b2ndAndFrameDescriptions() throws IOException {
    for (Fixtures.Dataset d : Check.datasets()) {
      try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
        Variable v = Check.find(nc, d);
        Attribute frame = nc.getRootGroup().findAttribute("blosc2_frame");
        assertNotNull(frame, d.toString());
        assertEquals(Check.sparse(d) ? "sparse frame" : "contiguous frame", frame.getStringValue(), d.toString());
        JsonNode var = d.variables().get(0).json();
        if (d.kind().startsWith("b2nd")) {
          assertEquals(var.path("dtype").asText(), attr(v, "numpy_dtype").getStringValue(), d.toString());
          Attribute bs = attr(v, "blosc2_blockshape");
          long[] want = Check.longs(var.path("blockshape"));
          long[] got = new long[bs.getLength()];
          for (int i = 0; i < got.length; i++) {
            got[i] = bs.getNumericValue(i).longValue();
          }
          assertArrayEquals(want, got, d.toString());
        } else {
          assertEquals(var.path("typesize").asInt(), attr(v, "blosc2_typesize").getNumericValue().intValue(), d.toString());
        }
        String filters = d.json().path("cparams").path("filters").toString().toLowerCase(java.util.Locale.ROOT);
        String comp = attr(v, "compression").getStringValue();
        for (String f : new String[] {"bitshuffle", "delta", "trunc_prec"}) {
          assertEquals(filters.contains("\"" + f + "\""), comp.contains(f), d + ": " + comp);
        }
      }
    }
  }

  /**
   * Variable chunk sizes: no _ChunkSizes (the chunks are not equal) and an attribute saying so; the sizes
   * live in the chunk headers, which opening does not read: the frame opens with its chunk files gone, and
   * only a read needs them (a clear IOException naming a chunk file).
   */
  @Test
  void variableChunkSizesAreLearnedOnTheFirstRead(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    Fixtures.Dataset d = Fixtures.manifest("blosc2").dataset("sframe/sf_variable_chunks_i4.b2frame");
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      Variable v = Check.find(nc, d);
      assertEquals("variable (read from the chunk headers when first needed)", attr(v, "blosc2_chunk_sizes").getStringValue());
      assertEquals(null, v.findAttribute("_ChunkSizes"));
    }
    java.nio.file.Path copy = org.chunkcdm.testkit.TestFiles.copy(d.file(), tmp.resolve("sf_variable_chunks_i4.b2frame"));
    long total = 0;
    for (JsonNode n : d.json().path("chunk_nbytes")) {
      total += n.asLong();
    }
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(copy)) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
        if (f.getFileName().toString().endsWith(".chunk")) {
          java.nio.file.Files.delete(f);
        }
      }
    }
    try (NetcdfFile nc = NetcdfFiles.open(copy.toString())) {
      Variable v = nc.getVariables().get(0);
      assertEquals(total / 4, v.getSize(), "the shape comes from the frame header alone");
      java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, v::read);
      org.chunkcdm.testkit.NetcdfChecks.assertMentions(e, ".chunk");
    }
  }
}
