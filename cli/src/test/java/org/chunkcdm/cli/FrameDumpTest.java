package org.chunkcdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code chunkcdm dump} works on sparse and contiguous frames: on every Blosc2 frame dataset of
 * the fixtures: sparse frames as the directory and as their {@code chunks.b2frame}, contiguous frames and b2nd
 * arrays as the file. Every printed value is compared with the manifest's expected bytes (plain frames read as
 * the unsigned integer of their typesize, per the contract; b2nd per its dtype), skipping
 * {@code undefined_byte_ranges}.
 */
class FrameDumpTest {
  static Stream<Arguments> frames() {
    List<Arguments> out = new ArrayList<>();
    for (Fixtures.Dataset d : Fixtures.manifest("blosc2").datasets("sframe", "cframe", "b2nd-sframe", "b2nd-cframe")) {
      out.add(Arguments.of(d, d.file()));
      if (d.kind().endsWith("sframe")) {
        out.add(Arguments.of(d, d.file().resolve("chunks.b2frame")));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("frames")
  void dumpPrintsEveryValue(Fixtures.Dataset d, Path open) {
    CliRuns.Result r = CliRuns.run("dump", open.toString());
    assertEquals(0, r.rc(), r.err());
    String name = d.file().getFileName().toString().replaceFirst("\\.(b2frame|b2nd|b2f)$", "");
    assertTrue(r.out().contains(" " + name + "("), d + ": no variable " + name + " in\n" + head(r.out()));
    assertTrue(r.out().contains(":blosc2_frame = \"" + (d.kind().endsWith("sframe") ? "sparse" : "contiguous") + " frame\""),
        head(r.out()));

    Fixtures.Variable v = d.variables().get(0);
    JsonNode vj = v.json();
    byte[] raw = v.expected();
    boolean plain = v.dtype().equals("bytes");
    String dtype = plain ? "" : v.dtype().substring(1);
    int size = vj.path("typesize").asInt();
    if (plain && size != 1 && size != 2 && size != 4 && size != 8) {
      size = 1; // opaque records: an extra dimension of bytes
    }
    boolean[] defined = new boolean[raw.length];
    java.util.Arrays.fill(defined, true);
    for (JsonNode u : d.json().path("undefined_byte_ranges")) {
      java.util.Arrays.fill(defined, u.get(0).asInt(), u.get(1).asInt(), false);
    }

    String data = r.out().substring(r.out().indexOf("data:"));
    String[] tokens = data.substring(data.indexOf('=') + 1).replaceAll("[{}\\s]", "").split(",");
    assertEquals(raw.length / size, tokens.length, d + ": number of values printed");
    ByteBuffer bb = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    int checked = 0;
    for (int i = 0; i < tokens.length; i++) {
      if (!defined[i * size]) {
        continue;
      }
      String t = tokens[i];
      int p = i * size;
      String where = d + ": value " + i;
      switch (plain ? "u" + size : dtype) {
        case "f4": {
          float want = bb.getFloat(p);
          float got = Float.parseFloat(t);
          assertTrue(Float.isNaN(want) ? Float.isNaN(got) : Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)),
              where + ": " + t + " vs " + want);
          break;
        }
        case "f8": {
          double want = bb.getDouble(p);
          double got = Double.parseDouble(t);
          assertTrue(Double.isNaN(want) ? Double.isNaN(got) : got == want, where + ": " + t + " vs " + want);
          break;
        }
        default: {
          String want = Fixtures.integerText(bb, p, plain ? "u" + size : dtype);
          if (want == null) {
            throw new AssertionError(d + ": dtype " + v.dtype() + " not handled by this test");
          }
          assertEquals(want, t, where);
        }
      }
      checked++;
    }
    assertTrue(checked > 0, d + ": nothing compared");
  }

  private static String head(String s) {
    return s.lines().limit(25).reduce("", (a, b) -> a + "\n" + b);
  }
}
