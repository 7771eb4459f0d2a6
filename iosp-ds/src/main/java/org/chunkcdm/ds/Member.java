package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One member of the header object other than {@code "."}, as {@link HeaderJson} parsed it: a variable's escaped
 * key, the values of the format's dot-keys it uses (null when absent), and its user attributes in file order.
 */
final class Member {
  /** The format's dot-keys a variable member may hold ({@code .size}, {@code .type}, ...). */
  enum Key {
    SIZE, TYPE, OFFSET, LEN, MISSING, ENDIAN, DIMS, TIME, DSIZE;

    private static final Map<String, Key> BY_NAME = new HashMap<>();

    static {
      for (Key k : values()) {
        BY_NAME.put("." + k.name().toLowerCase(Locale.ROOT), k);
      }
    }

    /** The key a member field is named by ({@code ".size"} is {@link #SIZE}), or null for any other name. */
    static Key of(String name) {
      return BY_NAME.get(name);
    }
  }

  final String key;
  /** The member's value when it is not a JSON object (an error the IOSP reports), else null. */
  JsonNode notAnObject;
  private final JsonNode[] dot = new JsonNode[Key.values().length];
  final List<Map.Entry<String, JsonNode>> attributes = new ArrayList<>(4);

  Member(String key) {
    this.key = key;
  }

  /** The value of dot-key {@code k}, or null when the member does not hold it. */
  JsonNode get(Key k) {
    return dot[k.ordinal()];
  }

  void set(Key k, JsonNode v) {
    dot[k.ordinal()] = v;
  }
}
