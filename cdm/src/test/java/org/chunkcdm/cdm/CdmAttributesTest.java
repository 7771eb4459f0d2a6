package org.chunkcdm.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;

class CdmAttributesTest {
  @Test
  void contractMapping() throws Exception {
    JsonMapper m = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS).build();
    JsonNode n = m.readTree("{\"i\": 7, \"big\": 5000000000, \"huge\": 18446744073709551615, \"f\": 1.5, \"nan\": NaN,"
        + " \"s\": \"x\", \"li\": [1, 2], \"lf\": [1, 2.5], \"ls\": [\"a\", \"b\"], \"coords\": {\"lat\": 3, \"deep\": {\"x\": \"y\"}},"
        + " \"b\": true, \"mixed\": [1, \"a\"], \"nul\": null}");
    Map<String, Attribute> a = new TreeMap<>();
    for (Attribute at : CdmAttributes.fromJson(n)) {
      a.put(at.getShortName(), at);
    }
    assertEquals(DataType.INT, a.get("i").getDataType());
    assertEquals(7, a.get("i").getNumericValue().intValue());
    assertEquals(DataType.LONG, a.get("big").getDataType());
    assertEquals(5000000000L, a.get("big").getNumericValue().longValue());
    assertEquals(DataType.ULONG, a.get("huge").getDataType());
    assertEquals(-1L, a.get("huge").getNumericValue().longValue());
    assertEquals(DataType.DOUBLE, a.get("f").getDataType());
    assertEquals(Double.NaN, a.get("nan").getNumericValue().doubleValue());
    assertEquals("x", a.get("s").getStringValue());
    assertEquals(2, a.get("li").getLength());
    assertEquals(DataType.INT, a.get("li").getDataType());
    assertEquals(DataType.DOUBLE, a.get("lf").getDataType());
    assertEquals(2.5, a.get("lf").getNumericValue(1).doubleValue());
    assertEquals("b", a.get("ls").getStringValue(1));
    assertEquals(3, a.get("coords.lat").getNumericValue().intValue());
    assertEquals("y", a.get("coords.deep.x").getStringValue());
    assertEquals("true", a.get("b").getStringValue());
    assertEquals("[1,\"a\"]", a.get("mixed").getStringValue());
    assertEquals(List.of("b", "big", "coords.deep.x", "coords.lat", "f", "huge", "i", "lf", "li", "ls", "mixed", "nan", "nul", "s"),
        List.copyOf(a.keySet()));
  }

  @Test
  void names() {
    assertEquals("temp", CdmNames.fromFileName("temp.b2frame"));
    assertEquals("x_int8", CdmNames.fromFileName("x_int8"));
    assertEquals("arr", CdmNames.fromFileName("arr.blp"));
    assertEquals("a_b", CdmNames.valid("a/b").replace('/', '_'));
  }
}
