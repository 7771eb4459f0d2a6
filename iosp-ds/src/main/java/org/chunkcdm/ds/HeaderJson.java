package org.chunkcdm.ds;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.io.FormatException;

/**
 * The header's JSON read with Jackson's streaming parser straight into {@link Member}s (the format's dot-keys by
 * {@link Member.Key}, user attributes as small trees): building a whole JSON tree of the header first cost about half of
 * the header's share of a small-file open. The reference parse of a whole header ({@link #parse}), and of single
 * members the {@link HeaderScan} delimited.
 */
final class HeaderJson {
  // bare NaN / Infinity / -Infinity as Python's json writes them; integers of any size come as BigInteger
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private HeaderJson() {}

  /** Parses the whole header line of {@code h} into its {@link DsHeader#members} and {@link DsHeader#dataset}. */
  static void parse(DsHeader h, Path file) throws IOException {
    List<Member> ms = new ArrayList<>();
    JsonNode ds = null;
    try (JsonParser p = JSON.createParser(h.buf, h.headerStart, h.headerEnd - h.headerStart)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        p.skipChildren(); // a syntax error in there is reported as such
        p.nextToken();
        throw new FormatException(file + ": header is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        p.nextToken();
        if (key.equals(".")) {
          ds = tree(p);
        } else if (key.startsWith(".")) {
          p.skipChildren(); // reserved metadata key, not a variable
        } else {
          ms.add(member(key, p));
        }
      }
      if (p.nextToken() != null) {
        throw new FormatException(file + ": header is not valid JSON: content after the header object");
      }
    } catch (JacksonException e) {
      throw new FormatException(file + ": header is not valid JSON: " + e.getOriginalMessage(), e);
    }
    h.dataset = ds;
    h.members = ms;
  }

  /** Parses one variable member's value (an object) from {@code s} with Jackson. */
  static Member member(byte[] b, HeaderScan.Span s) throws IOException {
    try (JsonParser p = JSON.createParser(b, s.valueStart, s.end - s.valueStart)) {
      p.nextToken();
      Member m = member(s.key(b), p);
      end(p);
      return m;
    }
  }

  /** Parses the dataset member's value from {@code s} with Jackson. */
  static JsonNode value(byte[] b, HeaderScan.Span s) throws IOException {
    try (JsonParser p = JSON.createParser(b, s.valueStart, s.end - s.valueStart)) {
      p.nextToken();
      JsonNode v = tree(p);
      end(p);
      return v;
    }
  }

  private static void end(JsonParser p) throws IOException {
    if (p.nextToken() != null) {
      throw new FormatException("content after a member");
    }
  }

  /** A variable member; the parser is at its value. */
  private static Member member(String key, JsonParser p) throws IOException {
    Member m = new Member(key);
    if (p.currentToken() != JsonToken.START_OBJECT) {
      m.notAnObject = tree(p);
      return m;
    }
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String k = p.currentName();
      p.nextToken();
      if (!k.startsWith(".")) {
        m.attributes.add(new AbstractMap.SimpleImmutableEntry<>(k, tree(p)));
        continue;
      }
      Member.Key dot = Member.Key.of(k);
      if (dot != null) {
        m.set(dot, tree(p));
      } else {
        p.skipChildren(); // other format metadata: neither used nor an attribute
      }
    }
    return m;
  }

  /** The JSON value the parser is at, as a tree (Jackson's own tree types, numbers as Jackson reads them). */
  private static JsonNode tree(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      throw new JsonParseException(p, "unexpected end of the header");
    }
    if (t == JsonToken.START_OBJECT) {
      ObjectNode o = NODES.objectNode();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String k = p.currentName();
        p.nextToken();
        o.set(k, tree(p));
      }
      return o;
    }
    if (t == JsonToken.START_ARRAY) {
      ArrayNode a = NODES.arrayNode();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        a.add(tree(p));
      }
      return a;
    }
    if (t.isNumeric()) {
      return t == JsonToken.VALUE_NUMBER_INT ? integer(p) : DoubleNode.valueOf(p.getDoubleValue());
    }
    if (t.isBoolean()) {
      return BooleanNode.valueOf(t == JsonToken.VALUE_TRUE);
    }
    if (t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NULL) {
      return t == JsonToken.VALUE_NULL ? NullNode.instance : TextNode.valueOf(p.getText());
    }
    throw new JsonParseException(p, "unexpected JSON token " + t);
  }

  private static JsonNode integer(JsonParser p) throws IOException {
    JsonParser.NumberType t = p.getNumberType();
    if (t == JsonParser.NumberType.INT) {
      return IntNode.valueOf(p.getIntValue());
    }
    return t == JsonParser.NumberType.LONG ? LongNode.valueOf(p.getLongValue())
        : BigIntegerNode.valueOf(p.getBigIntegerValue());
  }
}
