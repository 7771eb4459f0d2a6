package org.chunkcdm.cli;

import org.chunkcdm.blosc.LimitException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.FileHandles;
import org.chunkcdm.io.FormatException;
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
import ucar.nc2.write.Ncdump;

/** {@code chunkcdm}: Blosc chunk tools and a CDL dump of anything netcdf-java (with chunkcdm) opens. */
@Command(name = "chunkcdm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = "bcolz, Bloscpack, Blosc2 frames and .ds files through netcdf-java.",
    subcommands = {Main.Dump.class, Main.BloscCmd.class, ConvertCommand.class, org.chunkcdm.cli.serve.ServeCommand.class})
public final class Main implements Callable<Integer> {
  /** Largest standalone chunk file the blosc commands read. */
  static final long MAX_CHUNK_FILE = 1L << 31;

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
        new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
  }

  /** Runs the CLI; returns the exit status. Errors print one line on {@code err}. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    try { // every -Dchunkcdm.* setting known and valid before anything reads one
      org.chunkcdm.blosc.internal.Settings.checkAll();
    } catch (IllegalArgumentException e) {
      err.println("chunkcdm: " + e.getMessage() + " (docs/SETTINGS.md)");
      err.flush();
      return 1;
    }
    // HDF5 / NetCDF-4 with Blosc: netcdf-java asks its own HDF5 reader before ServiceLoader IOSPs
    org.chunkcdm.hdf5blosc.H5BloscIosp.register();
    // http(s):// datasets through chunkcdm's client, also directory datasets (netcdf-java's own asks first)
    org.chunkcdm.cdm.RemoteRafProvider.register();
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      err.println("chunkcdm: " + message(ex));
      err.flush();
      return 1;
    });
    int rc;
    try {
      rc = cl.execute(args);
    } catch (OutOfMemoryError e) { // a backstop only: every size from a file is checked before allocating
      err.println("chunkcdm: out of memory (" + e.getMessage() + "); raise -Xmx");
      rc = 1;
    }
    out.flush();
    err.flush();
    return rc;
  }

  /**
   * One line: {@code format error: ...} when the bytes of a file are wrong ({@link FormatException}, the file must
   * be replaced), {@code too large: ...} when a size exceeds this JVM's memory bound ({@link Bounds}),
   * {@code I/O error: ...} for other IOExceptions (missing file, permissions, disk), else the message.
   */
  static String message(Throwable ex) {
    Throwable t = ex;
    if (t instanceof NoSuchFileException) {
      return "I/O error: " + t.getMessage() + ": no such file";
    }
    String m = t.getMessage();
    if (m == null || m.isEmpty()) {
      m = t.getClass().getSimpleName();
    }
    String kind = FormatException.isFormatError(t) ? "format error: "
        : t instanceof LimitException ? "too large: " : t instanceof IOException ? "I/O error: " : "";
    return kind + m.replace('\n', ' ');
  }

  @Override
  public Integer call() {
    CommandLine.usage(this, System.out);
    return 0;
  }

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
        Ncdump.Builder b = Ncdump.builder(nc).setLocationName(at.getFileName() == null ? p : at.getFileName().toString());
        if (headerOnly) {
          b.setWantValues(Ncdump.WantValues.none);
        } else if (vars != null && !vars.isEmpty()) {
          for (String v : vars) {
            if (nc.findVariable(v) == null) {
              throw new IOException(path + ": no variable '" + v + "'");
            }
          }
          b.setVarNames(String.join(";", vars));
        } else {
          b.setShowAllValues();
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(b.build().print());
        out.flush();
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
    Path at;
    try {
      at = Locations.path(location);
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    if (!Locations.isRemote(at) && !Files.exists(at)) {
      throw new NoSuchFileException(location);
    }
    return at;
  }

  static byte[] readChunkFile(Path in) throws IOException {
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
