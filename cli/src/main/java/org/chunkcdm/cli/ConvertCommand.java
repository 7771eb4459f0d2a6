package org.chunkcdm.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.chunkcdm.cdm.ChunkedIosp;
import org.chunkcdm.ncstream.NcStreamOut;
import org.chunkcdm.ncstream.Netcdf3Out;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * {@code chunkcdm convert IN OUT}: any dataset netcdf-java opens (chunkcdm's formats included) to ncstream
 * ({@code .ncs}) or NetCDF-3 ({@code .nc}, classic or 64-bit offset). The output is written to a temporary file
 * next to OUT and renamed when complete; a failure or an interrupt (Ctrl-C, SIGTERM) leaves nothing behind.
 */
@Command(name = "convert", mixinStandardHelpOptions = true,
    description = {"Convert a dataset to ncstream (.ncs) or NetCDF-3 (.nc).",
        "NetCDF-3 mapping: unsigned types as signed + _Unsigned=\"true\", strings as char arrays of their UTF-8 bytes;"
            + " 64-bit integers, structures, opaque, enum and vlen variables are refused (leave them out with -v)."})
final class ConvertCommand implements Callable<Integer> {
  /** Forces the progress display in tests: "bar" or "line"; unset = bar when System.console() is not null. */
  static final String PROGRESS_PROPERTY = org.chunkcdm.blosc.internal.Settings.PROGRESS.property();
  /** Tests only: milliseconds to pause after each written piece, so an interrupt lands mid-conversion. */
  static final long PAUSE_MILLIS = Long.getLong("chunkcdm.test.pauseMillis", 0);

  @Parameters(index = "0", paramLabel = "IN", description = {"A file or dataset directory netcdf-java (with chunkcdm) opens,",
      "local or remote (s3://, cdms3:, http(s)://)."})
  String in;

  @Parameters(index = "1", paramLabel = "OUT", description = "The file to write (.ncs or .nc).")
  Path out;

  @Option(names = "--format", paramLabel = "FMT", description = "ncs, nc3 (classic) or nc3-64 (64-bit offset); default from OUT's extension.")
  String format;

  @Option(names = {"-v", "--variable"}, split = ",", paramLabel = "VAR", description = "Only these variables (full names, comma separated or repeated).")
  List<String> vars;

  @Option(names = "--deflate", paramLabel = "N", description = "DEFLATE level 0-9 for ncstream data messages.")
  Integer deflate;

  @Option(names = {"-f", "--force"}, description = "Replace OUT if it exists.")
  boolean force;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Path at = Main.existing(in);
    String inPath = org.chunkcdm.io.Locations.isRemote(at) ? at.toString() : ChunkedIosp.stripFileUrl(in);
    String fmt = checkedFormat();
    Path target = checkedTarget();
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    try (NetcdfFile nc = NetcdfFiles.open(inPath)) {
      List<Variable> list = selected(nc);
      List<Variable> written = list != null ? list : NcStreamOut.dataVariables(nc);
      long total = 0;
      for (Variable v : written) {
        total += NcStreamOut.dataBytes(v);
      }
      Progress progress = new Progress(total, barWanted(), stderr);
      long t0 = System.nanoTime();
      long bytesOut = convert(nc, list, fmt, target, progress);
      double s = (System.nanoTime() - t0) / 1e9;
      stdout.printf(Locale.ROOT, "%s -> %s: %s, %d variables, %s of data, %s written in %.2f s (%s/s)%n", in, out, fmt,
          written.size(), Progress.human(total), Progress.human(bytesOut), s, Progress.human((long) (total / Math.max(s, 1e-9))));
      stdout.flush();
    }
    return 0;
  }

  /** The output format (ncs, nc3, nc3-64), checked against --deflate. */
  private String checkedFormat() throws IOException {
    String fmt = format != null ? format.toLowerCase(Locale.ROOT) : fromExtension(out);
    if (!fmt.equals("ncs") && !fmt.equals("nc3") && !fmt.equals("nc3-64")) {
      throw new IOException("unknown format '" + format + "': use ncs, nc3 or nc3-64");
    }
    if (deflate != null && !fmt.equals("ncs")) {
      throw new IOException("--deflate applies to ncstream (ncs) output only");
    }
    if (deflate != null && (deflate < 0 || deflate > 9)) {
      throw new IOException("--deflate " + deflate + ": the level must be 0 to 9");
    }
    return fmt;
  }

  /** OUT as an absolute path in an existing directory, not a directory itself, new unless --force. */
  private Path checkedTarget() throws IOException {
    Path target = out.toAbsolutePath().normalize();
    if (Files.isDirectory(target)) {
      throw new IOException(out + " is a directory");
    }
    if (Files.exists(target) && !force) {
      throw new FileAlreadyExistsException(out + " exists; use --force to replace it");
    }
    Path dir = target.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IOException((dir == null ? out.toString() : dir.toString()) + ": no such directory");
    }
    return target;
  }

  /** The variables named with -v, or null for every one. */
  private List<Variable> selected(NetcdfFile nc) throws IOException {
    if (vars == null || vars.isEmpty()) {
      return null;
    }
    List<Variable> list = new ArrayList<>();
    for (String name : vars) {
      Variable v = nc.findVariable(name);
      if (v == null) {
        throw new IOException(Main.noVariable(in, nc, name));
      }
      if (v.getParentStructure() != null) {
        throw new IOException(in + ": '" + name + "' is a structure member; name the structure");
      }
      list.add(v);
    }
    return list;
  }

  /**
   * Writes the output to a temporary file next to {@code target} and renames it when complete; a failure or a
   * shutdown deletes it. Returns the bytes written.
   */
  private long convert(NetcdfFile nc, List<Variable> list, String fmt, Path target, Progress progress)
      throws IOException {
    Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".part");
    try {
      Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // not POSIX: the temporary file keeps the platform's default permissions
    }
    Thread cleanup = new Thread(() -> deleteQuietly(tmp), "chunkcdm-convert-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    boolean done = false;
    try {
      write(nc, list, fmt, target, tmp, progress);
      long bytesOut = Files.size(tmp);
      move(tmp, target, force);
      done = true;
      return bytesOut;
    } finally {
      progress.finish();
      if (!done) {
        deleteQuietly(tmp);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException e) {
        // shutting down: the hook runs and finds nothing to delete
      }
    }
  }

  private void write(NetcdfFile nc, List<Variable> list, String fmt, Path target, Path tmp, Progress progress)
      throws IOException {
    if (fmt.equals("ncs")) {
      NcStreamOut.Options o = NcStreamOut.Options.defaults().progress(progress::advance);
      if (deflate != null) {
        o = o.deflate(deflate);
      }
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
          StandardOpenOption.WRITE)) {
        NcStreamOut out = new NcStreamOut(ch, o);
        out.writeAll(nc, target.getFileName().toString(), list);
        out.flush();
      }
    } else {
      Netcdf3Out.write(nc, list, tmp, fmt.equals("nc3-64"), progress::advance);
    }
  }

  static String fromExtension(Path out) throws IOException {
    String n = out.getFileName().toString().toLowerCase(Locale.ROOT);
    if (n.endsWith(".ncs")) {
      return "ncs";
    }
    if (n.endsWith(".nc") || n.endsWith(".nc3")) {
      return "nc3";
    }
    throw new IOException("cannot tell the output format from the name '" + out.getFileName()
        + "': use --format ncs|nc3|nc3-64 (or name it .ncs or .nc)");
  }

  private static void move(Path tmp, Path target, boolean replace) throws IOException {
    try {
      if (replace) {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (AtomicMoveNotSupportedException e) {
      if (replace) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(tmp, target);
      }
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // best effort: the process is failing or exiting anyway
    }
  }

  static boolean barWanted() {
    String p = org.chunkcdm.blosc.internal.Settings.PROGRESS.choice();
    if (p != null) {
      return p.equals("bar");
    }
    return System.console() != null;
  }

  /** Progress bar on a terminal: bytes done of total, rate, ETA; redrawn at most five times a second. */
  static final class Progress {
    private final long total;
    private final boolean bar;
    private final PrintWriter err;
    private final long t0 = System.nanoTime();
    private long done;
    private long lastDraw;
    private boolean drawn;

    Progress(long total, boolean bar, PrintWriter err) {
      this.total = total;
      this.bar = bar;
      this.err = err;
    }

    void advance(long bytes) {
      done += bytes;
      if (PAUSE_MILLIS > 0) {
        try {
          Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (!bar) {
        return;
      }
      long now = System.nanoTime();
      if (!drawn || now - lastDraw > 200_000_000L || done >= total) {
        draw(now);
      }
    }

    private void draw(long now) {
      lastDraw = now;
      drawn = true;
      double s = (now - t0) / 1e9;
      double rate = s > 0 ? done / s : 0;
      double frac = total > 0 ? Math.min(1, (double) done / total) : 1;
      int width = 30;
      int fill = (int) Math.round(frac * width);
      String eta = rate > 0 && total > done ? clock((total - done) / rate) : "0:00";
      err.printf(Locale.ROOT, "\r[%s%s] %3d%% %s / %s  %s/s  ETA %s ", "#".repeat(fill), ".".repeat(width - fill),
          (int) (frac * 100), human(done), human(total), human((long) rate), eta);
      err.flush();
    }

    void finish() {
      if (bar && drawn) {
        draw(System.nanoTime());
        err.println();
        err.flush();
      }
    }

    static String clock(double seconds) {
      long s = (long) Math.ceil(seconds);
      return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
          : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    static String human(long bytes) {
      if (bytes < 1000) {
        return bytes + " B";
      }
      String[] u = {"kB", "MB", "GB", "TB"};
      double v = bytes;
      int i = -1;
      while (v >= 1000 && i < u.length - 1) {
        v /= 1000;
        i++;
      }
      return String.format(Locale.ROOT, "%.1f %s", v, u[i]);
    }
  }
}
