package org.chunkcdm.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The members of a zip archive (ZIP64 included) read in place through {@link FileHandles}: the central directory once,
 * then each member by ranged reads, never extracted. A stored member is a byte range of the archive ({@link
 * Entry#dataOffset()}, found from its local header on first use); a deflated member is inflated whole, its size
 * checked against the directory; a member read whole is checked against its CRC-32. Every offset and size is checked against the archive's size before a read or an
 * allocation; errors name the archive and the member. Thread-safe.
 */
public final class ZipIndex {
  private static final int EOCD = 0x06054b50;
  private static final int ZIP64_EOCD = 0x06064b50;
  private static final int ZIP64_LOCATOR = 0x07064b50;
  private static final int CENTRAL = 0x02014b50;
  private static final int LOCAL = 0x04034b50;
  /** Stored (no compression). */
  public static final int STORED = 0;
  /** Deflate. */
  public static final int DEFLATED = 8;

  private final FileHandles files;
  private final Path zip;
  private final long size;
  private final Map<String, Entry> entries;

  /** One member: its name, compression and sizes as the central directory gives them. */
  public static final class Entry {
    private final String name;
    private final int method;
    private final long compressedSize;
    private final long size;
    private final long localHeader;
    private final long crc;
    private volatile long dataOffset = -1;

    Entry(String name, int method, long compressedSize, long size, long localHeader, long crc) {
      this.name = name;
      this.method = method;
      this.compressedSize = compressedSize;
      this.size = size;
      this.localHeader = localHeader;
      this.crc = crc;
    }

    public String name() {
      return name;
    }

    /** {@link #STORED}, {@link #DEFLATED} or another zip method number. */
    public int method() {
      return method;
    }

    public long compressedSize() {
      return compressedSize;
    }

    /** Uncompressed size. */
    public long size() {
      return size;
    }

    /** CRC-32 of the uncompressed bytes, as the directory gives it. */
    public long crc() {
      return crc;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private ZipIndex(FileHandles files, Path zip, long size, Map<String, Entry> entries) {
    this.files = files;
    this.zip = zip;
    this.size = size;
    this.entries = entries;
  }

  /** Reads the central directory of {@code zip} (at most {@code maxEntries} members). */
  public static ZipIndex read(FileHandles files, Path zip, int maxEntries) throws IOException {
    long size = files.size(zip);
    long[] dir = directory(files, zip, size); // {count, size, offset}
    if (dir[0] < 0 || dir[0] > maxEntries) {
      throw new FormatException(zip + ": " + dir[0] + " members, more than the " + maxEntries + " allowed");
    }
    if (dir[2] < 0 || dir[1] < 0 || dir[2] > size || dir[1] > size - dir[2]) {
      throw new FormatException(zip + ": central directory (" + dir[1] + " bytes at " + dir[2]
          + ") lies outside the archive of " + size + " bytes");
    }
    byte[] d = files.read(zip, dir[2], dir[1]);
    Map<String, Entry> out = new LinkedHashMap<>();
    int p = 0;
    for (long k = 0; k < dir[0]; k++) {
      p = entry(zip, size, d, p, k, out);
    }
    return new ZipIndex(files, zip, size, Collections.unmodifiableMap(out));
  }

  /** The central directory's {member count, size, offset}, from the end record (and its ZIP64 twin). */
  private static long[] directory(FileHandles files, Path zip, long size) throws IOException {
    if (size < 22) {
      throw new FormatException(zip + ": not a zip archive (" + size + " bytes, shorter than its end record)");
    }
    int tail = (int) Math.min(size, 22 + 0xFFFF);
    byte[] t = files.read(zip, size - tail, tail);
    int e = -1;
    for (int i = tail - 22; i >= 0; i--) {
      if (le32(t, i) == EOCD && i + 22 + le16(t, i + 20) == tail) {
        e = i;
        break;
      }
    }
    if (e < 0) {
      throw new FormatException(zip + ": not a zip archive (no end of central directory record)");
    }
    long count = le16(t, e + 10);
    long dirSize = le32u(t, e + 12);
    long dirOffset = le32u(t, e + 16);
    if (count != 0xFFFF && dirSize != 0xFFFFFFFFL && dirOffset != 0xFFFFFFFFL) {
      return new long[] {count, dirSize, dirOffset};
    }
    long locAt = size - tail + e - 20;
    byte[] loc = locAt < 0 ? null : files.read(zip, locAt, 20);
    if (loc == null || le32(loc, 0) != ZIP64_LOCATOR) {
      throw new FormatException(zip + ": ZIP64 archive without its end-of-directory locator");
    }
    long recAt = le64(loc, 8);
    if (recAt < 0 || recAt > size - 56) {
      throw new FormatException(zip + ": ZIP64 end record offset " + recAt + " lies outside the archive");
    }
    byte[] rec = files.read(zip, recAt, 56);
    if (le32(rec, 0) != ZIP64_EOCD) {
      throw new FormatException(zip + ": no ZIP64 end of central directory record at " + recAt);
    }
    return new long[] {le64(rec, 32), le64(rec, 40), le64(rec, 48)};
  }

  /** Central directory entry {@code k} at {@code d[p..]} into {@code out} (directories left out); the next entry's position. */
  private static int entry(Path zip, long size, byte[] d, int p, long k, Map<String, Entry> out) throws IOException {
    if (p + 46 > d.length || le32(d, p) != CENTRAL) {
      throw new FormatException(zip + ": central directory entry " + k + " is damaged");
    }
    int nameLen = le16(d, p + 28);
    int extraLen = le16(d, p + 30);
    int commentLen = le16(d, p + 32);
    if (p + 46 + nameLen + extraLen + commentLen > d.length) {
      throw new FormatException(zip + ": central directory entry " + k + " runs past the directory");
    }
    String name = new String(d, p + 46, nameLen, (le16(d, p + 8) & 0x800) != 0
        ? java.nio.charset.StandardCharsets.UTF_8 : java.nio.charset.StandardCharsets.ISO_8859_1);
    long[] v = {le32u(d, p + 24), le32u(d, p + 20), le32u(d, p + 42)}; // uncompressed, compressed, local header
    zip64Extra(d, p + 46 + nameLen, p + 46 + nameLen + extraLen, v);
    long csize = v[1];
    long local = v[2];
    if (v[0] < 0 || csize < 0 || local < 0 || local > size - 30 || csize > size - local - 30) {
      throw new FormatException(zip + ": member '" + name + "' (" + csize + " bytes at " + local
          + ") lies outside the archive of " + size + " bytes");
    }
    if (!name.endsWith("/")) {
      out.put(name, new Entry(name, le16(d, p + 10), csize, v[0], local, le32u(d, p + 16)));
    }
    return p + 46 + nameLen + extraLen + commentLen;
  }

  /** The ZIP64 extra field's 8-byte values for the fields of {@code v} that are 0xFFFFFFFF, in this order. */
  private static void zip64Extra(byte[] d, int x, int end, long[] v) {
    while (x + 4 <= end) {
      int id = le16(d, x);
      int len = le16(d, x + 2);
      if (x + 4 + len > end) {
        return;
      }
      if (id == 1) {
        int q = x + 4;
        for (int i = 0; i < 3; i++) {
          if (v[i] == 0xFFFFFFFFL && q + 8 <= x + 4 + len) {
            v[i] = le64(d, q);
            q += 8;
          }
        }
      }
      x += 4 + len;
    }
  }

  /** The archive. */
  public Path path() {
    return zip;
  }

  /** Member names (directories left out), in directory order. */
  public List<String> names() {
    return new ArrayList<>(entries.keySet());
  }

  /** The member called {@code name}, or null. */
  public Entry entry(String name) {
    return entries.get(name);
  }

  /** Offset of a member's data in the archive (from its local header, read once). */
  public long dataOffset(Entry e) throws IOException {
    long off = e.dataOffset;
    if (off < 0) {
      byte[] h = files.read(zip, e.localHeader, 30);
      if (le32(h, 0) != LOCAL) {
        throw new FormatException(zip + ": member '" + e.name + "' has no local header at " + e.localHeader);
      }
      off = e.localHeader + 30 + le16(h, 26) + le16(h, 28);
      if (off > size || e.compressedSize > size - off) {
        throw new FormatException(zip + ": member '" + e.name + "' (" + e.compressedSize + " bytes at " + off
            + ") lies outside the archive of " + size + " bytes");
      }
      e.dataOffset = off;
    }
    return off;
  }

  /**
   * Reads {@code len} bytes at {@code pos} of a stored member (a ranged read of the archive); a deflated member has
   * no ranges ({@link #readAll}).
   */
  public void readRange(Entry e, long pos, byte[] dst, int off, int len) throws IOException {
    if (e.method != STORED) {
      throw new FormatException(zip + ": member '" + e.name + "' is compressed (method " + e.method
          + "); only stored members can be read by range");
    }
    if (pos < 0 || len < 0 || pos > e.size - len) {
      throw new FormatException(zip + ": member '" + e.name + "': " + len + " bytes at " + pos + " lie past its end ("
          + e.size + " bytes)");
    }
    files.readFully(zip, dataOffset(e) + pos, dst, off, len);
  }

  /** A whole member (stored or deflated), refusing members larger than {@code maxBytes}. */
  public byte[] readAll(Entry e, long maxBytes) throws IOException {
    if (e.size > maxBytes) {
      throw new FormatException(zip + ": member '" + e.name + "' holds " + e.size + " bytes, more than the " + maxBytes
          + " expected");
    }
    Bounds.checkAllocation(e.size, zip + ": member '" + e.name + "'");
    if (e.method == STORED) {
      if (e.compressedSize != e.size) {
        throw new FormatException(zip + ": stored member '" + e.name + "' has " + e.compressedSize
            + " stored bytes for " + e.size + " bytes");
      }
      byte[] b = new byte[(int) e.size];
      files.readFully(zip, dataOffset(e), b, 0, b.length);
      return checkCrc(e, b);
    }
    if (e.method != DEFLATED) {
      throw new FormatException(zip + ": member '" + e.name + "' uses zip compression method " + e.method
          + " (only stored and deflated members are read)");
    }
    Bounds.checkAllocation(e.compressedSize, zip + ": member '" + e.name + "'");
    byte[] c = files.read(zip, dataOffset(e), e.compressedSize);
    byte[] out = new byte[(int) e.size];
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(c);
      int n = Inflation.inflateInto(inf, out);
      if (n != out.length || !inf.finished() && inf.inflate(new byte[1]) > 0) {
        throw new FormatException(zip + ": member '" + e.name + "' inflates to " + (n == out.length ? "more than " : "")
            + n + " bytes, the directory says " + e.size);
      }
    } catch (DataFormatException ex) {
      throw new FormatException(zip + ": member '" + e.name + "' is not a valid deflate stream: " + ex.getMessage(), ex);
    } finally {
      inf.end();
    }
    return checkCrc(e, out);
  }

  private byte[] checkCrc(Entry e, byte[] b) throws FormatException {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(b);
    if (crc.getValue() != e.crc) {
      throw new FormatException(zip + ": member '" + e.name + "' does not match its CRC-32 (damaged archive)");
    }
    return b;
  }

  private static int le16(byte[] b, int p) {
    return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8;
  }

  private static int le32(byte[] b, int p) {
    return le16(b, p) | le16(b, p + 2) << 16;
  }

  private static long le32u(byte[] b, int p) {
    return le32(b, p) & 0xFFFFFFFFL;
  }

  private static long le64(byte[] b, int p) {
    return le32u(b, p) | le32u(b, p + 4) << 32;
  }
}
