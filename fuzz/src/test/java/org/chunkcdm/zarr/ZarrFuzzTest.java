package org.chunkcdm.zarr;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.chunkcdm.chunk.ChunkData;
import org.chunkcdm.fuzz.FuzzSupport;
import org.chunkcdm.io.FormatException;
import org.junit.jupiter.api.BeforeAll;

/**
 * iosp-zarr's parsers on any bytes: they return or throw an IOException (never another exception, an
 * OutOfMemoryError at -Xmx256m or a hang).
 *
 * <ul>
 *   <li>{@link #zarrMetadata}: byte 0 chooses the document (0 v2 {@code .zarray} at the root, 1 v3 {@code zarr.json},
 *       2 v2 {@code .zmetadata} with a root {@code .zgroup}, 3 v3 {@code zarr.json} of a group with an array child
 *       {@code a} whose metadata is the rest); the rest is the JSON. The store's hierarchy is read and the first
 *       chunks of every array decoded; the stored chunks are the bytes themselves (so codecs see them too).
 *   <li>{@link #shardIndex}: a sharded v3 array of 4 x 6 int16 in shards of 4 x 6 and inner chunks of 2 x 3, its one
 *       shard the input after byte 0 (bit 0: index at the start, bit 1: index with CRC-32C, bit 2: inner chunks
 *       zstd-compressed); every inner chunk is read.
 * </ul>
 */
class ZarrFuzzTest {
  @BeforeAll
  static void warmUp() {
    FuzzSupport.warmUp(ZarrFuzzTest.class);
  }

  /** A store in memory. */
  static final class MemoryStore extends Store {
    final Map<String, byte[]> keys = new TreeMap<>();

    @Override
    Path root() {
      return Path.of("memory.zarr");
    }

    @Override
    String describe(String key) {
      return "memory.zarr/" + key;
    }

    @Override
    byte[] get(String key, long maxBytes) throws IOException {
      byte[] b = keys.get(key);
      if (b != null && b.length > maxBytes) {
        throw new FormatException(key + ": too large");
      }
      return b;
    }

    @Override
    long size(String key) {
      byte[] b = keys.get(key);
      return b == null ? -1 : b.length;
    }

    @Override
    byte[] getRange(String key, long offset, int len) throws IOException {
      byte[] b = keys.get(key);
      if (b == null) {
        return null;
      }
      if (offset < 0 || len < 0 || offset > b.length - len) {
        throw new FormatException(key + ": range outside");
      }
      return Arrays.copyOfRange(b, (int) offset, (int) offset + len);
    }

    @Override
    List<String> list(String prefix) {
      TreeSet<String> out = new TreeSet<>();
      for (String k : keys.keySet()) {
        if (k.startsWith(prefix)) {
          String rest = k.substring(prefix.length());
          int i = rest.indexOf('/');
          if (i > 0) {
            out.add(rest.substring(0, i));
          }
        }
      }
      return new ArrayList<>(out);
    }

    @Override
    long lastModified() {
      return 0;
    }

    @Override
    public void close() {}
  }

  private static void readSome(ZarrTree t) throws IOException {
    int arrays = 0;
    for (Node n : t.arrayDims.keySet()) {
      if (n.array == null || arrays++ > 4) {
        continue;
      }
      long count = Math.min(3, n.array.grid().chunkCount());
      for (long k = 0; k < count; k++) {
        ChunkData c = n.array.chunk(k);
        if (c != null && c.size() <= FuzzSupport.MAX_DECODE) {
          c.readAll();
          c.release();
        }
      }
    }
  }

  @FuzzTest
  void zarrMetadata(byte[] data) {
    if (data.length < 2) {
      return;
    }
    byte[] doc = Arrays.copyOfRange(data, 1, data.length);
    MemoryStore s = new MemoryStore();
    switch (data[0] & 3) {
      case 0:
        s.keys.put(".zarray", doc);
        break;
      case 1:
        s.keys.put("zarr.json", doc);
        break;
      case 2:
        s.keys.put(".zmetadata", doc);
        break;
      default:
        s.keys.put("zarr.json", "{\"zarr_format\": 3, \"node_type\": \"group\"}".getBytes(StandardCharsets.UTF_8));
        s.keys.put("a/zarr.json", doc);
        break;
    }
    // every plausible chunk key of small arrays holds the document too: codecs and filters get bytes to chew on
    for (String k : new String[] {"0", "0.0", "0/0", "c", "c/0", "c/0/0", "c.0.0", "a/c/0", "a/c/0/0", "a/0.0"}) {
      s.keys.putIfAbsent(k, doc);
    }
    FuzzSupport.expectIoOnly(() -> readSome(ZarrTree.read(s, "fuzz")));
  }

  static String shardMeta(int flags) {
    String inner = (flags & 4) != 0
        ? "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\", \"configuration\": {\"level\": 1}}]"
        : "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
    String index = (flags & 2) != 0
        ? "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"crc32c\"}]"
        : "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
    return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [4, 6], \"data_type\": \"int16\","
        + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [4, 6]}},"
        + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": -1, \"codecs\": [{\"name\": \"sharding_indexed\","
        + " \"configuration\": {\"chunk_shape\": [2, 3], \"codecs\": " + inner + ", \"index_codecs\": " + index
        + ", \"index_location\": \"" + ((flags & 1) != 0 ? "start" : "end") + "\"}}]}";
  }

  @FuzzTest
  void shardIndex(byte[] data) {
    if (data.length < 1) {
      return;
    }
    MemoryStore s = new MemoryStore();
    s.keys.put("zarr.json", shardMeta(data[0]).getBytes(StandardCharsets.UTF_8));
    s.keys.put("c/0/0", Arrays.copyOfRange(data, 1, data.length));
    FuzzSupport.expectIoOnly(() -> {
      ZarrTree t = ZarrTree.read(s, "fuzz");
      ZarrArray a = t.root.array;
      for (long k = 0; k < a.grid().chunkCount(); k++) {
        ChunkData c = a.chunk(k);
        if (c != null) {
          c.readAll();
        }
      }
    });
  }
}
