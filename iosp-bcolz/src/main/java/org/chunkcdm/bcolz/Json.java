package org.chunkcdm.bcolz;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.chunkcdm.io.FileHandles;

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
    files.checkInside(p);
    byte[] b;
    try {
      long size = Files.size(p);
      if (size > MAX_META_FILE) {
        throw new IOException(p + ": " + size + " bytes, too large for a metadata file");
      }
      b = Files.readAllBytes(p);
    } catch (NoSuchFileException e) {
      throw new IOException(p + ": file is missing", e);
    }
    return parse(b, p.toString());
  }

  static JsonNode parse(byte[] b, String what) throws IOException {
    try {
      JsonNode n = MAPPER.readTree(b);
      if (n == null || n.isMissingNode()) {
        throw new IOException(what + ": empty JSON");
      }
      return n;
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new IOException(what + ": invalid JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** A JSON object member that must be an object. */
  static JsonNode object(JsonNode n, String what) throws IOException {
    if (n == null || !n.isObject()) {
      throw new IOException(what + ": expected a JSON object");
    }
    return n;
  }
}
