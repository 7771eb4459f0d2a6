package org.chunkcdm.ds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/** Damaged .ds files give IOExceptions naming the file, the variable and what is wrong. */
class MalformedTest {
  @TempDir
  Path tmp;

  static void assertMentions(Throwable e, String... parts) {
    org.chunkcdm.testkit.NetcdfChecks.assertMentions(e, parts);
  }

  static IOException openFails(Path p) {
    return assertThrows(IOException.class, () -> NetcdfFiles.open(p.toString()).close());
  }

  /** A fixture's bytes with its header text edited ({@code from} → {@code to}). */
  Path edited(String fixture, String name, String from, String to) throws IOException {
    return edited(tmp, fixture, name, from, to);
  }

  /** A fixture's bytes with its header text edited ({@code from} → {@code to}), written to {@code dir/name}. */
  static Path edited(Path tmp, String fixture, String name, String from, String to) throws IOException {
    String s = new String(Fixtures.bytes(Fixtures.manifest("ds").dataset(fixture).file()), StandardCharsets.ISO_8859_1);
    int headerEnd = s.indexOf('\n', s.indexOf('\n') + 1);
    String header = s.substring(0, headerEnd);
    assertTrue(header.contains(from), fixture + " header contains " + from);
    Path p = tmp.resolve(name);
    Files.write(p, (header.replace(from, to) + s.substring(headerEnd)).getBytes(StandardCharsets.ISO_8859_1));
    return p;
  }

  @Test
  void badVersionLine() throws IOException {
    assertMentions(openFails(edited("small.ds", "v2.ds", "ds-1.0", "ds-2.0")), "v2.ds", "unsupported ds format version 'ds-2.0'");
    assertMentions(openFails(edited("small.ds", "vx.ds", "ds-1.0", "ds-one")), "vx.ds", "'ds-one'");
    Path noNewline = tmp.resolve("nl.ds");
    Files.writeString(noNewline, "ds-1.0 and then a very long first line without any newline at all");
    assertMentions(openFails(noNewline), "nl.ds", "version line");
  }

  @Test
  void headerNotJson() throws IOException {
    assertMentions(openFails(edited("small.ds", "nj.ds", "{\"x\": {", "{\"x\" {")), "nj.ds", "not valid JSON");
    assertMentions(openFails(edited("small.ds", "arr.ds", "{\"x\": {\".size\": [1000]", "[{\".size\": [1000]")),
        "arr.ds", "not valid JSON");
    assertMentions(openFails(edited("small.ds", "trail.ds", "\".\": {}}", "\".\": {}} {}")), "trail.ds",
        "not valid JSON", "after the header object");
    assertMentions(openFails(edited("small.ds", "open.ds", "\".\": {}}", "\".\": {}")), "open.ds", "not valid JSON");
    assertMentions(openFails(edited("small.ds", "deep.ds", "\".\": {}}", "\".\": {\"a\": " + "[".repeat(5000)
        + "]".repeat(5000) + "}}")), "deep.ds", "not valid JSON");
    Path list = tmp.resolve("list.ds");
    Files.writeString(list, "ds-1.0\n[1, 2]\n");
    assertMentions(openFails(list), "list.ds", "not a JSON object");
    Path cut = tmp.resolve("cut.ds");
    Files.writeString(cut, "ds-1.0\n{\"x\": {\".size\": [1000], \".offset\": 0");
    assertMentions(openFails(cut), "cut.ds", "no terminating newline");
  }

  @Test
  void truncatedBody() throws IOException {
    Path src = Fixtures.manifest("ds").dataset("small.ds").file();
    byte[] b = Fixtures.bytes(src);
    Path p = tmp.resolve("trunc.ds");
    Files.write(p, Arrays.copyOf(b, b.length - 100));
    assertMentions(openFails(p), "trunc.ds", "variable 'x'", "past the end", "truncated");
  }

  @Test
  void offsetPlusLenPastTheEnd() throws IOException {
    assertMentions(openFails(edited("masked.ds", "off.ds", "\".offset\": 455", "\".offset\": 2000")), "off.ds",
        "variable 'm_uint8'", ".offset 2000", "past the end");
    assertMentions(openFails(edited("masked.ds", "neg.ds", "\".offset\": 455", "\".offset\": -4")), "neg.ds",
        "variable 'm_uint8'", ".offset");
  }

  @Test
  void lenInconsistentWithSizeAndType() throws IOException {
    assertMentions(openFails(edited("small.ds", "len.ds", "\".len\": 8000", "\".len\": 7999")), "len.ds",
        "variable 'x'", ".len 7999", "1000 elements", "int64");
    assertMentions(openFails(edited("small.ds", "type.ds", "\"int64\"", "\"int32\"")), "type.ds", "variable 'x'",
        ".len 8000", "int32");
    assertMentions(openFails(edited("bool_packing.ds", "bool.ds", "\".len\": 2, \".type\": \"bool\"", "\".len\": 1, \".type\": \"bool\"")),
        "bool.ds", "variable 'b10'", ".len 1");
  }

  /** Sizes far beyond the file are refused from the header alone, before anything is allocated. */
  @Test
  void hugeSizeNeverAllocates() throws IOException {
    assertMentions(openFails(edited("small.ds", "huge1.ds", "[1000]", "[1000000000000000000]")), "huge1.ds",
        "variable 'x'", "larger than CDM's limit");
    assertMentions(openFails(edited("small.ds", "huge2.ds", "[1000]", "[200000, 200000, 200000]")),
        "huge2.ds", "variable 'x'", ".len 8000 does not fit");
    assertMentions(openFails(edited("small.ds", "huge3.ds", "[1000]", "[1e18]")), "huge3.ds", "variable 'x'",
        "non-negative integers");
    assertMentions(openFails(edited("strings.ds", "huge4.ds", "\".size\": [13]", "\".size\": [2000000000]")),
        "huge4.ds", "variable 'text'", "string lengths");
  }

  @Test
  void unknownTypeEndianOrDims() throws IOException {
    assertMentions(openFails(edited("small.ds", "t.ds", "\"int64\"", "\"complex64\"")), "t.ds", "variable 'x'",
        "unknown .type 'complex64'");
    assertMentions(openFails(edited("small.ds", "e.ds", "\".endian\": \"l\"", "\".endian\": \"x\"")), "e.ds",
        "variable 'x'", ".endian");
    assertMentions(openFails(edited("nd_shared_dims.ds", "d.ds", "[\"time\", \"lat\", \"lon\"]", "[\"time\", \"lat\"]")),
        "d.ds", ".dims");
  }

  /**
   * The bitmask is read at the first read, never at open: a .len the bitmask contradicts opens, and the read
   * names the variable and the counts.
   */
  @Test
  void bitmaskContradictingLenFailsOnRead() throws IOException {
    String f = "masked.ds";
    // m_int8 (10 values, bitmask 2 bytes): flip a bitmask bit
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset(f);
    byte[] b = Fixtures.bytes(d.file());
    long bodyStart = d.json().path("file_size").asLong() - d.json().path("body_bytes").asLong();
    long off = bodyStart + d.variable("m_int8").json().path("offset").asLong();
    b[(int) off] ^= (byte) 0x80; // element 0 changes between missing and stored: one value more or less
    Path p = tmp.resolve("mask.ds");
    Files.write(p, b);
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      Variable v = nc.findVariable("m_int8");
      IOException e = assertThrows(IOException.class, v::read);
      assertMentions(e, "mask.ds", "variable 'm_int8'", ".len is 11");
      assertEquals(10, nc.findVariable("m_int16").read().getSize(), "other variables still read");
    }
  }

  @Test
  void stringLengthsContradictingLenFailOnRead() throws IOException {
    Fixtures.Dataset d = Fixtures.manifest("ds").dataset("strings.ds");
    byte[] b = Fixtures.bytes(d.file());
    long bodyStart = d.json().path("file_size").asLong() - d.json().path("body_bytes").asLong();
    int off = (int) (bodyStart + d.variable("bytes1d").json().path("offset").asLong());
    b[off] = 100; // first length 5 -> 100: more than .len holds
    Path p = tmp.resolve("slen.ds");
    Files.write(p, b);
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("bytes1d").read()), "slen.ds",
          "variable 'bytes1d'", "string 0 has length 100");
      b[off] = 4; // 4: the lengths no longer add up to .len
      Files.write(p, b);
    }
    try (NetcdfFile nc = NetcdfFiles.open(p.toString())) {
      assertMentions(assertThrows(IOException.class, () -> nc.findVariable("bytes1d").read()), "slen.ds",
          "variable 'bytes1d'", "add up to");
    }
  }

  @Test
  void emptyAndForeignFilesAreNotClaimed() throws IOException {
    Path empty = tmp.resolve("empty.ds");
    Files.write(empty, new byte[0]);
    assertThrows(IOException.class, () -> NetcdfFiles.open(empty.toString()).close());
  }
}
