package org.chunkcdm.sframe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.chunkcdm.open.Attributes;
import org.chunkcdm.open.Names;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;

/**
 * Blosc2 metalayers and vlmetalayers as attributes (neutral values, {@link Attributes}). Each value is decoded, in this order, as:
 *
 * <ol>
 *   <li>exactly one msgpack value (the usual case) — converted to JSON and then to attributes by the shared
 *       rules of {@link Attributes} (maps flattened to dotted names, flat lists to array attributes);
 *   <li>else JSON text (e.g. a vlmetalayer holding {@code {"title": ...}}) — same rules;
 *   <li>else UTF-8 text — a string attribute;
 *   <li>else the bytes as lower-case hex text, in an attribute named {@code <name>_hex}.
 * </ol>
 */
final class MetaAttributes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  /** The first item of a list python-blosc2 wrote for a tuple. */
  private static final String TUPLE = "__tuple__";

  private MetaAttributes() {}

  /** The attributes of each layer, in layer order. */
  static List<Attributes> of(Map<String, byte[]> layers) {
    List<Attributes> out = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : layers.entrySet()) {
      out.add(of(e.getKey(), e.getValue()));
    }
    return out;
  }

  static Attributes of(String name, byte[] value) {
    JsonNode n = msgpack(value);
    if (n == null) {
      String text = utf8(value);
      if (text != null) {
        try {
          n = JSON.readTree(text);
        } catch (Exception e) {
          n = null;
        }
        if (n == null || n.isMissingNode()) {
          n = F.textNode(text);
        }
      }
    }
    if (n == null) {
      return new Attributes().put(Names.valid(name + "_hex"), hex(value));
    }
    return new Attributes().putJson(name, n);
  }

  /** The value as JSON when the bytes are exactly one msgpack value, else null. */
  static JsonNode msgpack(byte[] b) {
    if (b.length == 0) {
      return null;
    }
    try (MessageUnpacker u = Msgpack.unpacker(b)) {
      checkValue(u, b.length, 0); // lengths and nesting within the bytes, before msgpack allocates anything
      if (u.hasNext()) {
        return null;
      }
    } catch (Exception e) {
      return null;
    }
    try (MessageUnpacker u = Msgpack.unpacker(b)) {
      return json(u.unpackValue());
    } catch (Exception e) {
      return null;
    }
  }

  /** Largest nesting of msgpack arrays and maps accepted (a deeper value is not decoded as msgpack). */
  static final int MAX_DEPTH = 64;

  /**
   * Walks one msgpack value without materializing it, refusing a string, binary or extension payload longer than
   * the bytes left, an array or map with more entries than bytes left, and nesting beyond {@link #MAX_DEPTH}:
   * msgpack-core allocates a payload's claimed length before reading it (an OutOfMemoryError found by fuzzing).
   */
  private static void checkValue(MessageUnpacker u, long total, int depth) throws java.io.IOException {
    if (depth > MAX_DEPTH) {
      throw new java.io.IOException("msgpack value nested deeper than " + MAX_DEPTH);
    }
    org.msgpack.core.MessageFormat f = u.getNextFormat();
    long n;
    switch (f.getValueType()) {
      case STRING:
        n = u.unpackRawStringHeader();
        break;
      case BINARY:
        n = u.unpackBinaryHeader();
        break;
      case EXTENSION:
        n = u.unpackExtensionTypeHeader().getLength();
        break;
      case ARRAY: {
        long k = u.unpackArrayHeader() & 0xffffffffL;
        if (k > total - u.getTotalReadBytes()) {
          throw new java.io.IOException("msgpack array of " + k + " entries in fewer bytes");
        }
        for (long i = 0; i < k; i++) {
          checkValue(u, total, depth + 1);
        }
        return;
      }
      case MAP: {
        long k = u.unpackMapHeader() & 0xffffffffL;
        if (2 * k > total - u.getTotalReadBytes()) {
          throw new java.io.IOException("msgpack map of " + k + " entries in fewer bytes");
        }
        for (long i = 0; i < 2 * k; i++) {
          checkValue(u, total, depth + 1);
        }
        return;
      }
      default:
        u.skipValue();
        return;
    }
    n &= 0xffffffffL;
    if (n > total - u.getTotalReadBytes()) {
      throw new java.io.IOException("msgpack payload of " + n + " bytes passes the end of the value");
    }
    u.readPayload((int) n); // header consumed: the payload, now known to fit in the bytes left
  }

  static JsonNode json(Value v) {
    switch (v.getValueType()) {
      case NIL:
        return F.nullNode();
      case BOOLEAN:
        return F.booleanNode(v.asBooleanValue().getBoolean());
      case INTEGER:
        return F.numberNode(v.asIntegerValue().asBigInteger());
      case FLOAT:
        return F.numberNode(v.asFloatValue().toDouble());
      case STRING: {
        String s = utf8(v.asStringValue().asByteArray());
        return F.textNode(s != null ? s : hex(v.asStringValue().asByteArray()));
      }
      case BINARY:
        return F.textNode(hex(v.asBinaryValue().asByteArray()));
      case ARRAY: {
        ArrayNode a = F.arrayNode();
        boolean first = true;
        for (Value e : v.asArrayValue()) {
          // python-blosc2 writes a tuple as a list led by the string "__tuple__" and reads it back without it
          if (!(first && e.isStringValue() && TUPLE.equals(e.asStringValue().toString()))) {
            a.add(json(e));
          }
          first = false;
        }
        return a;
      }
      case MAP: {
        ObjectNode o = F.objectNode();
        for (Map.Entry<Value, Value> e : v.asMapValue().entrySet()) {
          Value k = e.getKey();
          o.set(k.isStringValue() ? k.asStringValue().toString() : k.toJson(), json(e.getValue()));
        }
        return o;
      }
      default: // extension types
        return F.textNode("ext(" + v.asExtensionValue().getType() + "):" + hex(v.asExtensionValue().getData()));
    }
  }

  /** Strict UTF-8 text without control characters other than whitespace, else null. */
  static String utf8(byte[] b) {
    try {
      String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
          return null;
        }
      }
      return s;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(2 * b.length);
    for (byte x : b) {
      sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return sb.toString();
  }
}
