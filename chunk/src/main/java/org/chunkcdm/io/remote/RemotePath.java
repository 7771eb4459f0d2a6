package org.chunkcdm.io.remote;

import java.io.File;
import java.net.URI;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A path in a {@link RemoteFileSystem}: an object key (or a key prefix, a "directory") with '/' as separator.
 * An absolute path's {@link #toString()} is its location in the form the user wrote it ({@code s3://b/k},
 * {@code cdms3:b?k}, {@code https://host/k}), which {@link org.chunkcdm.io.Locations#path(String)} parses back to
 * an equal path; a relative path's is its names joined with '/'. Remote paths have no links, so
 * {@link #toRealPath} only normalizes.
 */
public final class RemotePath implements Path {
  private final RemoteFileSystem fs;
  private final boolean absolute;
  private final String[] names;

  RemotePath(RemoteFileSystem fs, boolean absolute, String[] names) {
    this.fs = fs;
    this.absolute = absolute;
    this.names = names;
  }

  /** Parses '/'-separated text: a leading '/' makes it absolute. */
  static RemotePath of(RemoteFileSystem fs, String text) {
    boolean abs = text.startsWith("/");
    List<String> parts = new ArrayList<>();
    for (String s : text.split("/")) {
      if (!s.isEmpty()) {
        parts.add(s);
      }
    }
    return new RemotePath(fs, abs, parts.toArray(new String[0]));
  }

  /** The object key of this (absolute) path: its names joined with '/', empty for the root. */
  public String key() {
    return String.join("/", names);
  }

  @Override
  public RemoteFileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return absolute;
  }

  @Override
  public Path getRoot() {
    return absolute ? new RemotePath(fs, true, new String[0]) : null;
  }

  @Override
  public Path getFileName() {
    return names.length == 0 ? null : new RemotePath(fs, false, new String[] {names[names.length - 1]});
  }

  @Override
  public Path getParent() {
    if (names.length == 0 || names.length == 1 && !absolute) {
      return null;
    }
    return new RemotePath(fs, absolute, Arrays.copyOf(names, names.length - 1));
  }

  @Override
  public int getNameCount() {
    return names.length;
  }

  @Override
  public Path getName(int index) {
    if (index < 0 || index >= names.length) {
      throw new IllegalArgumentException("name " + index + " of " + this);
    }
    return new RemotePath(fs, false, new String[] {names[index]});
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    if (beginIndex < 0 || endIndex > names.length || beginIndex >= endIndex) {
      throw new IllegalArgumentException("subpath " + beginIndex + ".." + endIndex + " of " + this);
    }
    return new RemotePath(fs, false, Arrays.copyOfRange(names, beginIndex, endIndex));
  }

  private RemotePath check(Path other) {
    if (!(other instanceof RemotePath)) {
      throw new ProviderMismatchException("not a path of " + fs + ": " + other);
    }
    return (RemotePath) other;
  }

  @Override
  public boolean startsWith(Path other) {
    if (!(other instanceof RemotePath)) {
      return false;
    }
    RemotePath o = (RemotePath) other;
    if (o.fs != fs && !o.fs.equals(fs) || o.absolute != absolute || o.names.length > names.length) {
      return false;
    }
    for (int i = 0; i < o.names.length; i++) {
      if (!o.names[i].equals(names[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean startsWith(String other) {
    return startsWith(fs.getPath(other));
  }

  @Override
  public boolean endsWith(Path other) {
    if (!(other instanceof RemotePath)) {
      return false;
    }
    RemotePath o = (RemotePath) other;
    if (o.absolute) {
      return equals(o);
    }
    if (o.names.length > names.length) {
      return false;
    }
    for (int i = 0; i < o.names.length; i++) {
      if (!o.names[o.names.length - 1 - i].equals(names[names.length - 1 - i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean endsWith(String other) {
    return endsWith(fs.getPath(other));
  }

  @Override
  public Path normalize() {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n.equals(".")) {
        continue;
      }
      if (n.equals("..")) {
        if (!out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
          out.remove(out.size() - 1);
          continue;
        }
        if (absolute) {
          continue; // above the root stays at the root
        }
      }
      out.add(n);
    }
    return new RemotePath(fs, absolute, out.toArray(new String[0]));
  }

  @Override
  public Path resolve(Path other) {
    RemotePath o = check(other);
    if (o.absolute) {
      return o;
    }
    String[] all = Arrays.copyOf(names, names.length + o.names.length);
    System.arraycopy(o.names, 0, all, names.length, o.names.length);
    return new RemotePath(fs, absolute, all);
  }

  @Override
  public Path resolve(String other) {
    return resolve(RemotePath.of(fs, other));
  }

  @Override
  public Path relativize(Path other) {
    RemotePath o = check(other);
    if (o.absolute != absolute) {
      throw new IllegalArgumentException("cannot relativize " + other + " against " + this);
    }
    int common = 0;
    while (common < names.length && common < o.names.length && names[common].equals(o.names[common])) {
      common++;
    }
    List<String> out = new ArrayList<>();
    for (int i = common; i < names.length; i++) {
      out.add("..");
    }
    out.addAll(Arrays.asList(o.names).subList(common, o.names.length));
    return new RemotePath(fs, false, out.toArray(new String[0]));
  }

  @Override
  public URI toUri() {
    RemotePath abs = (RemotePath) toAbsolutePath();
    return URI.create(fs.root().kind() == RemoteLocation.Kind.HTTP ? abs.toString()
        : abs.toString().replace(" ", "%20"));
  }

  @Override
  public Path toAbsolutePath() {
    return absolute ? this : new RemotePath(fs, true, names);
  }

  @Override
  public Path toRealPath(LinkOption... options) {
    return toAbsolutePath().normalize();
  }

  @Override
  public File toFile() {
    throw new UnsupportedOperationException(this + " is not a local file");
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException("remote paths cannot be watched");
  }

  @Override
  public int compareTo(Path other) {
    return toString().compareTo(check(other).toString());
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RemotePath)) {
      return false;
    }
    RemotePath p = (RemotePath) o;
    return p.absolute == absolute && p.fs.equals(fs) && Arrays.equals(p.names, names);
  }

  @Override
  public int hashCode() {
    return fs.hashCode() * 31 + Arrays.hashCode(names) + (absolute ? 1 : 0);
  }

  /** The location (absolute) or the '/'-joined names (relative); never with credentials or a query string. */
  @Override
  public String toString() {
    return absolute ? fs.root().format(key()) : key();
  }
}
