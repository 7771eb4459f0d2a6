package org.chunkcdm.zarr;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.JsonDocuments;

/** Zarr metadata JSON: zarr-python writes the bare tokens {@code NaN}, {@code Infinity} and {@code -Infinity}. */
final class Json {
  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private Json() {}

  /** Parses a metadata document; bad JSON is a FormatException naming {@code what}. */
  static JsonNode parse(byte[] b, String what) throws IOException {
    JsonNode n = JsonDocuments.parse(MAPPER, b, what);
    if (n == null || n.isMissingNode() || !n.isObject()) {
      throw new FormatException(what + ": not a JSON object");
    }
    return n;
  }
}
