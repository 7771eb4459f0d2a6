package org.chunkcdm.blosc.zstd;

import org.chunkcdm.blosc.Lz4;
import org.chunkcdm.blosc.RawCopy;
import org.chunkcdm.blosc.CodecException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A pure-Java Zstandard decoder written from RFC 8878: zstd frames (and skippable frames), one after the
 * other, decoded straight into the caller's array to exactly the size the caller expects, optionally with a
 * {@link ZstdDictionary}.
 *
 * <p>An instance keeps scratch buffers (about 150 KiB) and is not thread-safe: use one per thread (for
 * example through a {@link ThreadLocal}). Dictionaries are immutable and can be shared. Every malformed input
 * ends in an {@link IOException} naming the frame, block and input byte where decoding failed; nothing is
 * allocated from sizes read from the input.
 */
public final class ZstdDecoder {
  /** Magic number of a zstd frame (little-endian in the stream). */
  public static final int MAGIC = 0xFD2FB528;
  /** Skippable frames: magic numbers 0x184D2A50 to 0x184D2A5F. */
  static final int SKIPPABLE_MAGIC = 0x184D2A50;
  /** Largest block (decoded size, and compressed size of a compressed block). */
  static final int BLOCK_MAX = 128 << 10;

  /** Little-endian 8- and 4-byte views of byte arrays, shared by the package's decoders. */
  static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final byte[] NO_CONTENT = new byte[0];
  /** Bytes of slack after a literal buffer: short literal runs are copied 16 bytes at a time. */
  private static final int WILD = 32;

  private final Fse fse = new Fse();
  private final Huffman huffman = new Huffman(fse);
  private final byte[] lit = new byte[BLOCK_MAX + WILD];
  private final int[] huffOwn = new int[Huffman.TABLE_SIZE];
  private final long[] llOwn = new long[1 << Fse.LL_MAX_LOG];
  private final long[] mlOwn = new long[1 << Fse.ML_MAX_LOG];
  private final long[] ofOwn = new long[1 << Fse.OF_MAX_LOG];

  // entropy state of the current frame: the tables a later block may repeat (null: none yet)
  private int[] huffTable;
  private int huffBits;
  private long[] llTable;
  private long[] mlTable;
  private long[] ofTable;
  private int llLog;
  private int mlLog;
  private int ofLog;
  private int rep1;
  private int rep2;
  private int rep3;
  private byte[] dictContent = NO_CONTENT;

  // the literals of the current block
  private byte[] litArr;
  /** Negative when the first sequence's literals are already in their place in the output (decodeCompressedBlock). */
  private int litPos;
  private int litEnd;
  // Huffman-coded literals of the current block, read but not yet decoded (litArr null)
  private int hufStreams;
  private int hufStart;
  private int hufEnd;
  private int hufSize;
  /** Literals decoded straight into the output since this decoder was made (tests). */
  long literalsInPlace;

  /** Input position after the last frame decoded by {@link #decodeFrame}. */
  private int inPos;

  /**
   * Decodes the zstd frames of {@code in[ip..ip+inLen)} (no dictionary) into exactly {@code outLen} bytes at
   * {@code out[op..]}; returns the number of bytes written, always {@code outLen}.
   */
  public int decompress(byte[] in, int ip, int inLen, byte[] out, int op, int outLen) throws IOException {
    return decompress(in, ip, inLen, out, op, outLen, null);
  }

  /**
   * Decodes the zstd frames of {@code in[ip..ip+inLen)} with dictionary {@code dict} (may be null) into
   * exactly {@code outLen} bytes at {@code out[op..]}; returns the number of bytes written, always
   * {@code outLen}. Data that decodes to more or fewer bytes is an IOException.
   */
  public int decompress(byte[] in, int ip, int inLen, byte[] out, int op, int outLen, ZstdDictionary dict)
      throws IOException {
    Objects.checkFromIndexSize(ip, inLen, in.length);
    Objects.checkFromIndexSize(op, outLen, out.length);
    final int end = ip + inLen;
    final int oend = op + outLen;
    int p = ip;
    int o = op;
    int frame = 0;
    if (inLen == 0) {
      throw new CodecException("zstd: empty input (at least one frame expected)");
    }
    while (p < end) {
      if (end - p < 4) {
        throw new CodecException("zstd: " + (end - p) + " stray bytes after frame " + (frame - 1) + " at input byte "
            + (p - ip));
      }
      int magic = (int) INT.get(in, p);
      if ((magic & 0xFFFFFFF0) == SKIPPABLE_MAGIC) {
        if (end - p < 8) {
          throw new CodecException("zstd: skippable frame at input byte " + (p - ip) + " is truncated in its header");
        }
        long size = (int) INT.get(in, p + 4) & 0xFFFFFFFFL;
        if (size > end - p - 8) {
          throw new CodecException("zstd: skippable frame at input byte " + (p - ip) + " claims " + size
              + " bytes, only " + (end - p - 8) + " left");
        }
        p += 8 + (int) size;
      } else if (magic == MAGIC) {
        o = decodeFrame(in, p, end, ip, frame, out, o, oend, dict);
        p = inPos;
        frame++;
      } else {
        throw new CodecException(String.format("zstd: no frame magic at input byte %d (found 0x%08X)", p - ip, magic));
      }
    }
    if (o != oend) {
      throw new CodecException("zstd: data decoded to " + (o - op) + " bytes, expected " + outLen);
    }
    return o - op;
  }

  /** Decodes the frame at {@code in[p..]} (magic checked); returns the output position, sets {@link #inPos}. */
  private int decodeFrame(byte[] in, int p, int end, int ip0, int frame, byte[] out, int o, int oend,
      ZstdDictionary dict) throws IOException {
    final int frameStart = o;
    final String where = "zstd frame " + frame + " at input byte " + (p - ip0);
    p += 4;
    if (p >= end) {
      throw new CodecException(where + ": truncated before its header");
    }
    int fhd = in[p++] & 0xFF;
    int fcsFlag = fhd >>> 6;
    boolean single = (fhd & 0x20) != 0;
    boolean checksum = (fhd & 0x04) != 0;
    int didFlag = fhd & 0x03;
    if ((fhd & 0x08) != 0) {
      throw new CodecException(where + ": reserved bit of the frame header descriptor is set");
    }
    int didSize = didFlag == 3 ? 4 : didFlag;
    int fcsSize = fcsFlag == 0 ? (single ? 1 : 0) : 1 << fcsFlag;
    int hdr = (single ? 0 : 1) + didSize + fcsSize;
    if (hdr > end - p) {
      throw new CodecException(where + ": frame header of " + (hdr + 5) + " bytes is truncated");
    }
    long window = 0;
    if (!single) {
      int wd = in[p++] & 0xFF;
      long base = 1L << (10 + (wd >>> 3));
      window = base + (base >>> 3) * (wd & 7);
    }
    long dictId = 0;
    for (int i = 0; i < didSize; i++) {
      dictId |= (in[p++] & 0xFFL) << (8 * i);
    }
    long fcs = -1; // unknown
    if (fcsSize > 0) {
      fcs = 0;
      for (int i = 0; i < fcsSize; i++) {
        fcs |= (in[p++] & 0xFFL) << (8 * i);
      }
      if (fcsSize == 2) {
        fcs += 256;
      }
      if (fcs < 0 || fcs > oend - o) {
        throw new CodecException(where + ": frame content size " + Long.toUnsignedString(fcs) + " is more than the "
            + (oend - o) + " bytes left of the expected output");
      }
    }
    if (single) {
      window = fcs;
    }
    if (dictId != 0 && (dict == null || dict.id() != dictId)) {
      throw new CodecException(where + ": frame needs dictionary " + dictId + (dict == null ? ", none was given"
          : ", the given dictionary is " + (dict.id() == 0 ? "raw content (no ID)" : "dictionary " + dict.id())));
    }
    final int blockMax = (int) Math.min(window, BLOCK_MAX);
    final int olimit = fcs >= 0 ? o + (int) fcs : oend;
    startFrame(dict);
    int block = 0;
    while (true) {
      final int blockPos = p;
      try {
        if (end - p < 3) {
          throw new CodecException("block header truncated (" + (end - p) + " bytes left)");
        }
        int bh = (in[p] & 0xFF) | (in[p + 1] & 0xFF) << 8 | (in[p + 2] & 0xFF) << 16;
        p += 3;
        boolean last = (bh & 1) != 0;
        int type = (bh >>> 1) & 3;
        int size = bh >>> 3;
        switch (type) {
          case 0: // raw
            if (size > blockMax) {
              throw new CodecException("raw block of " + size + " bytes is above the block size limit " + blockMax);
            }
            if (size > end - p) {
              throw new CodecException("raw block of " + size + " bytes, only " + (end - p) + " input bytes left");
            }
            if (size > olimit - o) {
              throw new CodecException("raw block of " + size + " bytes overruns the " + (olimit - frameStart)
                  + "-byte output of the frame");
            }
            RawCopy.copy(in, p, out, o, size);
            p += size;
            o += size;
            break;
          case 1: // RLE
            if (size > blockMax) {
              throw new CodecException("RLE block of " + size + " bytes is above the block size limit " + blockMax);
            }
            if (p >= end) {
              throw new CodecException("RLE block without its byte");
            }
            if (size > olimit - o) {
              throw new CodecException("RLE block of " + size + " bytes overruns the " + (olimit - frameStart)
                  + "-byte output of the frame");
            }
            Arrays.fill(out, o, o + size, in[p]);
            p++;
            o += size;
            break;
          case 2: { // compressed
            if (size > BLOCK_MAX) {
              throw new CodecException("compressed block of " + size + " bytes is above the limit " + BLOCK_MAX);
            }
            if (size > end - p) {
              throw new CodecException("compressed block of " + size + " bytes, only " + (end - p) + " input bytes left");
            }
            int before = o;
            o = decodeCompressedBlock(in, p, p + size, out, o, olimit, frameStart, blockMax);
            if (o - before > blockMax) {
              throw new CodecException("block decoded to " + (o - before) + " bytes, above the block size limit "
                  + blockMax);
            }
            p += size;
            break;
          }
          default:
            throw new CodecException("reserved block type 3");
        }
        block++;
        if (last) {
          break;
        }
      } catch (IOException e) {
        throw new CodecException(where + ", block " + block + " at input byte " + (blockPos - ip0) + ": "
            + e.getMessage(), e);
      }
    }
    if (fcs >= 0 && o - frameStart != fcs) {
      throw new CodecException(where + ": frame decoded to " + (o - frameStart) + " bytes, its header says " + fcs);
    }
    if (checksum) {
      if (end - p < 4) {
        throw new CodecException(where + ": content checksum truncated");
      }
      int want = (int) INT.get(in, p);
      int got = (int) XxHash64.hash(out, frameStart, o - frameStart, 0);
      if (want != got) {
        throw new CodecException(String.format("%s: content checksum mismatch (frame says %08X, decoded data has %08X)",
            where, want, got));
      }
      p += 4;
    }
    inPos = p;
    return o;
  }

  private void startFrame(ZstdDictionary dict) {
    if (dict == null) {
      dictContent = NO_CONTENT;
      huffTable = null;
      llTable = null;
      mlTable = null;
      ofTable = null;
      rep1 = 1;
      rep2 = 4;
      rep3 = 8;
    } else {
      dictContent = dict.content;
      huffTable = dict.huffTable;
      huffBits = dict.huffBits;
      llTable = dict.llTable;
      llLog = dict.llLog;
      mlTable = dict.mlTable;
      mlLog = dict.mlLog;
      ofTable = dict.ofTable;
      ofLog = dict.ofLog;
      rep1 = dict.rep1;
      rep2 = dict.rep2;
      rep3 = dict.rep3;
    }
  }

  /** Literals section (RFC 8878, 3.1.1.3.1): sets litArr/litPos/litEnd; returns the position after it. */
  private int decodeLiterals(byte[] in, int p, int bend, int blockMax) throws IOException {
    if (p >= bend) {
      throw new CodecException("empty compressed block (no literals section)");
    }
    int b0 = in[p] & 0xFF;
    int type = b0 & 3;
    int sf = (b0 >>> 2) & 3;
    if (type < 2) { // raw or RLE
      int hdr;
      int size;
      if ((sf & 1) == 0) {
        hdr = 1;
        size = b0 >>> 3;
      } else if (sf == 1) {
        hdr = 2;
        if (bend - p < 2) {
          throw new CodecException("literals header truncated");
        }
        size = (b0 >>> 4) | (in[p + 1] & 0xFF) << 4;
      } else {
        hdr = 3;
        if (bend - p < 3) {
          throw new CodecException("literals header truncated");
        }
        size = (b0 >>> 4) | (in[p + 1] & 0xFF) << 4 | (in[p + 2] & 0xFF) << 12;
      }
      if (size > blockMax) {
        throw new CodecException(size + " literals, above the block size limit " + blockMax);
      }
      p += hdr;
      if (type == 0) {
        if (size > bend - p) {
          throw new CodecException(size + " raw literals, only " + (bend - p) + " bytes left in the block");
        }
        litArr = in;
        litPos = p;
        litEnd = p + size;
        return p + size;
      }
      if (p >= bend) {
        throw new CodecException("RLE literals without their byte");
      }
      Arrays.fill(lit, 0, size, in[p]);
      litArr = lit;
      litPos = 0;
      litEnd = size;
      return p + 1;
    }
    // Huffman-compressed (2) or treeless (3)
    int hdr = sf < 2 ? 3 : sf + 2;
    if (bend - p < hdr) {
      throw new CodecException("literals header truncated");
    }
    int regen;
    int comp;
    if (sf < 2) {
      int v = b0 | (in[p + 1] & 0xFF) << 8 | (in[p + 2] & 0xFF) << 16;
      regen = (v >>> 4) & 0x3FF;
      comp = (v >>> 14) & 0x3FF;
    } else if (sf == 2) {
      int v = (int) INT.get(in, p);
      regen = (v >>> 4) & 0x3FFF;
      comp = v >>> 18;
    } else {
      long v = ((int) INT.get(in, p) & 0xFFFFFFFFL) | (in[p + 4] & 0xFFL) << 32;
      regen = (int) (v >>> 4) & 0x3FFFF;
      comp = (int) (v >>> 22) & 0x3FFFF;
    }
    if (regen > blockMax) {
      throw new CodecException(regen + " literals, above the block size limit " + blockMax);
    }
    p += hdr;
    if (comp > bend - p) {
      throw new CodecException("compressed literals of " + comp + " bytes, only " + (bend - p) + " bytes left in the block");
    }
    int s = p;
    int e = p + comp;
    if (type == 2) {
      s += huffman.readTable(in, s, e, huffOwn, "literals");
      huffTable = huffOwn;
      huffBits = huffman.maxBits;
    } else if (huffTable == null) {
      throw new CodecException("treeless literals, but no earlier Huffman table in this frame or dictionary");
    }
    // decoded by huffmanLiterals once the block's sequences header is read: see decodeCompressedBlock
    litArr = null;
    hufStreams = sf == 0 ? 1 : 4;
    hufStart = s;
    hufEnd = e;
    hufSize = regen;
    return e;
  }

  /** Decodes the Huffman-coded literals left by {@link #decodeLiterals} into {@code dst[dp..dp+hufSize)}. */
  private void huffmanLiterals(byte[] in, byte[] dst, int dp) throws IOException {
    if (hufStreams == 1) {
      Huffman.decode1(in, hufStart, hufEnd, huffTable, huffBits, dst, dp, hufSize, "literals");
    } else {
      Huffman.decode4(in, hufStart, hufEnd, huffTable, huffBits, dst, dp, hufSize, "literals");
    }
  }

  /**
   * The literals length of the first sequence of the bitstream {@code in[s..bend)} (tables already selected), or
   * -1 when the stream is too short for it; {@link #sequences} reports such a stream in full.
   */
  private int firstLiteralLength(byte[] in, int s, int bend) {
    int last = in[bend - 1] & 0xFF;
    if (last == 0) {
      return -1;
    }
    // the stream is read from its top (the end mark) down; bit i of it is bit i % 8 of in[s + i / 8]
    int pos = 8 * (bend - s) - (Integer.numberOfLeadingZeros(last) - 23);
    pos -= llLog;
    if (pos < 0) {
      return -1;
    }
    final long llE = llTable[Huffman.bitsAt(in, s, bend, pos, llLog)];
    pos -= ofLog;
    if (pos < 0) {
      return -1;
    }
    final long ofE = ofTable[Huffman.bitsAt(in, s, bend, pos, ofLog)];
    pos -= mlLog;
    if (pos < 0) {
      return -1;
    }
    final long mlE = mlTable[Huffman.bitsAt(in, s, bend, pos, mlLog)];
    final int nLl = (int) (llE >>> 32) & 0xFF;
    pos -= (int) ((ofE >>> 32) & 0xFF) + (int) ((mlE >>> 32) & 0xFF) + nLl;
    if (pos < 0) {
      return -1;
    }
    return (int) llE + Huffman.bitsAt(in, s, bend, pos, nLl);
  }

  /** Chooses the table of one symbol type (0 literals lengths, 1 offsets, 2 match lengths); returns the new position. */
  private int selectTable(int kind, int mode, byte[] in, int p, int bend) throws IOException {
    final String name = TABLE_NAMES[kind];
    final int maxSym = kind == 0 ? Fse.LL_MAX_SYMBOL : kind == 1 ? Fse.OF_MAX_SYMBOL : Fse.ML_MAX_SYMBOL;
    long[] table;
    int log;
    switch (mode) {
      case 0:
        table = kind == 0 ? Fse.LL_PREDEFINED : kind == 1 ? Fse.OF_PREDEFINED : Fse.ML_PREDEFINED;
        log = kind == 0 ? Fse.LL_DEFAULT_LOG : kind == 1 ? Fse.OF_DEFAULT_LOG : Fse.ML_DEFAULT_LOG;
        break;
      case 1: {
        if (p >= bend) {
          throw new CodecException(name + ": RLE symbol missing");
        }
        int sym = in[p++] & 0xFF;
        if (sym > maxSym) {
          throw new CodecException(name + ": RLE symbol " + sym + " is above " + maxSym);
        }
        fse.setRle(sym);
        table = build(kind);
        log = 0;
        break;
      }
      case 2: {
        int maxLog = kind == 0 ? Fse.LL_MAX_LOG : kind == 1 ? Fse.OF_MAX_LOG : Fse.ML_MAX_LOG;
        p += fse.readDescription(in, p, bend, maxSym, maxLog, name);
        table = build(kind);
        log = fse.log;
        break;
      }
      default: {
        table = kind == 0 ? llTable : kind == 1 ? ofTable : mlTable;
        if (table == null) {
          throw new CodecException(name + ": repeat mode, but no earlier table in this frame or dictionary");
        }
        return p;
      }
    }
    if (kind == 0) {
      llTable = table;
      llLog = log;
    } else if (kind == 1) {
      ofTable = table;
      ofLog = log;
    } else {
      mlTable = table;
      mlLog = log;
    }
    return p;
  }

  /**
   * Fewest literals that the first sequence must take beyond the block's other literals for them to be decoded in
   * place (decodeCompressedBlock); also the smallest literal run that may be in place, so that a negative
   * {@link #litPos} only ever meets the loop's long-run branch.
   */
  static final int IN_PLACE_MIN = 1024;

  private static final String[] TABLE_NAMES = {"sequences (literals lengths table)", "sequences (offsets table)",
      "sequences (match lengths table)"};

  private long[] build(int kind) throws IOException {
    long[] own = kind == 0 ? llOwn : kind == 1 ? ofOwn : mlOwn;
    fse.buildSequenceTable(own, kind == 0 ? Fse.LL_SYM : kind == 1 ? Fse.OF_SYM : Fse.ML_SYM, TABLE_NAMES[kind]);
    return own;
  }

  /** A compressed block {@code in[p..bend)}: literals, then sequences executed into {@code out[o..olimit)}. */
  private int decodeCompressedBlock(byte[] in, int p, int bend, byte[] out, int o, int olimit, int frameStart,
      int blockMax) throws IOException {

    p = decodeLiterals(in, p, bend, blockMax);
    if (p >= bend) {
      throw new CodecException("sequences section missing");
    }
    int b0 = in[p++] & 0xFF;
    int nbSeq;
    if (b0 < 128) {
      nbSeq = b0;
    } else if (b0 < 255) {
      if (p >= bend) {
        throw new CodecException("sequences header truncated");
      }
      nbSeq = ((b0 - 128) << 8) + (in[p++] & 0xFF);
    } else {
      if (bend - p < 2) {
        throw new CodecException("sequences header truncated");
      }
      nbSeq = (in[p] & 0xFF) + ((in[p + 1] & 0xFF) << 8) + 0x7F00;
      p += 2;
    }
    if (nbSeq == 0) {
      if (p != bend) {
        throw new CodecException("no sequences, but " + (bend - p) + " bytes after the sequences header");
      }
      if (litArr == null) { // Huffman-coded literals straight into the output
        if (hufSize > olimit - o) {
          throw new CodecException(hufSize + " literals overrun the " + (olimit - o) + " bytes left of the output");
        }
        huffmanLiterals(in, out, o);
        literalsInPlace += hufSize;
        return o + hufSize;
      }
      return copyLastLiterals(out, o, olimit);
    }
    if (p >= bend) {
      throw new CodecException("symbol compression modes missing");
    }
    int modes = in[p++] & 0xFF;
    if ((modes & 3) != 0) {
      throw new CodecException("reserved bits of the symbol compression modes are set");
    }
    p = selectTable(0, modes >>> 6, in, p, bend);
    p = selectTable(1, (modes >>> 4) & 3, in, p, bend);
    p = selectTable(2, (modes >>> 2) & 3, in, p, bend);
    if (litArr == null) {
      // Huffman-coded literals. When the first sequence takes most of them (bit-shuffled data: a long run of
      // literals, then a few matches), they are decoded straight into the output, where that sequence puts them, and
      // only the others are copied out to the literal buffer: one copy of the few instead of one of the many.
      final int n = hufSize;
      int first = n >= 2 * IN_PLACE_MIN && n <= olimit - o && p < bend ? firstLiteralLength(in, p, bend) : -1;
      if (first <= n && first - (n - first) >= IN_PLACE_MIN) {
        huffmanLiterals(in, out, o);
        literalsInPlace += first;
        System.arraycopy(out, o + first, lit, 0, n - first);
        litPos = -first; // the sequence loop copies no literals while litPos is negative (only the first's)
        litEnd = n - first;
      } else {
        huffmanLiterals(in, lit, 0);
        litPos = 0;
        litEnd = n;
      }
      litArr = lit;
    }
    return sequences(in, p, bend, nbSeq, out, o, olimit, frameStart);
  }

  private int copyLastLiterals(byte[] out, int o, int olimit) throws IOException {
    int n = litEnd - litPos;
    if (n > olimit - o) {
      throw new CodecException(n + " literals overrun the " + (olimit - o) + " bytes left of the output");
    }
    RawCopy.copy(litArr, litPos, out, o, n);
    return o + n;
  }

  /**
   * Decodes and executes {@code nbSeq} sequences from the bitstream {@code in[s..bend)}; the match copies may
   * reach back to the frame start and then into the dictionary content.
   */
  private int sequences(byte[] in, final int s, final int bend, int nbSeq, byte[] out, int o, final int olimit,
      final int frameStart) throws IOException {
    if (s >= bend) {
      throw new CodecException("sequences bitstream missing");
    }
    int lastByte = in[bend - 1] & 0xFF;
    if (lastByte == 0) {
      throw new CodecException("sequences bitstream has no end mark");
    }
    // backward bit reader: c holds in[ptr..ptr+8) little-endian, k bits of it are consumed from the top
    int k = Integer.numberOfLeadingZeros(lastByte) - 23;
    int ptr;
    long c;
    if (bend - s >= 8) {
      ptr = bend - 8;
      c = (long) LONG.get(in, ptr);
    } else {
      ptr = s;
      c = 0;
      for (int i = 0; i < bend - s; i++) {
        c |= (in[s + i] & 0xFFL) << (8 * i);
      }
      k += 8 * (8 - (bend - s));
    }
    final long[] llT = llTable;
    final long[] mlT = mlTable;
    final long[] ofT = ofTable;
    int llState = (int) ((c << k) >>> 1 >>> (63 - llLog));
    k += llLog;
    int ofState = (int) ((c << k) >>> 1 >>> (63 - ofLog));
    k += ofLog;
    int mlState = (int) ((c << k) >>> 1 >>> (63 - mlLog));
    k += mlLog;
    int r1 = rep1;
    int r2 = rep2;
    int r3 = rep3;
    final byte[] la = litArr;
    int lp = litPos;
    final int le = litEnd;
    final int litWild = la.length - 16;
    final int wildEnd = olimit - WILD;
    for (int left = nbSeq; left > 0; left--) {
      // refill
      int back = k >>> 3;
      if (ptr - back >= s) {
        ptr -= back;
        k &= 7;
        c = (long) LONG.get(in, ptr);
      } else if (ptr > s) {
        k -= (ptr - s) << 3;
        ptr = s;
        c = (long) LONG.get(in, ptr);
      }
      final long ofE = ofT[ofState];
      final long mlE = mlT[mlState];
      final long llE = llT[llState];
      final int nOf = (int) (ofE >>> 32) & 0xFF;
      final int nMl = (int) (mlE >>> 32) & 0xFF;
      final int nLl = (int) (llE >>> 32) & 0xFF;
      final int sLl = (int) (llE >>> 40) & 0xFF;
      final int sMl = (int) (mlE >>> 40) & 0xFF;
      final int sOf = (int) (ofE >>> 40) & 0xFF;
      final int k1 = k + nOf;
      final int k2 = k1 + nMl;
      final int k3 = k2 + nLl;
      final int k4 = k3 + sLl;
      final int k5 = k4 + sMl;
      final int k6 = k5 + sOf;
      long ofv;
      int ml;
      int ll;
      if ((k6 <= 64) & (left > 1)) {
        // fast: the three values and the next states all lie in the 64 bits at hand (the usual case); each field
        // is read from its own position, so the reads do not wait on one another
        ofv = (ofE & 0xFFFFFFFFL) + ((c << k) >>> 1 >>> (63 - nOf));
        ml = (int) mlE + (int) ((c << k1) >>> 1 >>> (63 - nMl));
        ll = (int) llE + (int) ((c << k2) >>> 1 >>> (63 - nLl));
        llState = (int) (llE >>> 48) + (int) ((c << k3) >>> 1 >>> (63 - sLl));
        mlState = (int) (mlE >>> 48) + (int) ((c << k4) >>> 1 >>> (63 - sMl));
        ofState = (int) (ofE >>> 48) + (int) ((c << k5) >>> 1 >>> (63 - sOf));
        k = k6;
      } else {
        int nb = nOf;
        ofv = (ofE & 0xFFFFFFFFL) + ((c << k) >>> 1 >>> (63 - nb));
        k += nb;
        if (nb > 25) { // long offsets: make room for the two lengths
          back = k >>> 3;
          if (ptr - back >= s) {
            ptr -= back;
            k &= 7;
            c = (long) LONG.get(in, ptr);
          } else if (ptr > s) {
            k -= (ptr - s) << 3;
            ptr = s;
            c = (long) LONG.get(in, ptr);
          }
        }
        nb = (int) (mlE >>> 32) & 0xFF;
        ml = (int) mlE + (int) ((c << k) >>> 1 >>> (63 - nb));
        k += nb;
        nb = (int) (llE >>> 32) & 0xFF;
        ll = (int) llE + (int) ((c << k) >>> 1 >>> (63 - nb));
        k += nb;
        if (left > 1) { // next states (not after the last sequence)
          if (k > 38) {
            back = k >>> 3;
            if (ptr - back >= s) {
              ptr -= back;
              k &= 7;
              c = (long) LONG.get(in, ptr);
            } else if (ptr > s) {
              k -= (ptr - s) << 3;
              ptr = s;
              c = (long) LONG.get(in, ptr);
            }
          }
          nb = (int) (llE >>> 40) & 0xFF;
          llState = (int) (llE >>> 48) + (int) ((c << k) >>> 1 >>> (63 - nb));
          k += nb;
          nb = (int) (mlE >>> 40) & 0xFF;
          mlState = (int) (mlE >>> 48) + (int) ((c << k) >>> 1 >>> (63 - nb));
          k += nb;
          nb = (int) (ofE >>> 40) & 0xFF;
          ofState = (int) (ofE >>> 48) + (int) ((c << k) >>> 1 >>> (63 - nb));
          k += nb;
        }
      }
      int offset;
      if (ofv > 3) {
        if (ofv - 3 > Integer.MAX_VALUE) {
          throw new CodecException("sequence " + (nbSeq - left) + ": offset " + (ofv - 3) + " is too large");
        }
        offset = (int) (ofv - 3);
        r3 = r2;
        r2 = r1;
        r1 = offset;
      } else {
        int idx = (int) ofv - (ll != 0 ? 1 : 0);
        if (idx == 0) {
          offset = r1;
        } else {
          offset = idx == 1 ? r2 : idx == 2 ? r3 : r1 - 1;
          if (idx != 1) {
            r3 = r2;
          }
          r2 = r1;
          r1 = offset;
        }
      }

      // execute: literals, then the match. Fast path: everything in range and room for 8- and 16-byte copies
      final int hist = o + ll - frameStart;
      if ((ll <= le - lp) & (ml <= wildEnd - o - ll) & (offset - 1 + Integer.MIN_VALUE < hist + Integer.MIN_VALUE)
          & (lp <= litWild)) {
        if (ll <= 8) {
          LONG.set(out, o, (long) LONG.get(la, lp));
        } else if (ll <= 16) {
          LONG.set(out, o, (long) LONG.get(la, lp));
          LONG.set(out, o + 8, (long) LONG.get(la, lp + 8));
        } else if (lp >= 0) { // else the first sequence's literals, already in place
          RawCopy.copy(la, lp, out, o, ll); // memmove for long runs of raw literals (bit-shuffled data)
        }
      } else {
        o = execute(la, lp, le, ll, out, o, olimit, offset, ml, frameStart, nbSeq - left);
        lp += ll;
        continue;
      }
      lp += ll;
      o += ll;
      if (offset >= 8 & ml <= 16) { // the common short match: two 8-byte steps
        int from = o - offset;
        LONG.set(out, o, (long) LONG.get(out, from));
        LONG.set(out, o + 8, (long) LONG.get(out, from + 8));
      } else {
        copyMatch(out, o, offset, ml);
      }
      o += ml;
    }
    rep1 = r1;
    rep2 = r2;
    rep3 = r3;
    long bitsLeft = 8L * (ptr - s) + 64 - k;
    if (bitsLeft != 0) {
      throw new CodecException("sequences bitstream " + (bitsLeft > 0 ? "has " + bitsLeft + " bits left over"
          : "is " + -bitsLeft + " bits short") + " after its " + nbSeq + " sequences");
    }
    litPos = lp;
    return copyLastLiterals(out, o, olimit);
  }

  /** One sequence with every check and exact copies: near the end of the output, from the dictionary, or in error. */
  private int execute(byte[] la, int lp, int le, int ll, byte[] out, int o, int olimit, int offset, int ml,
      int frameStart, int seq) throws IOException {
    if (ll > le - lp) {
      throw new CodecException("sequence " + seq + ": literal length " + ll + " with only " + (le - lp)
          + " literals left");
    }
    if (ml > olimit - o - ll) {
      throw new CodecException("sequence " + seq + ": " + ll + " literals and a match of " + ml
          + " bytes overrun the " + (olimit - o) + " bytes left of the output");
    }
    int hist = o + ll - frameStart;
    int dictLen = dictContent.length;
    if (offset < 1 || offset > hist && offset - hist > dictLen) {
      throw new CodecException("sequence " + seq + ": offset " + offset + " points before the start of the data ("
          + hist + " bytes decoded" + (dictLen > 0 ? ", " + dictLen + " of dictionary" : "") + ")");
    }
    if (lp >= 0) { // else the first sequence's literals, already in place
      System.arraycopy(la, lp, out, o, ll);
    }
    o += ll;
    if (offset > hist) {
      return copyFromDictionary(out, o, offset, ml, frameStart);
    }
    int from = o - offset;
    if (offset >= ml) {
      System.arraycopy(out, from, out, o, ml);
    } else {
      periodicCopy(out, o, offset, ml);
    }
    return o + ml;
  }

  /**
   * A match of {@code ml} bytes at {@code offset} (within the output) written at {@code o}, with room for up to
   * 16 more bytes after it: long or overlapping matches.
   */
  private static void copyMatch(byte[] out, int o, int offset, int ml) {
    int from = o - offset;
    if (offset >= 8) {
      if (ml <= 64) {
        Lz4.wideMatch(out, o, offset, ml);
      } else if (offset >= ml) {
        System.arraycopy(out, from, out, o, ml);
      } else {
        periodicCopy(out, o, offset, ml);
      }
    } else if (offset == 1) {
      // a run of one byte: 16 bytes of it a round
      long v = (out[from] & 0xFFL) * 0x0101010101010101L;
      int i = 0;
      do {
        LONG.set(out, o + i, v);
        LONG.set(out, o + i + 8, v);
        i += 16;
      } while (i < ml);
    } else {
      // offset 1..7: the first 8 bytes from a repeated pattern, then 8-byte steps from a multiple of the offset
      long v = (long) LONG.get(out, from);
      int bits = offset << 3;
      long pat = v & ((1L << bits) - 1);
      for (int sh = bits; sh < 64; sh <<= 1) {
        pat |= pat << sh;
      }
      LONG.set(out, o, pat);
      if (ml > 8) {
        int step = STEP[offset];
        LONG.set(out, o + 8, (long) LONG.get(out, o + 8 - step));
        if (ml > 64) {
          periodicCopy(out, o + step, step, ml - step);
        } else if (ml > 16) {
          copy8(out, o + 16 - step, o + 16, ml - 16);
        }
      }
    }
  }

  /** For offsets 1..7: the smallest multiple of the offset that is at least 8. */
  private static final int[] STEP = {0, 8, 8, 9, 8, 10, 12, 14};

  /** Copies {@code n} bytes from {@code from} to {@code to} (to - from at least 8) in 8-byte steps; may write 7 more. */
  private static void copy8(byte[] a, int from, int to, int n) {
    final int end = to + n;
    do {
      LONG.set(a, to, (long) LONG.get(a, from));
      to += 8;
      from += 8;
    } while (to < end);
  }

  /**
   * Writes {@code a[d..d+len)} as the continuation of the period-{@code period} data ending at {@code d}
   * (an overlapping match), doubling non-overlapping copies.
   */
  private static void periodicCopy(byte[] a, int d, int period, int len) {
    final int s = d - period;
    final int end = d + len;
    int chunk = period;
    while (d < end) {
      int n = Math.min(chunk, end - d);
      System.arraycopy(a, s, a, d, n);
      d += n;
      chunk += chunk;
    }
  }

  /** The match of a sequence that starts in the dictionary content (offset already checked). Exact copies. */
  private int copyFromDictionary(byte[] out, int o, int offset, int ml, int frameStart) {
    int back = offset - (o - frameStart); // bytes before the frame start
    byte[] dc = dictContent;
    int n = Math.min(back, ml);
    System.arraycopy(dc, dc.length - back, out, o, n);
    o += n;
    ml -= n;
    if (ml > 0) { // continues from the frame start
      if (offset >= ml) {
        System.arraycopy(out, frameStart, out, o, ml);
      } else {
        periodicCopy(out, o, offset, ml);
      }
      o += ml;
    }
    return o;
  }
}
