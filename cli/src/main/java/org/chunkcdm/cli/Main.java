package org.chunkcdm.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
import org.chunkcdm.io.UserMessages;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.BloscHeader;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.io.Locations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;

/** {@code chunkcdm}: Blosc chunk tools and a CDL dump of anything netcdf-java (with chunkcdm) opens. */
@Command(name = "chunkcdm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = "bcolz, Bloscpack, Blosc2 frames and .ds files through netcdf-java.")
public final class Main implements Callable<Integer> {
  /** Largest standalone chunk file the blosc commands read. */
  static final long MAX_CHUNK_FILE = 1L << 31;

  public static void main(String[] args) {
    Warmup.start(args);
    System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
  }

  /**
   * Runs the CLI; returns the exit status. Every failure, a wrong command line included, prints one line on
   * {@code err} and returns 1.
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    try { // every -Dchunkcdm.* setting known and valid before anything reads one
      org.chunkcdm.blosc.internal.Settings.checkAll();
    } catch (IllegalArgumentException e) {
      err.println("chunkcdm: " + e.getMessage() + " (docs/SETTINGS.md)");
      err.flush();
      return 1;
    }
    // HDF5 / NetCDF-4 with Blosc: netcdf-java asks its own HDF5 reader before ServiceLoader IOSPs
    org.chunkcdm.hdf5.H5Iosp.register();
    // http(s):// datasets through chunkcdm's client, also directory datasets (netcdf-java's own asks first)
    org.chunkcdm.cdm.RemoteRafProvider.register();
    CommandLine cl = new CommandLine(new Main());
    addSubcommands(cl, args); // before the settings below, which reach only the subcommands already added
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      err.println("chunkcdm: " + message(ex));
      err.flush();
      return 1;
    });
    cl.setParameterExceptionHandler((ex, rest) -> {
      String m = String.valueOf(ex.getMessage()).replace('\r', ' ').replace('\n', ' ');
      err.println("chunkcdm: " + m + " (see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
      err.flush();
      return 1;
    });
    int rc;
    try {
      rc = cl.execute(args);
    } catch (OutOfMemoryError e) { // a backstop only: every size from a file is checked before allocating
      err.println("chunkcdm: " + message(e));
      rc = 1;
    }
    out.flush();
    err.flush();
    return rc;
  }

  /**
   * Adds the subcommands: only the one {@code args} start with when they name one (picocli builds a command's model
   * from its annotations, a good part of a short command's own time), else all of them (the usage, picocli's
   * suggestions for a mistyped name).
   */
  private static void addSubcommands(CommandLine cl, String[] args) {
    Map<String, Supplier<Object>> all = new LinkedHashMap<>();
    all.put("dump", Dump::new);
    all.put("blosc", BloscCmd::new);
    all.put("convert", ConvertCommand::new);
    all.put("serve", org.chunkcdm.cli.serve.ServeCommand::new);
    Supplier<Object> named = args.length > 0 ? all.get(args[0]) : null;
    if (named != null) {
      cl.addSubcommand(named.get());
    } else {
      all.values().forEach(s -> cl.addSubcommand(s.get()));
    }
  }

  /**
   * One line without Java class names ({@link UserMessages}): {@code format error: ...} when the bytes of a file
   * are wrong (it must be replaced), {@code too large: ...} when a size exceeds this JVM's memory bound
   * ({@link Bounds}), else what failed and what to do (no such file, a directory that is not a dataset, a file
   * no format claims, ...).
   */
  static String message(Throwable ex) {
    return UserMessages.describe(ex);
  }

  /** "{@code path}: no variable 'name'" and the variables there are (the first 30). */
  static String noVariable(String path, NetcdfFile nc, String name) {
    List<String> names = new java.util.ArrayList<>();
    for (ucar.nc2.Variable v : nc.getVariables()) {
      names.add(v.getFullName());
    }
    return UserMessages.noVariable(path, name, names);
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Command(name = "dump", mixinStandardHelpOptions = true,
      description = "Print a dataset as CDL, like ncdump (header and values).")
  static final class Dump implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PATH",
        description = {"A file or dataset directory (bcolz carray/ctable, .blp, Blosc2 frame, .ds, netCDF, ...),",
            "local or remote: s3://bucket/key, cdms3:bucket?key, cdms3://host:port/bucket?key, https://host/path."})
    String path;

    @Option(names = {"-v", "--variable"}, split = ",", paramLabel = "VAR",
        description = "Print values only of these variables (comma separated or repeated).")
    List<String> vars;

    @Option(names = {"-H", "--header"}, description = "Print the header only, no values.")
    boolean headerOnly;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      Path at = existing(path);
      String p = Locations.isRemote(at) ? at.toString() : ChunkedIosp.stripFileUrl(path);
      try (NetcdfFile nc = NetcdfFiles.open(p)) {
        List<ucar.nc2.Variable> print = new java.util.ArrayList<>();
        if (vars != null && !vars.isEmpty() && !headerOnly) {
          for (String v : vars) {
            ucar.nc2.Variable found = nc.findVariable(v);
            if (found == null) {
              throw new IOException(noVariable(path, nc, v));
            }
            print.add(found);
          }
        } else if (!headerOnly) {
          print.addAll(nc.getVariables());
        }
        PrintWriter out = spec.commandLine().getOut();
        CdlDump.Failures failed = CdlDump.print(nc, at.getFileName() == null ? p : at.getFileName().toString(), print, headerOnly, out);
        out.flush();
        if (failed.any()) {
          spec.commandLine().getErr().println("chunkcdm: " + message(failed.first) + "; the CDL above lacks the values of "
              + String.join(", ", failed.names) + (failed.names.size() > 1 ? " (" + failed.names.size() + " variables)" : ""));
          return 1;
        }
      }
      return 0;
    }
  }

  @Command(name = "blosc", mixinStandardHelpOptions = true, description = "Standalone Blosc chunk tools.",
      subcommands = {BloscInfo.class, BloscDecompress.class})
  static final class BloscCmd implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      spec.commandLine().usage(spec.commandLine().getOut());
      return 0;
    }
  }

  /**
   * The path of a dataset location given on the command line (a path, a file: URL or a remote URL): a missing
   * local path is a NoSuchFileException; a remote one is only checked by the open (over HTTP a dataset directory
   * is a key prefix nobody can ask about).
   */
  static Path existing(String location) throws IOException {
    Path at = Locations.parse(location);
    if (!Locations.isRemote(at) && !Files.exists(at)) {
      throw new NoSuchFileException(location);
    }
    return at;
  }

  static byte[] readChunkFile(Path in) throws IOException {
    if (!Files.exists(in)) {
      throw new NoSuchFileException(in.toString());
    }
    if (Files.isDirectory(in)) {
      throw new IOException(in + ": a directory; give a file that holds one Blosc chunk");
    }
    if (Files.exists(in) && !Files.isRegularFile(in)) {
      throw new IOException(in + ": not a regular file (a pipe or a device); give a file that holds one Blosc chunk");
    }
    FileHandles.checkRegular(in); // a FIFO or device would block or never end
    long size = Files.size(in);
    if (size > MAX_CHUNK_FILE) {
      throw new FormatException(in + ": " + size + " bytes is larger than any Blosc chunk (2 GiB)");
    }
    Bounds.checkAllocation(size, in.toString());
    return Files.readAllBytes(in);
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Print the header of a standalone Blosc1 or Blosc2 chunk.")
  static final class BloscInfo implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "A file holding exactly one Blosc chunk.")
    Path file;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      byte[] b = readChunkFile(file);
      BloscHeader h;
      try {
        h = BloscHeader.parse(b, 0, b.length);
      } catch (IOException e) {
        throw FormatException.in(file.toString(), e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println("file: " + file);
      out.print(h.describe());
      if (!h.describe().endsWith("\n")) {
        out.println();
      }
      out.flush();
      return 0;
    }
  }

  @Command(name = "decompress", mixinStandardHelpOptions = true,
      description = "Write the decompressed bytes of a standalone Blosc1 or Blosc2 chunk.")
  static final class BloscDecompress implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "IN", description = "A file holding exactly one Blosc chunk.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT", description = "Where to write the decompressed bytes.")
    Path out;

    @CommandLine.ArgGroup(exclusive = true)
    ImplChoice impl;

    static final class ImplChoice {
      @Option(names = "--java", description = "Force the pure-Java decoder.")
      boolean java;

      @Option(names = "--native", description = "Force native c-blosc (fails when it is not installed or cannot decode the chunk).")
      boolean nativeLib;
    }

    @Override
    public Integer call() throws Exception {
      byte[] b = readChunkFile(in);
      Blosc.Impl which = impl == null ? Blosc.Impl.AUTO : impl.java ? Blosc.Impl.JAVA : Blosc.Impl.NATIVE;
      byte[] decoded;
      try {
        BloscHeader h = BloscHeader.parse(b, 0, b.length);
        Bounds.checkAllocation(h.nbytes(), "chunk claims " + h.nbytes() + " decoded bytes");
        decoded = new byte[h.nbytes()];
        Blosc.decompress(b, 0, b.length, decoded, 0, which);
      } catch (IOException e) {
        throw FormatException.in(in.toString(), e);
      }
      Files.write(out, decoded);
      return 0;
    }
  }
}
