package org.chunkcdm.blosc2stores;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.ZipIndex;
import org.chunkcdm.sframe.ContiguousFrame;

/**
 * The physical side of a python-blosc2 container: its key-map frame ({@code embed.b2e}, or the {@code .b2e} file
 * itself), the store marker that frame carries, and every stored value (leaf) by key, each a contiguous frame in
 * its own file ({@code .b2d}), in a stored zip member ({@code .b2z}) or at (offset, length) of the key-map frame's
 * byte stream (embedded). Opening reads the zip's central directory or walks the directory, and reads the key-map
 * frame's header, index and trailer; a leaf's frame is opened by {@link Leaf#open()} (header, index, trailer).
 * Layout: docs/specs/blosc2-stores.md.
 */
final class Container {
  /** How the container is stored. */
  enum Storage {
    DIRECTORY("directory"),
    ZIP("zip"),
    FRAME("frame");

    final String text;

    Storage(String text) {
      this.text = text;
    }
  }

  static final String EMBED = "embed.b2e";
  /** The suffixes python-blosc2 gives external leaves (NDArray, SChunk, BatchArray). */
  static final List<String> SUFFIXES = List.of(".b2nd", ".b2f", ".b2b");
  /** Most leaves (files, zip members, key-map entries) a container may have. */
  static final int MAX_LEAVES = 1 << 20;
  /** Deepest directory level walked under a {@code .b2d}. */
  static final int MAX_DEPTH = 64;
  /** Metalayers of frames python-blosc2 reads as Python objects, not as arrays. */
  static final List<String> OBJECT_MARKERS = List.of("vlarray", "batcharray");

  final String label;
  final Storage storage;
  final FileHandles files;
  /** The key-map frame and its byte stream. */
  final ContiguousFrame embed;
  final EmbedStream stream;
  /** {@code b2embed}, {@code b2dict}, {@code b2tree}, or null when the key-map frame carries none. */
  final String marker;
  /** Every leaf by key ("/a/b"), in key order; an external leaf wins over an embedded one of the same key. */
  final Map<String, Leaf> leaves;
  /** Values that are not read, with the reason ("key: why"). */
  final List<String> ignored = new ArrayList<>();
  private final ZipIndex zip;

  /** One stored value. */
  final class Leaf {
    final String key;
    /** Where it lies, for messages: a file or member name, or "embedded at offset N". */
    final String where;
    private final Path file; // external file (directory) or the archive (zip)
    private final ZipIndex.Entry member;
    private final long offset;
    private final long length;

    private Leaf(String key, String where, Path file, ZipIndex.Entry member, long offset, long length) {
      this.key = key;
      this.where = where;
      this.file = file;
      this.member = member;
      this.offset = offset;
      this.length = length;
    }

    boolean embedded() {
      return file == null;
    }

    /** What messages about this value start with. */
    String name() {
      return label + ": key '" + key + "' (" + where + ")";
    }

    /** The value's frame: header, offsets index and trailer read, no chunk. */
    ContiguousFrame open() throws IOException {
      if (file == null) {
        return ContiguousFrame.open(stream.slice(key, offset, length), name());
      }
      if (member == null) {
        return ContiguousFrame.open(files, file, 0, -1, name());
      }
      return ContiguousFrame.open(files, file, zip.dataOffset(member), member.size(), name());
    }

    /** The first bytes of the value (at most {@code n}), to tell what it is before opening it. */
    byte[] head(int n) throws IOException {
      if (file == null) {
        byte[] b = new byte[(int) Math.min(n, length)];
        stream.slice(key, offset, length).read(0, b, 0, b.length);
        return b;
      }
      long at = member == null ? 0 : zip.dataOffset(member);
      long size = member == null ? files.size(file) : member.size();
      return files.read(file, at, Math.min(n, size));
    }

    @Override
    public String toString() {
      return key + " (" + where + ")";
    }
  }

  private Container(String label, Storage storage, FileHandles files, ZipIndex zip, ContiguousFrame embed)
      throws IOException {
    this.label = label;
    this.storage = storage;
    this.files = files;
    this.zip = zip;
    this.embed = embed;
    this.stream = new EmbedStream(embed, label + ": " + EMBED);
    String m = null;
    for (String name : embed.metalayers().keySet()) {
      if (ContiguousFrame.STORE_MARKERS.contains(name)) {
        m = name;
        break;
      }
    }
    this.marker = m;
    this.leaves = new TreeMap<>();
  }

  /** A {@code .b2d} directory (its {@code embed.b2e} must exist) read through {@code files} (rooted there). */
  static Container directory(FileHandles files, Path dir) throws IOException {
    Path e = dir.resolve(EMBED);
    if (!Files.isRegularFile(e)) {
      throw new FormatException(dir + ": no " + EMBED + " in the directory: not a python-blosc2 DictStore/TreeStore");
    }
    if (!Locations.canList(dir)) {
      throw new FormatException(dir + ": a python-blosc2 directory store (.b2d) keeps its values in files found by "
          + "listing the directory, which a plain HTTP server cannot give (open it through S3, e.g. "
          + "s3://bucket/path, or as a .b2z zip store)");
    }
    Container c = new Container(dir.toString(), Storage.DIRECTORY, files, null,
        ContiguousFrame.open(files, e, 0, -1, dir + ": " + EMBED));
    c.readEmbedMap();
    List<Path> found = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir, MAX_DEPTH)) {
      Iterator<Path> it = s.iterator();
      while (it.hasNext()) {
        Path p = it.next();
        if (Files.isRegularFile(p) && !p.equals(e)) {
          if (found.size() >= MAX_LEAVES) {
            throw new FormatException(dir + ": more than " + MAX_LEAVES + " files in the store");
          }
          found.add(p);
        }
      }
    } catch (UncheckedIOException x) {
      throw new IOException(dir + ": cannot list the store: " + x.getCause().getMessage(), x.getCause());
    }
    Collections.sort(found);
    for (Path p : found) {
      String rel = dir.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
      try {
        files.checkInside(p);
      } catch (IOException x) { // a link leading out of the store is never read
        c.ignored.add("/" + rel + ": " + x.getMessage());
        continue;
      }
      c.addExternal(rel, p, null);
    }
    return c;
  }

  /** A {@code .b2z} archive (stored members read in place) read through {@code files} (rooted at the archive). */
  static Container zip(FileHandles files, Path archive) throws IOException {
    ZipIndex z = ZipIndex.read(files, archive, MAX_LEAVES);
    ZipIndex.Entry e = z.entry(EMBED);
    if (e == null) {
      throw new FormatException(archive + ": no member " + EMBED + ": not a python-blosc2 DictStore/TreeStore archive");
    }
    if (e.method() != ZipIndex.STORED || e.compressedSize() != e.size()) {
      throw new FormatException(archive + ": member " + EMBED + " is compressed (zip method " + e.method()
          + "); a .b2z is read in place, so its members must be stored uncompressed (unzip it and open the directory)");
    }
    Container c = new Container(archive.toString(), Storage.ZIP, files, z,
        ContiguousFrame.open(files, archive, z.dataOffset(e), e.size(), archive + ": member " + EMBED));
    c.readEmbedMap();
    for (String name : z.names()) {
      if (!name.equals(EMBED)) {
        c.addExternal(name, archive, z.entry(name));
      }
    }
    return c;
  }

  /** An EmbedStore file ({@code .b2e}): one frame holding every value in its byte stream. */
  static Container frame(FileHandles files, Path file) throws IOException {
    Container c = new Container(file.toString(), Storage.FRAME, files, null,
        ContiguousFrame.open(files, file, 0, -1, file.toString()));
    c.readEmbedMap();
    return c;
  }

  /** The vlmeta {@code estore_metadata} of the key-map frame: {"embed_map": {key: {offset, length}}, ...}. */
  private void readEmbedMap() throws IOException {
    if (!embed.vlmetalayers().containsKey("estore_metadata")) {
      if (embed.nbytes() == 0) {
        return; // nothing embedded, no map
      }
      throw new FormatException(label + ": " + EMBED + " holds " + embed.nbytes()
          + " bytes but no key map (vlmeta 'estore_metadata')");
    }
    JsonNode meta = embed.vlmetaJson("estore_metadata");
    if (meta == null || !meta.isObject()) {
      throw new FormatException(label + ": the key map (vlmeta 'estore_metadata' of " + EMBED
          + ") is not a msgpack map");
    }
    JsonNode map = meta.path("embed_map");
    if (map.isMissingNode() || map.isNull()) {
      return;
    }
    if (!map.isObject()) {
      throw new FormatException(label + ": the key map's 'embed_map' is not a map");
    }
    if (map.size() > MAX_LEAVES) {
      throw new FormatException(label + ": the key map lists " + map.size() + " keys, more than " + MAX_LEAVES);
    }
    Iterator<Map.Entry<String, JsonNode>> it = map.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      JsonNode v = e.getValue();
      if (v.has("urlbase") || v.has("path") && !v.has("offset")) {
        ignored.add(key + ": a reference to a remote array (C2Array), no data in the store");
        continue;
      }
      JsonNode off = v.path("offset");
      JsonNode len = v.path("length");
      if (!off.isIntegralNumber() || !len.isIntegralNumber() || !off.canConvertToLong() || !len.canConvertToLong()) {
        throw new FormatException(label + ": key '" + key + "': the key map entry " + v
            + " has no integer offset and length");
      }
      stream.slice(key, off.longValue(), len.longValue()); // checks the range against the stream
      leaves.put(key, new Leaf(key, "embedded at offset " + off.longValue() + " of " + EMBED, null, null,
          off.longValue(), len.longValue()));
    }
  }

  /** A file or member at relative path {@code rel}: a leaf when it has a leaf suffix or is a contiguous frame. */
  private void addExternal(String rel, Path file, ZipIndex.Entry member) throws IOException {
    String suffix = suffix(rel);
    boolean canonical = SUFFIXES.contains(suffix);
    if (member != null && (member.method() != ZipIndex.STORED || member.compressedSize() != member.size())) {
      if (canonical) { // python-blosc2 leaves a deflated member unmapped: there is no frame where it lies
        ignored.add("/" + rel + ": zip member is compressed (method " + member.method() + "), not read in place");
      }
      return;
    }
    String key = "/" + (suffix.isEmpty() ? rel : rel.substring(0, rel.length() - suffix.length()));
    String where = member != null ? "member " + rel : rel;
    Leaf leaf = new Leaf(key, where, file, member, 0, 0);
    if (!canonical && !isFrame(leaf)) {
      return; // python-blosc2 probes other files and keeps only those that open as Blosc2 objects
    }
    leaves.put(key, leaf); // a file wins over an embedded value of the same key
  }

  /** A contiguous frame (magic, frame type 0) at the leaf's start. */
  private static boolean isFrame(Leaf leaf) {
    try {
      byte[] h = leaf.head(27);
      return h.length == 27 && startsWithMagic(h) && h[26] == 0;
    } catch (IOException e) {
      return false;
    }
  }

  static boolean startsWithMagic(byte[] h) {
    byte[] magic = {(byte) 0x9e, (byte) 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0};
    return h.length >= magic.length && Arrays.equals(h, 0, magic.length, magic, 0, magic.length);
  }

  /** {@code .b2nd} of {@code a/b.c.b2nd}: the last dot of the last segment, or "" when it has none. */
  static String suffix(String rel) {
    int slash = rel.lastIndexOf('/');
    int dot = rel.lastIndexOf('.');
    return dot > slash + 1 ? rel.substring(dot) : "";
  }

  /**
   * Why a leaf is not an array python-blosc2 would give as NDArray or SChunk (a BatchArray, an ObjectArray or
   * another frame of variable-length blocks), or null when it is one.
   */
  String notAnArray(Leaf leaf) throws IOException {
    if (leaf.where.endsWith(".b2b")) {
      return "a BatchArray (variable-length batches of Python objects)";
    }
    byte[] h = leaf.head(ContiguousFrame.PROBE_BYTES);
    if (!startsWithMagic(h) || h.length < 27) {
      return null; // opening it reports what is wrong
    }
    if ((h[25] & 0x80) != 0) {
      return "a frame of variable-length blocks (Python objects)";
    }
    for (String m : ContiguousFrame.metalayerNames(h)) {
      if (OBJECT_MARKERS.contains(m)) {
        return "an " + (m.equals("vlarray") ? "ObjectArray" : "BatchArray") + " (Python objects)";
      }
    }
    return null;
  }
}
