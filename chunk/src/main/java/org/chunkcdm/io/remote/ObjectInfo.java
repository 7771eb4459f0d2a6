package org.chunkcdm.io.remote;

/**
 * What a store says about one object: its size in bytes, its ETag (null when the server sends none) and its
 * last-modified time in milliseconds (0 when unknown).
 */
public record ObjectInfo(long size, String etag, long lastModified) {
  /**
   * A number that changes whenever the object does: the last-modified time, its milliseconds (which HTTP dates
   * lack) taken from the ETag, so that an object replaced within the same second still counts as changed.
   */
  public long version() {
    if (etag == null || etag.isEmpty()) {
      return lastModified;
    }
    long second = lastModified - Math.floorMod(lastModified, 1000);
    return second + Math.floorMod(etag.hashCode(), 1000);
  }
}
