package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One member of the header object other than {@code "."}, as {@link HeaderJson} parsed it: a variable's escaped
 * key, the values of the format's dot-keys it uses (null when absent), and its user attributes in file order.
 */
final class Member {
  /** The format's dot-keys a variable member may hold; {@link #dot} keeps their values in this order. */
  static final List<String> KEYS = List.of(".size", ".type", ".offset", ".len", ".missing", ".endian", ".dims", ".time",
      ".dsize");
  static final int SIZE = 0;
  static final int TYPE = 1;
  static final int OFFSET = 2;
  static final int LEN = 3;
  static final int MISSING = 4;
  static final int ENDIAN = 5;
  static final int DIMS = 6;
  static final int TIME = 7;
  static final int DSIZE = 8;

  final String key;
  /** The member's value when it is not a JSON object (an error the IOSP reports), else null. */
  JsonNode notAnObject;
  /** The value of each of {@link #KEYS} (null when absent), e.g. {@code dot[SIZE]}. */
  final JsonNode[] dot = new JsonNode[KEYS.size()];
  final List<Map.Entry<String, JsonNode>> attributes = new ArrayList<>(4);

  Member(String key) {
    this.key = key;
  }
}
