package org.chunkcdm.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fenced blocks of the user documentation that carry a run marker: an HTML comment
 * {@code <!-- doc-test: CONTEXT -->} on the line right above the opening fence. Markdown renders the comment as
 * nothing, so the reader sees the block as written. Read from README.md, docs/*.md and every module's README.md.
 */
final class DocBlocks {
  static final Path ROOT = Paths.get(System.getProperty("chunkcdm.test.root", "..")).toAbsolutePath().normalize();
  static final Pattern MARKER = Pattern.compile("^<!-- doc-test: ([a-z-]+) -->\\s*$");
  static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
  /** what the default build ({@code mvn -B package}) calls itself; the docs name artifacts with it */
  static final String DOC_VERSION = System.getProperty("chunkcdm.test.release", "0.1.0") + "-SNAPSHOT";
  /** the version of this build: DOC_VERSION, or the release version in a {@code -Prelease} build */
  static final String VERSION = System.getProperty("chunkcdm.test.version", DOC_VERSION);

  private DocBlocks() {}

  /** one line of a block: its line number in the file (1-based) and its text */
  record Line(int number, String text) {}

  /** a marked block: file (relative to the root), the marker's context, the fence's language, its lines */
  record Block(String file, int line, String context, String lang, List<Line> lines) {
    String text() {
      StringBuilder b = new StringBuilder();
      for (Line l : lines) {
        b.append(l.text()).append('\n');
      }
      return b.toString();
    }

    String where() {
      return file + ":" + line;
    }
  }

  /** README.md, docs/*.md and every module's README.md, relative to the root, sorted */
  static List<Path> files() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
    }
    try (Stream<Path> s = Files.list(ROOT)) {
      s.filter(Files::isDirectory).map(d -> d.resolve("README.md")).filter(Files::isRegularFile).sorted()
          .forEach(files::add);
    }
    return files;
  }

  /**
   * Every marked block of every documentation file. A marker that is not directly followed by a fence, or a fence
   * that is never closed, is an error (so a marker cannot silently stop running anything).
   */
  static List<Block> all() throws IOException {
    List<Block> blocks = new ArrayList<>();
    for (Path f : files()) {
      blocks.addAll(of(f));
    }
    return blocks;
  }

  static List<Block> of(Path file) throws IOException {
    String name = ROOT.relativize(file).toString().replace('\\', '/');
    List<String> lines = Files.readAllLines(file);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = MARKER.matcher(lines.get(i));
      if (!m.matches()) {
        continue;
      }
      Matcher fence = i + 1 < lines.size() ? FENCE.matcher(lines.get(i + 1)) : null;
      if (fence == null || !fence.matches() || fence.group(1).isEmpty()) {
        throw new IllegalStateException(name + ":" + (i + 1) + ": a doc-test marker must be followed directly by"
            + " an opening fence with a language (```sh, ```ijm, ```xml)");
      }
      List<Line> body = new ArrayList<>();
      int j = i + 2;
      for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
        body.add(new Line(j + 1, lines.get(j)));
      }
      if (j == lines.size()) {
        throw new IllegalStateException(name + ":" + (i + 2) + ": the fence is never closed");
      }
      blocks.add(new Block(name, i + 2, m.group(1), fence.group(1), body));
      i = j;
    }
    return blocks;
  }

  /** the one README block marked maven-consumer (the netcdf-java programmer's pom fragment) */
  static Block mavenConsumer() throws IOException {
    List<Block> found = of(ROOT.resolve("README.md")).stream().filter(b -> b.context().equals("maven-consumer")).toList();
    if (found.size() != 1) {
      throw new IllegalStateException("README.md must have exactly one block marked maven-consumer, found " + found.size());
    }
    return found.get(0);
  }
}
