package org.chunkcdm.remote;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Zarr stores written here and uploaded to the test server's fixtures bucket under {@code gen/}, for request
 * counts that must not depend on the number of chunks: 1-D int32 arrays whose element i holds {@code 3 * i},
 * chunks of {@link #CHUNK} elements stored raw (no compressor), little-endian.
 */
final class GeneratedZarr {
  static final int CHUNK = 256;

  private GeneratedZarr() {}

  /** The expected little-endian bytes of elements [first, first + count). */
  static byte[] values(long first, int count) {
    ByteBuffer b = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      b.putInt((int) (3 * (first + i)));
    }
    return b.array();
  }

  private static void put(String key, byte[] bytes) {
    S3Fixtures.server().put(S3Fixtures.BUCKET, key, bytes);
  }

  private static void put(String key, String json) {
    put(key, json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A Zarr v2 array store of {@code chunks} chunk objects ({@code 0}, {@code 1}, ...) at {@code gen/<name>}; the
   * chunks listed in {@code skip} are not written (they read as the fill value 0). Returns the store's key.
   */
  static String v2(String name, int chunks, int... skip) {
    String key = "gen/" + name;
    put(key + "/.zarray", "{\"zarr_format\": 2, \"shape\": [" + (long) chunks * CHUNK + "], \"chunks\": [" + CHUNK
        + "], \"dtype\": \"<i4\", \"compressor\": null, \"filters\": null, \"fill_value\": 0, \"order\": \"C\"}");
    put(key + "/.zattrs", "{\"units\": \"m\"}");
    for (int c = 0; c < chunks; c++) {
      if (!contains(skip, c)) {
        put(key + "/" + c, values((long) c * CHUNK, CHUNK));
      }
    }
    return key;
  }

  /** The zarr.json of a v3 array of {@code chunks} raw chunks. */
  private static String v3Array(int chunks) {
    return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [" + (long) chunks * CHUNK
        + "], \"data_type\": \"int32\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": ["
        + CHUNK + "]}}, \"chunk_key_encoding\": {\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}, "
        + "\"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}], "
        + "\"attributes\": {\"units\": \"m\"}}";
  }

  /**
   * A Zarr v3 group store holding the array {@code obs/temp} of {@code chunks} chunks, its metadata consolidated
   * into the root zarr.json (as zarr-python's consolidate_metadata writes it) or not. Returns the store's key.
   */
  static String v3Group(String name, int chunks, boolean consolidated) {
    String key = "gen/" + name;
    String group = "{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {}}";
    String root = !consolidated ? group : "{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {}, "
        + "\"consolidated_metadata\": {\"kind\": \"inline\", \"must_understand\": false, \"metadata\": {\"obs\": "
        + group + ", \"obs/temp\": " + v3Array(chunks) + "}}}";
    put(key + "/zarr.json", root);
    put(key + "/obs/zarr.json", group);
    v3At(key + "/obs/temp", chunks);
    return key;
  }

  /** A Zarr v3 array store of {@code chunks} chunk objects ({@code c/0}, {@code c/1}, ...); returns its key. */
  static String v3(String name, int chunks) {
    String key = "gen/" + name;
    v3At(key, chunks);
    return key;
  }

  /** The v3 array at {@code key}: its zarr.json and its chunk objects. */
  private static void v3At(String key, int chunks) {
    put(key + "/zarr.json", v3Array(chunks));
    for (int c = 0; c < chunks; c++) {
      put(key + "/c/" + c, values((long) c * CHUNK, CHUNK));
    }
  }

  /**
   * A sharded Zarr v3 array: one shard object {@code c/0} of {@code inner} inner chunks of {@link #CHUNK}
   * elements, stored one after the other from offset 0, its index (offset, size pairs, little-endian) at its end.
   */
  static String sharded(String name, int inner) {
    String key = "gen/" + name;
    long n = (long) inner * CHUNK;
    put(key + "/zarr.json", "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [" + n + "], \"data_type\": "
        + "\"int32\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [" + n + "]}}, "
        + "\"chunk_key_encoding\": {\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}, "
        + "\"fill_value\": 0, \"codecs\": [{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": ["
        + CHUNK + "], \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}], "
        + "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}], "
        + "\"index_location\": \"end\"}}], \"attributes\": {}}");
    ByteBuffer shard = ByteBuffer.allocate((int) (4 * n + 16L * inner)).order(ByteOrder.LITTLE_ENDIAN);
    shard.put(values(0, (int) n));
    for (int c = 0; c < inner; c++) {
      shard.putLong(4L * CHUNK * c).putLong(4L * CHUNK);
    }
    put(key + "/c/0", shard.array());
    return key;
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }
}
