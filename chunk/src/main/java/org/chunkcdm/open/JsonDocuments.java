package org.chunkcdm.open;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.chunkcdm.io.FormatException;

/** A dataset's JSON metadata documents, parsed with the format's mapper. */
public final class JsonDocuments {
  private JsonDocuments() {}

  /**
   * The tree of the JSON document {@code b} (null or a missing node when it holds no value); bad JSON is a
   * FormatException naming {@code what}.
   */
  public static JsonNode parse(ObjectMapper mapper, byte[] b, String what) throws FormatException {
    try {
      return mapper.readTree(b);
    } catch (JacksonException e) {
      throw new FormatException(what + ": invalid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException | RuntimeException e) {
      // e.g. CharConversionException when the bytes look like UTF-32: still bad bytes in this document
      throw new FormatException(what + ": invalid JSON: " + e.getMessage(), e);
    }
  }
}
