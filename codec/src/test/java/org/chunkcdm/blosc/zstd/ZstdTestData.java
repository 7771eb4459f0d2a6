package org.chunkcdm.blosc.zstd;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Inputs, frames made by the reference zstd (zstd-jni, test scope only) and a header-only frame inspector that
 * tells which format features a frame uses, so the tests can check they exercise every one of them.
 */
final class ZstdTestData {
  private ZstdTestData() {}

  /** A frame (or several), the bytes it decodes to and the dictionary it needs (null: none). */
  record Sample(String name, byte[] data, byte[] frame, byte[] dict) {
    @Override
    public String toString() {
      return name + " (" + data.length + " -> " + frame.length + " bytes)";
    }
  }

  static final String[] KINDS = {"random", "text", "runs", "int32-planes", "float64-planes", "sparse", "few-symbols",
      "tokens", "records", "short-copies"};

  /** {@code size} bytes of one kind of data. */
  static byte[] make(String kind, int size, long seed) {
    Random r = new Random(seed);
    byte[] b = new byte[size];
    switch (kind) {
      case "random":
        r.nextBytes(b);
        break;
      case "text": {
        String[] words = {"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "a ", "lazy ", "dog", ". ", "\n",
            "netcdf ", "variable ", "dimension ", "chunk ", "zstd ", "Blosc ", "frame ", "1995-02-17 ", "42 "};
        int i = 0;
        while (i < size) {
          byte[] w = words[r.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
          for (int j = 0; j < w.length && i < size; j++) {
            b[i++] = w[j];
          }
        }
        break;
      }
      case "runs": {
        int i = 0;
        while (i < size) {
          int run = 1 + r.nextInt(r.nextInt(10) == 0 ? 5000 : 40);
          byte v = (byte) r.nextInt(6);
          for (int j = 0; j < run && i < size; j++) {
            b[i++] = v;
          }
        }
        break;
      }
      case "int32-planes": { // slowly increasing int32 values, byte-shuffled as Blosc does
        int n = size / 4;
        int v = r.nextInt(1000);
        int[] vals = new int[n];
        for (int i = 0; i < n; i++) {
          v += r.nextInt(4);
          vals[i] = v;
        }
        for (int j = 0; j < 4; j++) {
          for (int i = 0; i < n; i++) {
            b[j * n + i] = (byte) (vals[i] >>> (8 * j));
          }
        }
        for (int i = 4 * n; i < size; i++) {
          b[i] = (byte) r.nextInt();
        }
        break;
      }
      case "float64-planes": { // a smooth signal with noise, byte-shuffled
        int n = size / 8;
        ByteBuffer bb = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
          double t = i * 1e-4;
          bb.putDouble(15 + 10 * Math.sin(t) + Math.round(r.nextGaussian() * 100) / 1000.0);
        }
        byte[] raw = bb.array();
        for (int j = 0; j < 8; j++) {
          for (int i = 0; i < n; i++) {
            b[j * n + i] = raw[8 * i + j];
          }
        }
        break;
      }
      case "sparse":
        for (int i = 0; i < size; i++) {
          if (r.nextInt(50) == 0) {
            b[i] = (byte) r.nextInt(256);
          }
        }
        break;
      case "few-symbols":
        for (int i = 0; i < size; i++) {
          b[i] = (byte) ("ACGT".charAt(r.nextInt(r.nextInt(8) == 0 ? 2 : 4)));
        }
        break;
      case "tokens": { // 3-byte words from a vocabulary: about one sequence per word (blocks of > 32512 sequences)
        byte[] vocab = new byte[3 * 2000];
        r.nextBytes(vocab);
        for (int i = 0; i < size; i += 3) {
          System.arraycopy(vocab, 3 * r.nextInt(2000), b, i, Math.min(3, size - i));
        }
        break;
      }
      case "records": { // a counter byte, then one of 16 8-byte words: every match is exactly 8 bytes long
        byte[] vocab = new byte[8 * 16];
        r.nextBytes(vocab);
        for (int i = 0, rec = 0; i < size; i += 9, rec++) {
          b[i] = (byte) rec;
          System.arraycopy(vocab, 8 * r.nextInt(16), b, i + 1, Math.min(8, size - i - 1));
        }
        break;
      }
      case "short-copies": { // after 4 KiB of random bytes, 3-byte copies from random places: > 32512 sequences a block
        int i = Math.min(size, 4096);
        for (int j = 0; j < i; j++) {
          b[j] = (byte) r.nextInt(256);
        }
        while (i < size) {
          int from = i - 1 - r.nextInt(4000);
          for (int j = 0; j < 3 && i < size; j++) {
            b[i++] = b[from + j];
          }
        }
        break;
      }
      default:
        throw new IllegalArgumentException(kind);
    }
    return b;
  }

  /** One frame of {@code src} made by the reference zstd. {@code windowLog} 0 = default. */
  static byte[] compress(byte[] src, int level, boolean checksum, boolean contentSize, byte[] dict, int windowLog) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      ctx.setLevel(level);
      ctx.setChecksum(checksum);
      ctx.setContentSize(contentSize);
      if (windowLog > 0) {
        ctx.setLong(windowLog);
      }
      if (dict != null) {
        ctx.loadDict(dict);
      }
      return ctx.compress(src);
    }
  }

  static byte[] compress(byte[] src, int level, boolean checksum, boolean contentSize, byte[] dict) {
    return compress(src, level, checksum, contentSize, dict, 0);
  }

  private static byte[] trained;

  /** A dictionary trained by the reference zstd on samples like the test inputs (formatted: magic, tables, content). */
  static synchronized byte[] trainedDictionary() {
    if (trained == null) {
      List<byte[]> samples = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String kind = i % 3 == 0 ? "text" : i % 3 == 1 ? "int32-planes" : "runs";
        samples.add(make(kind, 500 + (i * 37) % 3000, 1000 + i));
      }
      byte[] buf = new byte[24 << 10];
      long n = Zstd.trainFromBuffer(samples.toArray(new byte[0][]), buf);
      if (Zstd.isError(n)) {
        throw new IllegalStateException("dictionary training failed: " + Zstd.getErrorName(n));
      }
      trained = Arrays.copyOf(buf, (int) n);
    }
    return trained.clone();
  }

  /** The trained dictionary with another dictionary ID (so frames carry a 1-, 2- or 4-byte ID field). */
  static byte[] withId(byte[] dict, long id) {
    byte[] d = dict.clone();
    for (int i = 0; i < 4; i++) {
      d[4 + i] = (byte) (id >>> (8 * i));
    }
    return d;
  }

  /** A raw-content dictionary (no magic): text, so text inputs find long matches in it. */
  static byte[] rawDictionary() {
    return make("text", 6000, 77);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** A skippable frame (magic 0x184D2A5n) with {@code n} bytes of payload. */
  static byte[] skippable(int nibble, int n) {
    ByteBuffer b = ByteBuffer.allocate(8 + n).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0x184D2A50 | nibble).putInt(n);
    for (int i = 0; i < n; i++) {
      b.put((byte) (i * 7));
    }
    return b.array();
  }

  /**
   * The format features the frames in {@code f} use, read from the headers only: frame header fields, block
   * types, literals types, Huffman weight encodings, sequence table modes, and which tables were repeated
   * from a dictionary (no earlier block of the frame defined them).
   */
  static List<String> features(byte[] f) {
    TreeSet<String> out = new TreeSet<>();
    int p = 0;
    while (p + 4 <= f.length) {
      int magic = le(f, p, 4);
      if ((magic & 0xFFFFFFF0) == 0x184D2A50) {
        out.add("frame:skippable");
        p += 8 + le(f, p + 4, 4);
        continue;
      }
      p += 4;
      int fhd = f[p++] & 0xFF;
      boolean single = (fhd & 0x20) != 0;
      int did = new int[] {0, 1, 2, 4}[fhd & 3];
      int fcs = (fhd >>> 6) == 0 ? (single ? 1 : 0) : 1 << (fhd >>> 6);
      out.add(single ? "frame:single-segment" : "frame:window-descriptor");
      out.add("frame:dictionary-id-bytes-" + did);
      out.add("frame:content-size-bytes-" + fcs);
      if ((fhd & 4) != 0) {
        out.add("frame:checksum");
      }
      p += (single ? 0 : 1) + did + fcs;
      boolean huf = false;
      boolean[] fse = new boolean[3];
      int blocks = 0;
      while (true) {
        int bh = le(f, p, 3);
        p += 3;
        int type = (bh >>> 1) & 3;
        int size = bh >>> 3;
        blocks++;
        out.add("block:" + new String[] {"raw", "rle", "compressed", "reserved"}[type]);
        if (type == 2) {
          int q = p;
          int b0 = f[q] & 0xFF;
          int lt = b0 & 3;
          int sf = (b0 >>> 2) & 3;
          if (lt < 2) {
            out.add(lt == 0 ? "literals:raw" : "literals:rle");
            int hdr = (sf & 1) == 0 ? 1 : sf == 1 ? 2 : 3;
            int n = (sf & 1) == 0 ? b0 >>> 3 : sf == 1 ? (b0 >>> 4) | (f[q + 1] & 0xFF) << 4
                : (b0 >>> 4) | (f[q + 1] & 0xFF) << 4 | (f[q + 2] & 0xFF) << 12;
            q += hdr + (lt == 0 ? n : 1);
          } else {
            int hdr = sf < 2 ? 3 : sf + 2;
            long v = 0;
            for (int i = 0; i < hdr; i++) {
              v |= (f[q + i] & 0xFFL) << (8 * i);
            }
            int bits = sf < 2 ? 10 : sf == 2 ? 14 : 18;
            int comp = (int) ((v >>> (4 + bits)) & ((1 << bits) - 1));
            String streams = sf == 0 ? "1-stream" : "4-streams";
            if (lt == 2) {
              out.add("literals:huffman-" + streams);
              out.add((f[q + hdr] & 0xFF) < 128 ? "huffman-weights:fse" : "huffman-weights:direct");
              huf = true;
            } else {
              out.add("literals:treeless-" + streams);
              if (!huf) {
                out.add("literals:treeless-from-dictionary");
              }
            }
            q += hdr + comp;
          }
          int s0 = f[q++] & 0xFF;
          int nbSeq = s0 < 128 ? s0 : s0 < 255 ? ((s0 - 128) << 8) + (f[q++] & 0xFF)
              : (f[q] & 0xFF) + ((f[q + 1] & 0xFF) << 8) + 0x7F00;
          if (s0 == 255) {
            q += 2;
          }
          out.add(nbSeq == 0 ? "sequences:none" : nbSeq < 128 ? "sequences:count-1-byte"
              : s0 < 255 ? "sequences:count-2-bytes" : "sequences:count-3-bytes");
          if (nbSeq > 0) {
            int modes = f[q] & 0xFF;
            String[] names = {"LL", "OF", "ML"};
            for (int t = 0; t < 3; t++) {
              int m = (modes >>> (6 - 2 * t)) & 3;
              out.add("sequences:" + names[t] + "-" + new String[] {"predefined", "rle", "fse", "repeat"}[m]);
              if (m == 3 && !fse[t]) {
                out.add("sequences:" + names[t] + "-repeat-from-dictionary");
              }
              if (m != 3) {
                fse[t] = true;
              }
            }
          }
        }
        p += type == 1 ? 1 : size;
        if ((bh & 1) != 0) {
          break;
        }
      }
      if (blocks > 1) {
        out.add("frame:several-blocks");
      }
      if ((fhd & 4) != 0) {
        p += 4;
      }
    }
    return Collections.unmodifiableList(new ArrayList<>(out));
  }

  private static int le(byte[] b, int p, int n) {
    int v = 0;
    for (int i = 0; i < n; i++) {
      v |= (b[p + i] & 0xFF) << (8 * i);
    }
    return v;
  }
}
