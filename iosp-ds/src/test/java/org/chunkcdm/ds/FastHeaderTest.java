package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fast header parser ({@link DsHeader.Fast}) gives exactly what Jackson's streaming parse gives — same
 * members in order, same dot-key values and attributes with the same JSON node types (int / long / double),
 * same dataset attributes — for every {@code .ds} fixture and for plain synthetic headers; headers it does not
 * handle (escapes, non-ASCII, NaN/Infinity, big integers, syntax errors, deep nesting) make it decline, so
 * Jackson reads them and reports the errors.
 */
class FastHeaderTest {
  /** Header JSON line of a ds file's bytes: [from, to). */
  static int[] headerRange(byte[] b) {
    int from = 0;
    if (DsHeader.hasVersionPrefix(b, b.length)) {
      while (b[from] != '\n') {
        from++;
      }
      from++;
    }
    int to = from;
    while (to < b.length && b[to] != '\n') {
      to++;
    }
    return new int[] {from, to};
  }

  static String describe(DsHeader.Parsed p) {
    StringBuilder sb = new StringBuilder();
    for (DsHeader.Member m : p.members) {
      sb.append(m.key).append(" notObj=").append(node(m.notAnObject)).append(" size=").append(node(m.size))
          .append(" type=").append(node(m.type)).append(" offset=").append(node(m.offset)).append(" len=")
          .append(node(m.len)).append(" missing=").append(node(m.missing)).append(" endian=").append(node(m.endian))
          .append(" dims=").append(node(m.dims)).append(" time=").append(node(m.time)).append(" dsize=")
          .append(node(m.dsize)).append(" attrs=");
      m.attributes.forEach(e -> sb.append(e.getKey()).append(':').append(node(e.getValue())).append(';'));
      sb.append('\n');
    }
    return sb.append("dataset=").append(node(p.dataset)).toString();
  }

  /** A node with the Java class of every value in it (IntNode vs LongNode vs DoubleNode matter). */
  static String node(JsonNode n) {
    if (n == null) {
      return "absent";
    }
    StringBuilder sb = new StringBuilder(n.getClass().getSimpleName()).append('(');
    if (n.isObject()) {
      n.fields().forEachRemaining(e -> sb.append(e.getKey()).append('=').append(node(e.getValue())).append(','));
    } else if (n.isArray()) {
      n.forEach(x -> sb.append(node(x)).append(','));
    } else if (n.isDouble()) {
      sb.append(Double.doubleToRawLongBits(n.doubleValue()));
    } else {
      sb.append(n.toString());
    }
    return sb.append(')').toString();
  }

  static boolean fast(byte[] b, int from, int to, String[] out) {
    DsHeader.Fast f = new DsHeader.Fast(b, from, to);
    boolean ok = f.parse();
    out[0] = ok ? describe(f) : null;
    return ok;
  }

  @Test
  void everyFixtureHeaderParsesAsJacksonDoes() throws IOException {
    Path dir = org.chunkcdm.testkit.Fixtures.family("ds");
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.toString().endsWith(".ds")).sorted().forEach(files::add);
    }
    assertTrue(files.size() >= 5, "fixtures in " + dir);
    int fastOnes = 0;
    for (Path p : files) {
      byte[] b = Files.readAllBytes(p);
      int[] r = headerRange(b);
      String[] got = new String[1];
      if (fast(b, r[0], r[1], got)) {
        fastOnes++;
        assertEquals(describe(DsHeader.jackson(b, r[0], r[1], p)), got[0], p.toString());
      }
    }
    assertTrue(fastOnes * 2 >= files.size(), fastOnes + " of " + files.size() + " fixture headers took the fast path");
  }

  static final String[] PLAIN = {
    "{}",
    " { } ",
    "{\"x\": {}}",
    "{\"x\": {\".size\": [], \".offset\": 0, \".len\": 4, \".type\": \"int32\", \".missing\": false, \".endian\": \"b\"}}",
    "{\"a\":{\".dims\":[\"t\",\"y\"],\".size\":[2147483647,2147483648],\".offset\":9223372036854775,\".len\":-0,"
        + "\".type\":\"float64\",\".missing\":true,\".time\":true,\".dsize\":64,\"u\":-1.5e-3,\"v\":1E+300,\"w\":-0.0,"
        + "\"n\":null,\"l\":[1,[2,[3,{}]],{\"k\":[]}],\"o\":{\"p\":{\"q\":\"r\"},\"p\":false}},\".\":{\"t\":\"x y\"}}",
    "{\".\": {\"a\": 1}, \".other\": [1, {\"z\": 2}], \"b\": 5, \"c\": {\".future\": {\"x\": 1}, \".size\": [3]}, \".\": {}}",
    "{\"x\": {\"a\": 1, \"a\": 2.0}, \"x\": {\".len\": 3}}",
    "{\"x\":\t{\r\".size\" :\t[1 , 2 ]\t}}",
  };

  @Test
  void plainHeadersParseAsJacksonDoes() throws IOException {
    for (String h : PLAIN) {
      byte[] b = ("ds-1.0\n" + h + "\n").getBytes(StandardCharsets.US_ASCII);
      int[] r = headerRange(b);
      String[] got = new String[1];
      assertTrue(fast(b, r[0], r[1], got), h);
      assertEquals(describe(DsHeader.jackson(b, r[0], r[1], Paths.get("x.ds"))), got[0], h);
    }
  }

  static final String[] DECLINED = {
    "{\"x\": \"a\\\"b\"}", // escape
    "{\"x\": \"caf\u00e9\"}", // non-ASCII
    "{\"x\": NaN}",
    "{\"x\": -Infinity}",
    "{\"x\": 12345678901234567890}", // beyond 18 digits
    "{\"x\": 01}",
    "{\"x\": 1.}",
    "{\"x\": .5}",
    "{\"x\": 1,}",
    "{\"x\": [1,]}",
    "{\"x\" 1}",
    "{\"x\": tru}",
    "{\"x\": truex}",
    "{\"x\": 1} 2",
    "[1]",
    "{\"x\": 1",
    "{\"x\": \"" + "a".repeat(5000) + "\"}",
    "{\"x\": " + "[".repeat(100) + "]".repeat(100) + "}",
    "{'x': 1}",
  };

  @Test
  void unusualOrInvalidHeadersAreLeftToJackson() {
    for (String h : DECLINED) {
      byte[] b = h.getBytes(StandardCharsets.UTF_8);
      assertFalse(new DsHeader.Fast(b, 0, b.length).parse(), h);
    }
  }
}
