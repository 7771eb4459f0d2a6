package org.chunkcdm.bcolz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.chunkcdm.chunk.DType;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.AttributeContainer;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** bcolz attributes: user attrs, cparams, compression, dflt (also NaN), _ChunkSizes, dimensions. */
class AttributesTest {
  static List<Fixtures.Dataset> bcolz() {
    return Fixtures.manifest("bcolz").datasets();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bcolz")
  void attributes(Fixtures.Dataset d) throws IOException {
    try (NetcdfFile nc = NetcdfFiles.open(d.file().toString())) {
      boolean table = d.kind().equals("bcolz-ctable");
      if (table) {
        assertUserAttrs(d.json().path("attrs"), nc.getRootGroup().attributes(), d.toString());
      }
      for (Fixtures.Variable fv : d.variables()) {
        JsonNode info = table ? fv.json() : d.json();
        Variable v = Check.find(nc, fv);
        JsonNode cp = info.path("cparams");
        assertEquals(cp.path("cname").asText(), v.findAttribute("cparams.cname").getStringValue(), fv.toString());
        assertEquals(cp.path("clevel").asInt(), v.findAttribute("cparams.clevel").getNumericValue().intValue());
        assertEquals(cp.path("shuffle").asInt(), v.findAttribute("cparams.shuffle").getNumericValue().intValue());
        String comp = v.findAttribute("compression").getStringValue();
        assertTrue(comp.startsWith("blosc " + cp.path("cname").asText() + " clevel " + cp.path("clevel").asInt()), comp);
        assertTrue(comp.contains(new String[] {"no shuffle", "byte shuffle", "bit shuffle"}[cp.path("shuffle").asInt()]), comp);
        long[] shape = fv.shape();
        int extra = Check.dtype(fv).extraDim(); // S<n>, complex: the added last dimension is a whole chunk dimension
        int[] cs = new int[shape.length + (extra > 0 ? 1 : 0)];
        cs[0] = info.path("chunklen").asInt();
        for (int k = 1; k < shape.length; k++) {
          cs[k] = (int) shape[k];
        }
        if (extra > 0) {
          cs[shape.length] = extra;
        }
        assertArrayEquals(cs, (int[]) v.findAttribute("_ChunkSizes").getValues().get1DJavaArray(DataType.INT));
        assertEquals(info.path("storage_dtype").asText(), v.findAttribute("bcolz_dtype").getStringValue());
        assertDflt(info.path("dflt"), v, Check.dtype(fv));
        assertUserAttrs(info.path("attrs"), v.attributes(), fv.toString());
        if (table) {
          assertEquals(BcolzIosp.ROW_DIM, v.getDimension(0).getShortName());
        }
        if (Check.dtype(fv).kind() == DType.Kind.BOOL) {
          assertEquals("false true", v.findAttribute("flag_meanings").getStringValue());
        }
      }
    }
  }

  static void assertDflt(JsonNode want, Variable v, DType dt) {
    Attribute a = v.findAttribute("dflt");
    assertNotNull(a, v.getShortName() + " dflt");
    switch (dt.kind()) {
      case FLOAT: {
        double w = want.isTextual() ? Double.parseDouble(want.asText()) : want.asDouble(); // "NaN", "Infinity"
        assertEquals(org.chunkcdm.cdm.CdmTypes.of(dt), a.getDataType());
        assertEquals(Double.doubleToLongBits(w), Double.doubleToLongBits(a.getNumericValue().doubleValue()));
        break;
      }
      case INT:
      case UINT:
        assertEquals(org.chunkcdm.cdm.CdmTypes.of(dt), a.getDataType());
        assertEquals(want.asLong(), a.getNumericValue().longValue());
        break;
      case BOOL:
        assertEquals(want.asBoolean() ? 1 : 0, a.getNumericValue().intValue());
        break;
      default:
        assertEquals(want.asText(), a.getStringValue());
    }
  }

  static void assertUserAttrs(JsonNode attrs, AttributeContainer got, String what) {
    for (Iterator<Map.Entry<String, JsonNode>> it = attrs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.isObject()) {
        v.fields().forEachRemaining(n -> assertNotNull(got.findAttribute(e.getKey() + "." + n.getKey()), what));
        continue;
      }
      Attribute a = got.findAttribute(e.getKey());
      assertNotNull(a, what + ": " + e.getKey());
      if (v.isTextual()) {
        assertEquals(v.textValue(), a.getStringValue(), what);
      } else if (v.isIntegralNumber()) {
        assertEquals(DataType.INT, a.getDataType(), what);
        assertEquals(v.intValue(), a.getNumericValue().intValue(), what);
      } else if (v.isNumber()) {
        assertEquals(DataType.DOUBLE, a.getDataType(), what);
        assertEquals(v.doubleValue(), a.getNumericValue().doubleValue(), what);
      } else if (v.isArray()) {
        assertEquals(v.size(), a.getLength(), what);
      }
    }
  }
}
