package org.chunkcdm.ncstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * A 16 GiB float64 variable (a bcolz carray of 1,048,576 x 2048 values in 256 chunks of 64 MiB, each chunk a
 * 32-byte Blosc2 special-zeros chunk, so the test data costs 12 KiB of disk) exported as ncstream by a forked JVM
 * with {@code -Xmx256m} into a counting stream: it completes, every byte of the 16 GiB payload is written, each
 * payload is zeros, messages are bounded, and the peak heap stays under the limit.
 */
class BoundedHeapTest {
  static final int ROWS = 1 << 20;
  static final int COLS = 2048;
  static final int CHUNKLEN = 4096;

  /** Writes the carray: meta/sizes, meta/storage and 256 identical 48-byte chunk files. */
  static Path writeCarray(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("meta"));
    Files.createDirectories(dir.resolve("data"));
    long nbytes = (long) ROWS * COLS * 8;
    Files.writeString(dir.resolve("meta/sizes"), "{\"shape\": [" + ROWS + ", " + COLS + "], \"nbytes\": " + nbytes
        + ", \"cbytes\": " + (256 * 48) + "}");
    Files.writeString(dir.resolve("meta/storage"), "{\"dtype\": \"float64\", \"cparams\": {\"clevel\": 5, \"shuffle\": 1,"
        + " \"cname\": \"lz4\", \"quantize\": 0}, \"chunklen\": " + CHUNKLEN + ", \"expectedlen\": " + ROWS + ", \"dflt\": 0.0}");
    int chunkBytes = CHUNKLEN * COLS * 8; // 64 MiB
    byte[] f = new byte[16 + 32];
    f[0] = 'b';
    f[1] = 'l';
    f[2] = 'p';
    f[3] = 'k';
    f[4] = 1; // bloscpack format version
    f[8] = 1; // one Blosc chunk in the file
    int h = 16; // Blosc2 chunk header: version 5, versionlz 1, flags, typesize 8, nbytes, blocksize, cbytes 32
    f[h] = 5;
    f[h + 1] = 1;
    f[h + 2] = 0x05;
    f[h + 3] = 8;
    le32(f, h + 4, chunkBytes);
    le32(f, h + 8, chunkBytes);
    le32(f, h + 12, 32);
    f[h + 31] = 0x10; // blosc2_flags: special value 1 = zeros (core fills NaN chunks byte by byte: slower)
    for (int i = 0; i < ROWS / CHUNKLEN; i++) {
      Files.write(dir.resolve("data/__" + i + ".blp"), f);
    }
    return dir;
  }

  private static void le32(byte[] b, int off, int v) {
    for (int i = 0; i < 4; i++) {
      b[off + i] = (byte) (v >>> (8 * i));
    }
  }

  @Test
  void sixteenGibVariableWith256MbHeap(@TempDir Path tmp) throws Exception {
    Path dir = writeCarray(tmp.resolve("huge.bcolz"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-Dchunkcdm.decode.threads=2", "-cp",
        System.getProperty("java.class.path"), Export.class.getName(), dir.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out;
    try {
      assertTrue(p.waitFor(300, TimeUnit.SECONDS), "export did not finish in 300 s");
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue(), out);
    System.out.println("BoundedHeapTest: " + out.strip().replace('\n', ';'));
    String line = out.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElseThrow(() -> new AssertionError(out));
    String[] f = line.split(" ");
    long payload = Long.parseLong(f[1]);
    long messages = Long.parseLong(f[2]);
    long maxPayload = Long.parseLong(f[3]);
    long mismatch = Long.parseLong(f[4]);
    long peakHeap = Long.parseLong(f[5]);
    assertEquals(16L << 30, payload, out);
    assertEquals((16L << 30) / NcStreamOut.DEFAULT_MESSAGE_BYTES, messages, out);
    assertEquals(NcStreamOut.DEFAULT_MESSAGE_BYTES, maxPayload, out);
    assertEquals(0, mismatch, "payloads that are not zeros: " + out);
    assertTrue(peakHeap < 256L << 20, "peak heap " + peakHeap);
  }

  /** The forked exporter: prints "RESULT payloadBytes messages maxPayload mismatches peakHeapBytes". */
  public static final class Export {
    public static void main(String[] args) throws Exception {
      if (args.length > 1 && args[1].equals("--make")) { // for profiling by hand
        writeCarray(Path.of(args[0]));
        return;
      }
      Checker c = new Checker();
      long t0 = System.nanoTime();
      try (NetcdfFile nc = NetcdfFiles.open(args[0])) {
        Variable v = nc.getVariables().get(0);
        NcStreamOut w = new NcStreamOut(c, NcStreamOut.Options.defaults().progress(n -> {
          c.messages++;
          c.maxPayload = Math.max(c.maxPayload, n);
          c.payload += n;
        }));
        w.writeAll(nc, null, null);
      }
      long peak = 0;
      for (MemoryPoolMXBean m : ManagementFactory.getMemoryPoolMXBeans()) {
        if (m.getType() == MemoryType.HEAP) {
          peak += m.getPeakUsage().getUsed();
        }
      }
      System.out.printf("exported %d bytes in %.1f s%n", c.bytes, (System.nanoTime() - t0) / 1e9);
      System.out.println("RESULT " + c.payload + " " + c.messages + " " + c.maxPayload + " " + c.mismatch + " " + peak);
    }
  }

  /** Counts bytes; a large write (a payload) must be float64 zeros (every 509th value checked). */
  static final class Checker extends OutputStream {
    long bytes;
    long payload;
    long messages;
    long maxPayload;
    long mismatch;

    @Override
    public void write(int b) {
      bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      bytes += len;
      if (len >= 1 << 20) {
        for (int i = off; i + 8 <= off + len; i += 8 * 509) {
          long bits = 0;
          for (int j = 7; j >= 0; j--) {
            bits = bits << 8 | (b[i + j] & 0xff);
          }
          if (bits != 0) {
            mismatch++;
            return;
          }
        }
      }
    }
  }
}
