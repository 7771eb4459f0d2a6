package org.chunkcdm.ds;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;

/**
 * The start of a {@code .ds} file: the version line {@code ds-<major>.<minor>\n} (absent in the pre-1.0
 * experimental layout, whose header starts the file), then one line of JSON. Reading stops at the header's
 * {@code \n}: the body is never touched when a file is opened.
 *
 * <p>The header's members are found by {@link HeaderScan} when the header is plain, else parsed by
 * {@link HeaderJson} ({@link #parse}), the reference path that reports every error.
 */
final class DsHeader {
  /** Largest header accepted (a 200-variable header is 45 kB); documented in docs/RELIABILITY.md. */
  static final int MAX_HEADER = 64 << 20;
  /** First read: enough for the header of every ordinary file. */
  static final int FIRST_READ = 16 << 10;

  /** The version line without its newline, or null for the experimental layout. */
  final String version;
  /** Variable members in header order (keys starting with "." other than "." itself are skipped); see {@link #parse}. */
  List<Member> members;
  /** The {@code "."} member (dataset attributes), or null when absent; see {@link #parse}. */
  JsonNode dataset;
  /** File position of the body's first byte. */
  final long bodyStart;
  final long fileSize;
  /** The file's first bytes as read to find the header (kept by {@link DsFile} when small). */
  final byte[] prefix;
  /** The bytes holding the header line ({@link #headerStart} to {@link #headerEnd}). */
  final byte[] buf;
  final int headerStart;
  final int headerEnd;
  /** The header's top-level members as found by {@link HeaderScan#scan} (null when the header is not of that plain shape). */
  final List<HeaderScan.Span> spans;
  private final Path file;

  private DsHeader(Path file, String version, int headerStart, Line line, long fileSize) {
    this.file = file;
    this.version = version;
    this.buf = line.buf;
    // the first read's bytes, kept for the body's reads when they are the whole small read
    this.prefix = buf.length <= FIRST_READ ? buf : new byte[0];
    this.headerStart = headerStart;
    this.headerEnd = line.end;
    this.bodyStart = headerEnd + 1L;
    this.fileSize = fileSize;
    this.spans = HeaderScan.scan(buf, headerStart, headerEnd);
  }

  private static final byte[] V10 = "ds-1.0\n".getBytes(StandardCharsets.US_ASCII);
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /** True when these first bytes begin a ds-1.x file ("ds-"). */
  static boolean hasVersionPrefix(byte[] b, int n) {
    return n >= 3 && b[0] == 'd' && b[1] == 's' && b[2] == '-';
  }

  /** The file as already opened by a host (netcdf-java's RandomAccessFile in the IOSP), for the first read. */
  interface Opening {
    long length() throws IOException;

    /** Reads the file's first {@code buf.length} bytes. */
    void readFully(byte[] buf) throws IOException;
  }

  /**
   * Reads the version line and the header. {@code raf} (the file netcdf-java opened, or null) serves the first
   * read: its buffer already holds the file's first bytes, which netcdf-java read to ask the IOSPs.
   */
  static DsHeader read(FileHandles files, Path file, Opening raf) throws IOException {
    long size = raf != null ? raf.length() : files.size(file);
    byte[] buf = firstRead(files, file, raf, size);
    if (buf.length == 0) {
      throw new FormatException(file + ": empty file, not a ds file");
    }
    String version = version(file, buf);
    int headerStart = version == null ? 0 : version.length() + 1;
    return new DsHeader(file, version, headerStart, headerLine(files, file, size, buf, headerStart), size);
  }

  /** The file's first {@link #FIRST_READ} bytes (fewer for a smaller file). */
  private static byte[] firstRead(FileHandles files, Path file, Opening raf, long size) throws IOException {
    byte[] buf = new byte[(int) Math.min(size, FIRST_READ)];
    if (raf != null) {
      try {
        raf.readFully(buf);
      } catch (java.io.EOFException e) {
        throw new IOException(file + ": file ended within its first " + buf.length + " bytes while being read", e);
      }
    } else {
      files.readFully(file, 0, buf, 0, buf.length);
    }
    return buf;
  }

  /** The version line without its newline, or null when the JSON header starts the file (experimental layout). */
  private static String version(Path file, byte[] buf) throws IOException {
    int have = buf.length;
    if (have >= V10.length && Arrays.equals(buf, 0, V10.length, V10, 0, V10.length)) {
      return "ds-1.0"; // the usual line, without a String made per file
    }
    if (hasVersionPrefix(buf, have)) {
      int nl = indexOf(buf, 0, have, (byte) '\n');
      if (nl < 0 || nl > 32) {
        throw new FormatException(file + ": the version line 'ds-<x>.<y>' is not ended by a newline within 32 bytes");
      }
      String version = new String(buf, 0, nl, StandardCharsets.ISO_8859_1);
      if (!isVersion1(version)) {
        throw new FormatException(file + ": unsupported ds format version '" + printable(version)
            + "' (this reader knows ds-1.x)");
      }
      return version;
    }
    if (buf[0] != '{') {
      throw new FormatException(file + ": not a ds file (no 'ds-' version line and no JSON header)");
    }
    return null;
  }

  /** The bytes holding the header line, and the index of its terminating newline. */
  private record Line(byte[] buf, int end) {}

  /**
   * Finds the header's terminating newline from {@code headerStart}, reading more of the file (up to
   * {@link #MAX_HEADER} bytes) while it is not in {@code buf}.
   */
  private static Line headerLine(FileHandles files, Path file, long size, byte[] buf, int headerStart)
      throws IOException {
    int have = buf.length;
    int from = headerStart;
    while (true) {
      int end = endOrNul(file, buf, from, have);
      if (end >= 0) {
        return new Line(buf, end);
      }
      if (have >= size) {
        throw new FormatException(file + ": the header line has no terminating newline (file of " + size
            + " bytes truncated?)");
      }
      if (have >= MAX_HEADER) {
        throw new FormatException(file + ": no header end within the first " + MAX_HEADER + " bytes");
      }
      from = have;
      int next = (int) Math.min(Math.min(size, MAX_HEADER), 4L * have);
      // the header buffer is bounded by the file size, MAX_HEADER and the heap, checked before it grows
      Bounds.checkAllocation(next, file + ": header buffer");
      buf = Arrays.copyOf(buf, next);
      files.readFully(file, have, buf, have, next - have);
      have = next;
    }
  }

  /**
   * The header's end in {@code buf[from, have)}, or -1, refusing a NUL byte before it (one pass): a JSON text
   * never holds one, so a zero-filled (sparse, half-copied) file is refused at once.
   */
  private static int endOrNul(Path file, byte[] buf, int from, int have) throws IOException {
    int nul = -1;
    int end = -1;
    for (int k = cleanWords(buf, from, have); k < have; k++) {
      byte c = buf[k];
      if (c == '\n') {
        end = k;
        break;
      }
      if (c == 0 && nul < 0) {
        nul = k;
      }
    }
    if (nul >= 0) {
      throw new FormatException(file + ": NUL byte at offset " + nul + " inside the JSON header (a corrupt or"
          + " partly written file)");
    }
    return end;
  }

  /**
   * Parses the header with Jackson's streaming parser into {@link #members} and {@link #dataset} (the reference
   * path: every header goes through it unless {@link DsDatasets} served it from its member templates).
   */
  DsHeader parse() throws IOException {
    if (members == null) {
      HeaderJson.parse(this, file);
    }
    return this;
  }

  /**
   * The start of the first 8-byte word from {@code from} that holds a newline or a NUL byte (or the last
   * bytes that make no whole word): the bytes before it hold neither, so the byte loop can start there.
   */
  private static int cleanWords(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long v = (long) LONGS.get(b, i);
      long nl = v ^ 0x0A0A0A0A0A0A0A0AL;
      long flags = ((v - 0x0101010101010101L) & ~v) | ((nl - 0x0101010101010101L) & ~nl);
      if ((flags & 0x8080808080808080L) != 0) {
        return i;
      }
    }
    return i;
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
