package org.chunkcdm.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.chunkcdm.io.remote.RemoteFileSystem;
import org.chunkcdm.io.remote.RemoteFileSystemProvider;
import org.chunkcdm.io.remote.RemoteLocation;
import org.chunkcdm.io.remote.RemotePath;

/**
 * Dataset locations as {@link Path}s, local or remote: {@code s3://bucket/key}, {@code cdms3:bucket?key},
 * {@code cdms3://[profile@]host[:port]/bucket?key}, {@code http(s)://host/path} become paths of a read-only
 * {@link RemoteFileSystem} (see {@link RemoteLocation} for the forms), anything else a local path
 * ({@code file:} URLs included). Formats open remote datasets through the same {@link java.nio.file.Files} calls
 * and {@link FileHandles} they use for local files; the few things that differ are here.
 */
public final class Locations {
  private Locations() {}

  /**
   * {@link #path(String)} for a location a user gave: a malformed one (a bad URL, an invalid path) is an IOException
   * whose message says why.
   */
  public static Path parse(String location) throws java.io.IOException {
    try {
      return path(location);
    } catch (IllegalArgumentException e) { // InvalidPathException too
      throw new java.io.IOException(e.getMessage(), e);
    }
  }

  /** The path of a location string (remote URL forms, {@code file:} URLs, plain paths). */
  public static Path path(String location) {
    if (RemoteLocation.isRemote(location)) {
      return RemoteFileSystemProvider.path(location);
    }
    return Paths.get(stripFileUrl(location));
  }

  /** True for the remote URL forms ({@code s3://}, {@code cdms3:}, {@code http://}, {@code https://}). */
  public static boolean isRemote(String location) {
    return RemoteLocation.isRemote(location);
  }

  /** True when {@code p} names an object in an object store or on an HTTP server. */
  public static boolean isRemote(Path p) {
    return p instanceof RemotePath;
  }

  /** {@code file:/x} and {@code file:///x} URLs to plain paths; anything else unchanged. */
  public static String stripFileUrl(String location) {
    if (location.startsWith("file://")) {
      return location.substring("file://".length());
    }
    if (location.startsWith("file:")) {
      return location.substring("file:".length());
    }
    return location;
  }

  /**
   * Whether {@code p} is a regular file, or an object of its store: unlike {@link Files#isRegularFile}, a remote
   * path is not also asked whether it is a directory (at most one request, none when a listing or an earlier
   * look answers).
   */
  public static boolean isObject(Path p) {
    if (!isRemote(p) || !(p.getFileSystem() instanceof RemoteFileSystem)) {
      return Files.isRegularFile(p);
    }
    try {
      return ((RemoteFileSystem) p.getFileSystem()).stat(((RemotePath) p.toAbsolutePath()).key()) != null;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether the children of directory {@code p} can be listed: local directories and S3 prefixes can, paths on a
   * plain HTTP server cannot (a format then finds its objects only by their well-known names).
   */
  public static boolean canList(Path p) {
    return !isRemote(p) || !(p.getFileSystem() instanceof RemoteFileSystem)
        || ((RemoteFileSystem) p.getFileSystem()).root().kind() != RemoteLocation.Kind.HTTP;
  }

  /**
   * Whether {@code p} may be a dataset directory whose entry files a format should probe: a local directory; a
   * remote path that is no object (over HTTP nothing can be listed, so every such path may be one; on S3 the
   * first look at it lists its children, so the probes that follow cost no requests).
   */
  public static boolean mayBeDirectory(Path p) {
    if (!isRemote(p)) {
      return Files.isDirectory(p);
    }
    try {
      return !Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).isRegularFile();
    } catch (java.nio.file.NoSuchFileException e) {
      return p.getFileSystem() instanceof RemoteFileSystem
          && ((RemoteFileSystem) p.getFileSystem()).root().kind() == RemoteLocation.Kind.HTTP;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
