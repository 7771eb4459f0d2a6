package org.chunkcdm.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The launchers' training run for the class-data archive (not a user command): in one JVM, the commands a user
 * runs most, {@code dump} and {@code convert} to ncstream, on every bundled sample, so that the archive holds the
 * classes of those commands and of every sample's format. Prints nothing; the outputs go to a temporary directory
 * that is removed. Exit status 0 when every command succeeded.
 *
 * <p>Usage: {@code java -XX:DumpLoadedClassList=LIST -cp JARS org.chunkcdm.cli.CdsTraining SAMPLES_DIR}, then
 * {@code java -Xshare:dump -XX:SharedClassListFile=LIST -XX:SharedArchiveFile=A -cp JARS}
 */
public final class CdsTraining {
  private CdsTraining() {}

  public static void main(String[] args) throws IOException {
    System.exit(train(args.length > 0 ? Paths.get(args[0]) : null));
  }

  /** Runs the training commands on the samples in {@code samples} (none: {@code --version} only); returns 0 or 1. */
  static int train(Path samples) throws IOException {
    PrintWriter sink = new PrintWriter(Writer.nullWriter());
    int failed = Main.run(new String[] {"--version"}, sink, sink);
    if (samples == null || !Files.isDirectory(samples)) {
      return failed == 0 ? 0 : 1;
    }
    Path tmp = Files.createTempDirectory("chunkcdm-cds-training");
    try {
      for (Path s : list(samples)) {
        String in = s.toString();
        failed |= Main.run(new String[] {"dump", in}, sink, sink);
        failed |= Main.run(new String[] {"convert", in, tmp.resolve(s.getFileName() + ".ncs").toString()}, sink, sink);
      }
    } finally {
      try (Stream<Path> w = Files.walk(tmp)) {
        for (Path p : w.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
    return failed == 0 ? 0 : 1;
  }

  private static List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> d = Files.newDirectoryStream(dir)) {
      for (Path p : d) {
        if (!p.getFileName().toString().startsWith(".")) {
          out.add(p);
        }
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }
}
