package org.chunkcdm.cli.serve;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import ucar.unidata.io.spi.RandomAccessFileProvider;

/**
 * The datasets under a served root, found by walking it (links out of the root, hidden and compressed files
 * left out), and their listing as JSON or HTML; each entry is {relative path, "directory" or "file"}.
 */
final class DatasetListing {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final Path realRoot;

  DatasetListing(Path root, Path realRoot) {
    this.root = root;
    this.realRoot = realRoot;
  }

  /**
   * Datasets under the root: dataset directories (claimed by a RandomAccessFileProvider) and files a reader
   * claims ({@link #isDatasetFile}).
   */
  List<String[]> datasets() throws IOException {
    List<RandomAccessFileProvider> providers = new ArrayList<>();
    for (RandomAccessFileProvider p : ServiceLoader.load(RandomAccessFileProvider.class)) {
      providers.add(p);
    }
    List<String[]> out = new ArrayList<>();
    walk(root, providers, out, 0);
    return out;
  }

  private void walk(Path dir, List<RandomAccessFileProvider> providers, List<String[]> out, int depth) throws IOException {
    if (depth > 16 || out.size() >= 10000) {
      return;
    }
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        children.add(p);
      }
    }
    children.sort(null);
    for (Path p : children) {
      String name = p.getFileName().toString();
      if (name.startsWith(".")) {
        continue;
      }
      try {
        if (!p.toRealPath().startsWith(realRoot)) {
          continue; // a link out of the root: not served, not listed
        }
      } catch (IOException e) {
        continue;
      }
      String rel = root.relativize(p).toString().replace('\\', '/');
      if (Files.isDirectory(p)) {
        boolean dataset = false;
        for (RandomAccessFileProvider prov : providers) {
          try {
            dataset |= prov.isOwnerOf(p.toString());
          } catch (RuntimeException ignored) {
            // not this provider's
          }
        }
        if (dataset) {
          out.add(new String[] {rel, "directory"});
        } else {
          walk(p, providers, out, depth + 1);
        }
      } else if (Files.isRegularFile(p) && isDatasetFile(p)) {
        out.add(new String[] {rel, "file"});
      }
    }
  }

  /** Whether a file is a dataset, by its size and modification time: a listing asks only about changed files. */
  private final java.util.concurrent.ConcurrentHashMap<Path, long[]> datasetFiles = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * True when a reader claims the file ({@code NetcdfFiles.canOpen}: netcdf-java's formats and chunkcdm's), so
   * that logs, notes and other files are not listed. Compressed files ({@code .gz}, {@code .bz2}, {@code .zip},
   * {@code .Z}), which netcdf-java would decompress to find out, are served but not listed.
   */
  boolean isDatasetFile(Path p) {
    String n = p.getFileName().toString();
    if (n.endsWith(".gz") || n.endsWith(".bz2") || n.endsWith(".zip") || n.endsWith(".Z")) {
      return false;
    }
    long size;
    long mtime;
    try {
      size = Files.size(p);
      mtime = Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return false;
    }
    long[] known = datasetFiles.get(p);
    if (known != null && known[0] == size && known[1] == mtime) {
      return known[2] != 0;
    }
    boolean yes;
    try {
      yes = size > 0 && ucar.nc2.NetcdfFiles.canOpen(p.toString());
    } catch (IOException | RuntimeException e) {
      yes = false; // a reader failing on it: not a dataset it opens
    }
    if (datasetFiles.size() > 100_000) {
      datasetFiles.clear();
    }
    datasetFiles.put(p, new long[] {size, mtime, yes ? 1 : 0});
    return yes;
  }

  /** The listing as JSON: {@code {"datasets": [{"path", "kind", "url"}...]}}. */
  static String json(List<String[]> ds) throws JsonProcessingException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode arr = root.putArray("datasets");
    for (String[] d : ds) {
      ObjectNode n = arr.addObject();
      n.put("path", d[0]);
      n.put("kind", d[1]);
      n.put("url", CdmRemoteServer.PREFIX + CdmRemoteServer.encodePath(d[0]));
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
  }

  /** The listing as an HTML page with each dataset's CDL and NcML links. */
  static String html(List<String[]> ds) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>chunkcdm serve</title></head>"
        + "<body>\n<h1>chunkcdm serve</h1>\n<p>cdmremote datasets: open <code>cdmremote:http://HOST:PORT/cdmremote/PATH</code>"
        + " with netcdf-java.</p>\n<table>\n<tr><th>dataset</th><th>kind</th><th></th></tr>\n");
    for (String[] d : ds) {
      String url = CdmRemoteServer.PREFIX + CdmRemoteServer.encodePath(d[0]);
      h.append("<tr><td>").append(CdmRemoteServer.xmlEscape(d[0])).append("</td><td>").append(d[1])
          .append("</td><td><a href=\"").append(CdmRemoteServer.xmlEscape(url)).append("?req=cdl\">cdl</a> <a href=\"")
          .append(CdmRemoteServer.xmlEscape(url)).append("?req=ncml\">ncml</a></td></tr>\n");
    }
    h.append("</table>\n</body></html>\n");
    return h.toString();
  }
}
