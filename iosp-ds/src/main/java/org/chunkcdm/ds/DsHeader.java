package org.chunkcdm.ds;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.chunkcdm.io.FileHandles;

/**
 * The start of a {@code .ds} file: the version line {@code ds-<major>.<minor>\n} (absent in the pre-1.0
 * experimental layout, whose header starts the file), then one line of JSON. Reading stops at the header's
 * {@code \n}: the body is never touched when a file is opened.
 */
final class DsHeader {
  /** Largest header accepted (a 200-variable header is 45 kB). */
  static final int MAX_HEADER = 256 << 20;
  /** First read: enough for the header of every ordinary file. */
  static final int FIRST_READ = 16 << 10;

  // Python's json writes dicts, so keys are unique: no duplicate detection (it costs ~15% of a small open)
  private static final ObjectReader READER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build().reader();

  /** The version line without its newline, or null for the experimental layout. */
  final String version;
  final JsonNode json;
  /** File position of the body's first byte. */
  final long bodyStart;
  final long fileSize;
  /** The file's first bytes as read to find the header (kept by {@link DsFile} when small). */
  final byte[] prefix;

  private DsHeader(String version, JsonNode json, long bodyStart, long fileSize, byte[] prefix) {
    this.prefix = prefix;
    this.version = version;
    this.json = json;
    this.bodyStart = bodyStart;
    this.fileSize = fileSize;
  }

  /** True when these first bytes begin a ds-1.x file ("ds-"). */
  static boolean hasVersionPrefix(byte[] b, int n) {
    return n >= 3 && b[0] == 'd' && b[1] == 's' && b[2] == '-';
  }

  static DsHeader read(FileHandles files, Path file) throws IOException {
    long size = files.size(file);
    byte[] buf = new byte[(int) Math.min(size, FIRST_READ)];
    files.readFully(file, 0, buf, 0, buf.length);
    int have = buf.length;
    if (have == 0) {
      throw new IOException(file + ": empty file, not a ds file");
    }
    String version = null;
    int headerStart = 0;
    if (hasVersionPrefix(buf, have)) {
      int nl = indexOf(buf, 0, have, (byte) '\n');
      if (nl < 0 || nl > 32) {
        throw new IOException(file + ": the version line 'ds-<x>.<y>' is not ended by a newline within 32 bytes");
      }
      version = new String(buf, 0, nl, StandardCharsets.ISO_8859_1);
      if (!isVersion1(version)) {
        throw new IOException(file + ": unsupported ds format version '" + printable(version)
            + "' (this reader knows ds-1.x)");
      }
      headerStart = nl + 1;
    } else if (buf[0] != '{') {
      throw new IOException(file + ": not a ds file (no 'ds-' version line and no JSON header)");
    }
    int from = headerStart;
    int end;
    while (true) {
      end = indexOf(buf, from, have, (byte) '\n');
      if (end >= 0) {
        break;
      }
      if (have >= size) {
        throw new IOException(file + ": the header line has no terminating newline (file of " + size
            + " bytes truncated?)");
      }
      if (have >= MAX_HEADER) {
        throw new IOException(file + ": no header end within the first " + MAX_HEADER + " bytes");
      }
      from = have;
      int next = (int) Math.min(Math.min(size, MAX_HEADER), 4L * have);
      buf = Arrays.copyOf(buf, next);
      files.readFully(file, have, buf, have, next - have);
      have = next;
    }
    JsonNode json;
    try {
      json = READER.readTree(buf, headerStart, end - headerStart);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new IOException(file + ": header is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (json == null || !json.isObject()) {
      throw new IOException(file + ": header is not a JSON object");
    }
    return new DsHeader(version, json, end + 1L, size, buf.length <= FIRST_READ ? buf : new byte[0]);
  }

  /** {@code ds-1.<digits>}. */
  static boolean isVersion1(String v) {
    if (!v.startsWith("ds-1.") || v.length() == 5) {
      return false;
    }
    for (int i = 5; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] b, int from, int to, byte v) {
    for (int i = from; i < to; i++) {
      if (b[i] == v) {
        return i;
      }
    }
    return -1;
  }

  private static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      sb.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return sb.toString();
  }
}
