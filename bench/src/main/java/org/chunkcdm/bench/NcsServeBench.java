package org.chunkcdm.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Random;
import org.chunkcdm.cli.serve.CdmRemoteServer;
import org.chunkcdm.ncstream.iosp.NcStreamFileIosp;
import org.chunkcdm.testkit.NetcdfChecks;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDatasets;
import ucar.nc2.stream.NcStream;
import ucar.nc2.stream.NcStreamProto;

/**
 * ncstream reader and cdmremote server benchmark (docs/BENCHMARKS.md, "ncstream reader and chunkcdm serve").
 *
 * <ol>
 *   <li>A multi-GiB {@code .ncs} (float64 {@code v[rows][1024]} in 1 MiB data messages, as netcdf-java's
 *       NcStreamWriter cuts them, written here directly): open time and bytes read by chunkcdm's reader vs
 *       netcdf-java's NcStreamIosp (reference), and small-section read latency vs a raw positional read of the
 *       same bytes.
 *   <li>{@code chunkcdm serve} on loopback: a 256 MiB whole-variable read through netcdf-java's CdmRemote
 *       client vs the same read from the local file (MB/s), and 10x16-element sections with 8 concurrent
 *       clients (requests/s) vs the same reads done locally by 8 threads.
 * </ol>
 * Arguments: directory (default bench-out/ncs), size of the big file in GiB (default 2), seconds per
 * throughput round (default 5).
 */
public final class NcsServeBench {
  static final int COLS = 1024;
  static final int ROWS_PER_MESSAGE = 128; // 1 MiB of float64

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args.length > 0 ? args[0] : "bench-out/ncs");
    double gib = args.length > 1 ? Double.parseDouble(args[1]) : 2;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Files.createDirectories(dir);
    NetcdfFiles.registerIOProvider(NcStreamFileIosp.class); // ahead of netcdf-java's NcStreamIosp, as users do
    int rows = (int) (gib * (1L << 30) / (8L * COLS));
    Path big = dir.resolve("big.ncs");
    write(big, rows);
    Path mid = Files.createDirectories(dir.resolve("serve")).resolve("v256.ncs");
    write(mid, (256 << 20) / (8 * COLS));
    System.out.printf("files: %s (%d bytes), %s (%d bytes)%n", big, Files.size(big), mid, Files.size(mid));
    bigFile(big, rows);
    serve(mid.getParent(), mid, seconds);
  }

  /** Writes {@code v[rows][1024]} (v[i][j] = i*1024+j) as ncstream unless a file of the right size exists. */
  static void write(Path p, int rows) throws IOException {
    long payload = (long) rows * COLS * 8;
    if (Files.exists(p) && Files.size(p) > payload && Files.size(p) < payload + payload / 100 + 4096) {
      return;
    }
    NcStreamProto.Dimension rdim = NcStreamProto.Dimension.newBuilder().setName("row").setLength(rows).build();
    NcStreamProto.Dimension cdim = NcStreamProto.Dimension.newBuilder().setName("col").setLength(COLS).build();
    NcStreamProto.Group root = NcStreamProto.Group.newBuilder().addDims(rdim).addDims(cdim)
        .addVars(NcStreamProto.Variable.newBuilder().setName("v").setDataType(NcStreamProto.DataType.DOUBLE)
            .addShape(rdim).addShape(cdim))
        .build();
    Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
      o.write(NcStream.MAGIC_START);
      o.write(NcStream.MAGIC_HEADER);
      byte[] h = NcStreamProto.Header.newBuilder().setRoot(root).setVersion(1).build().toByteArray();
      NcStream.writeVInt(o, h.length);
      o.write(h);
      ByteBuffer bb = ByteBuffer.allocate(ROWS_PER_MESSAGE * COLS * 8);
      for (int r0 = 0; r0 < rows; r0 += ROWS_PER_MESSAGE) {
        int n = Math.min(ROWS_PER_MESSAGE, rows - r0);
        NcStreamProto.Data d = NcStream.encodeDataProto("v", ucar.ma2.DataType.DOUBLE,
            new Section(new int[] {r0, 0}, new int[] {n, COLS}), false, 0).toBuilder().setBigend(true).build();
        byte[] db = d.toByteArray();
        o.write(NcStream.MAGIC_DATA);
        NcStream.writeVInt(o, db.length);
        o.write(db);
        NcStream.writeVInt(o, n * COLS * 8);
        bb.clear();
        for (long i = (long) r0 * COLS; i < (long) (r0 + n) * COLS; i++) {
          bb.putDouble(i);
        }
        o.write(bb.array(), 0, n * COLS * 8);
      }
      o.write(NcStream.MAGIC_END);
    } catch (ucar.ma2.InvalidRangeException e) {
      throw new IOException(e);
    }
    Files.move(tmp, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  static void bigFile(Path big, int rows) throws Exception {
    long size = Files.size(big);
    System.out.printf("%n## multi-GiB .ncs (%.2f GiB, %d data messages)%n", size / (double) (1L << 30),
        (rows + ROWS_PER_MESSAGE - 1) / ROWS_PER_MESSAGE);
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime();
      long indexBytes;
      try (NetcdfFile nc = NetcdfFiles.open(big.toString())) {
        indexBytes = ((NcStreamFileIosp) nc.getIosp()).indexBytesRead();
      }
      long ours = System.nanoTime() - t0;
      t0 = System.nanoTime();
      try (NetcdfFile nc = NetcdfFiles.open(big.toString(), "ucar.nc2.stream.NcStreamIosp", -1, null, null)) {
        nc.getVariables();
      }
      long stock = System.nanoTime() - t0;
      System.out.printf("open round %d: chunkcdm %.1f ms (read %d bytes = %.5f%% of the file), netcdf-java NcStreamIosp %.1f ms"
          + " (ratio %.2f)%n", round, ours / 1e6, indexBytes, 100.0 * indexBytes / size, stock / 1e6, stock / (double) ours);
    }
    Random r = new Random(1);
    try (NetcdfFile nc = NetcdfFiles.open(big.toString());
        java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(big)) {
      Variable v = nc.findVariable("v");
      long[] ours = new long[300];
      long[] raw = new long[300];
      for (int k = 0; k < ours.length; k++) {
        int row = r.nextInt(rows - 2);
        int col = r.nextInt(COLS - 4);
        Section s = new Section(new int[] {row, col}, new int[] {2, 4});
        long t0 = System.nanoTime();
        Array a = v.read(s);
        ours[k] = System.nanoTime() - t0;
        if (a.getDouble(7) != (row + 1) * (double) COLS + col + 3) {
          throw new IllegalStateException("wrong value at " + s);
        }
        // reference (a floor for any reader): two 32-byte positional reads at the same place of the file
        t0 = System.nanoTime();
        ByteBuffer b = ByteBuffer.allocate(32);
        for (int i = 0; i < 2; i++) {
          b.clear();
          ch.read(b, ((long) (row + i) * COLS + col) * 8);
        }
        raw[k] = System.nanoTime() - t0;
      }
      Arrays.sort(ours);
      Arrays.sort(raw);
      System.out.printf("2x4 section at a random place, 300 reads: median %.3f ms, p90 %.3f ms (two raw 32-byte"
          + " positional reads at the same place: median %.3f ms)%n", ours[150] / 1e6, ours[270] / 1e6, raw[150] / 1e6);
    }
  }

  static void serve(Path root, Path file, int seconds) throws Exception {
    System.out.printf("%n## chunkcdm serve (loopback), %s%n", file.getFileName());
    try (CdmRemoteServer server = CdmRemoteServer.start(root, "127.0.0.1", 0, 16)) {
      String url = "cdmremote:" + server.url() + "cdmremote/" + file.getFileName();
      long bytes = Files.size(file);
      for (int round = 0; round < 3; round++) {
        long t0 = System.nanoTime();
        long n;
        try (NetcdfFile local = NetcdfFiles.open(file.toString())) {
          n = local.findVariable("v").read().getSize() * 8;
        }
        long tl = System.nanoTime() - t0;
        t0 = System.nanoTime();
        long m;
        try (NetcdfFile remote = NetcdfDatasets.openFile(url, null)) {
          m = remote.findVariable("v").read().getSize() * 8;
        }
        long tr = System.nanoTime() - t0;
        System.out.printf("whole read round %d: local %.0f MB/s, cdmremote %.0f MB/s (ratio %.2f), %d bytes%n", round,
            n / (tl / 1e3), m / (tr / 1e3), tl / (double) tr, bytes);
      }
      int rows;
      try (NetcdfFile local = NetcdfFiles.open(file.toString())) {
        rows = local.findVariable("v").getShape(0);
      }
      double localRate = rate(() -> NetcdfFiles.open(file.toString()), rows, seconds);
      double remoteRate = rate(() -> NetcdfDatasets.openFile(url, null), rows, seconds);
      System.out.printf("10x16 sections, 8 concurrent clients, %d s each: local %.0f reads/s, cdmremote %.0f requests/s"
          + " (ratio %.3f)%n", seconds, localRate, remoteRate, remoteRate / localRate);
    }
  }

  interface Opener {
    NetcdfFile open() throws IOException;
  }

  /** Sections read per second by 8 threads, each with its own open dataset, for {@code seconds}. */
  static double rate(Opener opener, int rows, int seconds) throws Exception {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    long done = 0;
    for (long n : NetcdfChecks.inParallel(8, t -> () -> reads(opener, rows, end, new Random(t)))) {
      done += n;
    }
    return done / (double) seconds;
  }

  /** Random 10 x 16 sections of one open dataset until {@code end}, each checked: how many. */
  private static long reads(Opener opener, int rows, long end, Random r) throws IOException, InvalidRangeException {
    long done = 0;
    try (NetcdfFile nc = opener.open()) {
      Variable v = nc.findVariable("v");
      while (System.nanoTime() < end) {
        int row = r.nextInt(rows - 10);
        int col = r.nextInt(COLS - 16);
        Array a = v.read(new Section(new int[] {row, col}, new int[] {10, 16}));
        if (a.getDouble(0) != row * (double) COLS + col) {
          throw new IllegalStateException("wrong value");
        }
        done++;
      }
    }
    return done;
  }
}
