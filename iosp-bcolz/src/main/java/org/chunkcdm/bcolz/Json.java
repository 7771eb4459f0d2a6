package org.chunkcdm.bcolz;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.open.JsonDocuments;

/** The family's JSON files: Python's json module writes bare {@code NaN}/{@code Infinity} tokens. */
final class Json {
  /** Metadata files of this family are small; anything larger is not one of them. */
  static final long MAX_META_FILE = 16L << 20;

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .build();

  private Json() {}

  /**
   * Parses a JSON file of the dataset; a missing file or bad JSON is an IOException naming the file. The file
   * is read and closed at once (no handle kept open: a ctable has three such files per column).
   */
  static JsonNode read(FileHandles files, Path p) throws IOException {
    // only a regular file inside the dataset, its size checked before reading (a FIFO is refused, never read)
    byte[] b = files.readOnce(p, Long.MAX_VALUE, MAX_META_FILE);
    return parse(b, p.toString());
  }

  static JsonNode parse(byte[] b, String what) throws IOException {
    JsonNode n = JsonDocuments.parse(MAPPER, b, what);
    if (n == null || n.isMissingNode()) {
      throw new FormatException(what + ": empty JSON");
    }
    return n;
  }

  /** A JSON object member that must be an object. */
  static JsonNode object(JsonNode n, String what) throws IOException {
    if (n == null || !n.isObject()) {
      throw new FormatException(what + ": expected a JSON object");
    }
    return n;
  }
}
