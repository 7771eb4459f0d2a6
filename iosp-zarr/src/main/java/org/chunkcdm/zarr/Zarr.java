package org.chunkcdm.zarr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.Locations;
import org.chunkcdm.io.ZipIndex;
import org.chunkcdm.open.Names;

/**
 * Where a Zarr store is: a directory holding {@code zarr.json} (v3) or {@code .zmetadata}/{@code .zgroup}/{@code
 * .zarray} (v2), one of those files (the entry file of the store in its directory), or a zip archive holding them at
 * its top ({@code zarr.ZipStore}). No netcdf-java here.
 */
final class Zarr {
  static final String FORMAT = "zarr";
  /** Root metadata files, in the order a store is recognised by. */
  static final List<String> ENTRY_NAMES = List.of("zarr.json", ".zmetadata", ".zgroup", ".zarray");

  private Zarr() {}

  /** True when {@code p}'s name ends in {@code .zip}. */
  static boolean isZipName(Path p) {
    Path f = p.getFileName();
    return f != null && f.toString().toLowerCase(Locale.ROOT).endsWith(".zip");
  }

  /** The root metadata file of a store directory, or null when {@code dir} is not one. */
  static Path entryOfDirectory(Path dir) {
    for (String n : ENTRY_NAMES) {
      Path e = dir.resolve(n);
      if (Locations.isObject(e)) {
        return e;
      }
    }
    return null;
  }

  /** True when {@code p} is a root metadata file of a store directory. */
  static boolean isEntryFile(Path p) {
    Path f = p.getFileName();
    return f != null && ENTRY_NAMES.contains(f.toString()) && Locations.isObject(p) && p.getParent() != null;
  }

  /**
   * The store of an entry file, directory or zip: the directory, or the zip itself. A remote path that is no
   * entry object is the store directory (over HTTP a directory is known only by its entry objects).
   */
  static Path storeRoot(Path p) {
    if (Files.isDirectory(p) || isZipName(p)) {
      return p;
    }
    Path f = p.getFileName();
    if (f != null && ENTRY_NAMES.contains(f.toString()) && p.getParent() != null) {
      return p.getParent();
    }
    return Locations.isRemote(p) ? p : p.getParent();
  }

  /** True when {@code zip} is a zip archive with Zarr metadata at its top (reads its central directory only). */
  static boolean isZipStore(Path zip) {
    if (!isZipName(zip) || !Files.isRegularFile(zip)) {
      return false;
    }
    try {
      try (FileHandles f = new FileHandles(zip)) {
        byte[] head = f.read(zip, 0, Math.min(4, f.size(zip)));
        if (head.length != 4 || head[0] != 'P' || head[1] != 'K') {
          return false;
        }
        ZipIndex z = ZipIndex.read(f, zip, ZipStore.MAX_MEMBERS);
        for (String n : ENTRY_NAMES) {
          if (z.entry(n) != null) {
            return true;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
    return false;
  }

  /** The variable name of a store whose root is an array: its directory or zip name without .zarr/.zip. */
  static String storeName(Path root) {
    Path f = root.toAbsolutePath().normalize().getFileName();
    String n = f == null ? "zarr" : f.toString();
    for (String ext : new String[] {".zip", ".zarr"}) {
      if (n.toLowerCase(Locale.ROOT).endsWith(ext) && n.length() > ext.length()) {
        n = n.substring(0, n.length() - ext.length());
      }
    }
    return Names.valid(n);
  }

  /** The store over open file handles of its root (a directory, or the zip file). */
  static Store store(FileHandles files, Path root) throws IOException {
    return isZipName(root) && !Files.isDirectory(root) ? new ZipStore(files, root) : new DirectoryStore(files);
  }
}
