package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.ZipIndex;

/**
 * A zip store ({@code zarr.ZipStore}): key = member name, read in place through {@link ZipIndex} (stored members by
 * ranged reads of the archive, deflated ones whole).
 */
final class ZipStore extends Store {
  /** More members than this is not a zip store this reader opens. */
  static final int MAX_MEMBERS = 10_000_000;

  private final FileHandles files;
  private final ZipIndex zip;

  ZipStore(FileHandles files, Path zipFile) throws IOException {
    this.files = files;
    this.zip = ZipIndex.read(files, zipFile, MAX_MEMBERS);
  }

  @Override
  Path root() {
    return zip.path();
  }

  @Override
  String describe(String key) {
    return zip.path() + "!" + key;
  }

  @Override
  byte[] get(String key, long maxBytes) throws IOException {
    ZipIndex.Entry e = zip.entry(key);
    return e == null ? null : zip.readAll(e, maxBytes);
  }

  @Override
  long size(String key) {
    ZipIndex.Entry e = zip.entry(key);
    return e == null ? -1 : e.size();
  }

  @Override
  byte[] getRange(String key, long offset, int len) throws IOException {
    ZipIndex.Entry e = zip.entry(key);
    if (e == null) {
      return null;
    }
    if (offset < 0 || len < 0 || offset > e.size() - len) {
      throw new FormatException(describe(key) + ": " + len + " bytes at offset " + offset + " lie past its end ("
          + e.size() + " bytes)");
    }
    byte[] b = new byte[len];
    if (e.method() == ZipIndex.STORED) {
      zip.readRange(e, offset, b, 0, len);
    } else { // a deflated member has no ranges: inflate it whole
      byte[] all = zip.readAll(e, org.chunkcdm.io.Bounds.MAX_ARRAY);
      System.arraycopy(all, (int) offset, b, 0, len);
    }
    return b;
  }

  @Override
  List<String> list(String prefix) {
    TreeSet<String> out = new TreeSet<>();
    for (String n : zip.names()) {
      if (n.startsWith(prefix) && n.length() > prefix.length()) {
        String rest = n.substring(prefix.length());
        int slash = rest.indexOf('/');
        if (slash > 0) {
          out.add(rest.substring(0, slash));
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** True when the archive has a member named {@code key}. */
  boolean has(String key) {
    return zip.entry(key) != null;
  }

  @Override
  long lastModified() {
    return files.lastModified();
  }

  @Override
  public void close() throws IOException {
    files.close();
  }
}
