package org.chunkcdm.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The command line run in-process, its exit code and output captured. */
final class CliRuns {
  private CliRuns() {}

  record Result(int rc, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(rc, out.toString(), err.toString());
  }
}
