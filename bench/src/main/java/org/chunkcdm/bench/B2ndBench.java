package org.chunkcdm.bench;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.chunkcdm.blosc.Blosc;
import org.chunkcdm.blosc.CodecProbes;
import org.chunkcdm.chunk.SectionReader;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFiles;
import ucar.nc2.Variable;

/**
 * Blosc2 b2nd benchmark (docs/BENCHMARKS.md, "b2nd partial reads and typed reads"); a main class, never run by {@code mvn verify}.
 *
 * <p>Writes a contiguous b2nd frame of float32 {@code [512, 512, 1024]} (1 GiB) with chunkshape
 * {@code [64, 128, 256]} (8 MiB) and blockshape {@code [16, 32, 64]} (128 KiB): each block byte-shuffled and
 * its 4 byte planes compressed with zstd level 1 through zstd-jni (a minimal Blosc2 chunk writer that exists
 * only here: 32-byte header, bstarts, split streams). Then, through {@code NetcdfFiles.open} and
 * {@code org.chunkcdm.sframe.Blosc2FrameIosp}: a whole read of the variable, and small 3-D sub-sections, reporting time,
 * throughput, chunks and blocks decoded, and bytes decoded against the bytes requested rounded up to blocks.
 *
 * <p>Arguments: output directory (default {@code bench-out/sframe}), rounds (default 3).
 */
public final class B2ndBench {
  static final long[] SHAPE = {512, 512, 1024};
  static final int[] CHUNK = {64, 128, 256};
  static final int[] BLOCK = {16, 32, 64};
  static final int ITEM = 4;

  private B2ndBench() {}

  /** The array's value at (x, y, z): smooth plus a little structure, so zstd has something to do. */
  static float value(long x, long y, long z) {
    return x * 0.25f + y * 0.01f + z * 0.001f + ((x * 31 + y * 17 + z * 7) & 15) * 0.0001f;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args.length > 0 ? args[0] : "bench-out/sframe");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Files.createDirectories(dir);
    Path file = dir.resolve("bench_f4.b2nd");
    long t0 = System.nanoTime();
    long written = write(file);
    System.out.printf("wrote %s: %d bytes (%.1f MiB uncompressed -> %.1f MiB) in %.1f s%n", file, written,
        bytes() / 1048576.0, written / 1048576.0, (System.nanoTime() - t0) / 1e9);
    System.out.println("blosc implementation: " + Blosc.configured() + ", native available: " + Blosc.nativeAvailable()
        + ", decode threads: " + Integer.getInteger("chunkcdm.decode.threads", Runtime.getRuntime().availableProcessors()));

    for (int r = 0; r < rounds; r++) {
      try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
        Variable v = nc.findVariable("bench_f4");
        v.setCaching(false);
        CodecProbes.reset();
        long chunks0 = SectionReader.chunksTouched();
        long s = System.nanoTime();
        Array a = v.read();
        double sec = (System.nanoTime() - s) / 1e9;
        check(a, new long[3], SHAPE, 1_000_003);
        System.out.printf("whole read round %d: %.2f s, %.0f MB/s (%.0f MiB/s); chunks touched %d, chunks decoded %d,"
            + " blocks decoded %d, bytes decoded %d (requested %d)%n", r, sec, bytes() / sec / 1e6, bytes() / sec / 1048576,
            SectionReader.chunksTouched() - chunks0, CodecProbes.chunksDecoded(), CodecProbes.blocksDecoded(),
            CodecProbes.bytesDecoded(), bytes());
      }
    }

    long blockBytes = (long) BLOCK[0] * BLOCK[1] * BLOCK[2] * ITEM;
    List<long[][]> sections = new ArrayList<>();
    sections.add(new long[][] {{100, 200, 300}, {10, 20, 40}}); // inside one chunk, 2 blocks
    sections.add(new long[][] {{60, 120, 250}, {10, 16, 12}}); // across chunk boundaries in every dimension
    sections.add(new long[][] {{255, 255, 511}, {2, 2, 2}}); // 8 items, 8 blocks in 8 chunks
    sections.add(new long[][] {{32, 64, 128}, {16, 32, 64}}); // exactly one block
    Random rnd = new Random(1);
    for (int i = 0; i < 200; i++) { // random small boxes of up to 24 x 40 x 80 items
      long[] c = {1 + rnd.nextInt(24), 1 + rnd.nextInt(40), 1 + rnd.nextInt(80)};
      long[] f = new long[3];
      for (int d = 0; d < 3; d++) {
        f[d] = rnd.nextInt((int) (SHAPE[d] - c[d]));
      }
      sections.add(new long[][] {f, c});
    }
    for (int r = 0; r < rounds; r++) {
      try (NetcdfFile nc = NetcdfFiles.open(file.toString())) {
        Variable v = nc.findVariable("bench_f4");
        v.setCaching(false);
        long totalReq = 0;
        long totalRounded = 0;
        long totalBlocks = 0;
        long totalChunks = 0;
        double worst = 0;
        long[] nanos = new long[sections.size()];
        for (int i = 0; i < sections.size(); i++) {
          long[] f = sections.get(i)[0];
          long[] c = sections.get(i)[1];
          Section sec = new Section(new int[] {(int) f[0], (int) f[1], (int) f[2]},
              new int[] {(int) c[0], (int) c[1], (int) c[2]});
          CodecProbes.reset();
          long s = System.nanoTime();
          Array a = v.read(sec);
          nanos[i] = System.nanoTime() - s;
          check(a, f, c, 1);
          long req = c[0] * c[1] * c[2] * ITEM;
          long rounded = intersectingBlocks(f, c) * blockBytes;
          long decoded = CodecProbes.bytesDecoded(); // every decoded block and whole chunk counts its bytes
          totalReq += req;
          totalRounded += rounded;
          totalBlocks += CodecProbes.blocksDecoded();
          totalChunks += CodecProbes.chunksDecoded();
          worst = Math.max(worst, decoded / (double) rounded);
          if (i < 4) {
            System.out.printf("section %s+%s: %.2f ms, requested %d B, rounded up to blocks %d B, blocks decoded %d,"
                + " whole chunks decoded %d, bytes decoded %d (%.2f x rounded)%n", Arrays.toString(f), Arrays.toString(c),
                nanos[i] / 1e6, req, rounded, CodecProbes.blocksDecoded(), CodecProbes.chunksDecoded(), decoded,
                decoded / (double) rounded);
          }
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        long total = Arrays.stream(nanos).sum();
        System.out.printf("sub-sections round %d: %d sections, median %.2f ms, total %.2f s, %.1f MB/s requested;"
            + " requested %d B, rounded up to blocks %d B, blocks decoded %d (%d B), whole chunks decoded %d;"
            + " decoded / rounded: total %.2f, worst section %.2f%n", r, nanos.length, sorted[sorted.length / 2] / 1e6,
            total / 1e9, totalReq / (total / 1e9) / 1e6, totalReq, totalRounded, totalBlocks, totalBlocks * blockBytes,
            totalChunks, (totalBlocks * blockBytes) / (double) totalRounded, worst);
      }
    }
  }

  static long bytes() {
    return SHAPE[0] * SHAPE[1] * SHAPE[2] * ITEM;
  }

  /** Distinct blocks (over all chunks) a box intersects. */
  static long intersectingBlocks(long[] first, long[] count) {
    Set<List<Long>> set = new HashSet<>();
    long[] lo = new long[3];
    long[] hi = new long[3];
    for (int d = 0; d < 3; d++) {
      lo[d] = first[d] / BLOCK[d];
      hi[d] = (first[d] + count[d] - 1) / BLOCK[d];
    }
    // chunkshape is a multiple of blockshape here, so global block coordinates identify blocks uniquely
    for (long a = lo[0]; a <= hi[0]; a++) {
      for (long b = lo[1]; b <= hi[1]; b++) {
        for (long c = lo[2]; c <= hi[2]; c++) {
          set.add(List.of(a, b, c));
        }
      }
    }
    return set.size();
  }

  /** Checks every {@code step}-th value of a read box against {@link #value}. */
  static void check(Array a, long[] first, long[] count, int step) {
    IndexIterator it = a.getIndexIterator();
    long n = count[0] * count[1] * count[2];
    for (long i = 0; i < n; i++) {
      float got = it.getFloatNext();
      if (i % step != 0) {
        continue;
      }
      long z = i % count[2];
      long y = (i / count[2]) % count[1];
      long x = i / (count[1] * count[2]);
      float want = value(first[0] + x, first[1] + y, first[2] + z);
      if (Float.floatToIntBits(got) != Float.floatToIntBits(want)) {
        throw new AssertionError("value at " + (first[0] + x) + "," + (first[1] + y) + "," + (first[2] + z) + ": " + got
            + " != " + want);
      }
    }
  }

  // ------------------------------------------------------------------ minimal writer (benchmark only)

  /** Writes the frame; returns its length. */
  static long write(Path file) throws IOException {
    long[] grid = new long[3];
    int nchunks = 1;
    for (int d = 0; d < 3; d++) {
      grid[d] = SHAPE[d] / CHUNK[d];
      nchunks *= (int) grid[d];
    }
    byte[] meta = b2ndMeta();
    byte[] header = header(meta, 0, 0);
    long[] offsets = new long[nchunks];
    long pos = header.length;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (int k = 0; k < nchunks; k++) {
        long cx = k / (grid[1] * grid[2]);
        long cy = (k / grid[2]) % grid[1];
        long cz = k % grid[2];
        byte[] chunk = chunk(cx * CHUNK[0], cy * CHUNK[1], cz * CHUNK[2]);
        offsets[k] = pos - header.length;
        writeFully(ch, ByteBuffer.wrap(chunk), pos);
        pos += chunk.length;
      }
      long cbytes = pos - header.length;
      ByteBuffer index = ByteBuffer.allocate(32 + 8 * nchunks).order(ByteOrder.LITTLE_ENDIAN);
      chunkHeader(index, 0x07, 8, 8 * nchunks, 8 * nchunks, 32 + 8 * nchunks, 0, 0); // memcpyed
      for (long o : offsets) {
        index.putLong(o);
      }
      index.flip();
      writeFully(ch, index, pos);
      pos += 32 + 8L * nchunks;
      ByteBuffer trailer = ByteBuffer.allocate(35); // big-endian msgpack
      trailer.put((byte) 0x94).put((byte) 0x01);
      trailer.put((byte) 0x93).put((byte) 0xcd).putShort((short) 6).put((byte) 0xde).putShort((short) 0)
          .put((byte) 0xdc).putShort((short) 0);
      trailer.put((byte) 0xce).putInt(35);
      trailer.put((byte) 0xd8).put((byte) 0).put(new byte[16]);
      trailer.flip();
      writeFully(ch, trailer, pos);
      pos += 35;
      writeFully(ch, ByteBuffer.wrap(header(meta, pos, cbytes)), 0);
    }
    return pos;
  }

  static void writeFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
    while (b.hasRemaining()) {
      pos += ch.write(b, pos);
    }
  }

  static byte[] b2ndMeta() {
    return b2ndMeta(SHAPE, CHUNK, BLOCK, "<f4");
  }

  /** The b2nd metalayer of an array of {@code shape} (rank 1 to 15), chunk and block shapes, numpy dtype. */
  static byte[] b2ndMeta(long[] shape, int[] chunk, int[] block, String dtype) {
    ByteBuffer b = ByteBuffer.allocate(128);
    b.put((byte) 0x97).put((byte) 0).put((byte) shape.length);
    b.put((byte) (0x90 | shape.length));
    for (long s : shape) {
      b.put((byte) 0xd3).putLong(s);
    }
    for (int[] a : new int[][] {chunk, block}) {
      b.put((byte) (0x90 | shape.length));
      for (int s : a) {
        b.put((byte) 0xd2).putInt(s);
      }
    }
    b.put((byte) 0).put((byte) 0xdb).putInt(dtype.length()).put(dtype.getBytes(StandardCharsets.US_ASCII));
    return Arrays.copyOf(b.array(), b.position());
  }

  /** The frame header (README "Contiguous frame" table) with one metalayer, 'b2nd'. */
  static byte[] header(byte[] meta, long frameLen, long cbytes) {
    return header(meta, frameLen, cbytes, bytes(), ITEM, BLOCK[0] * BLOCK[1] * BLOCK[2] * ITEM,
        CHUNK[0] * CHUNK[1] * CHUNK[2] * ITEM, 0x15); // zstd clevel 1
  }

  /** As above for any sizes; {@code codecFlags} = codec code in bits 0-3, clevel in bits 4-7. */
  static byte[] header(byte[] meta, long frameLen, long cbytes, long nbytes, int typesize, int blocksize, int chunksize,
      int codecFlags) {
    int mapBytes = 1 + 3 + 3 + 5 + 5; // 0x93, 0xCD size, 0xDE count, fixstr "b2nd", 0xD2 offset
    int len = 87 + mapBytes + 3 + 5 + meta.length;
    ByteBuffer b = ByteBuffer.allocate(len);
    b.put((byte) 0x9e).put((byte) 0xa8).put("b2frame\0".getBytes(StandardCharsets.US_ASCII));
    b.put((byte) 0xd2).putInt(len);
    b.put((byte) 0xcf).putLong(frameLen);
    b.put((byte) 0xa4).put((byte) 0x12).put((byte) 0).put((byte) codecFlags).put((byte) 0x03);
    b.put((byte) 0xd3).putLong(nbytes);
    b.put((byte) 0xd3).putLong(cbytes);
    b.put((byte) 0xd2).putInt(typesize);
    b.put((byte) 0xd2).putInt(blocksize);
    b.put((byte) 0xd2).putInt(chunksize);
    b.put((byte) 0xd1).putShort((short) 1).put((byte) 0xd1).putShort((short) 1);
    b.put((byte) 0xc2);
    b.put((byte) 0xd8).put((byte) 6).put(new byte[] {0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    int valueAt = b.position() + mapBytes + 3;
    b.put((byte) 0x93).put((byte) 0xcd).putShort((short) mapBytes).put((byte) 0xde).putShort((short) 1);
    b.put((byte) 0xa4).put("b2nd".getBytes(StandardCharsets.US_ASCII)).put((byte) 0xd2).putInt(valueAt);
    b.put((byte) 0xdc).putShort((short) 1).put((byte) 0xc6).putInt(meta.length).put(meta);
    return b.array();
  }

  /** A 32-byte Blosc2 chunk header. */
  static void chunkHeader(ByteBuffer b, int flags, int typesize, int nbytes, int blocksize, int cbytes, int shuffle,
      int codecId) {
    b.put((byte) 5).put((byte) 1).put((byte) flags).put((byte) typesize);
    b.putInt(nbytes).putInt(blocksize).putInt(cbytes);
    b.put(new byte[] {0, 0, 0, 0, 0, (byte) shuffle, (byte) codecId, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  }

  /** One chunk: blocks in C order over the block grid, each block C order, shuffled, 4 zstd streams. */
  static byte[] chunk(long x0, long y0, long z0) {
    int[] nb = {CHUNK[0] / BLOCK[0], CHUNK[1] / BLOCK[1], CHUNK[2] / BLOCK[2]};
    int nblocks = nb[0] * nb[1] * nb[2];
    int bsize = BLOCK[0] * BLOCK[1] * BLOCK[2] * ITEM;
    int plane = bsize / ITEM;
    List<byte[]> streams = new ArrayList<>();
    int[] bstarts = new int[nblocks];
    int pos = 32 + 4 * nblocks;
    ByteBuffer raw = ByteBuffer.allocate(bsize).order(ByteOrder.LITTLE_ENDIAN);
    byte[] planes = new byte[bsize];
    for (int b = 0; b < nblocks; b++) {
      int bx = b / (nb[1] * nb[2]);
      int by = (b / nb[2]) % nb[1];
      int bz = b % nb[2];
      raw.clear();
      for (int i = 0; i < BLOCK[0]; i++) {
        for (int j = 0; j < BLOCK[1]; j++) {
          for (int k = 0; k < BLOCK[2]; k++) {
            raw.putFloat(value(x0 + bx * BLOCK[0] + i, y0 + by * BLOCK[1] + j, z0 + bz * BLOCK[2] + k));
          }
        }
      }
      byte[] r = raw.array();
      for (int i = 0; i < plane; i++) {
        for (int j = 0; j < ITEM; j++) {
          planes[j * plane + i] = r[i * ITEM + j];
        }
      }
      bstarts[b] = pos;
      for (int j = 0; j < ITEM; j++) {
        byte[] p = Arrays.copyOfRange(planes, j * plane, (j + 1) * plane);
        byte[] c = Zstd.compress(p, 1);
        byte[] s = c.length < plane ? c : p; // csize == stream length means stored raw
        ByteBuffer sb = ByteBuffer.allocate(4 + s.length).order(ByteOrder.LITTLE_ENDIAN);
        sb.putInt(s.length).put(s);
        streams.add(sb.array());
        pos += 4 + s.length;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(pos).order(ByteOrder.LITTLE_ENDIAN);
    int nbytes = nblocks * bsize;
    chunkHeader(out, 0x85, ITEM, nbytes, bsize, pos, 1, 5); // zstd (format 4), extended header, split streams
    for (int s : bstarts) {
      out.putInt(s);
    }
    for (byte[] s : streams) {
      out.put(s);
    }
    return out.array();
  }
}
